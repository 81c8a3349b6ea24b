"""A match file imported again: nothing is stored, the answer says the match is
already here and since when, and offers "Open it" and "Import a copy" (which
stores one copy however often it is tapped)."""

from __future__ import annotations

import html
import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper.changelog import played_on
from scorekeeper.db import connect, load_match
from tests.webtools import by_id, links, match_id_in, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
TOP_GAME = (EXAMPLES / "top-game.json").read_text()
KEY = "import-form-key-1"


def send(client, document: str | bytes, key: str | None = KEY):
    if isinstance(document, str):
        document = document.encode()
    data = {"match_file": (io.BytesIO(document), "m.json")}
    if key:
        data["key"] = key
    return client.post("/import", data=data, content_type="multipart/form-data")


def copy_fields(answer) -> dict[str, str]:
    """The hidden fields of the answer's "Import a copy" form."""
    page = answer.get_data(as_text=True)
    form = re.search(r'<form[^>]*action="/import/copy"[^>]*>(.*?)</form>', page, re.S).group(1)
    return {
        name: html.unescape(value)
        for name, value in re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form)
    }


def copy(client, fields: dict[str, str]):
    return client.post("/import/copy", data=fields, content_type="multipart/form-data")


def matches_stored(app) -> int:
    db = connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


def test_the_same_file_again_is_not_imported_twice(app, client, actions):
    first = match_id_in(send(client, TOP_GAME).location)
    again = send(client, TOP_GAME, key="another-import-key")
    assert again.status_code == 409
    assert by_id(again, "already-here").text() == (
        "This match is already here (imported a moment ago). Nothing was imported."
    )
    assert by_id(again, "already-here-match").text() == (
        "Friday at Ann's The Top Game · Ann, Bob, Cy · 12 hands"
    )
    assert links(again, "Open it", "button") == [f"/m/{first}"]
    assert visible_text(again).count("Import a copy") == 1
    assert matches_stored(app) == 1


def test_the_note_says_when_it_was_imported(app, client):
    first = match_id_in(send(client, TOP_GAME).location)
    db = connect(app.config["DATABASE"])
    db.execute("update matches set created = ? where id = ?", ["2026-10-03T19:14:00+00:00", first])
    db.close()
    again = send(client, TOP_GAME, key="another-import-key")
    assert (
        by_id(again, "already-here")
        .text()
        .startswith("This match is already here (imported 3 October 2026).")
    )


def test_the_same_import_form_sent_twice_answers_as_the_first_time(app, client):
    first = send(client, TOP_GAME)
    again = send(client, TOP_GAME)  # a double tap on Import
    assert (first.status_code, again.status_code) == (302, 302)
    assert again.location == first.location
    assert matches_stored(app) == 1


def test_import_a_copy_stores_one_copy_however_often_it_is_tapped(app, client, actions):
    first = match_id_in(send(client, TOP_GAME).location)
    fields = copy_fields(send(client, TOP_GAME, key="another-import-key"))
    assert set(fields) == {"key", "document"}
    copied, again = copy(client, fields), copy(client, fields)
    assert (copied.status_code, again.status_code) == (302, 302)
    assert copied.location == again.location != f"/m/{first}"
    assert "Imported a copy: 12 hands." in actions.followed(copied)
    # The file names no day: the copy is on the day it was imported (the evening
    # rule), read from when it was stored (the clock asked now could be past 06:00).
    copy_id = match_id_in(copied.location)
    db = connect(app.config["DATABASE"])
    try:
        day = played_on(load_match(db, copy_id).created).isoformat()
    finally:
        db.close()
    assert actions.document(copy_id) == {**json.loads(TOP_GAME), "played": day}
    assert matches_stored(app) == 2
    # The file a third time: already here, the copy does not change that.
    assert send(client, TOP_GAME, key="third-import-key").status_code == 409
    assert matches_stored(app) == 2


def test_a_copy_of_a_bad_document_is_refused_like_a_bad_file(app, client, actions):
    answer = copy(client, {"key": "copy-key-1", "document": '{"format": "nonsense"}'})
    assert answer.status_code == 302
    assert "Not imported: " in actions.followed(answer)
    assert matches_stored(app) == 0


