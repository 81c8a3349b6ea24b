"""Where Scorekeeper keeps things: the instance folder (the database and the
secret key), the secret key itself, and the shared folders (templates/,
static/, docs/), in a checkout and in an installed wheel. Light on purpose: the
command line and the app factory import it."""

from __future__ import annotations

import contextlib
import os
import secrets
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def installed() -> bool:
    """True when running from an installed wheel, which carries templates/ inside
    the package (pyproject.toml maps it in); False in a checkout or an editable
    install of one, where templates/ sits beside the package."""
    return (PACKAGE / "templates").is_dir()


def shared_folder(name: str) -> str:
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


def switched_on(name: str) -> bool:
    return os.environ.get(name, "").strip().lower() in ("1", "true", "yes", "on")


MIN_SECRET_KEY = 32  # characters; the key made on the first start has 64


def _write_private(path: Path, text: str) -> None:
    """Write `path` whole or not at all, readable by its owner only: a temporary
    file of mode 0600 beside it, synced, renamed over it."""
    fd, partial = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(partial, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def secret_key(instance: Path) -> str:
    """Read the instance's secret key, generating it on first run (never committed).

    An empty file is what a first start cut short leaves (a full disk, a kill):
    no cookie was ever signed with it, so a new key is made, with a warning. A
    key shorter than MIN_SECRET_KEY was put there by hand: refused
    (SecretKeyTooShort), since anyone could guess it and sign cookies."""
    path = instance / "secret_key"
    if path.exists():
        key = path.read_text(encoding="utf-8", errors="replace").strip()
        if key:
            _owner_only(path)
            if len(key) < MIN_SECRET_KEY:
                raise SecretKeyTooShort(f"the secret key file {path}", len(key))
            return key
        print(
            f"Scorekeeper: the secret key file {path} was empty (a first start cut short);"
            " made a new key.",
            file=sys.stderr,
        )
    key = secrets.token_hex(32)
    _write_private(path, key)
    return key


def _owner_only(path: Path, mode: int = 0o600) -> None:
    """Take group and others' access from a file the app made (an older version
    made some readable by every local user); a file of another user stays as is."""
    with contextlib.suppress(OSError):
        if path.stat().st_mode & 0o077:
            path.chmod(mode)


class InstanceUnwritable(RuntimeError):
    """The instance folder (database, secret key) cannot be created or written."""

    def __init__(self, folder: Path, reason: BaseException):
        why = getattr(reason, "strerror", None) or str(reason)
        super().__init__(
            f"Scorekeeper cannot write its instance folder {folder} ({why}):"
            " make it writable by this user, free disk space,"
            " or choose another folder with --instance DIR or SCOREKEEPER_INSTANCE=DIR."
        )


class SecretKeyTooShort(InstanceUnwritable):
    """The secret key given is too short to keep the cookies from being forged.
    (An InstanceUnwritable: every command that opens the instance folder stops
    on it with its one line.)"""

    def __init__(self, where: str, length: int):
        RuntimeError.__init__(
            self,
            f"Scorekeeper will not start: {where} holds a key of {length} characters;"
            f" a secret key needs at least {MIN_SECRET_KEY}."
            " Delete the file (a new key is made at the next start) or give a longer key.",
        )
