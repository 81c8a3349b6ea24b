"""Moving every match at once: match files for a folder (`scorekeeper export`)
or a zip (the home page's "Download all matches"), and loading match files
back (`scorekeeper import`). The copy of the whole database is `db.backup`.

A match leaves as the same match file as its page's export, `/m/<id>/match.json`.
Deleted matches leave too, in a `deleted/` folder: nothing is lost by a move,
and importing only the top folder brings back only the matches in play.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
import unicodedata
import zipfile
from collections.abc import Iterable, Iterator
from pathlib import Path

from sqlite_utils import Database

from .changelog import played_on
from .db import StoredMatch, create_match, list_matches
from .games.common import Problem
from .matchfile import LIMITS_TEXT, MAX_ENTRIES, MAX_FILE_BYTES, dumps, loads
from .model import Match
from .variants import MatchError

DELETED_FOLDER = "deleted"
MAX_SLUG = 40  # characters of the title in a file name


def slug(text: str) -> str:
    """A title as part of a file name: "Friday at Aïcha's" -> "friday-at-aicha-s"."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", plain.lower())[:MAX_SLUG].strip("-")


def match_filename(stored: StoredMatch) -> str:
    """`<day played>-<title>-<id>.json`: sorted by the day played (its settings',
    or its start's by the evening rule), readable, unique by the id."""
    if stored.played is not None:
        day = stored.played.isoformat()
    else:  # a stamp m007 could not read: the day as far as it reads
        try:
            day = played_on(stored.created).isoformat()
        except ValueError:
            day = stored.created[:10]
    return f"{day}-{slug(stored.title) or stored.variant}-{stored.id}.json"


def match_files(matches: Iterable[StoredMatch]) -> Iterator[tuple[str, str]]:
    """(path, match file) of each match; a deleted match's path is under deleted/."""
    for stored in matches:
        name = match_filename(stored)
        yield (f"{DELETED_FOLDER}/{name}" if stored.deleted else name), dumps(stored.match)


class LinkInTheWay(OSError):
    """A folder export would write into is a symbolic link: following it would
    write wherever the link points."""


def _own_folder(folder: Path) -> None:
    """Make `folder` (owner only) unless it is there; refuse a symbolic link."""
    if folder.is_symlink():
        raise LinkInTheWay(f"{folder} is a symbolic link; remove it or export into another folder")
    folder.mkdir(mode=0o700, exist_ok=True)


def write_file(target: Path, text: str) -> None:
    """Write `target` whole, readable by its owner only, never through a link: a
    new temporary file beside it (O_EXCL and O_NOFOLLOW, mode 0600) renamed over
    it, so a symbolic link of that name is replaced, its target untouched."""
    fd, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
        os.replace(partial, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(partial)
        raise


def export_matches(db: Database, folder: Path) -> tuple[int, int]:
    """Write every stored match into `folder` as a match file; return how many
    matches in play and how many deleted ones (in `folder`/deleted) were written.
    A file of the same name is replaced, a symbolic link too (never followed)."""
    counts = [0, 0]
    for path, text in match_files(list_matches(db)):
        target = folder / path
        if target.parent != folder:
            _own_folder(target.parent)
        write_file(target, text)
        counts[path.startswith(f"{DELETED_FOLDER}/")] += 1
    return counts[0], counts[1]


def zip_matches(matches: Iterable[StoredMatch]) -> bytes:
    """The match files of `matches` in one zip, named as `export_matches` names them."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for path, text in match_files(matches):
            archive.writestr(path, text)
    return buffer.getvalue()


def read_match_file(raw: bytes) -> Match:
    """A match file as the /import page takes it: at most 1 MB of UTF-8 and
    MAX_ENTRIES entries, every hand valid. Raises MatchError."""
    if len(raw) > MAX_FILE_BYTES:
        raise MatchError([Problem(f"larger than 1 MB; {LIMITS_TEXT}", "file")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MatchError([Problem("not a UTF-8 text file", "file")]) from None
    return loads(text, max_entries=MAX_ENTRIES)


IMPORT_DEVICE = "the command line"  # who the history says started an imported match


def import_match_file(db: Database, raw: bytes) -> tuple[str, Match]:
    """Store one match file as a new match, all or nothing; its id and the match."""
    match = read_match_file(raw)
    return create_match(db, match, device=IMPORT_DEVICE).match_id, match
