"""The app factory: configuration, the store, the blueprints, the error pages and
the headers every answer carries."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from flask import Flask, Request, Response, current_app, render_template, request
from flask_compress import Compress
from flask_wtf.csrf import CSRFError
from jinja2 import ChoiceLoader, FileSystemLoader
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix

from . import formats, pdf, speech
from .assets import serve_static
from .db import StoreBusy, init_app, store_damaged, store_fault
from .extensions import babel, csrf
from .groups import MAX_GROUP_FILE_BYTES
from .instance import (
    MIN_SECRET_KEY,
    InstanceUnwritable,
    SecretKeyTooShort,
    instance_folder,
    secret_key,
    shared_folder,
    switched_on,
)
from .registry import missing, static_folders, template_loader
from .views import (
    groupfile,
    groups,
    hands,
    history,
    language,
    large_print,
    ledger,
    live,
    matches,
    night,
    pages,
    ratings,
    rules,
    sheets,
)
from .views.buttons import radio_choices
from .views.commands import new_key
from .views.messages import keep_flashes_small
from .views.routing import CONVERTERS

# The forms that take a group file: their request may carry a whole group file
# (and the form around it); every other form keeps MAX_CONTENT_LENGTH.
GROUP_FILE_FORMS = frozenset({"matches.import_file", "groupfile.import_copy"})
GROUP_FILE_REQUEST = MAX_GROUP_FILE_BYTES + 64 * 1024


class TableRequest(Request):
    """A request to this app: the import of a group file may be larger than
    any other form (Flask's per-request limit, set before the form is read, the
    CSRF check included)."""

    @property
    def max_content_length(self) -> int | None:
        if self._max_content_length is None and self.endpoint in GROUP_FILE_FORMS:
            return current_app.config["MAX_GROUP_FILE_REQUEST"]
        return super().max_content_length

    @max_content_length.setter
    def max_content_length(self, value: int | None) -> None:
        self._max_content_length = value


def create_app(
    test_config: dict[str, Any] | None = None, *, instance: str | os.PathLike[str] | None = None
) -> Flask:
    """The app factory: configuration, database, blueprints. `instance` is the
    folder of the database and secret key (see `instance_folder`)."""
    app = Flask(
        __name__,
        instance_path=str(instance_folder(instance)),
        instance_relative_config=True,
        template_folder=shared_folder("templates"),
        static_folder=shared_folder("static"),
    )
    app.request_class = TableRequest
    instance = Path(app.instance_path)
    try:
        # A folder the app makes is its owner's only (the database, the key).
        instance.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError as exc:
        raise InstanceUnwritable(instance, exc) from None
    app.config.from_mapping(
        DATABASE=str(instance / "scorekeeper.db"),
        # The rules pages' decisions are drawn from docs/variants/<id>.md.
        DOCS_FOLDER=shared_folder("docs"),
        MAX_CONTENT_LENGTH=2 * 1024 * 1024,  # a match file is a few kB
        MAX_GROUP_FILE_REQUEST=GROUP_FILE_REQUEST,  # the group file's import (TableRequest)
        WTF_CSRF_TIME_LIMIT=None,  # a match lasts an evening; don't expire forms mid-game
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # Behind a reverse proxy with TLS: browsers send the cookies over https only
        # (the `matches` cookie follows this setting too).
        SESSION_COOKIE_SECURE=switched_on("SCOREKEEPER_SECURE_COOKIES"),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
        given = os.environ.get("SCOREKEEPER_SECRET_KEY", "").strip()
        if given and len(given) < MIN_SECRET_KEY:
            raise SecretKeyTooShort("SCOREKEEPER_SECRET_KEY", len(given))
        try:
            secret = given or secret_key(instance)
        except OSError as exc:
            raise InstanceUnwritable(instance, exc) from None
        app.config["SECRET_KEY"] = secret
    else:
        app.config.from_mapping(test_config)
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = "test"

    # The rules' problems and explanations are said in the phone's language
    # (scorekeeper/speech.py): first of all hooks, so an error page says them too.
    app.before_request(language.listen_to_the_reader)
    app.teardown_request(language.stop_listening)
    csrf.init_app(app)
    # Each phone reads in its own language (views/language.py); the catalogs are
    # scorekeeper/translations/<code>/LC_MESSAGES/messages.mo (docs/languages.md).
    babel.init_app(app, locale_selector=language.select_locale)
    language.words_for_templates(app)
    # Pages, stylesheets and scripts go compressed to the phone, by Flask-Compress
    # (gzip or deflate on plain http; brotli or zstd where the browser offers
    # them). Registered first, so it runs after every other after_request hook:
    # a static file keeps its year-long cache and answers 304 to its compressed
    # ETag. PDFs, zips, CSV and JSON stay as they are (the live poll's answer is
    # a few bytes, and its ETag is the revision it checks itself).
    app.config.setdefault("COMPRESS_MIMETYPES", COMPRESSED)
    Compress(app)

    incomplete = missing(docs=Path(app.config["DOCS_FOLDER"]), documentation=False)
    if incomplete:  # a forgotten piece stops the app here, not as a 500 at the table
        raise RuntimeError("games incomplete: " + "; ".join(incomplete))
    # The shared pages, and each game's from its own folder (games/<family>/…).
    app.jinja_loader = ChoiceLoader(  # type: ignore[method-assign]
        [FileSystemLoader(app.template_folder or ""), template_loader()]
    )
    app.url_map.converters.update(CONVERTERS)
    try:
        init_app(app)
    except (OSError, sqlite3.DatabaseError, StoreBusy) as exc:
        if isinstance(exc, sqlite3.DatabaseError) and not store_fault(exc):
            raise
        raise InstanceUnwritable(Path(app.config["DATABASE"]).parent, exc) from None
    for blueprint in (
        matches.bp,
        hands.bp,
        history.bp,
        live.bp,
        sheets.bp,
        rules.bp,
        groups.bp,
        ledger.bp,
    ):
        app.register_blueprint(blueprint)
    app.register_blueprint(groupfile.bp)  # a group as a file: download, import a copy
    app.register_blueprint(ratings.bp)  # ratings and head to head (views/ratings.py)
    app.register_blueprint(night.bp)  # a group's night: report, PDF (views/night.py)
    app.register_blueprint(language.bp)  # the switch at the foot of every page
    app.register_blueprint(large_print.bp)  # the text size switch at the foot of every page
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True
    app.jinja_env.globals["new_key"] = new_key
    app.jinja_env.globals["radio_choices"] = radio_choices  # a radio field's buttons
    app.jinja_env.filters["said"] = speech.said  # the rules' sentences for a script
    _number_words(app)
    app.context_processor(language.page_language)  # <html lang dir>, the switch
    app.jinja_env.globals["script_words"] = language.script_words  # kept per language
    app.jinja_env.globals["svg_data_uri"] = pdf.svg_data_uri  # a chart drawn on paper
    app.jinja_env.globals["log_line"] = pages.log_line  # a hand's log line, kept
    app.jinja_env.globals["log_item"] = pages.log_item  # and with its buttons
    app.jinja_env.globals["kept_macro"] = pages.kept_macro  # a piece of a page, kept
    app.register_error_handler(StoreBusy, _store_busy)
    # DatabaseError: an OperationalError (locked, read-only, full) and a damaged file.
    app.register_error_handler(sqlite3.DatabaseError, _store_busy)
    app.register_error_handler(CSRFError, _session_lost)
    app.register_error_handler(404, _not_found)
    app.register_error_handler(500, _server_error)
    app.after_request(_security_headers)
    serve_static(app, static_folders(app.static_folder or ""))
    app.after_request(keep_flashes_small)
    app.after_request(language.vary_by_language)
    if app.config.get("BEHIND_PROXY", switched_on("SCOREKEEPER_BEHIND_PROXY")):
        # One reverse proxy in front (docs/running.md): believe its X-Forwarded-
        # Proto/Host/For, so the share codes say https and the public name. Never
        # set it without a proxy: anyone could then claim any host.
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=1, x_proto=1, x_host=1)
    return app


def _number_words(app: Flask) -> None:
    """Numbers, scores, money and days in the templates, in the page's language
    (scorekeeper/formats.py; English as it always was)."""

    def locale() -> str:
        return language.reading().formats

    def by_count(sentence) -> dict[str, str]:
        """A counted sentence a page hands its script: `sentence(n)` (a macro that
        calls ngettext) for each plural category of the page's language; the
        script picks the one for its count (static/app.js Scorekeeper.counted)."""
        return {kind: str(sentence(n)) for kind, n in formats.plural_examples(locale())}

    app.jinja_env.globals.update(
        by_count=by_count,
        signed=lambda points: formats.signed(points, locale()),  # +5, −4, 0
        minus=lambda n: formats.minus(n, locale()),  # pegs as on the board: 3, −2
        # money as read: +8.00, −8.00, 0.00 (+8,00 in French)
        money=lambda amount: formats.cents(amount, locale()),
    )
    app.jinja_env.filters.update(
        number=lambda n: formats.number(n, locale()),  # 1,234 · 1 234
        currency=lambda amount, code="": formats.money(amount, code, locale()),
        day=lambda when: formats.day(when, locale()),  # 27 Nov 2026 · 27 nov. 2026
        long_day=lambda when: formats.long_day(when, locale()),
        short_day=lambda when: formats.short_day(when, locale()),
        month=lambda when: formats.month(when, locale()),  # November 2026
        weekday=lambda when: formats.weekday(when, locale()),
        clock=lambda when: formats.clock(when, locale()),
    )


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


def _session_lost(exc: CSRFError):
    """A form whose CSRF check failed: most often a phone whose session cookie was
    cleared, or a new secret key since the form was drawn. Nothing was saved; a
    form with typed entries (a hand, a new match, title and stake) is drawn again
    with them and a fresh token, any other answers the app's page with a way back."""
    redraw = {
        "hands.new": hands.session_lost,
        "hands.edit": hands.session_lost,
        "matches.new": matches.new_after_lost_session,
        "matches.settings": matches.settings_after_lost_session,
    }.get(request.endpoint or "")
    if redraw is not None:
        try:
            return redraw(**(request.view_args or {}))
        except HTTPException as refused:  # no such match or hand: its own page
            if refused.code == 404:
                return _not_found(refused)
            raise
    args = request.view_args or {}
    back = request.referrer if _same_site(request.referrer) else None
    return render_template(
        "session_lost.html", reason=exc.description, back=back, match_id=args.get("match_id")
    ), 400


def _same_site(address: str | None) -> bool:
    """Whether `address` is a page of this app (the form the phone came from)."""
    if not address:
        return False
    split = urlsplit(address)
    return split.netloc == request.host and split.scheme in ("http", "https")


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
    if isinstance(exc, sqlite3.DatabaseError) and not store_fault(exc):
        raise exc  # a wrong query is a bug: a 500 with its traceback in the log
    if store_damaged(exc):
        current_app.logger.error(
            "score store damaged: %s %s: %s (restore the last backup, docs/running.md)",
            request.method,
            request.path,
            exc,
        )
    else:
        current_app.logger.warning("score store: %s %s: %s", request.method, request.path, exc)
    return render_template("busy.html"), 503, {"Retry-After": "2"}
