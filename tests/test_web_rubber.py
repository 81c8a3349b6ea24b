"""Rubber, Honeymoon and Chicago through the web pages: hand form, We/They pad, rules pages.

Hands are posted exactly as the buttons send them (declarer, level, strain,
tricks; doubling and honours from the details panel; `quick` for passed out).
"""

import re

import pytest

from tests.webtools import checked, errors_on, offered, parse, tables, texts, visible_text

FOUR = ["Ann", "Bob", "Cy", "Dee"]  # We: Ann & Cy, They: Bob & Dee
ROUNDED = {"round_to_hundreds": "y"}


def play(actions, match_id, declarer, bid, tricks, **more):
    """Save one hand as the buttons send it: `bid` like "4S" or "3NT"."""
    level, strain = bid[0], bid[1:]
    form = {"declarer": declarer, "level": level, "strain": strain, "tricks": str(tricks)}
    return actions.save_hand(match_id, {**form, **more})


def pads(actions, match_id):
    """Each pad block as {"above": rows top to bottom, "below": rows, "game_rules", "total",
    "difference"}; a cell is (hand, points, label) or None. Where an entry sits on the pad
    is the point, so this reads the table row by row around the line."""
    blocks = []
    for table in parse(actions.page(f"/m/{match_id}")).find_all("table", "pad-table"):
        above, below, rules = [], [], []
        side = above
        for row in table.find_all("tr"):
            if row.has_class("the-line"):
                side = below
            elif row.has_class("game-rule"):
                rules.append(row.text())
            elif row.has_class("total"):
                total = [int(cell.text()) for cell in row.find_all("td")]
            elif row.has_class("difference"):
                difference = row.text()
            else:
                entries = [entry(cell) for cell in row.find_all("td", "entry")]
                if len(entries) == 2 and entries != [None, None]:
                    side.append(entries)
        blocks.append(
            {
                "above": above,
                "below": below,
                "game_rules": rules,
                "total": total,
                "difference": difference,
            }
        )
    return blocks


def entry(cell):
    """(hand, points, label) of a pad entry, which links to its hand in the log; None if empty."""
    if not cell.text():
        return None
    [link] = cell.find_all("a")
    hand = int(link.attrs["href"].removeprefix("#hand-"))
    assert link.attrs["data-hand"] == str(hand)
    # The note cites the hand ("#3 tricks") or, in Chicago, the deal ("deal 2 · game").
    [note] = texts(link, "note")
    points, cited = re.fullmatch(r"(\d+) (.+)", link.text()).groups()
    assert cited == note
    label = re.fullmatch(r"(?:#\d+|deal \d+ ·) (.+)", note).group(1)
    return hand, int(points), label


def more_is_open(page) -> bool:
    """Whether the "Doubled, redoubled, honours" panel of the hand form is unfolded."""
    [panel] = parse(page).find_all("details", "more")
    return "open" in panel.attrs


# --- a rubber from the first tap to the pad --------------------------------------------