def test_a_match_exported_from_here_is_already_here(app, client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    actions.save_hand(match_id, {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"})
    exported = client.get(f"/m/{match_id}/match.json").get_data(as_text=True)
    again = send(client, exported)
    assert again.status_code == 409
    assert by_id(again, "already-here").text() == (
        "This match is already here (started a moment ago). Nothing was imported."
    )
    assert links(again, "Open it", "button") == [f"/m/{match_id}"]


RUBBER = {
    "format": "scorekeeper-match/1",
    "variant": "rubber",
    "title": "Monday",
    "players": ["Ann", "Bob", "Cy", "Dee"],
    "hands": [{"declarer": "Ann", "contract": "4S", "tricks": 10}],
}


@pytest.mark.parametrize(
    "change",
    [
        {"title": "Tuesday"},
        {"players": ["Ann", "Cy", "Bob", "Dee"]},
        {"hands": [{"declarer": "Ann", "contract": "4S", "tricks": 9}]},
        {"variant": "chicago"},
    ],
    ids=["another-title", "another-seating", "another-hand", "another-game"],
)
def test_a_file_that_differs_is_imported(app, client, change):
    send(client, json.dumps(RUBBER))
    answer = send(client, json.dumps({**RUBBER, **change}), key="another-import-key")
    assert answer.status_code == 302 and answer.location.startswith("/m/")
    assert matches_stored(app) == 2


def test_a_match_played_on_since_it_was_imported_is_still_here(app, client, actions):
    first = match_id_in(send(client, json.dumps(RUBBER)).location)
    actions.save_hand(first, {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "8"})
    again = send(client, json.dumps(RUBBER), key="another-import-key")
    assert again.status_code == 409
    assert by_id(again, "already-here-match").text() == (
        "Monday Rubber bridge · Ann, Bob, Cy, Dee · 2 hands · changed a moment ago"
    )


def test_a_deleted_match_is_not_in_the_way(app, client, actions):
    first = match_id_in(send(client, TOP_GAME).location)
    assert client.post(f"/m/{first}/delete").status_code == 302
    assert send(client, TOP_GAME, key="another-import-key").status_code == 302
    assert matches_stored(app) == 2


def test_a_file_without_hands_is_imported_each_time(app, client):
    empty = json.dumps({**json.loads(TOP_GAME), "hands": []})
    assert send(client, empty).status_code == 302
    assert send(client, empty, key="another-import-key").status_code == 302
    assert matches_stored(app) == 2


def test_a_copy_of_a_file_of_500_hands_with_the_longest_names(app, client, actions):
    """The copy's document travels in a form field: the largest file the app takes
    (500 entries, names of 40 characters) still fits one."""
    names = [f"{letter * 39}{n}" for n, letter in enumerate("ABCD")]
    hands = [{"declarer": names[n % 4], "contract": "1C", "tricks": n % 7} for n in range(500)]
    document = {"format": "scorekeeper-match/1", "variant": "rubber", "players": names}
    text = json.dumps({**document, "hands": hands, "title": "T" * 100})
    send(client, text)
    fields = copy_fields(send(client, text, key="another-import-key"))
    copied = copy(client, fields)
    assert copied.status_code == 302
    assert len(actions.hands(match_id_in(copied.location))) == 500
    assert matches_stored(app) == 2


def test_a_phone_that_never_had_the_match_is_not_given_its_address(app, client):
    """A match file travels further than the address that lets a phone change the
    match: a second phone importing it is told it is here, and to ask for it."""
    first = match_id_in(send(client, TOP_GAME).location)
    other = app.test_client()  # another phone: its own cookies, its own list
    again = send(other, TOP_GAME, key="another-phone-key")
    assert again.status_code == 409
    assert f"/m/{first}" not in again.text
    assert links(again, "Open it", "button") == []
    assert by_id(again, "ask-for-it").text().startswith("It is not on this phone's list")
    assert visible_text(again).count("Import a copy") == 1
    assert matches_stored(app) == 1
