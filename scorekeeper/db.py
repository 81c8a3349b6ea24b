"""All storage, through sqlite-utils: the only module with SQL (the store's
history, its migrations, is frozen in `migrations.py`).

A match is stored as the row of what never changes (variant, players, options)
and the list of its changes, numbered by revision (`changelog.py`). Scores,
sheets, totals, even the hands in play are never stored: they are derived by
folding the changes and replaying the hands.

Every write is one call of `apply` (or `create_match`): one transaction that
takes the write lock at once (`BEGIN IMMEDIATE`), loads the match, checks the
command against what it read, writes the change and commits. Two phones
saving at once are thus run one after the other, each seeing the other's change.
That path is `write`, and a group's changes take it too (`groups.apply_group`):
both logs are read and appended through `store/journal.py`. The rows of groups
and of kept summaries are in `store/`.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import sqlite3
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any, Generic, TypeVar

import click
from flask import Flask, current_app, g
from sqlite_utils import Database
from sqlite_utils.db import dedupe_keys

from .changelog import (
    CREATE,
    DEFAULT_DEVICE,
    Change,
    Command,
    MatchState,
    decide,
    fold,
    played_on,
    started_summary,
)
from .games.catalog import VARIANTS
from .games.common import Outcome
from .kept import Recent, forget_all
from .matchfile import dumps
from .migrations import migrations
from .model import Match
from .speech import english
from .store.journal import Journal, append, at, earlier, newest, since
from .undo import form_keys
from .variants import MatchError, replay_match

BUSY_TIMEOUT = 5.0  # seconds a write waits for another phone's write to finish


MATCH_ID_BYTES = 12  # 96 random bits, 16 characters in an address


def new_match_id() -> str:
    """A match's address: unguessable, so only the phones given it can open it."""
    return secrets.token_urlsafe(MATCH_ID_BYTES)


def new_token() -> str:
    """An unguessable address part (128 random bits)."""
    return secrets.token_urlsafe(16)


def _started(variant: str, players: list[str], hands: int) -> str:
    """The first change's summary, stored in English (the history says it again
    in the reader's language: changelog.said_summary)."""
    name = VARIANTS[variant].name if variant in VARIANTS else variant
    return english(started_summary(name, " · ".join(players), hands))


def hands_in(match: Match) -> int:
    """The hands of an imported file as the rules count them (a redeal is not a
    hand); its entries when it does not replay."""
    try:
        return replay_match(match).hands_played
    except MatchError:
        return len(match.hands)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


# What SQLite says when the store, not the query, is at fault: another write held
# the lock too long, the file or folder is read-only or cannot be opened, the
# disk is full or failing, the file is damaged ("database disk image is
# malformed", a plain DatabaseError) or not a database. Anything else (a wrong
# query) is a bug: a 500.
DAMAGED = frozenset({sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB})
STORE_FAULTS = frozenset(
    {
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
        sqlite3.SQLITE_PERM,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_CANTOPEN,
        *DAMAGED,
    }
)


def store_fault(exc: BaseException) -> bool:
    """True when `exc` says the store cannot be used right now (see STORE_FAULTS)."""
    if not isinstance(exc, sqlite3.DatabaseError):
        return False
    code = getattr(exc, "sqlite_errorcode", None)
    if code is None:  # no code: only an OperationalError is the store's (a lock)
        return isinstance(exc, sqlite3.OperationalError)
    return (code & 0xFF) in STORE_FAULTS


def store_damaged(exc: BaseException) -> bool:
    """True when `exc` says the database file itself is damaged or not a database."""
    code = getattr(exc, "sqlite_errorcode", None)
    return isinstance(exc, sqlite3.DatabaseError) and code is not None and (code & 0xFF) in DAMAGED


class StoreBusy(Exception):
    """The score store could not be written: locked past the timeout, read-only
    or full. Nothing was changed."""


