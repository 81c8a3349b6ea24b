"""The live table through the test client: the revision poll, the watch address,
phone names, history with bring-back, undo of any change, a busy store."""

from __future__ import annotations

import re
import sqlite3
from html import unescape

import pytest

from scorekeeper import db as store
from tests.webtools import stored_hands

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
H1 = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
H2 = {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "7"}


def start(client) -> str:
    data = {"variant": "rubber", **{f"player{i}": p for i, p in enumerate(PLAYERS, 1)}}
    response = client.post("/new", data=data)
    return re.search(r"/m/([\w-]{16})/", response.location).group(1)


def save(client, match_id, hand=H1, **extra):
    return client.post(f"/m/{match_id}/hand/new", data={**hand, **extra})


def revision(client, match_id) -> int:
    return client.get(f"/m/{match_id}/live").json["revision"]


def visible_text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def test_live_answers_304_until_the_match_changes(client):
    match_id = start(client)
    first = client.get(f"/m/{match_id}/live?since=1")
    assert first.json == {"revision": 1, "changes": [], "deleted": False, "hands_changed": False}
    etag = first.headers["ETag"]
    assert (
        client.get(f"/m/{match_id}/live?since=1", headers={"If-None-Match": etag}).status_code
        == 304
    )
    save(client, match_id)
    changed = client.get(f"/m/{match_id}/live?since=1", headers={"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed.json["revision"] == 2 and changed.json["hands_changed"] is True
    assert changed.json["changes"] == [
        "Hand 1 saved: 4♠ by Ann, made · Ann +120, Cy +120 — from another phone, a moment ago"
    ]
    assert client.get("/m/999/live").status_code == 404


def test_the_watch_address_shows_the_sheet_and_changes_nothing(client):
    match_id = start(client)
    save(client, match_id)
    page = client.get(f"/m/{match_id}").text
    watch = re.search(r"<code>http://localhost(/w/[A-Za-z0-9_-]{20,})</code>", page).group(1)
    shown = client.get(watch)
    assert shown.status_code == 200
    assert "<form" not in shown.text and f"/m/{match_id}" not in shown.text
    assert "4♠" in visible_text(shown.text) or "120" in visible_text(shown.text)
    for write in (watch, watch + "/live", watch + "/hand/new", watch + "/delete"):
        refused = client.post(write, data={"revision": "2"})
        assert refused.status_code == 403
        assert "Nothing was changed: this is a watch address." in refused.text
    assert client.get(watch + "/live").json["revision"] == 2
    assert client.get("/w/not-a-real-token-at-all").status_code == 404


def test_the_share_panel_draws_both_qr_codes_locally(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}").text
    assert page.count('<svg viewBox="0 0') >= 2 and page.count('class="qr"') == 2
    assert f"<code>http://localhost/m/{match_id}</code>" in page


def test_a_named_phone_is_named_in_the_history(client):
    match_id = start(client)
    named = client.post("/phone", data={"name": "  Ann's   phone ", "next": f"/m/{match_id}"})
    assert named.status_code == 302 and named.location == f"/m/{match_id}"
    save(client, match_id)
    history = visible_text(client.get(f"/m/{match_id}/history").text)
    assert "Hand 1 saved: 4♠ by Ann, made · Ann +120, Cy +120" in history
    assert "a moment ago · Ann's phone" in history
    assert "Match started: Rubber bridge, Ann · Bob · Cy · Dee" in history
    assert client.post("/phone", data={"name": "x", "next": "//evil.example"}).location == "/"


def test_history_brings_back_the_earlier_version_of_an_edited_hand(client):
    match_id = start(client)
    save(client, match_id)
    client.post(f"/m/{match_id}/hand/1", data=H2)
    assert stored_hands(client, match_id) == [{"declarer": "Bob", "contract": "2H", "tricks": 7}]
    page = client.get(f"/m/{match_id}/history").text
    assert "Hand 1 changed to 2♥ by Bob, down 1 · Ann +50, Cy +50 (was: 4♠ by Ann, made" in page
    answer = client.post(
        f"/m/{match_id}/history/3/restore",
        data={"version": "before", "revision": str(revision(client, match_id))},
        follow_redirects=True,
    )
    assert "Brought back. Hand 1 changed to 4♠ by Ann, made" in visible_text(answer.text)
    assert stored_hands(client, match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]


def test_history_brings_back_a_deleted_hand_in_its_place(client):
    match_id = start(client)
    save(client, match_id)
    save(client, match_id, H2)
    client.post(f"/m/{match_id}/hand/1/delete")
    client.post(f"/m/{match_id}/history/4/restore", data={"version": "before"})
    assert [h["declarer"] for h in stored_hands(client, match_id)] == ["Ann", "Bob"]


def test_undo_takes_back_the_last_change_of_any_kind_one_step_at_a_time(client):
    match_id = start(client)
    save(client, match_id)
    client.post(f"/m/{match_id}/hand/1", data=H2)
    refused = client.post(
        f"/m/{match_id}/settings",
        data={"title": "Fri", "stake_amount": "0.5.0", "stake_per": "", "stake_currency": ""},
    )
    assert refused.status_code == 200 and "is not a decimal string" in refused.text
    client.post(
        f"/m/{match_id}/settings",
        data={"title": "Friday", "stake_amount": "0,50", "stake_per": "", "stake_currency": ""},
    )
    assert "Undo the last change" in client.get(f"/m/{match_id}").text
    undone = client.post(f"/m/{match_id}/undo", follow_redirects=True).text
    assert "Undone: Title “Friday”, stake 0.50 per point." in visible_text(undone)
    client.post(f"/m/{match_id}/undo")
    assert stored_hands(client, match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]
    client.post(f"/m/{match_id}/undo")
    assert stored_hands(client, match_id) == []
    nothing = client.post(f"/m/{match_id}/undo", follow_redirects=True).text
    assert "There is nothing to undo." in nothing


def test_a_stale_undo_is_refused_rather_than_undoing_another_phones_change(client):
    match_id = start(client)
    save(client, match_id)
    drawn = revision(client, match_id)
    save(client, match_id, H2)
    answer = client.post(
        f"/m/{match_id}/undo", data={"revision": str(drawn)}, follow_redirects=True
    )
    assert "Not done: the match changed since this page was drawn." in answer.text
    assert len(stored_hands(client, match_id)) == 2


def test_a_form_without_its_revision_stores_nothing(app):
    client = app.test_client(use_cookies=True)
    match_id = start(client)
    raw = super(type(client), client).post(f"/m/{match_id}/hand/new", data=H1)
    assert raw.status_code == 200
    assert "This form is incomplete" in raw.text
    assert stored_hands(client, match_id) == []


def test_a_busy_store_answers_503_and_stores_nothing(app, client, monkeypatch):
    match_id = start(client)
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.2)
    holder = sqlite3.connect(app.config["DATABASE"], isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        busy = save(client, match_id)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert busy.status_code == 503
    message = "Not saved: the score store cannot be written right now (disk full / read-only);"
    assert message in busy.text
    assert busy.headers["Retry-After"] == "2"
    assert stored_hands(client, match_id) == []


@pytest.mark.parametrize("path", ["/m/{id}/hand/new", "/m/{id}/settings", "/m/{id}/undo"])
def test_a_repeated_submission_key_answers_as_the_first_time(client, path):
    match_id = start(client)
    save(client, match_id)
    url = path.format(id=match_id)
    data = {
        **H2,
        "title": "Sat",
        "stake_amount": "",
        "stake_per": "",
        "stake_currency": "",
        "revision": str(revision(client, match_id)),
        "key": "k" * 22,
    }
    first = client.post(url, data=data)
    second = client.post(url, data=data)
    assert first.status_code == second.status_code == 302
    assert first.location == second.location
    assert revision(client, match_id) == 3


def test_a_start_form_reusing_a_key_already_spent_on_a_hand_still_starts_a_match(client):
    match_id = start(client)
    save(client, match_id, key="k" * 22)
    data = {"variant": "rubber", "key": "k" * 22}
    data.update({f"player{i}": p for i, p in enumerate(PLAYERS, 1)})
    answer = client.post("/new", data=data)
    assert answer.status_code == 302
    other = re.fullmatch(r"/m/([\w-]{16})/hand/new", answer.location).group(1)
    assert other != match_id


def test_opened_on_this_machine_the_qr_codes_carry_the_network_address(app, client):
    app.config["SHARE_URL"] = "http://192.168.1.5:8000/"
    match_id = start(client)
    page = client.get(f"/m/{match_id}").text
    assert f"<code>http://192.168.1.5:8000/m/{match_id}</code>" in page
    lan = client.get(f"/m/{match_id}", base_url="http://10.0.0.7:8000").text
    assert f"<code>http://10.0.0.7:8000/m/{match_id}</code>" in lan


def test_problems_land_on_their_fields_by_structure_not_by_text(app):
    from scorekeeper.variants import Problem
    from scorekeeper.views import place_problems

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
