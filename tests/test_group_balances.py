"""A group's balances that read right (issue #27 item 6): the matches listed as
played, newest first with their start times, deleted matches off the list, and
a period "since the last settle-up", the default once the group has settled."""

from __future__ import annotations

import time

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.matchfile import from_document
from tests.test_ledger import CALYPSO, CHICAGO, RUBBER, TOP_GAME
from tests.webtools import items, visible_text


@pytest.fixture(autouse=True)
def in_utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def group_of(db, matches) -> tuple[str, list[str]]:
    """A group of Ann, Bob, Cy, Dee with `matches`: (document, title, start stamp)."""
    made = g.create_group(db, "Friday four", ["Ann", "Bob", "Cy", "Dee"])
    ids = []
    for doc, title, started in matches:
        doc = {k: v for k, v in doc.items() if k != "played"}
        with store.writing(db):
            match_id = store.create_match(db, from_document({**doc, "title": title})).match_id
            db.execute(
                "update matches set created = ?, played = null where id = ?", [started, match_id]
            )
        g.apply_group(db, made.group_id, g.GroupCommand(g.ADD_MATCH, {"match": match_id}))
        ids.append(match_id)
    return made.group_id, ids


def test_the_matches_are_listed_newest_played_first_with_their_start_times(client, db):
    group_id, _ = group_of(
        db,
        [
            (TOP_GAME, "Early", "2026-11-20T19:05:00.000+00:00"),
            (CHICAGO, "Late", "2026-11-21T00:30:00.000+00:00"),  # Friday's, after midnight
            (RUBBER, "Saturday", "2026-11-21T19:00:00.000+00:00"),
            (CALYPSO, "Second", "2026-11-20T21:40:00.000+00:00"),
        ],
    )
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    listed = [" ".join(item.split()[:7]) for item in items(page, "group-matches")]
    assert listed == [
        "Saturday 21 Nov 2026 · started 19:00",
        "Late 20 Nov 2026 · started 00:30",
        "Second 20 Nov 2026 · started 21:40",
        "Early 20 Nov 2026 · started 19:05",
    ]


def test_a_deleted_match_is_off_the_list_and_counted_in_a_note(client, db):
    group_id, (kept, deleted) = group_of(
        db,
        [
            (TOP_GAME, "Kept", "2026-11-20T19:05:00.000+00:00"),
            (CHICAGO, "Gone", "2026-11-20T21:00:00.000+00:00"),
        ],
    )
    store.apply(db, deleted, store.Command("delete_match"))
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert [item.split()[0] for item in items(page, "group-matches")] == ["Kept"]
    assert (
        "1 match deleted at its table is not listed: it counts nowhere unless it is"
        " brought back there." in visible_text(page)
    )
