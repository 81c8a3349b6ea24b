"""The live table through the test client: the revision poll, the watch address,
phone names, history with bring-back, undo of any change, a busy store."""

from __future__ import annotations

import re
import sqlite3

import pytest
from flask.testing import FlaskClient

from scorekeeper import db as store
from tests.webtools import texts, visible_text

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
H1 = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
H2 = {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "7"}
STAKE_FIELDS = {"stake_amount": "", "stake_per": "", "stake_currency": ""}


def start(actions) -> str:
    """A rubber bridge match for the four players."""
    return actions.start("rubber", PLAYERS)


def addresses(page) -> list[str]:
    """The web addresses a page shows for a player to read or copy."""
    return re.findall(r"https?://\S+", visible_text(page))


def test_live_answers_304_until_the_match_changes(actions, client):
    match_id = start(actions)
    first = client.get(f"/m/{match_id}/live?since=1")
    assert first.json == {"revision": 1, "changes": [], "deleted": False, "hands_changed": False}
    etag = first.headers["ETag"]
    assert (
        client.get(f"/m/{match_id}/live?since=1", headers={"If-None-Match": etag}).status_code
        == 304
    )
    actions.save_hand(match_id, H1)
    changed = client.get(f"/m/{match_id}/live?since=1", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.json["revision"] == 2 and changed.json["hands_changed"] is True
    assert changed.json["changes"] == [
        "Hand 1 saved: 4♠ by Ann, made · Ann +120, Cy +120 — from another phone, a moment ago"
    ]
    assert client.get("/m/999/live").status_code == 404


def test_the_watch_address_shows_the_sheet_and_changes_nothing(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    (watch,) = [
        address.removeprefix("http://localhost")
        for address in addresses(actions.page(f"/m/{match_id}"))
        if re.fullmatch(r"http://localhost/w/[A-Za-z0-9_-]{20,}", address)
    ]
    page = actions.page(watch)
    # The markup itself: no form to post, no link to the match's own (writable) address.
    assert "<form" not in page and f"/m/{match_id}" not in page
    shown = visible_text(page)
    assert "We: 4S by Ann made: 4 × 30 = 120 below the line" in shown
    assert "Totals Ann Bob Cy Dee +120 0 +120 0" in shown
    for write in (watch, watch + "/live", watch + "/hand/new", watch + "/delete"):
        refused = client.post(write, data={"revision": "2"})
        assert refused.status_code == 403
        assert "Nothing was changed: this is a watch address." in visible_text(refused)
    assert client.get(watch + "/live").json["revision"] == 2
    assert client.get("/w/not-a-real-token-at-all").status_code == 404


def test_the_share_panel_draws_both_qr_codes_locally(actions):
    match_id = start(actions)
    page = actions.page(f"/m/{match_id}")
    assert page.count('<svg viewBox="0 0') >= 2 and page.count('class="qr"') == 2
    assert f"http://localhost/m/{match_id}" in addresses(page)


def test_a_named_phone_is_named_in_the_history(actions, client):
    match_id = start(actions)
    named = client.post("/phone", data={"name": "  Ann's   phone ", "next": f"/m/{match_id}"})
    assert named.status_code == 302 and named.location == f"/m/{match_id}"
    actions.save_hand(match_id, H1)
    history = actions.text(f"/m/{match_id}/history")
    assert "Hand 1 saved: 4♠ by Ann, made · Ann +120, Cy +120" in history
    assert "a moment ago · Ann's phone" in history
    assert "Match started: Rubber bridge, Ann · Bob · Cy · Dee" in history
    assert client.post("/phone", data={"name": "x", "next": "//evil.example"}).location == "/"


def test_history_brings_back_the_earlier_version_of_an_edited_hand(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    actions.save_hand(match_id, H2, hand=1)
    assert actions.hands(match_id) == [{"declarer": "Bob", "contract": "2H", "tricks": 7}]
    history = actions.text(f"/m/{match_id}/history")
    assert "Hand 1 changed to 2♥ by Bob, down 1 · Ann +50, Cy +50 (was: 4♠ by Ann, made" in history
    answer = client.post(
        f"/m/{match_id}/history/3/restore",
        data={"version": "before", "revision": str(actions.revision(match_id))},
    )
    assert "Brought back. Hand 1 changed to 4♠ by Ann, made" in actions.followed(answer)
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]


def test_history_brings_back_a_deleted_hand_in_its_place(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    actions.save_hand(match_id, H2)
    client.post(f"/m/{match_id}/hand/1/delete")
    client.post(f"/m/{match_id}/history/4/restore", data={"version": "before"})
    assert [h["declarer"] for h in actions.hands(match_id)] == ["Ann", "Bob"]


def test_undo_takes_back_the_last_change_of_any_kind_one_step_at_a_time(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    actions.save_hand(match_id, H2, hand=1)
    refused = client.post(
        f"/m/{match_id}/settings", data={**STAKE_FIELDS, "title": "Fri", "stake_amount": "0.5.0"}
    )
    assert refused.status_code == 200
    assert "'0.5.0' is not an amount: write it like 0.50 or 0,50" in visible_text(refused)
    client.post(
        f"/m/{match_id}/settings", data={**STAKE_FIELDS, "title": "Friday", "stake_amount": "0,50"}
    )
    assert "Undo the last change" in actions.text(f"/m/{match_id}")
    undone = actions.followed(client.post(f"/m/{match_id}/undo"))
    assert "Undone: Title “Friday”, stake 0.50 per point." in undone
    client.post(f"/m/{match_id}/undo")
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]
    client.post(f"/m/{match_id}/undo")
    assert actions.hands(match_id) == []
    nothing = actions.followed(client.post(f"/m/{match_id}/undo"))
    assert "There is nothing to undo." in nothing


def test_a_stale_undo_is_refused_rather_than_undoing_another_phones_change(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    drawn = actions.revision(match_id)
    actions.save_hand(match_id, H2)
    answer = client.post(f"/m/{match_id}/undo", data={"revision": str(drawn)})
    assert "Not done: the match changed since this page was drawn." in actions.followed(answer)
    assert len(actions.hands(match_id)) == 2


def test_a_form_without_its_revision_stores_nothing(actions, client):
    match_id = start(actions)
    # The plain test client's post: the table client would add the current revision.
    raw = FlaskClient.post(client, f"/m/{match_id}/hand/new", data=H1)
    assert raw.status_code == 200
    assert "This form is incomplete" in visible_text(raw)
    assert actions.hands(match_id) == []


def test_a_busy_store_answers_503_and_stores_nothing(app, actions, monkeypatch):
    match_id = start(actions)
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        busy = actions.post_hand(match_id, H1)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert busy.status_code == 503
    message = "Not saved: the score store cannot be written right now (disk full / read-only);"
    assert message in visible_text(busy)
    assert busy.headers["Retry-After"] == "2"
    assert actions.hands(match_id) == []


@pytest.mark.parametrize("path", ["/m/{id}/hand/new", "/m/{id}/settings", "/m/{id}/undo"])
def test_a_repeated_submission_key_answers_as_the_first_time(actions, client, path):
    match_id = start(actions)
    actions.save_hand(match_id, H1)
    url = path.format(id=match_id)
    data = {
        **H2,
        **STAKE_FIELDS,
        "title": "Sat",
        "revision": str(actions.revision(match_id)),
        "key": "k" * 22,
    }
    first = client.post(url, data=data)
    second = client.post(url, data=data)
    assert first.status_code == second.status_code == 302
    # The point here: the repeat is answered exactly as the first, wherever that leads.
    assert first.location == second.location
    assert actions.revision(match_id) == 3


def test_a_repeated_save_whose_first_answer_was_never_shown_says_saved_once(actions, client):
    # A double tap: the phone drops the first answer (its flash already in the
    # session) and follows the second, which says the same thing again.
    match_id = start(actions)
    data = {**H1, "revision": str(actions.revision(match_id)), "key": "d" * 22}
    first = client.post(f"/m/{match_id}/hand/new", data=data)
    second = client.post(f"/m/{match_id}/hand/new", data=data)
    assert first.location == second.location
    shown = texts(actions.page(second.location), "flash-undo")
    assert shown == ["Hand 1 saved. Undo Ann & Cy 120 · Bob & Dee 0"]
    assert len(actions.hands(match_id)) == 1


def test_a_start_form_reusing_a_key_already_spent_on_a_hand_still_starts_a_match(actions, client):
    match_id = start(actions)
    actions.save_hand(match_id, H1, key="k" * 22)
    data = {"variant": "rubber", "key": "k" * 22}
    data.update({f"player{i}": p for i, p in enumerate(PLAYERS, 1)})
    answer = client.post("/new", data=data)
    assert answer.status_code == 302
    # A new match and its first hand's form, not a replay of the answer the key first got.
    other = re.fullmatch(r"/m/([\w-]{16})/hand/new", answer.location).group(1)
    assert other != match_id


def test_opened_on_this_machine_the_qr_codes_carry_the_network_address(app, actions, client):
    app.config["SHARE_URL"] = "http://192.168.1.5:8000/"
    match_id = start(actions)
    assert f"http://192.168.1.5:8000/m/{match_id}" in addresses(actions.page(f"/m/{match_id}"))
    lan = client.get(f"/m/{match_id}", base_url="http://10.0.0.7:8000")
    assert f"http://10.0.0.7:8000/m/{match_id}" in addresses(lan)


def test_problems_land_on_their_fields_by_structure_not_by_text(app):
    from scorekeeper.games.common import Problem
    from scorekeeper.views.commands import place_problems

    class Field:
        def __init__(self):
            self.errors = []

    fields = {"tricks": Field(), "amount": Field()}
    problems = [
        Problem("14 is not allowed; 0–13", "tricks", 3),
        Problem("'x' is not a player", "declarer", 3),  # a field this form lacks
        Problem("would no longer be valid", "contract", 5),  # a later hand
        Problem("'-1' must be zero or more", "amount", within="stake"),  # the match's
    ]
    other = [str(p) for p in place_problems(problems, fields.get, number=3)]
    assert fields["tricks"].errors == ["14 is not allowed; 0–13"]
    assert fields["amount"].errors == []
    assert other == [
        "hand 3: declarer: 'x' is not a player",
        "hand 5: contract: would no longer be valid",
        "stake: amount: '-1' must be zero or more",
    ]
    assert place_problems(problems[3:], fields.get) == []
    assert fields["amount"].errors == ["'-1' must be zero or more"]
