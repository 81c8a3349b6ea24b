"""Bridge for Three through the web: the hand form, the peg board sheet, quick
actions, editing, every refusal (nothing stored), and the rules page."""

import re

import pytest

from tests.webtools import checked, field_errors, offered, parse, tables, texts, visible_text

FOUR = ("Ann", "Bob", "Cy", "Dan")
FIVE = ("Ann", "Bob", "Cy", "Dan", "Eve")


def pegs_on_board(page):
    """Peg positions as the SVG board draws them: {player: hole}."""
    return {
        track.attrs["data-player"]: int(track.attrs["data-peg"])
        for track in parse(page).find_all("g", "track")
    }


def marked_out(page):
    """The players whose peg before this hand is marked as sitting out."""
    [pegs] = parse(page).find_all("table", "pegs-now")
    return [cell.attrs["data-player"] for cell in pegs.find_all("td", "out")]


def logged(page, number):
    """Hand `number`'s block in the peg log."""
    [entry] = [
        block
        for block in parse(page).find_all("tbody", "hand")
        if block.attrs.get("data-hand") == str(number)
    ]
    return entry


def log_rows(page, number):
    """Hand `number` in the peg log as cell texts: the hand's row, then the pegs after it."""
    return [
        [cell.text() for cell in row.find_all("td")] for row in logged(page, number).find_all("tr")
    ]


def pegs_marked(page, number, css_class):
    """The pegs after hand `number` that the log marks with `css_class` ("moved", "out")."""
    return texts(logged(page, number), css_class, "span")


# --- what the rules derive before anything is typed -------------------------------


