"""Backups by themselves, and putting one back (docs/running.md, "Backups").

While `scorekeeper serve` runs, a thread of its own copies the store into the
instance folder's `backups/` after the players changed something, at most once
an interval (an hour unless told otherwise), with `db.backup`: SQLite's online
backup into a temporary file, checked, synced and renamed into place, so a kill
at any moment leaves only whole backups (and a `.part` file, removed at the
next round). The 48 newest are kept, and the newest of each of the last 30
days.

`scorekeeper restore FILE` checks FILE (a SQLite database, whole, a store of
this or an older version, every match and group readable), keeps the store it
replaces as a backup of its own, and puts the checked copy in its place. It is
refused while a server runs on the instance folder: each `serve` holds a shared
lock on `serving.lock` there for as long as it runs.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from pathlib import Path

from flask import Config

from .db import (
    NotAStore,
    StoreBusy,
    StoreFileTarget,
    backup,
    close_idle,
    connect,
    data_mark,
    examine,
    fsync,
    leave_one_file,
    list_matches,
    single_file,
    store_file,
)
from .groups.state import load_group
from .instance import instance_folder
from .store.groups import group_ids

try:
    import fcntl
except ImportError:  # not on Unix: no locks, and restore cannot tell a server runs
    fcntl = None  # type: ignore[assignment]

BACKUP_FOLDER = "backups"
SERVING_LOCK = "serving.lock"
BACKING_UP_LOCK = ".lock"  # beside the backups folder: one process backs up at a time
INTERVAL_VARIABLE = "SCOREKEEPER_BACKUP_INTERVAL"
DEFAULT_INTERVAL = 3600  # seconds
LOOK_EVERY = 60  # seconds between looks for a change once a backup is due
KEEP_NEWEST = 48
KEEP_DAYS = 30  # today and the 29 days before

_STAMP = "%Y%m%dT%H%M%SZ"
_NAME = re.compile(r"scorekeeper-(\d{8}T\d{6}Z)\.db")


def backup_name(moment: datetime) -> str:
    """The file name of an automatic backup made at `moment`: its time in UTC,
    so the names sort as the backups were made, whatever the clocks' changes."""
    return f"scorekeeper-{moment.astimezone(UTC).strftime(_STAMP)}.db"


def backup_moment(name: str) -> datetime | None:
    """When the automatic backup of that file name was made; None for any other name."""
    found = _NAME.fullmatch(name)
    if not found:
        return None
    return datetime.strptime(found.group(1), _STAMP).replace(tzinfo=UTC)


def automatic_backups(folder: Path) -> list[tuple[datetime, Path]]:
    """The automatic backups in `folder`, newest first."""
    if not folder.is_dir():
        return []
    found = [(backup_moment(path.name), path) for path in folder.iterdir()]
    return sorted(((m, p) for m, p in found if m is not None), reverse=True)


def to_keep(
    moments: Iterable[datetime], now: datetime, zone: tzinfo | None = None
) -> set[datetime]:
    """The backups to keep: the KEEP_NEWEST newest, and the newest of each day
    of the last KEEP_DAYS days (today and the days before it, by the clock of
    `zone`, the machine's own when None)."""
    newest_first = sorted(moments, reverse=True)
    keep = set(newest_first[:KEEP_NEWEST])
    today = now.astimezone(zone).date()
    days: dict[object, datetime] = {}
    for moment in newest_first:
        day = moment.astimezone(zone).date()
        if timedelta(0) <= today - day < timedelta(days=KEEP_DAYS):
            days.setdefault(day, moment)
    return keep | set(days.values())


def prune(folder: Path, now: datetime, zone: tzinfo | None = None) -> list[Path]:
    """Delete the automatic backups not kept (see `to_keep`); the ones deleted.
    Files of other names (the copies kept by a restore, your own) stay."""
    found = automatic_backups(folder)
    keep = to_keep([moment for moment, _ in found], now, zone)
    gone = [path for moment, path in found if moment not in keep]
    for path in gone:
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
    return gone


def _remove_partials(folder: Path) -> None:
    """Delete what a backup killed on its way left behind: its `.part` file
    and the journal beside it. Called only under the backing-up lock, so no
    other backup is writing one."""
    for path in folder.glob(".*.part*"):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()


@contextlib.contextmanager
def _locked(path: Path, *, shared: bool = False, wait: bool = True) -> Iterator[bool]:
    """Hold a lock on the file `path` (made, owner only, if missing); yields
    whether it was got (False only when `wait` is False and another holds it)."""
    if fcntl is None:
        yield True
        return
    handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        how = (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | (0 if wait else fcntl.LOCK_NB)
        try:
            fcntl.flock(handle, how)
        except BlockingIOError:
            yield False
            return
        yield True
    finally:
        os.close(handle)  # closing lets the lock go


@contextlib.contextmanager
def serving(instance: Path) -> Iterator[None]:
    """Mark the instance folder as served for as long as this lasts (what
    `restore` looks for): a shared lock on its `serving.lock`. A folder where
    the mark cannot be made is served all the same (a read-only store)."""
    try:
        handle = os.open(Path(instance) / SERVING_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError:
        yield
        return
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_SH)  # waits while a restore runs
        yield
    finally:
        os.close(handle)


def _backing_up(folder: Path) -> Path:
    """The lock held while backing up into `folder`: beside it, so the folder
    holds backups only (and a `.part` file while one is written)."""
    return folder.with_name(folder.name + BACKING_UP_LOCK)


def _own_folder(folder: Path) -> None:
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)


