"""Each migration of the store, frozen with the schema and the data it knew.

A migration never calls today's table definitions, row helpers or list of
games (this module imports nothing of the app; m002 writes the names of the
games as they were then, M002_GAME_NAMES): an old
database upgraded years from now must go through exactly the steps it would
have gone through the day each migration was written. Every table is written
out once, by the migration that made it; later ones alter what is there.
`db.migrate` applies the pending ones.
"""

from __future__ import annotations

import json
import secrets
from contextlib import suppress
from datetime import date, datetime, timedelta

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

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


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# The games as m002 knew them (23 November 2026), for the first change's words.
M002_GAME_NAMES = {
    "top-game": "The Top Game",
    "need-a-fourth": "Need a Fourth?",
    "bridge-for-three": "Bridge for Three",
    "mini-bridge": "Mini Bridge",
    "mini-bridge-3": "Mini Bridge for three",
    "rubber": "Rubber bridge",
    "honeymoon": "Honeymoon bridge",
    "chicago": "Chicago",
    "calypso": "Calypso",
}


@migrations()
def m002_change_log(db: Database) -> None:
    """Keep every change instead of the current hands; a watch token per match."""
    db["changes"].create(
        {
            "match_id": int,
            "revision": int,
            "kind": str,
            "hand": int,  # the hand's key (1, 2, 3… in the order first saved)
            "record": str,  # JSON hand record
            "hands": str,  # JSON list (create: an imported file's hands)
            "settings": str,  # JSON {"title", "stake"}
            "undoes": int,
            "summary": str,
            "device": str,
            "created": str,
            "submission": str,  # the form's one-time key
        },
        pk=("match_id", "revision"),
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"kind", "created"},
    )
    db["changes"].create_index(["submission"], unique=True)
    for row in list(db["matches"].rows):
        old = list(db["hands"].rows_where("match_id = ?", [row["id"]], order_by="position"))
        variant = M002_GAME_NAMES.get(row["variant"], row["variant"])
        summary = f"Match started: {variant}, {' · '.join(json.loads(row['players']))}"
        if old:
            summary += f", with {len(old)} hands from a match file"
        # The first change: the match as it was, its hands imported all at once.
        db["changes"].insert(
            {
                "match_id": row["id"],
                "revision": 1,
                "kind": "create",
                "hands": _json([json.loads(h["record"]) for h in old]),
                "settings": _json(
                    {"title": row["title"] or "", "stake": json.loads(row["stake"] or "null")}
                ),
                "summary": summary,
                "device": "a phone",
                "created": row["created"],
            }
        )
        for key, hand in enumerate(old, 1):
            if hand["deleted"] is not None:  # the one deletion that could be undone
                db["changes"].insert(
                    {
                        "match_id": row["id"],
                        "revision": 2,
                        "kind": "delete",
                        "hand": key,
                        "summary": "",
                        "device": "a phone",
                        "created": hand["deleted"],
                    }
                )
    db["hands"].drop()
    db["matches"].add_column("watch", str)
    for row in list(db["matches"].rows):
        db["matches"].update(row["id"], {"watch": secrets.token_urlsafe(16)})
    db["matches"].transform(drop={"title", "stake", "updated"})
    db["matches"].create_index(["watch"], unique=True)


@migrations()
def m003_unguessable_match_ids(db: Database) -> None:
    """Matches were numbered 1, 2, 3…: anyone could open another table's match.
    Give each an id of 96 random bits (16 characters); its changes follow it."""
    db["matches"].transform(types={"id": str})
    db["changes"].transform(types={"match_id": str})
    # A match and its changes get the new id one after the other: checked at commit.
    db.execute("PRAGMA defer_foreign_keys = ON")
    for (old,) in db.execute("select id from matches order by id").fetchall():
        new = secrets.token_urlsafe(12)
        db.execute("update changes set match_id = ? where match_id = ?", [new, old])
        db.execute("update matches set id = ? where id = ?", [new, old])


