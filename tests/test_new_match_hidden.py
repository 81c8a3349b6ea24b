"""The new-match form as a phone without the script sends it (issue 24, point 7):
the page hides the player inputs beyond the chosen game's count and the other
games' options, so what those inputs hold never blocks the form, never becomes
a player and never overrides an option of the chosen game."""

from __future__ import annotations

import re

import pytest
from werkzeug.datastructures import MultiDict

from scorekeeper import db as store
from scorekeeper import groups as g
from tests.webtools import items, match_id_in, parse, visible_text

from .test_web_groups import group_of, start_group


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def sent_without_script(page, **typed: str) -> MultiDict:
    """What a browser without scripts sends from the new-match page: every text
    input with its value, each checked box and radio, `typed` put into the inputs
    of those names (the first of a name, as a player would type in the one they see)."""
    sent = MultiDict()
    filled = set()
    for element in parse(page).find_all("input"):
        name, kind = element.attrs.get("name"), element.attrs.get("type") or "text"
        if not name or "disabled" in element.attrs:
            continue
        if kind in ("checkbox", "radio"):
            if name in typed and kind == "radio":
                if element.attrs.get("value") == typed[name]:
                    sent.add(name, typed[name])
            elif "checked" in element.attrs and name not in typed:
                sent.add(name, element.attrs.get("value") or "on")
            continue
        if name in typed and name not in filled:
            sent.add(name, typed[name])
            filled.add(name)
        else:
            sent.add(name, element.attrs.get("value") or "")
    return sent


def test_a_three_player_game_from_a_four_member_group_starts_with_three(client, db):
    group_id = group_of(start_group(client, members=("Ann", "Bob", "Cy", "Di")))
    form = client.get(f"/g/{group_id}/new")
    sent = sent_without_script(form, variant="top-game", key="t" * 16)
    assert sent.getlist("player4") == ["Di"]  # the group's fourth member, filled in
    answer = client.post(f"/g/{group_id}/new", data=sent)
    assert answer.status_code == 302, visible_text(answer)[:600]
    match_id = match_id_in(answer.location)
    assert client.get(f"/m/{match_id}/match.json").json["players"] == ["Ann", "Bob", "Cy"]
    state = g.load_group(db, group_id)
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Cy": 3}
    assert [m.name for m in state.members] == ["Ann", "Bob", "Cy", "Di"]


def test_a_hidden_player_input_never_blocks_the_form(client):
    """Player 5 holds a name too long and Player 4 the same name as Player 1:
    neither is on screen for a three-player game."""
    data = {
        "variant": "top-game",
        "player1": "Ann",
        "player2": "Bob",
        "player3": "Cy",
        "player4": "ann",
        "player5": "N" * 41,
        "key": "h" * 16,
    }
    answer = client.post("/new", data=data)
    assert answer.status_code == 302, visible_text(answer)[:600]
    match_id = match_id_in(answer.location)
    assert client.get(f"/m/{match_id}/match.json").json["players"] == ["Ann", "Bob", "Cy"]


def test_a_missing_player_is_still_asked_for_among_the_inputs_shown(client):
    """Ann cleared, Di still in the hidden Player 4: the form asks for Player 1
    (it never counts Di among the three)."""
    data = {"variant": "top-game", "player2": "Bob", "player3": "Cy", "player4": "Di"}
    answer = client.post("/new", data=data)
    assert answer.status_code == 200
    assert items(answer, "error-summary") == [
        "Player 1 (deals first): The Top Game needs 3 players: fill in Player 1."
    ]


@pytest.mark.parametrize(
    ("variant", "typed", "options"),
    [
        # Another game's number, too long for any option: not this game's, ignored.
        ("rubber", {"opt_hands_per_half": "1234567"}, {}),
        ("top-game", {"opt_games": "lots"}, {}),
        # Each game has one input per option it shares with another game: the
        # one typed in is the one read.
        ("mini-bridge-3", {"opt_hands": "12"}, {"hands": 12}),
        ("mini-bridge", {"opt_target": "500"}, {"target": 500}),
        ("honeymoon", {"opt_rubbers": "2"}, {"rubbers": 2}),
    ],
    ids=["long-hidden-number", "hidden-junk", "shared-hands", "shared-target", "shared-rubbers"],
)
def test_another_games_option_never_blocks_or_overrides(client, variant, typed, options):
    page = client.get("/new")
    assert len(re.findall(r'name="opt_hands"', page.text)) == 1
    players = {"rubber": 4, "mini-bridge": 4, "honeymoon": 2}.get(variant, 3)
    names = {f"player{i}": name for i, name in enumerate(["Ann", "Bob", "Cy", "Di"], 1)}
    sent = sent_without_script(page, variant=variant, key="o" * 16, **typed)
    for seat in range(1, players + 1):
        sent.setlist(f"player{seat}", [names[f"player{seat}"]])
    answer = client.post("/new", data=sent)
    assert answer.status_code == 302, visible_text(answer)[:600]
    stored = client.get(f"/m/{match_id_in(answer.location)}/match.json").json
    assert stored.get("options", {}) == options


def test_a_box_unticked_for_the_chosen_game_stays_unticked(client):
    """Rubber, Honeymoon and Chicago each round to hundreds by default: the box
    the player unticks is the one read, not another game's ticked one."""
    page = client.get("/new")
    assert len(re.findall(r'name="opt_round_to_hundreds"', page.text)) == 1
    sent = sent_without_script(page, variant="rubber", key="r" * 16)
    sent.poplist("opt_round_to_hundreds")  # unticked: a browser sends nothing
    for seat, name in enumerate(["Ann", "Bob", "Cy", "Di"], 1):
        sent.setlist(f"player{seat}", [name])
    answer = client.post("/new", data=sent)
    assert answer.status_code == 302, visible_text(answer)[:600]
    stored = client.get(f"/m/{match_id_in(answer.location)}/match.json").json
    assert stored.get("options", {}) == {"round_to_hundreds": False}
