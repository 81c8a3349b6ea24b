"""Scorekeeper: keeps score at a real card table."""

from __future__ import annotations

import os
import secrets
import sqlite3
from pathlib import Path
from typing import Any

from flask import Flask, Response, current_app, render_template, request
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect
from werkzeug.middleware.proxy_fix import ProxyFix

from . import db
from .assets import fingerprint_static
from .registry import missing
from .words import minus, signed

csrf = CSRFProtect()


PACKAGE = Path(__file__).resolve().parent


def installed() -> bool:
    """True when running from an installed wheel, which carries templates/ inside
    the package (pyproject.toml maps it in); False in a checkout or an editable
    install of one, where templates/ sits beside the package."""
    return (PACKAGE / "templates").is_dir()


def _shared_folder(name: str) -> str:
    """templates/, static/ or docs/: inside the package when installed, beside it in a
    checkout."""
    return str(PACKAGE / name if installed() else PACKAGE.parent / name)


def user_data_folder() -> Path:
    """$XDG_DATA_HOME/scorekeeper, else ~/.local/share/scorekeeper."""
    base = os.environ.get("XDG_DATA_HOME", "")
    # The XDG spec says a relative path there is invalid and must be ignored.
    root = Path(base) if os.path.isabs(base) else Path.home() / ".local" / "share"
    return root / "scorekeeper"


def instance_folder(chosen: str | os.PathLike[str] | None = None) -> Path:
    """Where the database and the secret key live: `chosen` (--instance DIR), else
    $SCOREKEEPER_INSTANCE, else instance/ in a checkout and the user's data folder
    when installed."""
    chosen = chosen or os.environ.get("SCOREKEEPER_INSTANCE")
    if chosen:
        return Path(os.path.abspath(os.path.expanduser(chosen)))
    return user_data_folder() if installed() else PACKAGE.parent / "instance"


def _switched_on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


def _secret_key(instance: Path) -> str:
    """Read the instance's secret key, generating it on first run (never committed)."""
    path = instance / "secret_key"
    if not path.exists():
        path.write_text(secrets.token_hex(32))
        path.chmod(0o600)
    return path.read_text().strip()


class InstanceUnwritable(RuntimeError):
    """The instance folder (database, secret key) cannot be created or written."""

    def __init__(self, folder: Path, reason: BaseException):
        why = getattr(reason, "strerror", None) or str(reason)
        super().__init__(
            f"Scorekeeper cannot write its instance folder {folder} ({why}):"
            " make it writable by this user, free disk space,"
            " or choose another folder with --instance DIR or SCOREKEEPER_INSTANCE=DIR."
        )


