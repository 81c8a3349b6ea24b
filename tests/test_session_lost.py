"""A form sent without its session (issue 17, point 12): a phone whose cookies were
cleared, or a server given a new secret key since the form was drawn. Nothing is
saved; the answer is the app's own "Not saved" page, and a hand form comes back
with what was entered and a fresh token, so one more tap saves it. CSRF is on
here, as when served."""

from __future__ import annotations

import re

import pytest

from scorekeeper import db as store
from scorekeeper.app import create_app
from tests.webtools import checked, items, parse, visible_text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
LOST = (
    "this phone's session was lost (its cookies were cleared, or Scorekeeper was given"
    " a new key), so the form could not be checked. Your entries are below: check them"
    " and tap Save again."
)
SHOWN = "T" + LOST[1:]  # in the list of what was not saved
_HIDDEN = re.compile(r'<input[^>]*name="(csrf_token|revision|key)"[^>]*value="([^"]*)"')


def hidden(page: str) -> dict[str, str]:
    """The first form's token, revision and one-time key."""
    found: dict[str, str] = {}
    for name, value in _HIDDEN.findall(page):
        found.setdefault(name, value)
    return found


@pytest.fixture
def app(store_path):
    return create_app({"TESTING": True, "DATABASE": store_path, "SECRET_KEY": "a" * 64})


def start(client) -> str:
    form = hidden(client.get("/new").text)
    answer = client.post(
        "/new",
        data={
            "csrf_token": form["csrf_token"],
            "key": form["key"],
            "variant": "rubber",
            **{f"player{i}": name for i, name in enumerate(PLAYERS, 1)},
        },
    )
    assert answer.status_code == 302, answer.text
    return re.search(r"/m/([\w-]{16})/", answer.location).group(1)


def hands(app, match_id: str) -> list[dict]:
    return store.load_match(store.connect(app.config["DATABASE"]), match_id).match.hands


HAND = {"declarer": "Bob", "level": "3", "strain": "NT", "tricks": "9"}