class Store(Database):
    """sqlite-utils' Database whose reads are one statement each.

    sqlite-utils runs every `query` inside a savepoint of its own, to roll back
    a statement that turns out to return no rows: three statements for each
    read. Under a room of phones each statement is a moment its thread lets go
    of the interpreter and then waits its turn to take it back behind the
    threads drawing pages (a kept page is one read). A SELECT changes nothing,
    so it is run alone; any other statement keeps sqlite-utils' guard."""

    def query(
        self, sql: str, params: Sequence | dict[str, Any] | None = None
    ) -> Iterator[dict[str, Any]]:
        if not _A_READ.match(sql):
            return super().query(sql, params)
        cursor = self.conn.execute(sql, () if params is None else params)
        keys = dedupe_keys(column[0] for column in cursor.description)
        # every row read at once: no statement is left open on the connection
        return (dict(zip(keys, row, strict=True)) for row in cursor.fetchall())


_A_READ = re.compile(r"\s*select\b", re.IGNORECASE)


def connect(path: str) -> Database:
    # Autocommit mode: every transaction is opened explicitly (see `writing`).
    conn = sqlite3.connect(
        path, timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
    )
    conn.execute("PRAGMA foreign_keys = ON")
    # A read-only store keeps its journal mode; reading it still works.
    with suppress(sqlite3.OperationalError):
        conn.execute("PRAGMA journal_mode = WAL")
    # An acknowledged change survives a crash of the process and of the machine.
    conn.execute("PRAGMA synchronous = FULL")
    return Store(conn)


# Connections kept open between requests. Opening one costs its file, three
# PRAGMAs and a close, a tenth of a page drawn once under a room of phones; so a
# request borrows an idle one for itself alone and gives it back. Before the
# store's file is replaced (`scorekeeper restore`, refused while a server runs
# on it), `close_idle` closes them: a connection must never outlive its file.
IDLE_PER_STORE = 16  # the server's 8 threads, and room to spare
IDLE_STORES = 4  # the stores used last in this process (tests make one each)
_idle: OrderedDict[str, list[Database]] = OrderedDict()
_idle_lock = threading.Lock()


def _borrow(path: str) -> Database:
    """An idle connection to the store at `path`, or a new one."""
    with _idle_lock:
        idle = _idle.get(path)
        if idle:
            return idle.pop()
    return connect(path)


def _give_back(path: str, db: Database) -> None:
    """Keep `db` for another request, unless enough are kept already."""
    dropped: list[Database] = []
    with _idle_lock:
        idle = _idle.setdefault(path, [])
        _idle.move_to_end(path)
        if len(idle) < IDLE_PER_STORE:
            idle.append(db)
        else:
            dropped.append(db)
        while len(_idle) > IDLE_STORES:
            dropped.extend(_idle.popitem(last=False)[1])
    for old in dropped:
        old.close()


def close_idle(path: str | None = None) -> None:
    """Close the idle connections kept to the store at `path` (every store when
    None): before its file is replaced or changed behind this process's back."""
    with _idle_lock:
        paths = list(_idle) if path is None else [path]
        closing = [db for name in paths for db in _idle.pop(name, [])]
    for db in closing:
        db.close()


def get_db() -> Database:
    """The request's database connection, borrowed on first use: its own until
    the request ends."""
    if "db" not in g:
        g.db_path = current_app.config["DATABASE"]
        g.db = _borrow(g.db_path)
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    path = g.pop("db_path", None)
    if db is None:
        return
    if exc is not None or path is None or db.conn.in_transaction:  # never handed on in doubt
        db.close()
        return
    _give_back(path, db)


# The threads of one server take turns at writing here before asking SQLite:
# a thread waiting on this lock is woken the moment the write before it ends,
# where SQLite's busy handler would sleep and poll, and could lose every race
# to a phone storming another match (another table kept waiting for a second).
_write_turn = threading.Lock()


_holding = threading.local()  # the connection whose write this thread holds