def test_hand_page_shows_dealer_vulnerability_games_and_part_scores_before_any_tap(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    shown = actions.text(f"/m/{match_id}/hand/new")
    assert "Ann deals · rubber 1, game 1" in shown
    assert "Nobody is vulnerable." in shown
    assert "Passed out · Bob deals next" in shown

    play(actions, match_id, "Ann", "4H", 10)  # game for We
    play(actions, match_id, "Bob", "2D", 8)  # They 40 below
    page = actions.page(f"/m/{match_id}/hand/new")
    shown = visible_text(page)
    assert "Cy deals · rubber 1, game 2" in shown
    assert "We (Ann & Cy) are vulnerable." in shown
    assert tables(page, "rubber-state") == [
        [
            ["Standing", "We Ann & Cy", "They Bob & Dee"],
            ["Games", "1", "0"],
            ["Part score", "0", "40"],
        ]
    ]
    # Only the four players may declare; tricks 0–13; no doubling needed for a typical hand.
    assert offered(page, "declarer") == FOUR
    assert offered(page, "tricks") == [str(n) for n in range(14)]
    assert not more_is_open(page)  # doubling and honours stay folded away


def test_typical_rubber_draws_the_pad_with_game_lines_and_rubber_total(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "2H", 9)  # We 60 below, 30 above
    play(actions, match_id, "Bob", "3NT", 9)  # They 100 below: game 1
    play(actions, match_id, "Cy", "4S", 9, doubling="X")  # down 1 doubled, not vul: They 100
    actions.save_hand(match_id, quick="passed_out")
    play(actions, match_id, "Ann", "3D", 9)  # We 60 below
    # We 60 below = 120: game 2; honours for They
    play(actions, match_id, "Cy", "2S", 9, honours_holder="Bob", honours_points="100")
    play(actions, match_id, "Dee", "4H", 11)  # They game 3 and the rubber, 500

    [pad] = pads(actions, match_id)
    # Above the line, read upwards: the first entry sits nearest the line (last row).
    assert pad["above"] == [
        [None, (7, 500, "rubber")],
        [None, (7, 30, "over")],
        [(6, 30, "over"), (6, 100, "honours")],
        [(1, 30, "over"), (3, 100, "down")],
    ]
    assert pad["below"] == [
        [(1, 60, "tricks"), (2, 100, "tricks")],
        [(5, 60, "tricks"), None],
        [(6, 60, "tricks"), None],
        [None, (7, 120, "tricks")],
    ]
    assert pad["game_rules"] == ["game 1 to They", "game 2 to We", "game 3 to They"]
    assert pad["total"] == [240, 950]
    assert pad["difference"] == "They +710 · rounded They +700"

    page = actions.page(f"/m/{match_id}")
    shown = visible_text(page)
    assert "Rubber 1 won by They 2–1" in shown
    assert "Passed out: #4" in shown
    assert 'Passed out: <a href="#hand-4" data-hand="4">#4</a>' in page  # links to the hand
    assert '<details id="hand-7"' in page  # every pad entry links to a hand in the log
    assert "Match finished" in shown


def test_round_to_hundreds_off_shows_only_the_difference(actions):
    match_id = actions.start("rubber", FOUR)
    play(actions, match_id, "Bob", "2NT", 9)  # They 70 below, 30 above
    [pad] = pads(actions, match_id)
    assert pad["total"] == [0, 100]
    assert pad["difference"] == "They +100"


def test_two_rubbers_get_a_block_each_and_a_settled_total(actions):
    match_id = actions.start("rubber", FOUR, options={**ROUNDED, "rubbers": "2"})
    play(actions, match_id, "Ann", "4S", 10)
    play(actions, match_id, "Cy", "3NT", 9)  # We win rubber 1 2–0: 700
    play(actions, match_id, "Bob", "1C", 8)  # rubber 2: They 20 below, 20 above
    first, second = pads(actions, match_id)
    assert first["total"] == [920, 0]
    assert first["difference"] == "We +920 · rounded We +900"
    assert second["above"] == [[None, (3, 20, "over")]]
    assert second["below"] == [[None, (3, 20, "tricks")]]
    assert second["total"] == [0, 40]
    assert second["difference"] == "They +40 · rounded 0"
    shown = actions.text(f"/m/{match_id}")
    assert "We +880 · settled on rounded rubbers: We +900" in shown


def test_stopping_early_writes_the_unfinished_rubber_bonuses_on_the_pad(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "4S", 10)  # We one game
    play(actions, match_id, "Bob", "2C", 8)  # They part score 40
    assert actions.client.post(f"/m/{match_id}/end").status_code == 302
    [pad] = pads(actions, match_id)
    assert pad["above"] == [[(3, 300, "unfinished"), (3, 100, "unfinished")]]
    assert pad["total"] == [420, 140]
    shown = actions.text(f"/m/{match_id}")
    assert "Rubber 1 not finished: stopped here" in shown
    assert "in progress" not in shown


def test_a_rubber_still_going_says_in_progress_and_a_bare_stop_marks_it_stopped(actions):
    match_id = actions.start("rubber", FOUR, options={**ROUNDED, "rubbers": "2"})
    play(actions, match_id, "Ann", "4S", 10)
    play(actions, match_id, "Cy", "3NT", 9)  # We win rubber 1 2–0
    play(actions, match_id, "Bob", "1C", 8)  # rubber 2 under way
    shown = actions.text(f"/m/{match_id}")
    assert "Rubber 1 won by We 2–0" in shown
    assert "Rubber 2 in progress" in shown
    assert actions.client.post(f"/m/{match_id}/end").status_code == 302
    shown = actions.text(f"/m/{match_id}")
    assert "Rubber 1 won by We 2–0" in shown
    assert "Rubber 2 not finished: stopped here" in shown


# --- doubling, honours, passed out --------------------------------------------------


def test_redoubled_contract_and_honours_from_the_details_panel(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(
        actions, match_id, "Bob", "1H", 8, doubling="XX", honours_holder="Ann", honours_points="150"
    )
    assert actions.hands(match_id) == [
        {
            "declarer": "Bob",
            "contract": "1HXX",
            "tricks": 8,
            "honors": {"holder": "Ann", "points": 150},
        }
    ]
    [pad] = pads(actions, match_id)
    # 1H redoubled = 120 below (game), 1 redoubled overtrick 200, 100 for the redouble.
    assert pad["below"] == [[None, (1, 120, "tricks")]]
    assert pad["above"] == [
        [None, (1, 100, "insult")],
        [(1, 150, "honours"), (1, 200, "over")],
    ]


def test_honours_holder_alone_at_no_trumps_scores_the_four_aces(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "3NT", 9, honours_holder="Dee")
    assert actions.hands(match_id)[0]["honors"] == {"holder": "Dee", "points": 150}
    [pad] = pads(actions, match_id)
    assert pad["above"] == [[None, (1, 150, "honours")]]


def test_passed_out_is_one_tap_and_the_deal_moves_on_in_rubber(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    actions.save_hand(match_id, quick="passed_out")
    assert actions.hands(match_id) == [{"passed_out": True}]
    shown = actions.text(f"/m/{match_id}/hand/new")
    assert "Bob deals · rubber 1, game 1" in shown
    assert "Passed out · Cy deals next" in shown


def test_passed_out_in_chicago_says_the_same_dealer_deals_again(actions):
    match_id = actions.start("chicago", FOUR, options=ROUNDED)
    assert "Passed out · Ann deals again" in actions.text(f"/m/{match_id}/hand/new")
    actions.save_hand(match_id, quick="passed_out")
    assert "Ann deals · round 1, deal 1 of 4" in actions.text(f"/m/{match_id}/hand/new")
    assert "passed out, Ann deals again" in actions.text(f"/m/{match_id}")


# --- Chicago and Honeymoon -------------------------------------------------------------


def test_chicago_round_shows_deals_with_vulnerability_and_round_total(actions):
    match_id = actions.start("chicago", FOUR, options=ROUNDED)
    assert "Ann deals · round 1, deal 1 of 4" in actions.text(f"/m/{match_id}/hand/new")
    play(actions, match_id, "Ann", "4H", 10)  # deal 1: game, 300
    actions.save_hand(match_id, quick="passed_out")  # deal 2 dealt again
    shown = actions.text(f"/m/{match_id}/hand/new")
    assert "Bob deals · round 1, deal 2 of 4" in shown
    assert "They (Bob & Dee) are vulnerable on this deal." in shown
    play(actions, match_id, "Bob", "2S", 8)  # deal 2: They 60 below
    play(actions, match_id, "Cy", "3NT", 8)  # deal 3: We vul, down 1: They 100
    shown = actions.text(f"/m/{match_id}/hand/new")
    assert "Both sides are vulnerable on this deal." in shown
    play(actions, match_id, "Dee", "3C", 10)  # deal 4: game, vulnerable 500

    page = actions.page(f"/m/{match_id}")
    [deals] = tables(page, "deals")
    assert deals == [
        ["Deal", "Dealer", "Vul", "Result"],
        ["1", "Ann", "—", "4♥ Ann ="],
        ["↻", "Bob", "They", "passed out, Bob deals again"],
        ["2", "Bob", "They", "2♠ Bob ="],
        ["3", "Cy", "We", "3NT Cy −1"],
        ["4", "Dee", "both", "3♣ Dee +1"],
    ]
    # Each deal number links to its hand in the log.
    [deal_table] = parse(page).find_all("table", "deals")
    assert [link.attrs["href"] for link in deal_table.find_all("a")] == [
        f"#hand-{n}" for n in range(1, 6)
    ]
    [pad] = pads(actions, match_id)
    assert pad["above"] == [
        [None, (5, 500, "game")],
        [None, (5, 20, "over")],
        [(1, 300, "game"), (4, 100, "down")],
    ]
    assert pad["game_rules"] == ["game 1 to We", "game 2 to They"]
    assert pad["total"] == [420, 740]
    assert pad["difference"] == "They +320 · rounded They +300"
    assert "Round 1 complete" in visible_text(page)


def test_chicago_part_score_on_deal_four_scores_100(actions):
    match_id = actions.start("chicago", FOUR, options=ROUNDED)
    for declarer in ("Ann", "Bob", "Cy"):  # three quiet deals: 1C made exactly by each
        play(actions, match_id, declarer, "1C", 7)
    play(actions, match_id, "Dee", "1NT", 7)  # They 20 + 40 below: no game
    [pad] = pads(actions, match_id)
    assert pad["above"] == [[None, (4, 100, "part score")]]
    assert pad["total"] == [40, 160]


def test_honeymoon_pad_has_a_column_per_player(actions):
    match_id = actions.start("honeymoon", ["Ann", "Bob"], options=ROUNDED)
    page = actions.page(f"/m/{match_id}/hand/new")
    assert offered(page, "declarer") == ["Ann", "Bob"]
    assert "Passed out · Bob deals next" in visible_text(page)
    play(actions, match_id, "Ann", "6NT", 12, honours_holder="Ann")
    play(actions, match_id, "Bob", "4H", 7, doubling="XX")
    [pad_table] = tables(actions.page(f"/m/{match_id}"), "pad-table")
    assert pad_table[0] == ["Ann vulnerable", "Bob"]
    [pad] = pads(actions, match_id)
    assert pad["above"] == [
        [(2, 1000, "down"), None],
        [(1, 150, "honours"), None],
        [(1, 500, "slam"), None],
    ]
    assert pad["below"] == [[(1, 190, "tricks"), None]]
    assert pad["total"] == [1840, 0]
    assert pad["difference"] == "Ann +1840 · rounded Ann +1800"
    assert "Ann is vulnerable." in actions.text(f"/m/{match_id}/hand/new")


# --- editing ---------------------------------------------------------------------------


def test_edit_shows_the_old_choices_and_saving_changes_the_pad(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Cy", "4S", 9, doubling="X", honours_holder="Dee", honours_points="100")
    [hand_id] = actions.hand_ids(match_id)
    page = actions.page(f"/m/{match_id}/hand/{hand_id}")
    assert checked(page, "declarer") == ["Cy"]
    assert checked(page, "level") == ["4"]
    assert checked(page, "strain") == ["S"]
    assert checked(page, "tricks") == ["9"]
    assert checked(page, "doubling") == ["X"]
    assert checked(page, "honours_holder") == ["Dee"]
    assert checked(page, "honours_points") == ["100"]
    assert more_is_open(page)

    actions.save_hand(
        match_id, {"declarer": "Cy", "level": "4", "strain": "S", "tricks": "10"}, hand=hand_id
    )
    assert actions.hands(match_id) == [{"declarer": "Cy", "contract": "4S", "tricks": 10}]
    [pad] = pads(actions, match_id)
    assert pad["below"] == [[(1, 120, "tricks"), None]]
    assert pad["above"] == []
    assert pad["total"] == [120, 0]


def test_editing_a_passed_out_hand_says_so(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    actions.save_hand(match_id, quick="passed_out")
    [hand_id] = actions.hand_ids(match_id)
    assert "This hand was passed out." in actions.text(f"/m/{match_id}/hand/{hand_id}")


def test_an_edit_that_would_end_the_rubber_before_later_hands_is_refused(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "4S", 10)  # We game 1
    play(actions, match_id, "Bob", "1C", 7)  # They part score
    play(actions, match_id, "Cy", "1D", 7)  # We part score
    second = actions.hand_ids(match_id)[1]
    before = actions.hands(match_id)
    response = actions.post_hand(
        match_id, {"declarer": "Ann", "level": "3", "strain": "NT", "tricks": "9"}, hand=second
    )
    assert response.status_code == 200
    shown = visible_text(response)
    assert "Not saved." in shown
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in shown
    assert actions.hands(match_id) == before


# --- form errors: the message is shown and nothing is stored ------------------------------


@pytest.mark.parametrize(
    "data, field, message",
    [
        pytest.param(
            {"level": "4", "strain": "S", "tricks": "10"},
            "declarer",
            "choose the declarer",
            id="no-declarer",
        ),
        pytest.param(
            {"declarer": "Zed", "level": "4", "strain": "S", "tricks": "10"},
            "declarer",
            "'Zed' is not one of Ann, Bob, Cy, Dee",
            id="unknown-declarer",
        ),
        pytest.param(
            {"declarer": "Ann", "tricks": "10"},
            "level",
            "choose the level",
            id="no-contract",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "tricks": "10"},
            "strain",
            "choose a strain",
            id="level-without-strain",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "8", "strain": "S", "tricks": "10"},
            "strain",
            "level 8 is not allowed, use 1–7",
            id="level-8",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S"},
            "tricks",
            "choose the number of tricks won",
            id="no-tricks",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "14"},
            "tricks",
            "14 is out of range; allowed 0–13",
            id="tricks-14",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "3", "strain": "NT", "tricks": "9",
             "honours_holder": "Ann", "honours_points": "100"},
            "honours_holder",
            "at NT only the four aces count, for 150, not 100",
            id="honours-100-at-nt",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10",
             "honours_points": "100"},
            "honours_holder",
            'give {"holder": player, "points": 100 or 150}',
            id="honours-without-holder",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10",
             "honours_holder": "Ann", "honours_points": "120"},
            "honours_holder",
            "points 120 is not allowed; give 100 or 150",
            id="honours-120",
        ),
    ],
)  # fmt: skip
def test_bad_input_is_shown_on_its_field_and_nothing_is_stored(actions, data, field, message):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "1C", 7)
    before = actions.hands(match_id)
    response = actions.post_hand(match_id, data)
    assert response.status_code == 200
    assert errors_on(response, field) == [message]
    assert "Save hand 2" in visible_text(response)
    assert actions.hands(match_id) == before