class Keeper(threading.Thread):
    """The thread of `serve` that backs up the store at `database` into `folder`
    after changes, at most once every `interval` seconds."""

    def __init__(self, database: str, folder: Path, interval: int):
        super().__init__(name="scorekeeper-backups", daemon=True)
        self.database = database
        self.folder = Path(folder)
        self.interval = interval
        self._stopping = threading.Event()
        self._mark: tuple[int, ...] | None = None
        self._newest: datetime | None = None
        found = automatic_backups(self.folder)
        if found:
            self._newest, path = found[0]
            with contextlib.suppress(sqlite3.Error):  # unreadable: backed up again
                self._mark = data_mark(path)

    def round(self) -> Path | None:
        """Back up the store now if it changed since the newest backup; the new
        backup, or None (nothing changed, or another process is backing up)."""
        _own_folder(self.folder)
        with _locked(_backing_up(self.folder), wait=False) as mine:
            if not mine:
                return None
            _remove_partials(self.folder)
            if data_mark(self.database) == self._mark:
                return None
            moment = datetime.now(UTC).replace(microsecond=0)
            found = automatic_backups(self.folder)
            if found and found[0][0] >= moment:  # one name a second, in order
                moment = found[0][0] + timedelta(seconds=1)
            target = self.folder / backup_name(moment)
            count = backup(self.database, target)
            self._mark, self._newest = data_mark(target), moment
            prune(self.folder, moment)
        print(
            f"Scorekeeper: backed up {count} match{'' if count == 1 else 'es'} to {target}",
            flush=True,
        )
        return target

    def run(self) -> None:
        due = self._newest + timedelta(seconds=self.interval) if self._newest else None
        while True:
            wait = (due - datetime.now(UTC)).total_seconds() if due else 0
            # Never longer than an interval: a newest backup dated in the future
            # (a clock set back since) does not put the next one off.
            if self._stopping.wait(min(max(wait, 0), self.interval)):
                return
            try:
                made = self.round()
            except (OSError, sqlite3.Error, StoreBusy, StoreFileTarget) as exc:
                reason = getattr(exc, "strerror", None) or exc
                print(
                    f"Scorekeeper: the automatic backup into {self.folder} failed ({reason});"
                    " trying again later",
                    file=sys.stderr,
                    flush=True,
                )
                made = None
            if made is not None:
                due = self._newest + timedelta(seconds=self.interval)
            else:
                due = datetime.now(UTC) + timedelta(seconds=min(self.interval, LOOK_EVERY))

    def stop(self, wait: float = 5) -> None:
        """Start no more backups; wait at most `wait` seconds for one under way
        (one cut short leaves a `.part` file that the next round removes)."""
        self._stopping.set()
        self.join(timeout=wait)


def interval_from(text: str | None) -> int | None:
    """Seconds between automatic backups as written (0: none); None when the
    text is no whole number of seconds."""
    if text is None:
        return DEFAULT_INTERVAL
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() else None


# --- restore -------------------------------------------------------------------------


class NotRestored(Exception):
    """A restore that did not happen; its message is the reason in one line,
    `status` the command's exit status (2: the file, 1: the circumstances)."""

    def __init__(self, reason: str, status: int = 2):
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True)
class Restored:
    matches: int
    groups: int
    kept: Path | None  # the store as it was before, None when there was none
    kept_damaged: bool = False


SQLITE_HEADER = b"SQLite format 3\x00"


def store_path(instance: Path) -> str:
    """The database of the instance folder, as the app finds it (config.py may
    name another), without opening it: it may be the damaged store to replace."""
    config = Config(str(instance))
    config.from_pyfile("config.py", silent=True)
    return str(config.get("DATABASE") or instance / "scorekeeper.db")


def _cut_short(raw_header: bytes, size: int) -> str | None:
    """Why a database file is shorter than its header says, if it is."""
    if len(raw_header) < 100:
        return f"it ends at byte {size} (cut short)"
    page = int.from_bytes(raw_header[16:18], "big")
    page = 65536 if page == 1 else page
    pages = int.from_bytes(raw_header[28:32], "big")
    counter, valid_for = raw_header[24:28], raw_header[92:96]
    if counter == valid_for and pages and size < pages * page:
        return f"it ends at byte {size} of {pages * page} (cut short)"
    return None