@contextmanager
def writing(db: Database) -> Iterator[Database]:
    """One write transaction holding the write lock from its first statement.

    A write started inside another on the same connection (a group file's
    matches, each `create_match`, inside the import of the group) joins it:
    the outermost commits, and a failure anywhere rolls all of it back."""
    if getattr(_holding, "db", None) is db and db.conn.in_transaction:
        yield db
        return
    if not _write_turn.acquire(timeout=BUSY_TIMEOUT):
        raise StoreBusy("another write of this server held the store too long")
    _holding.db = db
    try:
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as exc:
            if not store_fault(exc):
                raise
            raise StoreBusy(str(exc)) from exc
        try:
            yield db
            db.execute("COMMIT")
        except BaseException as exc:
            if db.conn.in_transaction:
                db.execute("ROLLBACK")
            if store_fault(exc):
                raise StoreBusy(str(exc)) from exc
            raise
    finally:
        _holding.db = None
        _write_turn.release()


def migrate(path: str) -> None:
    """Bring the database up to date; an up-to-date one is only read, so a
    read-only database still opens (its pages can be read, nothing saved)."""
    db = connect(path)
    try:
        if migrations.pending(db):
            with writing(db):  # two servers starting at once migrate one after the other
                migrations.apply(db)
    finally:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database."""
    migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def private_store(path: str) -> None:
    """Make the database file readable and writable by its owner only, before
    SQLite makes it: SQLite gives its -wal, -shm and -journal files the mode of
    the database file. A store an older version left readable by every local
    user is tightened, with the files beside it."""
    if path == ":memory:" or path.startswith("file:"):
        return
    if not os.path.exists(path):
        with suppress(OSError):  # a folder it cannot write: SQLite says so when opening
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        return
    for suffix in STORE_FILE_NAMES:
        with suppress(OSError):
            if os.stat(path + suffix).st_mode & 0o077:
                os.chmod(path + suffix, 0o600)


def init_app(app: Flask) -> None:
    private_store(app.config["DATABASE"])
    migrate(app.config["DATABASE"])
    # One connection stays open while the app runs, so the WAL and its index
    # file are never deleted and made again between requests: on a full disk
    # (nothing can be created) the pages can still be read.
    keeper = connect(app.config["DATABASE"])
    keeper.execute("select count(*) from matches").fetchall()
    app.extensions["scorekeeper_keeper"] = keeper
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


class StoreFileTarget(ValueError):
    """A backup aimed at one of the live store's own files: writing it would
    damage the store (a copy renamed over the -wal file loses the changes in it
    and makes every page read a malformed database)."""


# The files SQLite keeps beside the database while it is in use.
STORE_FILE_NAMES = {
    "": "it is the database itself",
    "-wal": "it is the database's write-ahead log (-wal), part of the live store",
    "-shm": "it is the database's shared-memory index (-shm), part of the live store",
    "-journal": "it is the database's rollback journal (-journal), part of the live store",
}


def store_file(path: str | os.PathLike[str], target: str | os.PathLike[str]) -> str | None:
    """Why `target` is one of the store's own files (the database at `path`, its
    -wal, -shm or -journal, also through a link or another name of the same
    file), or None when it is another file."""
    wanted = os.path.realpath(target)
    for suffix, why in STORE_FILE_NAMES.items():
        own = f"{path}{suffix}"
        if os.path.realpath(own) == wanted:
            return why
        with suppress(OSError):
            if os.path.samefile(own, target):
                return why
    return None


def backup(path: str, target: str | os.PathLike[str]) -> int:
    """Copy the store at `path` to the file `target` as it stood at one moment,
    while the app goes on writing (SQLite's online backup API, in one step under
    one read transaction); return the number of matches in the copy.

    The copy is written beside `target`, checked, and renamed over it only when
    whole: a failed backup leaves any earlier one in place.
    """
    target = Path(target)
    own = store_file(path, target)
    if own:
        raise StoreFileTarget(own)
    fd, partial = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".part")
    os.close(fd)
    try:
        source = sqlite3.connect(path, timeout=BUSY_TIMEOUT)
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
            [(verdict,)] = copy.execute("PRAGMA integrity_check").fetchall()
            if verdict != "ok":
                raise sqlite3.DatabaseError(f"the copy fails its integrity check: {verdict}")
            [(count,)] = copy.execute("select count(*) from matches").fetchall()
        finally:
            copy.close()
            source.close()
        fsync(partial)
        os.replace(partial, target)
    except BaseException:
        with suppress(OSError):
            os.unlink(partial)
        raise
    fsync(target.parent)  # the rename survives a power cut
    return count


def fsync(path: str | os.PathLike[str]) -> None:
    """Wait until the file or folder at `path` is on the disk."""
    handle = os.open(path, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


# A mark of what the players changed: a new match, a change of a match (every
# save, undo, deletion is a row of `changes`), a new group or a change of one
# (each bumps its revision). It is compared, never read for meaning, and costs
# a few counts: the automatic backups ask it once a minute.
DATA_MARK = (
    "select (select count(*) from matches), (select count(*) from changes),"
    " (select coalesce(max(rowid), 0) from changes), (select count(*) from groups),"
    " (select coalesce(sum(revision), 0) from groups)"
)


def data_mark(path: str | os.PathLike[str]) -> tuple[int, ...]:
    """The mark of the data in the store or backup at `path` (see DATA_MARK),
    read without writing anything there."""
    conn = sqlite3.connect(
        f"{Path(path).resolve().as_uri()}?mode=ro", uri=True, timeout=BUSY_TIMEOUT
    )
    try:
        return tuple(conn.execute(DATA_MARK).fetchone())
    finally:
        conn.close()


class NotAStore(ValueError):
    """A file that cannot become the store: damaged, another program's or of a
    newer version. Its message says why in one line."""


def _integrity_problem(conn: sqlite3.Connection) -> str | None:
    """What SQLite's integrity check finds wrong with the file, in one line."""
    found = [row[0] for row in conn.execute("PRAGMA integrity_check(100)").fetchall()]
    if found == ["ok"]:
        return None
    more = f" (and {len(found) - 1} more problems)" if len(found) > 1 else ""
    return f"the integrity check finds {found[0]}{more}"


