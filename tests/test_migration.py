"""Upgrading a database written before the change log: every match, hand and the
one undoable deletion come through, and the matches get watch addresses."""

from __future__ import annotations

import ast
import json
import shutil
from pathlib import Path

import pytest
from sqlite_utils import Database

from scorekeeper import db as store
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.migrations import migrations


def test_old_hands_become_the_first_change_and_the_deleted_hand_stays_deleted(tmp_path):
    path = str(tmp_path / "old.db")
    old = store.connect(path)
    with store.writing(old):
        migrations.apply(old, stop_before="m002_change_log")
    old["matches"].insert(
        {
            "id": 7,
            "variant": "top-game",
            "title": "Friday",
            "players": json.dumps(["Ann", "Bob", "Cy"]),
            "options": "{}",
            "stake": json.dumps({"amount": "0.50", "per": 1, "currency": "EUR"}),
            "created": "2026-11-20T19:00:00+00:00",
            "updated": "2026-11-20T21:00:00+00:00",
        }
    )
    hand = {"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}
    for position, deleted in ((1, None), (2, "2026-11-20T20:00:00+00:00"), (3, None)):
        old["hands"].insert(
            {
                "match_id": 7,
                "position": position,
                "record": json.dumps({**hand, "tricks": 9 + position}),
                "deleted": deleted,
                "created": "2026-11-20T19:30:00+00:00",
            }
        )
    old.close()

    store.migrate(path)
    db = store.connect(path)
    [match_id] = [row["id"] for row in db["matches"].rows]
    state = store.load_match(db, match_id)
    assert [r["tricks"] for r in state.records] == [10, 12]
    assert state.removed == {2: {**hand, "tricks": 11}}
    assert (state.title, state.stake.as_json()) == (
        "Friday",
        {"amount": "0.50", "per": 1, "currency": "EUR"},
    )
    assert [e.change.kind for e in state.log] == ["create", "delete"]
    assert len(state.watch) >= 20
    assert "hands" not in db.table_names()
    assert set(db["matches"].columns_dict) == {
        "id",
        "variant",
        "players",
        "options",
        "created",
        "watch",
        "played",  # m007: the day each match counts for
    }
    assert store.revision(db, match_id) == 2


def test_numbered_matches_get_unguessable_ids_and_their_changes_follow(tmp_path):
    path = str(tmp_path / "numbered.db")
    old = store.connect(path)
    with store.writing(old):
        migrations.apply(old, stop_before="m003_unguessable_match_ids")
    for number, title in ((1, "Friday"), (2, "Saturday")):
        old["matches"].insert(
            {
                "id": number,
                "variant": "rubber",
                "players": json.dumps(["Ann", "Bob", "Cy", "Dee"]),
                "options": "{}",
                "created": "2026-11-20T19:00:00+00:00",
                "watch": f"watch-token-{number}",
            }
        )
        old["changes"].insert(
            {
                "match_id": number,
                "revision": 1,
                "kind": "create",
                "hands": "[]",
                "settings": json.dumps({"title": title, "stake": None}),
                "created": "2026-11-20T19:00:00+00:00",
                "submission": f"start-key-{number}",
            }
        )
        for revision in (2, 3):
            old["changes"].insert(
                {
                    "match_id": number,
                    "revision": revision,
                    "kind": "append",
                    "hand": revision - 1,
                    "record": json.dumps({"declarer": "Ann", "contract": "2H", "tricks": 8}),
                    "created": "2026-11-20T19:30:00+00:00",
                }
            )
    old.close()

    store.migrate(path)
    db = store.connect(path)
    rows = {row["watch"]: row["id"] for row in db["matches"].rows}
    assert set(rows) == {"watch-token-1", "watch-token-2"}
    for number, title in ((1, "Friday"), (2, "Saturday")):
        match_id = rows[f"watch-token-{number}"]
        assert len(match_id) == 16 and not match_id.isdigit()
        state = store.load_match(db, match_id)
        assert (state.title, state.revision, len(state.records)) == (title, 3, 2)
    assert store.load_match(db, 1) is None and store.load_match(db, "1") is None
    assert list(db.query("pragma foreign_key_check")) == []
    assert sorted(db.table_names()) == sorted(
        ["_sqlite_migrations", "changes", "match_summaries", "matches", *GROUP_TABLES]
    )
    unique = {(i.name, i.unique) for t in ("changes", "matches") for i in db[t].indexes}
    assert {("idx_changes_submission", 1), ("idx_matches_watch", 1)} <= unique


# The schema today's migrations end at, as SQLite keeps it (the migrations table aside).
SCHEMA = [
    (
        "changes",
        'CREATE TABLE "changes" (\n   "match_id" TEXT REFERENCES "matches"("id"),\n'
        '   "revision" INTEGER,\n   "kind" TEXT NOT NULL,\n   "hand" INTEGER,\n'
        '   "record" TEXT,\n   "hands" TEXT,\n   "settings" TEXT,\n   "undoes" INTEGER,\n'
        '   "summary" TEXT,\n   "device" TEXT,\n   "created" TEXT NOT NULL,\n'
        '   "submission" TEXT, "hand_number" INTEGER, "counted" INTEGER,\n'
        '   PRIMARY KEY ("match_id", "revision")\n)',
    ),
    (
        "idx_changes_submission",
        'CREATE UNIQUE INDEX "idx_changes_submission"\n    ON "changes" ("submission")',
    ),
    ("idx_matches_watch", 'CREATE UNIQUE INDEX "idx_matches_watch"\n    ON "matches" ("watch")'),
    (
        "matches",
        'CREATE TABLE "matches" (\n   "id" TEXT PRIMARY KEY,\n   "variant" TEXT,\n'
        '   "players" TEXT,\n   "options" TEXT,\n   "created" TEXT,\n   "watch" TEXT\n'
        ', "played" TEXT)',  # m007: the day each match counts for
    ),
    ("sqlite_autoindex_changes_1", None),
    ("sqlite_autoindex_matches_1", None),
]
# m004: groups, their members, matches, payments and changes.
GROUP_TABLES = ["group_changes", "group_matches", "group_members", "group_payments", "groups"]
SCHEMA = sorted(
    SCHEMA
    + [
        (
            "group_changes",
            'CREATE TABLE "group_changes" (\n   "group_id" TEXT REFERENCES "groups"("id"),\n'
            '   "revision" INTEGER,\n   "kind" TEXT NOT NULL,\n   "asked" TEXT,\n'
            '   "before" TEXT,\n   "after" TEXT,\n   "undoes" INTEGER,\n   "summary" TEXT,\n'
            '   "device" TEXT,\n   "created" TEXT NOT NULL,\n   "submission" TEXT,\n'
            '   PRIMARY KEY ("group_id", "revision")\n)',
        ),
        (
            "group_matches",
            'CREATE TABLE "group_matches" (\n   "group_id" TEXT REFERENCES "groups"("id"),\n'
            '   "match_id" TEXT REFERENCES "matches"("id"),\n   "mapping" TEXT NOT NULL,\n'
            '   "added" TEXT NOT NULL,\n   PRIMARY KEY ("group_id", "match_id")\n)',
        ),
        (
            "group_members",
            'CREATE TABLE "group_members" (\n   "group_id" TEXT REFERENCES "groups"("id"),\n'
            '   "id" INTEGER,\n   "name" TEXT NOT NULL,\n   "position" INTEGER NOT NULL,'
            # m007: a member can be retired
            ' "retired" INTEGER NOT NULL DEFAULT 0,\n'
            '   PRIMARY KEY ("group_id", "id")\n)',
        ),
        (
            "group_payments",
            'CREATE TABLE "group_payments" (\n   "group_id" TEXT REFERENCES "groups"("id"),\n'
            '   "id" INTEGER,\n   "payer" INTEGER NOT NULL,\n   "payee" INTEGER NOT NULL,\n'
            '   "amount" TEXT NOT NULL,\n   "currency" TEXT,\n   "date" TEXT NOT NULL,\n'
            '   "device" TEXT,\n   "created" TEXT NOT NULL,\n   PRIMARY KEY ("group_id", "id")\n)',
        ),
        (
            "groups",
            'CREATE TABLE "groups" (\n   "id" TEXT PRIMARY KEY,\n   "watch" TEXT NOT NULL,\n'
            '   "name" TEXT NOT NULL,\n   "stakes" TEXT,\n   "revision" INTEGER NOT NULL,\n'
            '   "serial" INTEGER,\n   "created" TEXT NOT NULL,\n   "updated" TEXT NOT NULL\n)',
        ),
        (
            "idx_group_changes_submission",
            'CREATE UNIQUE INDEX "idx_group_changes_submission"\n'
            '    ON "group_changes" ("submission")',
        ),
        (
            "idx_group_matches_match_id",
            'CREATE INDEX "idx_group_matches_match_id"\n    ON "group_matches" ("match_id")',
        ),
        ("idx_groups_watch", 'CREATE UNIQUE INDEX "idx_groups_watch"\n    ON "groups" ("watch")'),
        *((f"sqlite_autoindex_{table}_1", None) for table in GROUP_TABLES),
        # m005: each match's ledger summary, kept per revision.
        (
            "match_summaries",
            'CREATE TABLE "match_summaries" (\n   "match_id" TEXT PRIMARY KEY REFERENCES'
            ' "matches"("id"),\n   "revision" INTEGER NOT NULL,\n   "summary" TEXT NOT NULL,\n'
            '   "listing" TEXT NOT NULL\n)',
        ),
        ("sqlite_autoindex_match_summaries_1", None),
    ]
)


def schema(path) -> list[tuple[str, str | None]]:
    db = store.connect(str(path))
    try:
        return [
            (row["name"], row["sql"])
            for row in db.query("select name, sql from sqlite_master order by name")
            if row["name"]
            not in ("_sqlite_migrations", "idx__sqlite_migrations_migration_set_name")
        ]
    finally:
        db.close()


NAMES = [m.name for m in migrations.pending(Database(memory=True))]  # every one, in order


def test_the_migrations_are_the_seven_we_shipped():
    assert NAMES == [
        "m001_matches_and_hands",
        "m002_change_log",
        "m003_unguessable_match_ids",
        "m004_groups",
        "m005_hand_numbers",
        "m006_match_summaries",
        "m007_day_played",
        "m008_retired_members",
    ]


@pytest.mark.parametrize("level", range(len(NAMES) + 1))
def test_a_store_left_at_any_level_upgrades_to_the_schema_of_a_fresh_one(tmp_path, level):
    fresh = tmp_path / "fresh.db"
    store.migrate(str(fresh))
    assert schema(fresh) == SCHEMA
    old = tmp_path / "old.db"
    db = store.connect(str(old))
    with store.writing(db):
        if level < len(NAMES):
            migrations.apply(db, stop_before=NAMES[level])
        else:
            migrations.apply(db)
    assert [m.name for m in migrations.applied(db)] == NAMES[:level]
    db.close()
    store.migrate(str(old))
    assert schema(old) == SCHEMA


def test_migrating_a_migrated_copy_only_reads_it(tmp_path, migrated_template):
    copy = tmp_path / "copy.db"
    shutil.copyfile(migrated_template, copy)
    before = copy.read_bytes()
    store.migrate(str(copy))
    assert copy.read_bytes() == before
    assert schema(copy) == SCHEMA


# --- each migration carries what it knew ---------------------------------------------

MIGRATIONS_PY = Path(__file__).resolve().parent.parent / "scorekeeper" / "migrations.py"


def test_the_migrations_import_nothing_of_the_app():
    """Only the standard library and sqlite-utils: a migration that read today's
    list of games (or any helper of today) would upgrade an old store differently
    from the day it was written."""
    tree = ast.parse(MIGRATIONS_PY.read_text(encoding="utf-8"))
    imported = sorted(
        ("." * node.level + (node.module or "")) if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    )
    assert [name for name in imported if name.startswith((".", "scorekeeper"))] == []


def _store_before_the_change_log(path: str, variant: str, players: list[str]) -> None:
    old = store.connect(path)
    with store.writing(old):
        migrations.apply(old, stop_before="m002_change_log")
    old["matches"].insert(
        {
            "id": 1,
            "variant": variant,
            "title": None,
            "players": json.dumps(players),
            "options": "{}",
            "stake": None,
            "created": "2026-11-20T19:00:00+00:00",
            "updated": "2026-11-20T19:00:00+00:00",
        }
    )
    old.close()


def _first_summary(path: str) -> str:
    db = store.connect(path)
    [summary] = [row["summary"] for row in db["changes"].rows_where("revision = 1")]
    db.close()
    return summary


@pytest.mark.parametrize(
    "variant, name",
    [
        ("top-game", "The Top Game"),
        ("need-a-fourth", "Need a Fourth?"),
        ("bridge-for-three", "Bridge for Three"),
        ("mini-bridge", "Mini Bridge"),
        ("mini-bridge-3", "Mini Bridge for three"),
        ("rubber", "Rubber bridge"),
        ("honeymoon", "Honeymoon bridge"),
        ("chicago", "Chicago"),
        ("calypso", "Calypso"),
        ("whist", "whist"),  # a game it never knew keeps its id
    ],
)
def test_the_change_log_migration_names_each_game_as_it_knew_it(tmp_path, variant, name):
    path = str(tmp_path / "old.db")
    _store_before_the_change_log(path, variant, ["Ann", "Bob", "Cy", "Dee"])
    store.migrate(path)
    assert _first_summary(path) == f"Match started: {name}, Ann · Bob · Cy · Dee"


def test_renaming_a_game_today_leaves_what_the_migration_writes(tmp_path, monkeypatch):
    """The names are the ones of 23 November 2026, when the change log came:
    a game renamed since (here, rubber) does not change an old store's upgrade."""
    renamed = type("Renamed", (VARIANTS["rubber"],), {"name": "Rubber bridge, renamed"})
    monkeypatch.setitem(VARIANTS, "rubber", renamed)
    path = str(tmp_path / "old.db")
    _store_before_the_change_log(path, "rubber", ["Ann", "Bob", "Cy", "Dee"])
    store.migrate(path)
    assert _first_summary(path) == "Match started: Rubber bridge, Ann · Bob · Cy · Dee"
