"""All storage, through sqlite-utils: the only module with SQL.

The database keeps each match's settings and each hand exactly as entered (the
match file's hand record). Scores, sheets and totals are never stored: they
are computed by replaying the hands.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import click
from flask import Flask, current_app, g
from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

from .matchfile import Match, Stake, parse_stake

migrations = Migrations("scorekeeper")


@migrations()
def m001_matches_and_hands(db: Database) -> None:
    db["matches"].create(
        {
            "id": int,
            "variant": str,
            "title": str,
            "players": str,  # JSON list, seating order
            "options": str,  # JSON object as entered
            "stake": str,  # JSON object or NULL
            "created": str,
            "updated": str,
        },
        pk="id",
    )
    db["hands"].create(
        {
            "id": int,
            "match_id": int,
            "position": int,  # order played; a deleted hand keeps its place for undo
            "record": str,  # JSON hand record, as in the match file
            "deleted": str,  # when deleted (NULL while in play)
            "created": str,
        },
        pk="id",
        foreign_keys=[("match_id", "matches", "id")],
    )
    db["hands"].create_index(["match_id", "position"])


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def connect(path: str) -> Database:
    conn = sqlite3.connect(path, check_same_thread=False)
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA journal_mode = WAL")
    return Database(conn)


def get_db() -> Database:
    """The request's database connection, opened on first use."""
    if "db" not in g:
        g.db = connect(current_app.config["DATABASE"])
    return g.db


def close_db(exc: BaseException | None = None) -> None:
    db = g.pop("db", None)
    if db is not None:
        db.close()


def migrate(path: str) -> None:
    db = connect(path)
    try:
        migrations.apply(db)
    finally:
        db.close()


@click.command("init-db")
def init_db_command() -> None:
    """Create or upgrade the database."""
    migrate(current_app.config["DATABASE"])
    click.echo(f"Database ready: {current_app.config['DATABASE']}")


def init_app(app: Flask) -> None:
    migrate(app.config["DATABASE"])
    app.teardown_appcontext(close_db)
    app.cli.add_command(init_db_command)


# --- reading ---------------------------------------------------------------


@dataclass
class StoredHand:
    id: int
    position: int
    record: dict[str, Any]


@dataclass
class StoredMatch:
    id: int
    match: Match
    hands: list[StoredHand]  # in play, in order
    deleted: StoredHand | None  # the most recently deleted hand, for undo
    created: str
    updated: str


def _match_from_row(row: dict[str, Any], records: list[dict[str, Any]]) -> Match:
    stake = None
    if row["stake"]:
        stake, _ = parse_stake(json.loads(row["stake"]))
    return Match(
        variant=row["variant"],
        players=json.loads(row["players"]),
        options=json.loads(row["options"] or "{}"),
        hands=records,
        title=row["title"] or None,
        stake=stake,
    )


def load_match(db: Database, match_id: int) -> StoredMatch | None:
    rows = list(db["matches"].rows_where("id = ?", [match_id]))
    if not rows:
        return None
    row = rows[0]
    hands, deleted, deleted_at = [], None, ""
    for hand in db["hands"].rows_where("match_id = ?", [match_id], order_by="position"):
        stored = StoredHand(hand["id"], hand["position"], json.loads(hand["record"]))
        if hand["deleted"] is None:
            hands.append(stored)
        elif hand["deleted"] >= deleted_at:
            deleted, deleted_at = stored, hand["deleted"]
    match = _match_from_row(row, [h.record for h in hands])
    return StoredMatch(row["id"], match, hands, deleted, row["created"], row["updated"])


def list_matches(db: Database) -> list[dict[str, Any]]:
    """Every match, newest first, with its number of hands in play."""
    sql = """
        select m.id, m.variant, m.title, m.players, m.created, m.updated,
               count(h.id) as hands
        from matches m left join hands h on h.match_id = m.id and h.deleted is null
        group by m.id order by m.updated desc, m.id desc
    """
    return [{**row, "players": json.loads(row["players"])} for row in db.query(sql)]


# --- writing: every write is one transaction ---------------------------------


def _row(match: Match, stamp: str) -> dict[str, Any]:
    return {
        "variant": match.variant,
        "title": match.title or "",
        "players": json.dumps(match.players, ensure_ascii=False),
        "options": json.dumps(match.options, ensure_ascii=False),
        "stake": json.dumps(match.stake.as_json()) if match.stake else None,
        "updated": stamp,
    }


def create_match(db: Database, match: Match) -> int:
    """Store a new (already validated) match with its hands."""
    stamp = now()
    with db.atomic():
        match_id = db["matches"].insert({**_row(match, stamp), "created": stamp}).last_pk
        db["hands"].insert_all(
            {
                "match_id": match_id,
                "position": i,
                "record": _dump(record),
                "deleted": None,
                "created": stamp,
            }
            for i, record in enumerate(match.hands, 1)
        )
    return match_id


def _dump(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


def change_hands(
    db: Database,
    match_id: int,
    change: Callable[[StoredMatch], tuple[str, int | None, dict[str, Any] | None]],
) -> Any:
    """Apply one change to a match's hands inside one transaction.

    `change` gets the stored match (read inside the transaction) and returns
    (action, hand id, record) after validating the result by replaying it; if it
    raises, nothing is written. Actions: "append", "replace", "delete", "restore".
    """
    with db.atomic():
        stored = load_match(db, match_id)
        if stored is None:
            raise LookupError(match_id)
        action, hand_id, record = change(stored)
        stamp = now()
        hands = db["hands"]
        if action == "append":
            last = max((h.position for h in stored.hands), default=0)
            if stored.deleted is not None:
                last = max(last, stored.deleted.position)
            hand_id = hands.insert(
                {
                    "match_id": match_id,
                    "position": last + 1,
                    "record": _dump(record),
                    "deleted": None,
                    "created": stamp,
                }
            ).last_pk
        elif action == "replace":
            hands.update(hand_id, {"record": _dump(record)})
        elif action == "delete":
            # Only one deletion can be undone: forget any older one for good.
            db.execute("delete from hands where match_id = ? and deleted is not null", [match_id])
            hands.update(hand_id, {"deleted": stamp})
        elif action == "restore":
            hands.update(hand_id, {"deleted": None})
        else:
            raise ValueError(action)
        db["matches"].update(match_id, {"updated": stamp})
        return hand_id


def update_match(db: Database, match_id: int, *, title: str | None, stake: Stake | None) -> None:
    with db.atomic():
        db["matches"].update(
            match_id,
            {
                "title": title or "",
                "stake": json.dumps(stake.as_json()) if stake else None,
                "updated": now(),
            },
        )


def delete_match(db: Database, match_id: int) -> None:
    with db.atomic():
        db.execute("delete from hands where match_id = ?", [match_id])
        db["matches"].delete(match_id)
