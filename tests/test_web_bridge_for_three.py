"""Bridge for Three through the web: the hand form, the peg board sheet, quick
actions, editing, every refusal (nothing stored), and the rules page."""

import io
import json
import re

import pytest

from tests.webtools import errors, hand_ids
from tests.webtools import stored_hands as hands_of

FOUR = ("Ann", "Bob", "Cy", "Dan")
FIVE = ("Ann", "Bob", "Cy", "Dan", "Eve")


def start(client, players=FOUR):
    data = {"variant": "bridge-for-three", **{f"player{i}": p for i, p in enumerate(players, 1)}}
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.text
    return re.search(r"/m/([\w-]{16})/", response.location).group(1)


def import_doc(client, hands, players=FOUR):
    doc = {
        "format": "scorekeeper-match/1",
        "variant": "bridge-for-three",
        "players": list(players),
        "hands": hands,
    }
    response = client.post(
        "/import",
        data={"match_file": (io.BytesIO(json.dumps(doc).encode()), "m.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302, response.text
    return response.location.rsplit("/", 1)[1]


def post_hand(client, match_id, hand_id=None, **fields):
    url = f"/m/{match_id}/hand/{'new' if hand_id is None else hand_id}"
    return client.post(url, data={k: str(v) for k, v in fields.items()})


def saved(client, match_id, **fields):
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 302, errors(response) or response.text
    return response


def pegs_on_board(page):
    """Peg positions as the SVG board draws them: {player: hole}."""
    return {
        p: int(n)
        for p, n in re.findall(
            r'<g class="track[^"]*" data-player="([^"]+)" data-peg="(-?\d+)"', page
        )
    }


def checked(page, name):
    return re.findall(
        rf'<input type="radio" name="{name}" id="[^"]+" value="([^"]*)"\s+checked>', page
    )


def group(page, name):
    """The values offered by one button group."""
    block = re.search(rf'id="group-{name}".*?</fieldset>', page, re.S).group(0)
    return re.findall(r'value="([^"]*)"', block)


# --- what the rules derive before anything is typed -------------------------------


def test_first_hand_shows_dealer_players_sitting_out_and_pegs(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}/hand/new").text
    assert "<strong>Ann</strong> deals. Calling order: Ann → Bob → Cy." in page
    assert "Sitting out: <strong>Dan</strong>" in page
    assert re.findall(r'<td class="num( out)?" data-player="(\w+)">(-?\d+)</td>', page) == [
        ("", "Ann", "0"),
        ("", "Bob", "0"),
        ("", "Cy", "0"),
        (" out", "Dan", "0"),
    ]
    # Only this hand's three players may declare; levels 1–7; tricks 0–13.
    assert group(page, "declarer") == ["Ann", "Bob", "Cy"]
    assert group(page, "level") == [str(n) for n in range(1, 8)]
    assert group(page, "tricks") == [str(n) for n in range(14)]
    assert 'id="quick-passed_out"' in page


def test_five_players_second_hand_is_bob_cy_dan_with_eve_and_ann_out(client):
    match_id = start(client, FIVE)
    saved(client, match_id, declarer="Cy", level=1, strain="C", tricks=7)
    page = client.get(f"/m/{match_id}/hand/new").text
    assert "<strong>Bob</strong> deals. Calling order: Bob → Cy → Dan." in page
    assert "Sitting out: <strong>Ann, Eve</strong>" in page
    assert group(page, "declarer") == ["Bob", "Cy", "Dan"]
    assert group(page, "doubler") == ["Bob", "Cy", "Dan"]
    # Cy's +1 is shown before the second hand is typed.
    assert '<td class="num" data-player="Cy">1</td>' in page


# --- typical hands ----------------------------------------------------------------------


def test_typical_hand_is_stored_and_drawn_on_the_board(client):
    match_id = start(client)
    response = saved(client, match_id, declarer="Cy", level=2, strain="H", tricks=9)
    assert hands_of(client, match_id) == [{"declarer": "Cy", "contract": "2H", "tricks": 9}]
    page = client.get(response.location).text
    # Made with an overtrick: forward by the level only.
    assert pegs_on_board(page) == {"Ann": 0, "Bob": 0, "Cy": 2, "Dan": 0}
    assert "2H made with 9 tricks: forward 2, overtricks never count" in page
    row = re.search(r'<tbody class="hand" data-hand="1">.*?</tbody>', page, re.S).group(0)
    cells = re.findall(r"<td[^>]*>([^<]*)", row)
    assert cells[1:5] == ["Ann", "Cy", "2♥", "9"]
    assert '<td class="num move">+2</td>' in row
    assert '<span class="moved">Cy&nbsp;2</span>' in row
    assert '<span class="out">Dan&nbsp;0&nbsp;(out)</span>' in row


def test_peg_board_is_a_responsive_svg_with_holes_minus_6_to_11(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}").text
    svg = re.search(r"<svg viewBox=\"0 0 360 (\d+)\" width=\"100%\".*?</svg>", page, re.S)
    assert svg, "the board scales with the page"
    assert svg.group(1) == str(20 + 4 * 46 + 4)
    labels = re.findall(r'<text x="\d+" y="13"[^>]*>([^<]+)</text>', svg.group(0))
    assert labels == ["−6", "−5", "−4", "−3", "−2", "−1", *map(str, range(12))]
    # One track per player, 18 holes each plus the peg; hole 0 ringed, hole 11 gold.
    assert svg.group(0).count('class="track"') == 4
    assert svg.group(0).count("<circle") == 4 * (18 + 1)
    assert svg.group(0).count('stroke="#1f5e46" stroke-width="2"') == 4
    assert svg.group(0).count('fill="#f2b84b" stroke="#8a5a00"') == 4


def test_doubled_set_moves_back_twice_the_undertricks(client):
    match_id = start(client)
    saved(
        client, match_id, declarer="Bob", level=4, strain="S", tricks=7, doubled="X", doubler="Ann"
    )
    assert hands_of(client, match_id) == [
        {"declarer": "Bob", "contract": "4SX", "doubler": "Ann", "tricks": 7}
    ]
    page = client.get(f"/m/{match_id}").text
    assert pegs_on_board(page) == {"Ann": 0, "Bob": -6, "Cy": 0, "Dan": 0}
    assert "4SX down 3 (7 tricks): back 3; doubled by Ann, so 2 × 3 = 6" in page
    assert '4♠X<span class="note">by Ann</span>' in page


def test_set_below_the_floor_moves_everyone_else_forward(client):
    match_id = start(client)
    saved(client, match_id, declarer="Bob", level=1, strain="C", tricks=3)  # Bob −4
    saved(client, match_id, declarer="Bob", level=4, strain="H", tricks=5)  # 5 down from −4
    page = client.get(f"/m/{match_id}").text
    assert pegs_on_board(page) == {"Ann": 3, "Bob": -6, "Cy": 3, "Dan": 3}
    assert "Bob hit the floor: everyone else +3" in page
    # Ann sat hand 2 out (Bob, Cy and Dan played it) and still moved.
    assert '<span class="moved out">Ann&nbsp;3&nbsp;(out)</span>' in page


def test_reaching_eleven_finishes_the_game_and_highlights_the_winner(client):
    match_id = start(client, ("Ann", "Bob", "Cy"))
    saved(client, match_id, declarer="Ann", level=7, strain="NT", tricks=13)
    saved(client, match_id, declarer="Ann", level=5, strain="D", tricks=11)
    page = client.get(f"/m/{match_id}").text
    assert pegs_on_board(page) == {"Ann": 11, "Bob": 0, "Cy": 0}
    assert '<g class="track winner" data-player="Ann" data-peg="11">' in page
    assert "Ann ★ wins" in page
    assert "Winner: <strong>Ann</strong>" in page
    response = client.get(f"/m/{match_id}/hand/new")
    assert response.status_code == 302
    assert (
        post_hand(client, match_id, declarer="Cy", level=1, strain="C", tricks=7).status_code == 302
    )
    assert len(hands_of(client, match_id)) == 2


# --- one-tap actions ------------------------------------------------------------------


def test_all_passed_is_one_post_and_moves_the_deal_on(client):
    match_id = start(client)
    response = client.post(f"/m/{match_id}/hand/new", data={"quick": "passed_out"})
    assert response.status_code == 302
    assert hands_of(client, match_id) == [{"passed_out": True}]
    page = client.get(f"/m/{match_id}").text
    assert "all three passed: no peg moves and the deal passes on" in page
    assert '<td colspan="3" class="muted">all passed</td>' in page
    assert "New hand · Bob deals" in page
    page = client.get(f"/m/{match_id}/hand/{hand_ids(client, match_id)[0]}").text
    assert "<strong>Saved as passed out.</strong>" in page


def test_unknown_quick_action_is_refused_and_nothing_stored(client):
    match_id = start(client)
    response = client.post(f"/m/{match_id}/hand/new", data={"quick": "redeal"})
    assert response.status_code == 400
    assert hands_of(client, match_id) == []


# --- editing ----------------------------------------------------------------------------


def test_edit_shows_the_old_choices_and_changes_the_sheet(client):
    match_id = start(client)
    saved(
        client, match_id, declarer="Bob", level=3, strain="NT", tricks=8, doubled="X", doubler="Cy"
    )
    saved(client, match_id, declarer="Dan", level=2, strain="S", tricks=8)
    first = hand_ids(client, match_id)[0]
    page = client.get(f"/m/{match_id}/hand/{first}").text
    assert "Edit hand 1" in page
    assert checked(page, "declarer") == ["Bob"]
    assert checked(page, "level") == ["3"]
    assert checked(page, "strain") == ["NT"]
    assert checked(page, "tricks") == ["8"]
    assert checked(page, "doubled") == ["X"]
    assert checked(page, "doubler") == ["Cy"]
    assert 'id="double-panel" open' in page

    response = post_hand(client, match_id, first, declarer="Bob", level=3, strain="NT", tricks=10)
    assert response.status_code == 302
    assert hands_of(client, match_id) == [
        {"declarer": "Bob", "contract": "3NT", "tricks": 10},
        {"declarer": "Dan", "contract": "2S", "tricks": 8},
    ]
    assert pegs_on_board(client.get(f"/m/{match_id}").text) == {
        "Ann": 0,
        "Bob": 3,
        "Cy": 0,
        "Dan": 2,
    }


def test_edit_that_would_finish_the_game_before_a_later_hand_is_refused(client):
    match_id = start(client, ("Ann", "Bob", "Cy"))
    saved(client, match_id, declarer="Ann", level=7, strain="NT", tricks=13)  # Ann 7
    saved(client, match_id, declarer="Ann", level=1, strain="C", tricks=7)  # Ann 8
    saved(client, match_id, declarer="Cy", level=1, strain="D", tricks=7)
    before = hands_of(client, match_id)
    second = hand_ids(client, match_id)[1]
    response = post_hand(client, match_id, second, declarer="Ann", level=4, strain="S", tricks=10)
    assert response.status_code == 200
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in response.text
    assert hands_of(client, match_id) == before


def test_imported_auction_is_kept_on_edit_and_can_be_forgotten(client):
    hand = {
        "auction": ["1H", "1S", "2H", "P", "P"],
        "declarer": "Cy",
        "contract": "2H",
        "tricks": 9,
    }
    match_id = import_doc(client, [hand])
    first = hand_ids(client, match_id)[0]
    page = client.get(f"/m/{match_id}/hand/{first}").text
    assert '<p class="calls">1H 1S 2H P P</p>' in page
    assert 'name="auction" type="hidden" value="1H 1S 2H P P"' in page

    fields = {"declarer": "Cy", "level": 2, "strain": "H", "tricks": 8, "auction": "1H 1S 2H P P"}
    assert post_hand(client, match_id, first, **fields).status_code == 302
    assert hands_of(client, match_id) == [{**hand, "tricks": 8}]

    response = post_hand(client, match_id, first, **{**fields, "declarer": "Ann"})
    assert response.status_code == 200
    assert "Ann is not the last bidder Cy" in errors(response)
    assert hands_of(client, match_id) == [{**hand, "tricks": 8}]

    response = post_hand(
        client, match_id, first, **{**fields, "declarer": "Ann", "drop_auction": "y"}
    )
    assert response.status_code == 302
    assert hands_of(client, match_id) == [{"declarer": "Ann", "contract": "2H", "tricks": 8}]


# --- refusals: the message is shown and nothing is stored ------------------------------------


@pytest.mark.parametrize(
    "fields, messages",
    [
        pytest.param(
            {},
            [
                "missing; give one of this hand&#39;s players Ann, Bob, Cy",
                "Contract: missing; give a contract like 4S, 3NTX or 6HXX",
                "missing; give a whole number 0–13",
            ],
            id="nothing-tapped",
        ),
        pytest.param(
            {"declarer": "Dan", "level": 2, "strain": "S", "tricks": 8},
            ["&#39;Dan&#39; is not one of this hand&#39;s players Ann, Bob, Cy"],
            id="declarer-sits-out",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "tricks": 8},
            ["Contract: missing; give a contract like 4S, 3NTX or 6HXX"],
            id="strain-missing",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 8, "strain": "S", "tricks": 8},
            ["Contract: level 8 is not allowed, use 1–7"],
            id="level-above-7",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 14},
            ["14 is out of range; allowed 0–13"],
            id="tricks-above-13",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": "ten"},
            ["&#39;ten&#39; is not a whole number; allowed 0–13"],
            id="tricks-not-a-number",
        ),
        pytest.param(
            {
                "declarer": "Ann",
                "level": 2,
                "strain": "S",
                "tricks": 8,
                "doubled": "X",
                "doubler": "Ann",
            },
            ["&#39;Ann&#39; is not declarer&#39;s opponent in this hand, one of Bob, Cy"],
            id="declarer-doubles-himself",
        ),
        pytest.param(
            {
                "declarer": "Ann",
                "level": 2,
                "strain": "S",
                "tricks": 8,
                "doubled": "X",
                "doubler": "Dan",
            },
            ["&#39;Dan&#39; is not declarer&#39;s opponent in this hand, one of Bob, Cy"],
            id="doubler-sits-out",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 8, "doubler": "Bob"},
            ["must be left out when the contract is not doubled"],
            id="doubler-without-double",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 8, "doubled": "XX"},
            ["Contract: redoubling is not allowed in this game; use 2SX"],
            id="no-redouble",
        ),
    ],
)
def test_bad_hand_is_refused_with_the_message_and_nothing_stored(client, fields, messages):
    match_id = start(client)
    saved(client, match_id, quick="passed_out")  # something stored already
    saved(client, match_id, quick="passed_out")
    saved(client, match_id, quick="passed_out")  # hand 4 is 4-1-2; back to 1-2-3 for hand 5
    saved(client, match_id, quick="passed_out")
    response = post_hand(client, match_id, **fields)
    assert response.status_code == 200
    assert "Not saved." in response.text
    assert errors(response) == messages
    assert hands_of(client, match_id) == [{"passed_out": True}] * 4


def test_rules_page_explains_the_game_and_every_decision(client):
    page = client.get("/rules/bridge-for-three").text
    decisions = re.findall(r'<p class="decision">(.*?)</p>', page)
    assert len(decisions) == 9
    for words in (
        "the deal moves on to the next player",
        "We double whatever the hand would move",
        "A new bid wipes out an earlier double",
        "any player except the one who made the last bid may double it",
        "must be marked as passed out",
        "does not have to say who doubled",
        "Overtricks never move a peg",
        "the doubled move is worked out first, then the −6 floor applies",
        "whoever is furthest along the board wins",
    ):
        assert sum(words in d for d in decisions) == 1, words
    assert "Ann, Cy and Dan (even if Dan sat the hand out) each move" in page
