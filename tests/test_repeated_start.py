"""A start or import form sent again: the same content answers as the first time,
other content (Back, players changed, Start again; another file in the same
import form) makes its own match, which a double tap still stores once."""

from __future__ import annotations

import io
import json
import re
import threading

import pytest

from scorekeeper.app import create_app
from tests.phones import Phone, served
from tests.webtools import match_id_in, visible_text

KEY = "s" * 22
FIRST = ["Ann", "Bob", "Cy", "Dee"]
SECOND = ["Eve", "Fay", "Gus", "Hal"]


def start_form(players: list[str], **extra) -> dict[str, str]:
    data = {"variant": "rubber", "key": KEY, **extra}
    data.update({f"player{i}": name for i, name in enumerate(players, 1)})
    return data


def players_of(actions, match_id: str) -> list[str]:
    return actions.document(match_id)["players"]


def matches_stored(app) -> int:
    from scorekeeper.db import connect

    db = connect(app.config["DATABASE"])
    try:
        return db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize(
    "second, same",
    [
        (start_form(FIRST), True),
        (start_form(SECOND), False),
        (start_form(FIRST, title="Friday"), False),
        (start_form(FIRST, stake_amount="0.50", stake_per="1", stake_currency="EUR"), False),
        (start_form(FIRST[:3] + ["Dee Dee"]), False),
    ],
    ids=["same-form-again", "other-players", "a-title-added", "a-stake-added", "one-name-changed"],
)
def test_a_start_form_sent_again(app, client, actions, second, same):
    first = client.post("/new", data=start_form(FIRST))
    again = client.post("/new", data=second)
    assert first.status_code == again.status_code == 302
    one, other = match_id_in(first.location), match_id_in(again.location)
    assert (one == other) is same
    assert players_of(actions, one) == FIRST
    assert players_of(actions, other) == [second[f"player{i}"] for i in range(1, 5)]
    # A double tap of the second form: no third match.
    assert match_id_in(client.post("/new", data=second).location) == other
    assert matches_stored(app) == (1 if same else 2)


def match_file(players: list[str], title: str) -> bytes:
    document = {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "title": title,
        "players": players,
        "hands": [{"declarer": players[0], "contract": "2H", "tricks": 8}],
    }
    return json.dumps(document).encode()


def send(client, content: bytes):
    return client.post(
        "/import",
        data={"match_file": (io.BytesIO(content), "m.json"), "key": KEY},
        content_type="multipart/form-data",
    )


def test_a_second_file_sent_with_the_same_import_form_is_imported_as_its_own_match(
    app, client, actions
):
    first = send(client, match_file(FIRST, "Monday"))
    second = send(client, match_file(SECOND, "Tuesday"))
    one, other = match_id_in(first.location), match_id_in(second.location)
    assert one != other
    assert actions.document(one)["title"] == "Monday"
    assert actions.document(other)["title"] == "Tuesday"
    assert players_of(actions, other) == SECOND
    assert "Imported 1 hand." in visible_text(actions.page(second.location))
    # The same file again with the same form: the first answer stands.
    assert match_id_in(send(client, match_file(SECOND, "Tuesday")).location) == other
    assert matches_stored(app) == 2


def test_a_start_form_whose_key_saved_a_hand_starts_a_new_match_once(app, client, actions):
    match_id = actions.start("rubber", FIRST)
    hand = {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8", "key": KEY}
    assert client.post(f"/m/{match_id}/hand/new", data=hand).status_code == 302
    started = [match_id_in(client.post("/new", data=start_form(SECOND)).location) for _ in "ab"]
    assert started[0] == started[1] != match_id
    assert matches_stored(app) == 2


# --- two real phones under waitress -------------------------------------------------


def test_two_phones_back_change_players_start_again(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "phones"})
    with served(app) as base:
        ann, bob = Phone(base, "Ann's phone"), Phone(base, "Bob's phone")
        form = ann.forms("/new")[0]  # the page Ann goes Back to keeps this key
        bobs = bob.forms("/new")[0]

        def post(phone, fields, players):
            data = {**fields, "variant": "rubber"}
            data.update({f"player{i}": name for i, name in enumerate(players, 1)})
            return phone.post("/new", data)

        first = post(ann, form.fields, FIRST)
        answers: list = [None] * 3
        barrier = threading.Barrier(3)

        def run(i, phone, fields, players):
            barrier.wait()
            answers[i] = post(phone, fields, players)

        # Ann's second Start with other players, tapped twice; Bob starts his own.
        jobs = [
            (0, ann, form.fields, SECOND),
            (1, ann, form.fields, SECOND),
            (2, bob, bobs.fields, FIRST),
        ]
        threads = [threading.Thread(target=run, args=job) for job in jobs]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=60)
        ids = [re.search(r"/m/([\w-]{16})/", a.location).group(1) for a in [first, *answers]]
        assert [a.status for a in [first, *answers]] == [302] * 4
        assert ids[1] == ids[2]  # the double tap: one match
        assert len({ids[0], ids[1], ids[3]}) == 3
        assert ann.get(f"/m/{ids[0]}/match.json").json()["players"] == FIRST
        assert ann.get(f"/m/{ids[1]}/match.json").json()["players"] == SECOND
        assert bob.get(f"/m/{ids[3]}/match.json").json()["players"] == FIRST
    assert matches_stored(app) == 3