def examine(path: str) -> int:
    """Check that the database at `path`, a copy meant to become the store, is
    whole and a store of Scorekeeper that this version knows, and bring it up to
    date; its number of matches. Raises NotAStore naming what is wrong."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=BUSY_TIMEOUT)
    try:
        try:
            problem = _integrity_problem(conn)
            tables = {row[0] for row in conn.execute("select name from sqlite_master")}
        except sqlite3.DatabaseError as exc:
            raise NotAStore(f"damaged: {exc}") from None
        if problem:
            raise NotAStore(f"damaged: {problem}")
        db = Database(conn)
        applied = (
            [m.name for m in migrations.applied(db)]
            if migrations.migrations_table in tables
            else []
        )
        if not applied or not {"matches", "changes"} <= tables:
            raise NotAStore("a SQLite database of another program, not a Scorekeeper backup")
        known = {m.name for m in migrations.pending(Database(memory=True))}
        newer = [name for name in applied if name not in known]
        if newer:
            raise NotAStore(
                f"made by a newer version of Scorekeeper (its store has the change {newer[0]},"
                " unknown to this one): upgrade Scorekeeper, then restore it"
            )
        if migrations.pending(db):
            with writing(db):
                migrations.apply(db)
        conn.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
        return conn.execute("select count(*) from matches").fetchone()[0]
    finally:
        conn.close()


def single_file(path: str) -> None:
    """Fold the store's write-ahead log into the database file and leave it
    without one, so the file alone is the whole store and can be replaced.
    Raises sqlite3.DatabaseError when another program has it open (locked) or
    the file is damaged."""
    conn = sqlite3.connect(path, isolation_level=None, timeout=0)
    try:
        [(mode,)] = conn.execute("PRAGMA journal_mode = DELETE").fetchall()
        if mode != "delete":
            raise sqlite3.OperationalError("database is locked")
    finally:
        conn.close()


# --- reading ---------------------------------------------------------------


StoredMatch = MatchState  # what the pages read: the match as its changes make it


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _change_from_row(row: dict[str, Any]) -> Change:
    return Change(
        revision=row["revision"],
        kind=row["kind"],
        hand=row["hand"],
        record=_loads(row["record"]),
        hands=_loads(row["hands"]),
        settings=_loads(row["settings"]),
        undoes=row["undoes"],
        summary=row["summary"] or "",
        device=row["device"] or "",
        created=row["created"],
        submission=row["submission"],
        hand_number=row.get("hand_number"),
        counted=None if row.get("counted") is None else bool(row["counted"]),
    )


def _dump(value: Any) -> str | None:
    return None if value is None else json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _change_row(match_id: str, change: Change) -> dict[str, Any]:
    return {
        "match_id": match_id,
        "revision": change.revision,
        "kind": change.kind,
        "hand": change.hand,
        "record": _dump(change.record),
        "hands": _dump(change.hands),
        "settings": _dump(change.settings),
        "undoes": change.undoes,
        "summary": change.summary,
        "device": change.device,
        "created": change.created,
        "submission": change.submission,
        "hand_number": change.hand_number,
        "counted": None if change.counted is None else int(change.counted),
    }


MATCH_LOG = Journal("changes", "match_id", _change_from_row, _change_row)


# The folded state of the matches read last, so a page or a write of a long
# match folds only the changes made since (the write lock is held briefly).
# Match ids are random, so an id names one match in any database; changes are
# only ever added, so a cached state is used while its newest change is still
# stored exactly as it was (a store put back from a backup, or edited by hand
# at its newest change, is folded again).
FOLDED_KEPT = 32
_folded: Recent[StoredMatch] = Recent(FOLDED_KEPT)


def _keep(state: StoredMatch) -> None:
    _folded.put(state.id, state.copy())


def _kept(db: Database, match_id: str) -> StoredMatch | None:
    """A copy of the cached state of `match_id`, if its newest change is still stored."""
    cached = _folded.get(match_id)  # never moved on itself: copied here
    if cached is None or not cached.log:
        return None
    cached = cached.copy()
    last = cached.log[-1].change
    return cached if at(db, MATCH_LOG, match_id, last.revision) == last else None


def forget_folded() -> None:
    """Drop every cached state, and every copy kept from one (a store replaced
    or edited by hand under a running process), and the idle connections."""
    forget_all()
    close_idle()


def newest_change(db: Database, match_id: str) -> Change | None:
    """The match's newest change as stored (None: no such match): what a copy
    kept of the match is checked against."""
    found = newest(db, MATCH_LOG, match_id, 1)
    return found[-1] if found else None


def load_match(db: Database, match_id: str) -> StoredMatch | None:
    """The match as its changes make it now (deleted matches too: `.deleted`)."""
    rows = list(db.query("select * from matches where id = ?", [match_id]))
    if not rows:
        return None
    row = rows[0]
    fresh = StoredMatch(
        id=row["id"],
        variant=row["variant"],
        players=json.loads(row["players"]),
        options=json.loads(row["options"] or "{}"),
        created=row["created"],
        watch=row["watch"],
        started_on=_day(row.get("played")),
    )
    state = _kept(db, match_id)
    if state is None or state.started_on != fresh.started_on:  # a row edited by hand
        state = fresh
    else:  # what never changes is read again all the same: the row is at hand
        state.variant, state.players, state.options = fresh.variant, fresh.players, fresh.options
        state.created, state.watch = fresh.created, fresh.watch
    changes = since(db, MATCH_LOG, match_id, state.revision)
    before = state.revision
    fold(state, changes)
    if state.revision != before:
        _keep(state)
    return state


def _day(text: str | None) -> date | None:
    """A stored day ("2026-11-27"); None when the row has none."""
    try:
        return date.fromisoformat(text) if text else None
    except ValueError:
        return None


def match_for_watch(db: Database, token: str) -> str | None:
    rows = list(db.query("select id from matches where watch = ?", [token]))
    return rows[0]["id"] if rows else None


def revision(db: Database, match_id: str) -> int | None:
    """The match's current revision (None: no such match): the cheap live check."""
    rows = list(
        db.query(
            "select (select max(revision) from changes where match_id = m.id) as revision"
            " from matches m where m.id = ?",
            [match_id],
        )
    )
    return rows[0]["revision"] if rows else None


