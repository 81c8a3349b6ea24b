"""A group's rows. The group's change log (`group_changes`) is read and written
through `journal.py` like a match's; these are the tables that keep its
current state, written in the transaction of each change from the values the
change stores (`groups.py` decides them): the row of the group (`groups`: name,
stakes, revision, serial) and one row per member, match and payment.
Values come and go as plain rows; the types are `groups.py`'s."""

from __future__ import annotations

import json
from typing import Any

from sqlite_utils import Database


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# --- reading -----------------------------------------------------------------------


def group_row(db: Database, group_id: str) -> dict[str, Any] | None:
    rows = list(db.query("select * from groups where id = ?", [group_id]))
    return rows[0] if rows else None


def member_rows(db: Database, group_id: str) -> list[dict[str, Any]]:
    """The members in the chosen order."""
    sql = "select * from group_members where group_id = ? order by position, id"
    return list(db.query(sql, [group_id]))


def match_rows(db: Database, group_id: str) -> list[dict[str, Any]]:
    """The group's matches, oldest added first."""
    sql = "select * from group_matches where group_id = ? order by added, match_id"
    return list(db.query(sql, [group_id]))


def payment_rows(db: Database, group_id: str) -> list[dict[str, Any]]:
    """The payments by the day paid."""
    sql = "select * from group_payments where group_id = ? order by date, id"
    return list(db.query(sql, [group_id]))


def group_revision(db: Database, group_id: str) -> int | None:
    """The group's revision (None: no such group): the cheap live check."""
    rows = list(db.query("select revision from groups where id = ?", [group_id]))
    return rows[0]["revision"] if rows else None


def group_for_watch(db: Database, token: str) -> str | None:
    rows = list(db.query("select id from groups where watch = ?", [token]))
    return rows[0]["id"] if rows else None


def groups_of_match(db: Database, match_id: str) -> list[str]:
    rows = db.query("select group_id from group_matches where match_id = ?", [match_id])
    return [row["group_id"] for row in rows]


def group_ids(db: Database) -> list[str]:
    """Every group, oldest first."""
    return [row["id"] for row in db.query("select id from groups order by created, id")]


def groups_named(db: Database, name: str) -> list[str]:
    """The groups called `name`, oldest first."""
    rows = db.query("select id from groups where name = ? order by created", [name])
    return [row["id"] for row in rows]


def groups_started_with(db: Database, kind: str, file: str) -> list[str]:
    """The groups whose first change (of `kind`) names the group file of digest
    `file` (its `asked["file"]`), first started first."""
    rows = db.query(
        "select group_id from group_changes where kind = ? and json_extract(asked, '$.file') = ?"
        " order by created",
        [kind, file],
    )
    return [row["group_id"] for row in rows]


# --- writing (inside the write transaction of a change) -------------------------------


def insert_group(db: Database, row: dict[str, Any]) -> None:
    """A new group's row, at revision 0: its first change comes next."""
    db["groups"].insert(row)


def write_part(db: Database, group_id: str, key: str, value: Any) -> None:
    """Keep one part's value after a change (None: the part is gone). A part:
    "name", "stake:<game>", "member:<id>", "match:<match id>", "payment:<id>"."""
    kind, _, ident = key.partition(":")
    if kind == "name":
        db.execute("update groups set name = ? where id = ?", [value, group_id])
    elif kind == "stake":
        row = list(db.query("select stakes from groups where id = ?", [group_id]))[0]
        stakes = json.loads(row["stakes"] or "null") or {}
        if value is None:
            stakes.pop(ident, None)
        else:
            stakes[ident] = value
        db.execute("update groups set stakes = ? where id = ?", [_dump(stakes), group_id])
    elif kind == "member":
        db.execute("delete from group_members where group_id = ? and id = ?", [group_id, ident])
        if value is not None:
            row = {"name": value["name"], "position": value["position"]}
            row["retired"] = 1 if value.get("retired") else 0
            db["group_members"].insert({"group_id": group_id, "id": int(ident), **row})
    elif kind == "match":
        db.execute(
            "delete from group_matches where group_id = ? and match_id = ?", [group_id, ident]
        )
        if value is not None:
            db["group_matches"].insert(
                {
                    "group_id": group_id,
                    "match_id": ident,
                    "mapping": _dump(value["mapping"]),
                    "added": value["added"],
                }
            )
    elif kind == "payment":
        db.execute("delete from group_payments where group_id = ? and id = ?", [group_id, ident])
        if value is not None:
            db["group_payments"].insert({"group_id": group_id, "id": int(ident), **value})
    else:
        raise ValueError(key)


def moved_on(db: Database, group_id: str, revision: int, serial: int, updated: str) -> None:
    """The group's row after a change: its revision, the last number given to a
    member or payment, when it changed."""
    db.execute(
        "update groups set revision = ?, serial = ?, updated = ? where id = ?",
        [revision, serial, updated, group_id],
    )