def test_a_hand_form_without_its_session_is_drawn_again_and_saves_with_one_more_tap(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/hand/new").text)
    client.delete_cookie("session")  # the phone's cookies were cleared
    answer = client.post(f"/m/{match_id}/hand/new", data={**drawn, **HAND})
    assert answer.status_code == 400
    text = visible_text(answer)
    assert f"Not saved. {SHOWN}" in text
    assert "Bad Request" not in text and "CSRF" not in text
    assert hands(app, match_id) == []
    # The entries are on the screen again, with a new token for this session.
    assert checked(answer.text, "declarer") == ["Bob"]
    assert checked(answer.text, "level") == ["3"]
    assert checked(answer.text, "strain") == ["NT"]
    assert checked(answer.text, "tricks") == ["9"]
    again = hidden(answer.text)
    assert again["csrf_token"] and again["csrf_token"] != drawn["csrf_token"]
    assert again["revision"] == drawn["revision"] == "1"
    saved = client.post(f"/m/{match_id}/hand/new", data={**again, **HAND})
    assert saved.status_code == 302
    assert hands(app, match_id) == [{"declarer": "Bob", "contract": "3NT", "tricks": 9}]


def test_after_a_new_secret_key_the_form_is_drawn_again_not_a_bare_400(app, tmp_path):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/hand/new").text)
    app.config["SECRET_KEY"] = "b" * 64  # the server restarted with another key
    answer = client.post(f"/m/{match_id}/hand/new", data={**drawn, **HAND})
    assert answer.status_code == 400
    assert SHOWN in visible_text(answer)
    assert checked(answer.text, "declarer") == ["Bob"]
    saved = client.post(f"/m/{match_id}/hand/new", data={**hidden(answer.text), **HAND})
    assert saved.status_code == 302
    assert len(hands(app, match_id)) == 1


def test_a_lost_session_on_a_stale_hand_form_names_what_changed_and_saves_nothing(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/hand/new").text)
    other = app.test_client()  # another phone saves hand 1 meanwhile
    theirs = hidden(other.get(f"/m/{match_id}/hand/new").text)
    mine = {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "7"}
    assert other.post(f"/m/{match_id}/hand/new", data={**theirs, **mine}).status_code == 302
    client.delete_cookie("session")
    answer = client.post(f"/m/{match_id}/hand/new", data={**drawn, **HAND})
    assert answer.status_code == 409
    text = visible_text(answer)
    assert f"Not saved: {LOST}" in text
    assert "Not saved: the match changed since this form was drawn." in text
    assert "Hand 1 saved: 1♣ by Ann" in text
    # The other phone saved the hand this form was for: both versions, keep theirs first.
    assert items(answer.text, "same-deal-differences") == [
        "Declarer: theirs Ann · yours Bob",
        "Level: theirs 1 · yours 3",
        "Strain: theirs ♣ · yours NT",
        "Tricks won by declarer's side: theirs 7 · yours 9",
    ]
    assert "Same deal — keep theirs, discard mine" in text
    assert checked(answer.text, "declarer") == ["Bob"]
    assert hidden(answer.text)["revision"] == "2"  # drawn again on the match as it is now
    assert len(hands(app, match_id)) == 1


def test_an_edit_form_without_its_session_keeps_the_edit(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/hand/new").text)
    client.post(f"/m/{match_id}/hand/new", data={**drawn, **HAND})
    edit = hidden(client.get(f"/m/{match_id}/hand/1").text)
    client.delete_cookie("session")
    changed = {**HAND, "tricks": "10"}
    answer = client.post(f"/m/{match_id}/hand/1", data={**edit, **changed})
    assert answer.status_code == 400
    assert SHOWN in visible_text(answer)
    assert checked(answer.text, "tricks") == ["10"]
    assert hands(app, match_id) == [{"declarer": "Bob", "contract": "3NT", "tricks": 9}]


def test_a_new_match_form_without_its_session_keeps_the_players_typed(app):
    client = app.test_client()
    drawn = hidden(client.get("/new").text)
    client.delete_cookie("session")
    typed = {
        "variant": "chicago",
        "player1": "Zoë",
        "player2": "Bob",
        "player3": "Cy",
        "player4": "Dee",
        "title": "Friday",
        "stake_amount": "0.10",
        "stake_per": "100",
    }
    answer = client.post("/new", data={**drawn, **typed})
    assert answer.status_code == 400
    assert f"Not started. {SHOWN}" in visible_text(answer)
    page = parse(answer.text)
    values = {
        e.attrs["name"]: e.attrs.get("value")
        for e in page.find_all("input")
        if e.attrs.get("type") not in ("hidden", "radio") and e.attrs.get("name") in typed
    }
    assert {k: v for k, v in values.items() if v} == {
        k: v for k, v in typed.items() if k != "variant"
    }
    assert checked(answer.text, "variant") == ["chicago"]
    assert list(store.connect(app.config["DATABASE"]).query("select id from matches")) == []
    again = client.post("/new", data={**hidden(answer.text), **typed})
    assert again.status_code == 302


def test_a_settings_form_without_its_session_keeps_the_title_typed(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/settings").text)
    client.delete_cookie("session")
    typed = {"title": "Friday", "stake_amount": "0.50", "stake_per": "1", "stake_currency": "EUR"}
    answer = client.post(f"/m/{match_id}/settings", data={**drawn, **typed})
    assert answer.status_code == 400
    assert f"Not saved. {SHOWN}" in visible_text(answer)
    assert 'value="Friday"' in answer.text and 'value="EUR"' in answer.text
    assert store.revision(store.connect(app.config["DATABASE"]), match_id) == 1
    saved = client.post(f"/m/{match_id}/settings", data={**hidden(answer.text), **typed})
    assert saved.status_code == 302
    assert store.revision(store.connect(app.config["DATABASE"]), match_id) == 2


def test_a_stale_settings_form_without_its_session_names_the_other_change(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}/settings").text)
    other = app.test_client()
    theirs = hidden(other.get(f"/m/{match_id}/settings").text)
    blank = {"stake_amount": "", "stake_per": "", "stake_currency": ""}
    assert (
        other.post(
            f"/m/{match_id}/settings", data={**theirs, **blank, "title": "Theirs"}
        ).status_code
        == 302
    )
    client.delete_cookie("session")
    answer = client.post(f"/m/{match_id}/settings", data={**drawn, **blank, "title": "Mine"})
    assert answer.status_code == 409
    text = visible_text(answer)
    assert f"Not saved: {LOST}" in text
    assert "Not saved: the match changed since this form was drawn." in text
    assert 'value="Mine"' in answer.text
    assert store.load_match(store.connect(app.config["DATABASE"]), match_id).title == "Theirs"


def test_a_one_tap_form_answers_the_apps_page_with_a_way_back(app):
    client = app.test_client()
    match_id = start(client)
    drawn = hidden(client.get(f"/m/{match_id}").text)
    client.delete_cookie("session")
    answer = client.post(
        f"/m/{match_id}/undo",
        data=drawn,
        headers={"Referer": f"http://localhost/m/{match_id}"},
    )
    assert answer.status_code == 400
    text = visible_text(answer)
    assert "Not saved: this phone's session was lost" in text
    assert "Back to the form" in text
    assert f'href="http://localhost/m/{match_id}"' in answer.text
    assert f'href="/m/{match_id}"' in answer.text
    assert 'href="/"' in answer.text
    assert store.revision(store.connect(app.config["DATABASE"]), match_id) == 1


def test_a_referrer_from_another_site_is_no_way_back(app):
    client = app.test_client()
    match_id = start(client)
    client.delete_cookie("session")
    answer = client.post(
        f"/m/{match_id}/settings",
        data={"title": "x"},
        headers={"Referer": "http://evil.example/form"},
    )
    assert answer.status_code == 400
    assert "evil.example" not in answer.text
    assert "Back to the form" not in visible_text(answer)
    assert f'href="/m/{match_id}"' in answer.text
