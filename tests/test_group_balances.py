"""A group's balances that read right (issue #27 item 6): the matches listed as
played, newest first with their start times, deleted matches off the list, and
a period "since the last settle-up", the default once the group has settled."""

from __future__ import annotations

import html
import re
import time
from datetime import date, timedelta

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


def mark_all_paid(client, db, group_id) -> None:
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    suggested = re.search(r'name="suggested" value="([^"]*)"', page).group(1)
    data = {
        "all": "1",
        "suggested": html.unescape(suggested),
        "revision": str(g.group_revision(db, group_id)),
        "key": "p" * 16,
    }
    assert client.post(f"/g/{group_id}/pay", data=data).status_code == 302


def test_after_a_settle_up_the_ledger_opens_on_what_was_played_since(client, db):
    # The Top Game of tests/test_ledger.py: Cy pays Bob 9.00 EUR.
    group_id, _ = group_of(db, [(TOP_GAME, "Friday", "2026-11-20T19:05:00.000+00:00")])
    before = visible_text(client.get(f"/g/{group_id}"))
    assert "All time · 1 match counted" in before
    mark_all_paid(client, db, group_id)
    # The day the payments were recorded on, as stored (the clock asked now names
    # the next day when midnight came between the two).
    today = date.fromisoformat(g.load_group(db, group_id).payments[-1].date)
    after = visible_text(client.get(f"/g/{group_id}"))
    # Not the payments' mirror image: the matches settled are behind the period.
    assert f"Since the last settle-up ({today:%-d %b %Y}) · 0 matches counted" in after
    assert "Nothing to settle: no match with a stake was played since the last settle-up." in after
    assert "Cy pays" not in after and "Bob +9.00" not in after and "Bob −9.00" not in after
    everything = visible_text(client.get(f"/g/{group_id}?period=all"))
    assert "All time · 1 match counted" in everything
    assert "Nobody owes anybody anything for this period." in everything
    # A match played after the settle-up counts in it (Cy owes Bob 9.00 again).
    with store.writing(db):
        match_id = store.create_match(
            db, from_document({**TOP_GAME, "played": (today + timedelta(days=1)).isoformat()})
        ).match_id
    g.apply_group(db, group_id, g.GroupCommand(g.ADD_MATCH, {"match": match_id}))
    later = visible_text(client.get(f"/g/{group_id}"))
    assert f"Since the last settle-up ({today:%-d %b %Y}) · 1 match counted" in later
    assert "Cy pays Bob 9.00 EUR" in later


def test_a_group_never_settled_opens_on_all_time_and_offers_the_period(client, db):
    group_id, _ = group_of(db, [(TOP_GAME, "Friday", "2026-11-20T19:05:00.000+00:00")])
    page = client.get(f"/g/{group_id}?period=since-settled")
    assert "Since the start (no settle-up yet) · 1 match counted" in visible_text(page)
    assert "Cy pays Bob 9.00 EUR" in visible_text(page)


def test_a_match_not_started_on_its_day_shows_no_start_time(client, db):
    """An imported file's day, or a day set by hand: the stamp is not a start at
    that table, so no time is shown."""
    group_id, (match_id,) = group_of(db, [(TOP_GAME, "Moved", "2026-11-20T19:05:00.000+00:00")])
    moved = {"title": "Moved", "stake": TOP_GAME.get("stake"), "played": "2026-11-13"}
    store.apply(db, match_id, store.Command("settings", settings=moved))
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert [" ".join(i.split()[:6]) for i in items(page, "group-matches")] == [
        "Moved 13 Nov 2026 · The"
    ]