def list_matches(db: Database, ids: list[str] | None = None) -> list[StoredMatch]:
    """The matches of `ids` that exist (every match when None), deleted ones too,
    most recently changed first."""
    if ids is None:
        ids = [row["id"] for row in db.query("select id from matches")]
    found = [m for m in (load_match(db, match_id) for match_id in ids) if m is not None]
    return sorted(found, key=lambda m: (m.updated, m.id), reverse=True)


# --- writing: every write is one transaction ---------------------------------


@dataclass(frozen=True)
class Applied:
    """What a stored change did; `repeated` when the same form came again and the
    first answer stands (nothing stored twice)."""

    match_id: str
    change: Change
    state: StoredMatch
    outcome: Outcome | None = None
    repeated: bool = False


def _same_match(state: StoredMatch, start: Change, match: Match) -> bool:
    """Whether a stored start is the start of `match` (players, options, hands,
    title and stake), compared as stored: through JSON."""
    settings = {"title": match.title or "", "stake": match.stake.as_json() if match.stake else None}
    asked = [match.variant, match.players, match.options, list(match.hands), settings]
    made = [state.variant, state.players, state.options, start.hands or [], start.settings]
    return json.loads(_dump(asked)) == json.loads(_dump(made))


class AlreadyHere(Exception):
    """An import of a match this store already holds: nothing was stored. `state`
    is that match (not deleted), as it stands now."""

    def __init__(self, state: StoredMatch):
        super().__init__(state.id)
        self.state = state


