"""The change logs: a match's (`changes`) and a group's (`group_changes`), one
row per change, numbered by revision from 1, each change stored with the
one-time key of the form that asked for it (`submission`, unique).

What the two logs share lives here, so history, undo, live updates and the
"this form was already stored" answer read them the same way: the change a
key was stored with (the keys a form may be stored under are undo.py's), a
log since a revision or its newest changes, a change appended. The one write path that
uses them is `db.write`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqlite_utils import Database

C = TypeVar("C")  # a change as its module knows it (changelog.Change, groups.GroupChange)


@dataclass(frozen=True)
class Journal(Generic[C]):
    """One change log: its table, the column naming whose change a row is,
    and the change's own module's way to read and write a row of it."""

    table: str
    owner: str
    from_row: Callable[[dict[str, Any]], C]
    to_row: Callable[[str, C], dict[str, Any]]


def stored(db: Database, log: Journal[C], submission: str | None) -> tuple[str, C] | None:
    """(whose change, the change) stored under the one-time key `submission`."""
    if not submission:
        return None
    rows = list(db.query(f"select * from {log.table} where submission = ?", [submission]))
    return (rows[0][log.owner], log.from_row(rows[0])) if rows else None


def earlier(
    db: Database, log: Journal[C], keys: list[str], same: Callable[[str, C], bool]
) -> tuple[tuple[str, C] | None, str | None]:
    """The change stored under one of `keys` that is this form's (`same(owner,
    change)`), else None and the first key still free (None: none is; the
    change is then stored without a key)."""
    free = None
    for key in keys:
        found = stored(db, log, key)
        if found is None:
            free = free or key
        elif same(*found):
            return found, key
    return None, free


def since(db: Database, log: Journal[C], owner_id: str, revision: int = 0) -> list[C]:
    """The changes after `revision`, oldest first."""
    rows = db.query(
        f"select * from {log.table} where {log.owner} = ? and revision > ? order by revision",
        [owner_id, revision],
    )
    return [log.from_row(row) for row in rows]


def newest(db: Database, log: Journal[C], owner_id: str, count: int) -> list[C]:
    """The newest `count` changes, oldest first."""
    rows = db.query(
        f"select * from {log.table} where {log.owner} = ? order by revision desc limit ?",
        [owner_id, count],
    )
    return [log.from_row(row) for row in reversed(list(rows))]


def at(db: Database, log: Journal[C], owner_id: str, revision: int) -> C | None:
    """The change of that revision, as stored (None: there is none)."""
    rows = list(
        db.query(
            f"select * from {log.table} where {log.owner} = ? and revision = ?",
            [owner_id, revision],
        )
    )
    return log.from_row(rows[0]) if rows else None


def append(db: Database, log: Journal[C], owner_id: str, change: C) -> None:
    """Store one more change (inside the write transaction that decided it):
    one INSERT, where sqlite-utils' `insert` reads the schema three times first."""
    row = log.to_row(owner_id, change)
    columns = ", ".join(f'"{name}"' for name in row)
    places = ", ".join("?" for _ in row)
    db.execute(f'insert into "{log.table}" ({columns}) values ({places})', list(row.values()))