@migrations()
def m004_groups(db: Database) -> None:
    """Groups: the players who meet every Friday, their matches, the payments
    between them, and every change of a group kept like a match's."""
    db["groups"].create(
        {
            "id": str,  # 96 random bits, like a match's id
            "watch": str,  # the read-only address's token
            "name": str,
            "stakes": str,  # JSON {game id or "*": stake as in a match file}
            "revision": int,  # the newest change's revision
            "serial": int,  # the last id given to a member or payment (never reused)
            "created": str,
            "updated": str,
        },
        pk="id",
        not_null={"watch", "name", "revision", "created", "updated"},
    )
    db["groups"].create_index(["watch"], unique=True)
    db["group_members"].create(
        {
            "group_id": str,
            "id": int,  # the member's number in the group: match mappings name it
            "name": str,
            "position": int,  # the chosen order, 1, 2, 3…
        },
        pk=("group_id", "id"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null={"name", "position"},
    )
    db["group_matches"].create(
        {
            "group_id": str,
            "match_id": str,
            "mapping": str,  # JSON {player name in the match: member id}
            "added": str,
        },
        pk=("group_id", "match_id"),
        foreign_keys=[("group_id", "groups", "id"), ("match_id", "matches", "id")],
        not_null={"mapping", "added"},
    )
    db["group_matches"].create_index(["match_id"])
    db["group_payments"].create(
        {
            "group_id": str,
            "id": int,
            "payer": int,  # member ids
            "payee": int,
            "amount": str,  # a decimal as text, "7.50"
            "currency": str,
            "date": str,  # the day it was paid, YYYY-MM-DD
            "device": str,  # the phone that recorded it
            "created": str,
        },
        pk=("group_id", "id"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null={"payer", "payee", "amount", "date", "created"},
    )
    db["group_changes"].create(
        {
            "group_id": str,
            "revision": int,
            "kind": str,
            "asked": str,  # JSON: what the form asked for (a resent form is known by it)
            "before": str,  # JSON {part: value before} of each part changed ("member:3")
            "after": str,  # JSON {part: value after}; null: the part is gone
            "undoes": int,
            "summary": str,
            "device": str,
            "created": str,
            "submission": str,  # the form's one-time key
        },
        pk=("group_id", "revision"),
        foreign_keys=[("group_id", "groups", "id")],
        not_null={"kind", "created"},
    )
    db["group_changes"].create_index(["submission"], unique=True)


@migrations()
def m005_hand_numbers(db: Database) -> None:
    """Keep with each hand change the number players read for the hand then (a
    redeal is not a hand: it bears the number of the hand dealt again), and
    whether it was a hand. Older changes keep NULL: their place stands in."""
    db["changes"].add_column("hand_number", int)
    db["changes"].add_column("counted", int)


@migrations()
def m006_match_summaries(db: Database) -> None:
    """Each match's ledger summary kept at the revision it was replayed at, so a
    group's ledger and statistics need not replay every match on every page. A
    kept summary is only ever a copy: when its revision is not the match's
    newest, or its shape is not today's, the match is replayed again."""
    db["match_summaries"].create(
        {
            "match_id": str,
            "revision": int,  # the match's newest change when it was replayed
            "summary": str,  # JSON: MatchSummary.as_json(), or why it cannot be read
            "listing": str,  # JSON: title, state words, deleted: the group page's match line
        },
        pk="match_id",
        foreign_keys=[("match_id", "matches", "id")],
        not_null={"revision", "summary", "listing"},
    )


def _m007_evening(created: str) -> str:
    """The evening rule as m007 knew it: the day a match was started, in this
    server's time, or the day before when started after midnight and before 06:00."""
    moment = datetime.fromisoformat(created)
    with suppress(OverflowError, ValueError):  # the calendar's ends: read in its own offset
        moment = moment.astimezone()
    day = moment.date()
    if moment.hour < 6 and day > date.min:
        day -= timedelta(days=1)
    return day.isoformat()


@migrations()
def m007_day_played(db: Database) -> None:
    """Keep with each match the day it was played (a match file's `played`),
    filled for the matches already here from when each was started, by the
    evening rule. A change of the day in the match's settings is a change of
    its log, like the title and the stake."""
    db["matches"].add_column("played", str)
    for row in list(db.query("select id, created from matches")):
        try:
            day = _m007_evening(row["created"])
        except (TypeError, ValueError):
            continue  # a stamp it cannot read: the app reads the day from it as it can
        db.execute("update matches set played = ? where id = ?", [day, row["id"]])


@migrations()
def m008_retired_members(db: Database) -> None:
    """A member can be retired: out of the member list and of new matches, kept in
    the matches they played. Every member stored before is not retired."""
    db["group_members"].add_column("retired", int, not_null_default=0)