def _already_here(db: Database, match: Match) -> StoredMatch | None:
    """A match not deleted that is `match` as it was imported or started, or as
    it stands now (the file was exported from here). A match file without hands
    is no evening played: it is never taken for another."""
    if not match.hands:
        return None
    players = json.dumps(match.players, ensure_ascii=False)
    # Only a match one of whose changes holds the file's last hand, as stored
    # (saved or changed to it, or in the hands it was started with), can be
    # it: the others are never loaded, so a season of evenings of the same
    # four costs a query, not a fold of each.
    last = _dump(match.hands[-1])
    ids = [
        row["id"]
        for row in db.query(
            "select id from matches m where variant = ? and players = ? and exists ("
            " select 1 from changes c where c.match_id = m.id"
            " and (c.record = ? or instr(c.hands, ?) > 0)) order by created",
            [match.variant, players, last, last],
        )
    ]
    file = match.as_json()
    for match_id in ids:
        state = load_match(db, match_id)
        if state is None or state.deleted or not state.log:
            continue
        if _same_match(state, state.log[0].change, match) or state.match.as_json() == file:
            return state
    return None


def _start_keys(submission: str | None, match: Match) -> list[str]:
    """The keys a start form may be stored under: its one-time key, and that key
    with a digest of what it asks for. A page brought back (Back) sends its key
    again with other players or another file: that start is stored under the
    second, so it makes its own match, and a double tap of it still makes one."""
    return form_keys(submission, dumps(match).encode())


def create_match(
    db: Database,
    match: Match,
    *,
    device: str = DEFAULT_DEVICE,
    submission: str | None = None,
    join: Callable[[Database, str], None] | None = None,
    unless_here: bool = False,
) -> Applied:
    """Store a new (already validated) match, its hands as the first change.

    The same form sent again with the same content answers as the first time
    (`repeated`); with other content it starts a match of its own. `join(db,
    match_id)` runs in the same transaction once the match is stored (a group
    takes it in): if it raises, nothing is stored.
    `unless_here`: a match file imported again stores nothing and raises
    AlreadyHere with the match already here (checked in the same transaction,
    so two phones importing one file at once make one match)."""

    def same(owner: str, change: Change) -> bool:
        state = load_match(db, owner) if change.kind == CREATE else None
        return state is not None and _same_match(state, change, match)

    with writing(db):
        found, free = earlier(db, MATCH_LOG, _start_keys(submission, match), same)
        if found is not None:
            return Applied(found[0], found[1], load_match(db, found[0]), repeated=True)
        if unless_here:
            here = _already_here(db, match)
            if here is not None:
                raise AlreadyHere(here)
        submission = free  # None: both spent on other things, stored without a key
        stamp = now()
        match_id = new_match_id()
        db["matches"].insert(
            {
                "id": match_id,
                "variant": match.variant,
                "players": json.dumps(match.players, ensure_ascii=False),
                "options": json.dumps(match.options, ensure_ascii=False),
                "created": stamp,
                "watch": new_token(),
                # the file's day, else the evening the match was started on
                "played": (match.played or played_on(stamp)).isoformat(),
            }
        )
        change = Change(
            1,
            CREATE,
            hands=list(match.hands),
            settings={
                "title": match.title or "",
                "stake": match.stake.as_json() if match.stake else None,
            },
            summary=_started(match.variant, match.players, hands_in(match)),
            device=device,
            created=stamp,
            submission=submission or None,
        )
        append(db, MATCH_LOG, match_id, change)
        if join is not None:
            join(db, match_id)
        return Applied(match_id, change, load_match(db, match_id))