def create_app(
    test_config: dict[str, Any] | None = None, *, instance: str | os.PathLike[str] | None = None
) -> Flask:
    """The app factory: configuration, database, blueprints. `instance` is the
    folder of the database and secret key (see `instance_folder`)."""
    app = Flask(
        __name__,
        instance_path=str(instance_folder(instance)),
        instance_relative_config=True,
        template_folder=_shared_folder("templates"),
        static_folder=_shared_folder("static"),
    )
    instance = Path(app.instance_path)
    try:
        instance.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise InstanceUnwritable(instance, exc) from None
    app.config.from_mapping(
        DATABASE=str(instance / "scorekeeper.db"),
        # The rules pages' decisions are drawn from docs/variants/<id>.md.
        DOCS_FOLDER=_shared_folder("docs"),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a match file is a few kB
        WTF_CSRF_TIME_LIMIT=None,  # a match lasts an evening; don't expire forms mid-game
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Behind a reverse proxy with TLS: browsers send the cookies over https only
        # (the `matches` cookie follows this setting too).
        SESSION_COOKIE_SECURE=_switched_on("SCOREKEEPER_SECURE_COOKIES"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        try:
            secret = os.environ.get("SCOREKEEPER_SECRET_KEY") or _secret_key(instance)
        except OSError as exc:
            raise InstanceUnwritable(instance, exc) from None
        app.config["SECRET_KEY"] = secret
    else:
        app.config.from_mapping(test_config)
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = "test"

    csrf.init_app(app)
    # Pages, stylesheets and scripts go compressed to the phone, by Flask-Compress
    # (gzip or deflate on plain http; brotli or zstd where the browser offers
    # them). Registered first, so it runs after every other after_request hook:
    # a static file keeps its year-long cache and answers 304 to its compressed
    # ETag. PDFs, zips, CSV and JSON stay as they are (the live poll's answer is
    # a few bytes, and its ETag is the revision it checks itself).
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    Compress(app)

    from .views import (
        CONVERTERS,
        hands,
        history,
        keep_flashes_small,
        live,
        matches,
        new_key,
        rules,
        sheets,
    )

    incomplete = missing(
        templates=Path(app.template_folder),
        static=Path(app.static_folder or ""),
        docs=Path(app.config["DOCS_FOLDER"]),
        documentation=False,
    )
    if incomplete:  # a forgotten piece stops the app here, not as a 500 at the table
        raise RuntimeError("games incomplete: " + "; ".join(incomplete))
    app.url_map.converters.update(CONVERTERS)
    try:
        db.init_app(app)
    except (OSError, sqlite3.OperationalError, db.StoreBusy) as exc:
        if isinstance(exc, sqlite3.OperationalError) and not db.store_fault(exc):
            raise
        raise InstanceUnwritable(Path(app.config["DATABASE"]).parent, exc) from None
    for blueprint in (matches.bp, hands.bp, history.bp, live.bp, sheets.bp, rules.bp):
        app.register_blueprint(blueprint)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["new_key"] = new_key
    app.jinja_env.globals["signed"] = signed  # scores as on paper: +5, −4, 0
    app.jinja_env.globals["minus"] = minus  # pegs as on the board: 3, −2
    app.register_error_handler(db.StoreBusy, _store_busy)
    app.register_error_handler(sqlite3.OperationalError, _store_busy)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(500, _server_error)
    app.after_request(_security_headers)
    fingerprint_static(app)
    app.after_request(keep_flashes_small)
    if app.config.get("BEHIND_PROXY", _switched_on("SCOREKEEPER_BEHIND_PROXY")):
        # One reverse proxy in front (docs/running.md): believe its X-Forwarded-
        # Proto/Host/For, so the share codes say https and the public name. Never
        # set it without a proxy: anyone could then claim any host.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    return app


COMPRESSED = [
    "text/html",
    "text/plain",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/manifest+json",
    "image/svg+xml",
]


# Everything a page uses is served by the app itself: no inline script, no
# inline style attribute, no frame may show our pages, no other site gets a
# referrer. `data:` images are the QR codes' and the browser's own form icons.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
SECURITY_HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}


def _security_headers(response):
    """The same headers on every answer: pages, JSON, CSV, PDF, static files, errors."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def _not_found(exc: Exception):
    """An unknown address or match: the app's own page with a way home."""
    return render_template("error.html", code=404), 404


def _server_error(exc: Exception):
    """An unexpected error: a page with a way home that says nothing of the cause
    (Flask has logged the traceback before calling this)."""
    try:
        return render_template("error.html", code=500), 500
    except Exception:  # the page itself cannot be drawn: plain words, still no traceback
        text = "Something went wrong. Open / to get back to your matches."
        return Response(text, 500, mimetype="text/plain")


def _store_busy(exc: Exception):
    """Another write held the store past the timeout, or it cannot be written
    (read-only, disk full) or opened: say so plainly (nothing was changed)
    instead of an error page."""
    if isinstance(exc, sqlite3.OperationalError) and not db.store_fault(exc):
        raise exc  # a wrong query is a bug: a 500 with its traceback in the log
    current_app.logger.warning("score store: %s %s: %s", request.method, request.path, exc)
    return render_template("busy.html"), 503, {"Retry-After": "2"}