def test_honours_error_opens_the_details_panel(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    response = actions.post_hand(
        match_id,
        {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10", "honours_points": "100"},
    )
    assert more_is_open(response)
    assert actions.hands(match_id) == []


def test_unknown_quick_action_is_refused(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    response = actions.post_hand(match_id, quick="redeal")
    assert response.status_code == 400
    assert actions.hands(match_id) == []


def test_no_hand_after_the_match_is_finished(actions):
    match_id = actions.start("rubber", FOUR, options=ROUNDED)
    play(actions, match_id, "Ann", "4S", 10)
    play(actions, match_id, "Cy", "4S", 10)  # rubber over
    assert actions.client.get(f"/m/{match_id}/hand/new").status_code == 302
    response = actions.post_hand(
        match_id, {"declarer": "Bob", "level": "1", "strain": "C", "tricks": "7"}
    )
    assert response.status_code == 302
    assert len(actions.hands(match_id)) == 2
    assert "The match is finished: no hand may follow." in actions.text(f"/m/{match_id}")


# --- rules pages -----------------------------------------------------------------------


# In the words of docs/variants/<id>.md, which the rules pages show.
@pytest.mark.parametrize(
    "variant, count, decisions",
    [
        pytest.param(
            "rubber",
            6,
            [
                "the Laws say 30, and so do we",
                "it scores nothing and the deal moves on to the next player",
                "Honours may be scored on any hand that was played",
                "in no trumps only 150 (the four aces)",
                "uses the vulnerability as it stood before the hand was played",
                "300 for a side with one game, 100 for a side with a part score",
                "A match is 1 to 100 rubbers.",
                "an exact half rounds away from zero (+550 to 600, −550 to −600)",
            ],
            id="rubber",
        ),
        # Honeymoon's page names its one difference and links to rubber's decisions.
        pytest.param("honeymoon", 1, ["the other player deals next"], id="honeymoon"),
        pytest.param(
            "chicago",
            7,
            [
                "the Laws say 30, and so do we",
                "the same dealer deals again and the deal keeps its number",
                "Honours may be scored on any hand that was played",
                "Every bonus and penalty uses the vulnerability of the deal.",
                "When you stop in the middle of a round, nothing extra is scored",
                "A match is 1 to 100 rounds.",
                "an exact half rounds away from zero (+550 to 600, −550 to −600)",
                "The 100 on deal 4 goes only to a side that made a contract on that deal",
            ],
            id="chicago",
        ),
    ],
)
def test_rules_page_shows_every_decision(actions, variant, count, decisions):
    shown = texts(actions.page(f"/rules/{variant}"), "decision", "li")
    for decision in decisions:
        assert decision in " ".join(shown), decision
    assert len(shown) == count