S = TypeVar("S")  # what a change is checked against: a match's or a group's state
C = TypeVar("C")  # a change of it


@dataclass(frozen=True)
class Written(Generic[S, C]):
    """What `write` did: the change stored (or, `repeated`, the one this form
    stored before), the state it was checked against and the state after."""

    change: C
    before: S
    after: S
    outcome: Any = None
    repeated: bool = False


def write(
    db: Database,
    log: Journal[C],
    owner_id: str,
    keys: list[str],
    *,
    load: Callable[[], S | None],
    same: Callable[[str, C], bool],
    decide: Callable[[S, str | None], tuple[C, Any]],
    keep: Callable[[S, C, Any], S],
) -> Written[S, C]:
    """The one write path of a match and of a group: one transaction holding
    the write lock from its first statement (joined when the caller holds one).

    Load what is stored (`load`; None: LookupError). A form sent again answers
    as the first time: a change stored under one of its one-time `keys` that
    is this form's (`same(owner, change)`) is returned, `repeated`, and nothing
    is stored. Otherwise `decide(state, key)` checks the form against the state
    read (the revision it was drawn from, the rules; it raises to refuse and
    nothing is stored) and gives the change, to be stored under `key` (the
    first key still free, None: none is), and an outcome. The change is
    appended to the log, and `keep(state, change, outcome)` gives the state
    after it (writing, for a group, the tables that keep its current state).
    Anything raised rolls all of it back."""
    with writing(db):
        state = load()
        if state is None:
            raise LookupError(owner_id)
        found, free = earlier(db, log, keys, same)
        if found is not None:
            return Written(found[1], state, state, repeated=True)
        change, outcome = decide(state, free)
        append(db, log, owner_id, change)
        return Written(change, state, keep(state, change, outcome), outcome)


def apply(
    db: Database, match_id: str, command: Command, known: StoredMatch | None = None
) -> Applied:
    """Check `command` against the match as stored now and store its change.

    `known`: the match as the caller already loaded it. Inside the transaction
    its revision is compared with the stored one; when they are the same it is
    the match as stored now and is not loaded again (it is moved on by the
    change and returned as `state`). Otherwise the match is loaded here.

    Raises LookupError (no such match), Refused (nothing stored: stale form,
    rules problem) or StoreBusy. A form sent again answers as the first time;
    its key sent with other content is treated as drawn long ago (no key).
    """

    def load() -> StoredMatch | None:
        if known is not None and known.id == match_id and revision(db, match_id) == known.revision:
            return known
        return load_match(db, match_id)

    def decided(state: StoredMatch, key: str | None) -> tuple[Change, Outcome | None]:
        return decide(state, replace(command, submission=key), now())

    done = write(
        db,
        MATCH_LOG,
        match_id,
        [command.submission] if command.submission else [],
        load=load,
        same=lambda owner, change: owner == match_id and change.answers(command),
        decide=decided,
        keep=lambda state, change, _: fold(state, [change]),
    )
    return Applied(match_id, done.change, done.after, done.outcome, done.repeated)


def set_started(db: Database, match_id: str, created: str) -> None:
    """Date a match's start (a group file's match, started on the day it was
    played), inside the transaction that stores it."""
    db.execute("update matches set created = ? where id = ?", [created, match_id])


def leave_one_file(db: Database) -> None:
    """Take `db` off its write-ahead log: the file alone is then the whole store."""
    db.execute("PRAGMA journal_mode = DELETE")