def _first_look(source: Path) -> None:
    """Refuse at once what is no SQLite database or is cut short."""
    try:
        with open(source, "rb") as handle:
            header = handle.read(100)
            size = os.fstat(handle.fileno()).st_size
    except OSError as exc:
        raise NotRestored(f"cannot read: {exc.strerror or exc}") from None
    if size == 0:
        raise NotRestored("an empty file, not a Scorekeeper backup")
    if not header.startswith(SQLITE_HEADER):
        raise NotRestored("not a SQLite database, so not a Scorekeeper backup")
    short = _cut_short(header, size)
    if short:
        raise NotRestored(f"damaged: {short}")


def _checked_copy(source: Path, folder: Path) -> tuple[Path, int, int]:
    """A copy of `source` in `folder` (owner only), checked whole, brought up to
    date and read through: every match folded, every group loaded. The copy's
    path, its number of matches and of groups."""
    fd, name = tempfile.mkstemp(dir=folder, prefix=".restore-", suffix=".part")
    copy = Path(name)
    try:
        with os.fdopen(fd, "wb") as out, open(source, "rb") as given:
            shutil.copyfileobj(given, out)
        fsync(copy)
        try:
            matches = examine(str(copy))
        except NotAStore as exc:
            raise NotRestored(str(exc)) from None
        return copy, matches, _read_through(copy)
    except BaseException:
        _remove_copy(copy)
        raise


def _read_through(path: Path) -> int:
    """Fold every match and load every group of the store at `path`; the number
    of groups. A value the integrity check cannot see (bytes turned inside a
    hand's record) fails here."""
    db = connect(str(path))
    try:
        try:
            list_matches(db)
            ids = group_ids(db)
            for group_id in ids:
                load_group(db, group_id)
        except Exception as exc:  # whatever the damage makes of the rows
            raise NotRestored(f"damaged: its matches or groups cannot be read ({exc})") from None
        leave_one_file(db)
        return len(ids)
    finally:
        db.close()


def _remove_copy(copy: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{copy}{suffix}")


def _keep_current(database: str, folder: Path) -> tuple[Path | None, bool]:
    """Keep the store about to be replaced as `before-restore-<UTC time>.db` in
    `folder`: a consistent copy, or its files as they are when it is damaged.
    The file kept (None: there was no store) and whether it is damaged."""
    if not os.path.exists(database) or os.path.getsize(database) == 0:
        return None, False
    stamp = datetime.now(UTC).strftime(_STAMP)
    kept = folder / f"before-restore-{stamp}.db"
    number = 1
    while os.path.exists(kept):  # two restores in one second: the first kept too
        number += 1
        kept = folder / f"before-restore-{stamp}-{number}.db"
    try:
        backup(database, kept)
        return kept, False
    except sqlite3.DatabaseError:
        pass
    for suffix in ("", "-wal"):  # taken together, they are the store as it was
        if os.path.exists(database + suffix):
            fd, partial = tempfile.mkstemp(dir=folder, prefix=f".{kept.name}.", suffix=".part")
            with os.fdopen(fd, "wb") as out, open(database + suffix, "rb") as given:
                shutil.copyfileobj(given, out)
            fsync(partial)
            os.replace(partial, f"{kept}{suffix}")
    return kept, True


def restore(instance: Path | None, source: Path) -> Restored:
    """Put the backup `source` in place of the store of `instance` (see the
    module's docstring). Raises NotRestored with the reason in one line."""
    instance = instance_folder(instance)
    database = store_path(instance)
    own = store_file(database, source)
    if own:
        raise NotRestored(f"{own}; restore a backup of it")
    _first_look(source)
    try:
        _own_folder(instance)
    except OSError as exc:
        raise NotRestored(
            f"cannot make the instance folder {instance}: {exc.strerror}", 1
        ) from None
    copy, matches, groups = _checked_copy(source, Path(database).parent)
    with _locked(instance / SERVING_LOCK, wait=False) as alone:
        if not alone:
            _remove_copy(copy)
            raise NotRestored(
                f"a server is running on {instance}; stop it, restore, then start it again", 1
            )
        try:
            folder = instance / BACKUP_FOLDER
            _own_folder(folder)
            with _locked(_backing_up(folder)):
                kept, kept_damaged = _keep_current(database, folder)
            if os.path.exists(database):
                close_idle(database)  # this process's own, kept between requests
                try:
                    single_file(database)
                except sqlite3.DatabaseError as exc:
                    if "locked" in str(exc):
                        raise NotRestored(
                            "the store is open in another program; close it and try again", 1
                        ) from None
                    # Damaged: its log goes with it (a copy of both was kept).
                for suffix in ("-wal", "-shm"):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(database + suffix)
            os.replace(copy, database)
        finally:
            _remove_copy(copy)
        fsync(Path(database).parent)  # the rename survives a power cut
    return Restored(matches, groups, kept, kept_damaged)
