"""A form sent without its session (issue 17, point 12): a phone whose cookies were
cleared, or a server given a new secret key since the form was drawn. Nothing is
saved; the answer is the app's own "Not saved" page, and a hand form comes back
with what was entered and a fresh token, so one more tap saves it. CSRF is on
here, as when served."""

from __future__ import annotations

import re

import pytest

from scorekeeper import create_app
from scorekeeper import db as store
from tests.webtools import checked, visible_text

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
def app(tmp_path):
    return create_app(
        {"TESTING": True, "DATABASE": str(tmp_path / "lost.db"), "SECRET_KEY": "a" * 64}
    )


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


@pytest.mark.parametrize(
    "path, back",
    [
        ("/m/{id}/settings", "/m/{id}/settings"),
        ("/m/{id}/undo", "/m/{id}"),
        ("/new", "/new"),
    ],
)
def test_other_forms_answer_the_apps_page_with_a_way_back(app, path, back):
    client = app.test_client()
    match_id = start(client)
    page = client.get(back.format(id=match_id)).text
    drawn = hidden(page)
    client.delete_cookie("session")
    answer = client.post(
        path.format(id=match_id),
        data={**drawn, "title": "Friday", "variant": "rubber"},
        headers={"Referer": f"http://localhost{back.format(id=match_id)}"},
    )
    assert answer.status_code == 400
    text = visible_text(answer)
    assert "Not saved: this phone's session was lost" in text
    assert "Back to the form" in text
    assert f'href="http://localhost{back.format(id=match_id)}"' in answer.text
    assert f'href="/m/{match_id}"' in answer.text or "{id}" not in path
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