def test_first_hand_shows_dealer_players_sitting_out_and_pegs(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    page = actions.page(f"/m/{match_id}/hand/new")
    shown = visible_text(page)
    assert "Ann deals. Calling order: Ann → Bob → Cy." in shown
    assert "Sitting out: Dan" in shown
    assert tables(page, "pegs-now") == [[["Ann", "Bob", "Cy", "Dan"], ["0", "0", "0", "0"]]]
    assert marked_out(page) == ["Dan"]
    # Only this hand's three players may declare; levels 1–7; tricks 0–13.
    assert offered(page, "declarer") == ["Ann", "Bob", "Cy"]
    assert offered(page, "level") == [str(n) for n in range(1, 8)]
    assert offered(page, "tricks") == [str(n) for n in range(14)]
    assert 'id="quick-passed_out"' in page
    assert "All three passed" in shown


def test_the_declarer_buttons_keep_seating_order_when_the_calling_order_wraps(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    for _ in range(3):
        actions.save_hand(match_id, quick="passed_out")
    page = actions.page(f"/m/{match_id}/hand/new")
    assert "Dan deals. Calling order: Dan → Ann → Bob." in visible_text(page)
    # The same places as the pegs table above and the sheet, every hand.
    assert offered(page, "declarer") == ["Ann", "Bob", "Dan"]
    assert offered(page, "doubler") == ["Ann", "Bob", "Dan"]


def test_five_players_second_hand_is_bob_cy_dan_with_eve_and_ann_out(actions):
    match_id = actions.start("bridge-for-three", FIVE)
    actions.save_hand(match_id, declarer="Cy", level=1, strain="C", tricks=7)
    page = actions.page(f"/m/{match_id}/hand/new")
    shown = visible_text(page)
    assert "Bob deals. Calling order: Bob → Cy → Dan." in shown
    assert "Sitting out: Ann, Eve" in shown
    assert offered(page, "declarer") == ["Bob", "Cy", "Dan"]
    assert offered(page, "doubler") == ["Bob", "Cy", "Dan"]
    # Cy's +1 is shown before the second hand is typed.
    assert tables(page, "pegs-now") == [
        [["Ann", "Bob", "Cy", "Dan", "Eve"], ["0", "0", "1", "0", "0"]]
    ]
    assert marked_out(page) == ["Ann", "Eve"]


# --- typical hands ----------------------------------------------------------------------


def test_typical_hand_is_stored_and_drawn_on_the_board(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(match_id, declarer="Cy", level=2, strain="H", tricks=9)
    assert actions.hands(match_id) == [{"declarer": "Cy", "contract": "2H", "tricks": 9}]
    page = actions.page(f"/m/{match_id}")
    # Made with an overtrick: forward by the level only.
    assert pegs_on_board(page) == {"Ann": 0, "Bob": 0, "Cy": 2, "Dan": 0}
    assert "2H made with 9 tricks: forward 2, overtricks never count" in visible_text(page)
    assert log_rows(page, 1) == [
        ["1", "Ann", "Cy", "2♥", "9", "+2"],
        ["Ann 0 · Bob 0 · Cy 2 · Dan 0 (out)"],
    ]
    assert pegs_marked(page, 1, "moved") == ["Cy 2"]
    assert pegs_marked(page, 1, "out") == ["Dan 0 (out)"]


def test_peg_board_is_a_responsive_svg_with_holes_minus_6_to_11(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    page = actions.page(f"/m/{match_id}")
    # The drawing itself is the point here, so this reads the SVG's markup.
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


def test_doubled_set_moves_back_twice_the_undertricks(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(
        match_id, declarer="Bob", level=4, strain="S", tricks=7, doubled="X", doubler="Ann"
    )
    assert actions.hands(match_id) == [
        {"declarer": "Bob", "contract": "4SX", "doubler": "Ann", "tricks": 7}
    ]
    page = actions.page(f"/m/{match_id}")
    assert pegs_on_board(page) == {"Ann": 0, "Bob": -6, "Cy": 0, "Dan": 0}
    assert "4SX down 3 (7 tricks): back 3; doubled by Ann, so 2 × 3 = 6" in visible_text(page)
    assert log_rows(page, 1)[0][1:5] == ["Ann", "Bob", "4♠X by Ann", "7"]
    assert texts(logged(page, 1), "note") == ["by Ann"]


def test_set_below_the_floor_moves_everyone_else_forward(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(match_id, declarer="Bob", level=1, strain="C", tricks=3)  # Bob −4
    actions.save_hand(match_id, declarer="Bob", level=4, strain="H", tricks=5)  # 5 down from −4
    page = actions.page(f"/m/{match_id}")
    assert pegs_on_board(page) == {"Ann": 3, "Bob": -6, "Cy": 3, "Dan": 3}
    assert "Bob hit the floor: everyone else +3" in visible_text(page)
    # Ann sat hand 2 out (Bob, Cy and Dan played it) and still moved.
    assert pegs_marked(page, 2, "out") == ["Ann 3 (out)"]
    assert "Ann 3 (out)" in pegs_marked(page, 2, "moved")


def test_reaching_eleven_finishes_the_game_and_highlights_the_winner(actions):
    match_id = actions.start("bridge-for-three", ("Ann", "Bob", "Cy"))
    actions.save_hand(match_id, declarer="Ann", level=7, strain="NT", tricks=13)
    actions.save_hand(match_id, declarer="Ann", level=5, strain="D", tricks=11)
    page = actions.page(f"/m/{match_id}")
    assert pegs_on_board(page) == {"Ann": 11, "Bob": 0, "Cy": 0}
    assert '<g class="track winner" data-player="Ann" data-peg="11">' in page
    shown = visible_text(page)
    assert "Ann ★ wins" in shown
    assert "Winner: Ann" in shown
    assert actions.client.get(f"/m/{match_id}/hand/new").status_code == 302
    response = actions.post_hand(match_id, declarer="Cy", level=1, strain="C", tricks=7)
    assert response.status_code == 302
    assert len(actions.hands(match_id)) == 2


# --- one-tap actions ------------------------------------------------------------------


def test_all_passed_is_one_post_and_moves_the_deal_on(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(match_id, quick="passed_out")
    assert actions.hands(match_id) == [{"passed_out": True}]
    page = actions.page(f"/m/{match_id}")
    shown = visible_text(page)
    assert "all three passed: no peg moves and the deal passes on" in shown
    # "all passed" stands in the declarer, contract and tricks columns.
    assert log_rows(page, 1)[0][:3] == ["1", "Ann", "all passed"]
    assert '<td colspan="3" class="muted">all passed</td>' in page
    assert "New hand · Bob deals" in shown
    [first] = actions.hand_ids(match_id)
    assert "Saved as passed out." in actions.text(f"/m/{match_id}/hand/{first}")


def test_unknown_quick_action_is_refused_and_nothing_stored(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    response = actions.post_hand(match_id, quick="redeal")
    assert response.status_code == 400
    assert actions.hands(match_id) == []


# --- editing ----------------------------------------------------------------------------


def test_edit_shows_the_old_choices_and_changes_the_sheet(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(
        match_id, declarer="Bob", level=3, strain="NT", tricks=8, doubled="X", doubler="Cy"
    )
    actions.save_hand(match_id, declarer="Dan", level=2, strain="S", tricks=8)
    first = actions.hand_ids(match_id)[0]
    page = actions.page(f"/m/{match_id}/hand/{first}")
    assert "Edit hand 1" in visible_text(page)
    assert checked(page, "declarer") == ["Bob"]
    assert checked(page, "level") == ["3"]
    assert checked(page, "strain") == ["NT"]
    assert checked(page, "tricks") == ["8"]
    assert checked(page, "doubled") == ["X"]
    assert checked(page, "doubler") == ["Cy"]
    assert 'id="double-panel" open' in page

    actions.save_hand(match_id, hand=first, declarer="Bob", level=3, strain="NT", tricks=10)
    assert actions.hands(match_id) == [
        {"declarer": "Bob", "contract": "3NT", "tricks": 10},
        {"declarer": "Dan", "contract": "2S", "tricks": 8},
    ]
    assert pegs_on_board(actions.page(f"/m/{match_id}")) == {
        "Ann": 0,
        "Bob": 3,
        "Cy": 0,
        "Dan": 2,
    }


def test_edit_that_would_finish_the_game_before_a_later_hand_is_refused(actions):
    match_id = actions.start("bridge-for-three", ("Ann", "Bob", "Cy"))
    actions.save_hand(match_id, declarer="Ann", level=7, strain="NT", tricks=13)  # Ann 7
    actions.save_hand(match_id, declarer="Ann", level=1, strain="C", tricks=7)  # Ann 8
    actions.save_hand(match_id, declarer="Cy", level=1, strain="D", tricks=7)
    before = actions.hands(match_id)
    second = actions.hand_ids(match_id)[1]
    response = actions.post_hand(
        match_id, hand=second, declarer="Ann", level=4, strain="S", tricks=10
    )
    assert response.status_code == 200
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in visible_text(
        response
    )
    assert actions.hands(match_id) == before


def test_imported_auction_is_kept_on_edit_and_can_be_forgotten(actions):
    hand = {
        "auction": ["1H", "1S", "2H", "P", "P"],
        "declarer": "Cy",
        "contract": "2H",
        "tricks": 9,
    }
    match_id = actions.imported(
        {
            "format": "scorekeeper-match/1",
            "variant": "bridge-for-three",
            "players": list(FOUR),
            "hands": [hand],
        }
    )
    first = actions.hand_ids(match_id)[0]
    page = actions.page(f"/m/{match_id}/hand/{first}")
    assert texts(page, "calls") == ["1H 1S 2H P P"]
    assert 'name="auction" type="hidden" value="1H 1S 2H P P"' in page

    fields = {"declarer": "Cy", "level": 2, "strain": "H", "tricks": 8, "auction": "1H 1S 2H P P"}
    actions.save_hand(match_id, fields, hand=first)
    assert actions.hands(match_id) == [{**hand, "tricks": 8}]

    response = actions.post_hand(match_id, fields, hand=first, declarer="Ann")
    assert response.status_code == 200
    assert "Ann is not the last bidder Cy" in field_errors(response)
    assert actions.hands(match_id) == [{**hand, "tricks": 8}]

    actions.save_hand(match_id, fields, hand=first, declarer="Ann", drop_auction="y")
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "2H", "tricks": 8}]


# --- refusals: the message is shown and nothing is stored ------------------------------------


@pytest.mark.parametrize(
    "fields, messages",
    [
        pytest.param(
            {},
            # The rules' problems in the words of the screen: what to tap.
            [
                "choose the declarer",
                "choose the level",
                "choose a strain",
                "choose the number of tricks won",
            ],
            id="nothing-tapped",
        ),
        pytest.param(
            {"declarer": "Dan", "level": 2, "strain": "S", "tricks": 8},
            ["'Dan' is not one of this hand's players Ann, Bob, Cy"],
            id="declarer-sits-out",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "tricks": 8},
            ["choose a strain"],
            id="strain-missing",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 8, "strain": "S", "tricks": 8},
            ["level 8 is not allowed, use 1–7"],
            id="level-above-7",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 14},
            ["14 is out of range; allowed 0–13"],
            id="tricks-above-13",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": "ten"},
            ["'ten' is not a whole number; allowed 0–13"],
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
            ["'Ann' is not declarer's opponent in this hand, one of Bob, Cy"],
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
            ["'Dan' is not declarer's opponent in this hand, one of Bob, Cy"],
            id="doubler-sits-out",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 8, "doubler": "Bob"},
            ["must be left out when the contract is not doubled"],
            id="doubler-without-double",
        ),
        pytest.param(
            {"declarer": "Ann", "level": 2, "strain": "S", "tricks": 8, "doubled": "XX"},
            ["redoubling is not allowed in this game; use 2SX"],
            id="no-redouble",
        ),
    ],
)
def test_bad_hand_is_refused_with_the_message_and_nothing_stored(actions, fields, messages):
    match_id = actions.start("bridge-for-three", FOUR)
    actions.save_hand(match_id, quick="passed_out")  # something stored already
    actions.save_hand(match_id, quick="passed_out")
    actions.save_hand(match_id, quick="passed_out")  # hand 4 is 4-1-2; back to 1-2-3 for hand 5
    actions.save_hand(match_id, quick="passed_out")
    response = actions.post_hand(match_id, fields)
    assert response.status_code == 200
    assert "Not saved." in visible_text(response)
    assert field_errors(response) == messages
    assert actions.hands(match_id) == [{"passed_out": True}] * 4


def test_rules_page_explains_the_game_and_every_decision(actions):
    page = actions.page("/rules/bridge-for-three")
    decisions = texts(page, "decision", "li")  # drawn from docs/variants/bridge-for-three.md
    assert len(decisions) == 10
    for words in (
        "moves the deal on to the next player",
        "We double whatever the hand would move",
        "with four players that can only be 3, 4 and 1",
        "A new bid cancels an earlier double",
        "any player of the hand except the one who made that bid",
        "must be marked as passed out",
        "does not have to say who doubled",
        "Overtricks never move a peg",
        "the doubled move is worked out first, then the −6 floor applies",
        "whoever is furthest along the board wins",
    ):
        assert sum(words in d for d in decisions) == 1, words
    assert "Ann, Cy and Dan (even if Dan sat the hand out) each move" in visible_text(page)
