"""Rubber bridge and Honeymoon bridge: docs/variants/rubber.md and
docs/variants/honeymoon.md, every table row and Decision."""

from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.common import STRAINS, parse_contract
from scorekeeper.games.rubber.rules import contract_scores, trick_score, undertrick_values
from scorekeeper.variants import MatchError, replay
from scorekeeper.words import REDEAL_MARK
from tests.games import (
    PLAYER,
    Example,
    Generated,
    HandForm,
    Kit,
    Printed,
    numbered,
    pay,
    tricks_for,
)

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]  # We: Ann & Cy, They: Bob & Dee
PAIR = ["Ann", "Bob"]


def play(*hands, options=None, variant="rubber", players=PLAYERS):
    return replay(variant, players, options or {}, list(hands))


def errors(*hands, options=None, variant="rubber", players=PLAYERS):
    with pytest.raises(MatchError) as caught:
        play(*hands, options=options, variant=variant, players=players)
    return caught.value.lines


def hand(declarer="Ann", contract="4S", tricks=10, **more):
    return {"declarer": declarer, "contract": contract, "tricks": tricks, **more}


def sides(we, they):
    """Scores for every player when We (Ann & Cy) get `we` and They (Bob & Dee) `they`."""
    return {"Ann": we, "Bob": they, "Cy": we, "Dee": they}


def entries(result):
    return [(e["side"], e["where"], e["points"], e["what"]) for e in result.details.entries]


# The source's examples (d)–(h). Its examples (a)–(c) are cut off, so hands 1 and 2
# are made up to give They the first game and leave the 560 of example (h):
# We 1H with two overtricks (30 below, 60 above), They 5C made (100 below, game).
SEED_RUBBER = [
    hand("Ann", "1H", 9),
    hand("Bob", "5C", 11),
    hand("Cy", "2NT", 7),  # (d)
    hand("Ann", "4S", 10, honors={"holder": "Ann", "points": 100}),  # (e)
    hand("Bob", "2NT", 9),  # (f)
    hand("Dee", "4H", 10),  # (g)
]


@pytest.mark.parametrize(
    "number, vulnerable, expected",
    [
        # (d) not vulnerable, 2NT making 7 tricks: the opponents score 50.
        pytest.param(3, ["They"], [(1, "above", 50, "undertricks")], id="seed-d-2NT-down-1-50"),
        # (e) 4S made exactly with A K Q J of spades in one hand: 120 below, 100 above.
        pytest.param(
            4,
            ["They"],
            [(0, "below", 120, "tricks"), (0, "above", 100, "honours")],
            id="seed-e-4S-with-four-honours",
        ),
        # (f) 2NT making 9 tricks: 70 below, 30 above (Decision: not the source's 40).
        pytest.param(
            5,
            ["We", "They"],
            [(1, "below", 70, "tricks"), (1, "above", 30, "overtricks")],
            id="seed-f-2NT-plus-1-70-and-30",
        ),
        # (g) 4H made exactly to win the third game: 120 below and 500 for the rubber.
        pytest.param(
            6,
            ["We", "They"],
            [(1, "below", 120, "tricks"), (1, "above", 500, "rubber")],
            id="seed-g-4H-wins-rubber-2-1-500",
        ),
    ],
)
def test_seed_examples_d_to_g(number, vulnerable, expected):
    result = play(*SEED_RUBBER).hands[number - 1]
    assert result.details.vulnerable == vulnerable
    assert entries(result) == expected


def test_seed_example_h_they_win_the_rubber_by_560():
    # (h): the difference of the rubber is 560 for They (settled as 6 hundreds).
    outcome = play(*SEED_RUBBER)
    assert outcome.totals == sides(310, 870)
    assert outcome.summary.unit_differences == [-560]
    assert outcome.finished is True
    assert outcome.winners == ["Bob", "Dee"]


def test_seed_example_explanations_read_like_the_sheet():
    outcome = play(*SEED_RUBBER)
    assert outcome.hands[2].explanation == [
        "They: 2NT by Cy down 1, not vulnerable: 50 above the line"
    ]
    assert outcome.hands[3].explanation == [
        "We: 4S by Ann made: 4 × 30 = 120 below the line",
        "We: honours in Ann's hand: 100 above",
        "We: game (120 below the line)",
    ]
    assert outcome.hands[5].explanation == [
        "They: 4H by Dee made: 4 × 30 = 120 below the line",
        "They: game (190 below the line)",
        "They: rubber won 2–1: 500 above",
    ]
    assert outcome.hands[5].details.game_won == 1
    assert outcome.hands[5].details.rubber_won == 1


# --- trick score below the line ----------------------------------------------


@pytest.mark.parametrize(
    "contract, points, how",
    [
        pytest.param("1C", 20, "1 × 20 = 20", id="minor-20-each"),
        pytest.param("5D", 100, "5 × 20 = 100", id="minor-game"),
        pytest.param("2H", 60, "2 × 30 = 60", id="major-30-each"),
        pytest.param("4S", 120, "4 × 30 = 120", id="major-game"),
        pytest.param("1NT", 40, "40", id="NT-first-trick-40"),
        pytest.param("3NT", 100, "40 + 2 × 30 = 100", id="NT-then-30-each"),
        pytest.param("7NT", 220, "40 + 6 × 30 = 220", id="NT-grand"),
        pytest.param("2HX", 120, "(2 × 30) × 2 = 120", id="doubled-times-2"),
        pytest.param("1NTX", 80, "40 × 2 = 80", id="1NT-doubled"),
        pytest.param("3CXX", 240, "(3 × 20) × 4 = 240", id="redoubled-times-4"),
        pytest.param("2NTXX", 280, "(40 + 1 × 30) × 4 = 280", id="NT-redoubled"),
    ],
)
def test_trick_score_table(contract, points, how):
    assert trick_score(parse_contract(contract)) == (points, how)


# --- overtricks, making doubled, slams ---------------------------------------------


@pytest.mark.parametrize(
    "contract, tricks, vulnerable, points, text",
    [
        pytest.param("2C", 10, False, 40, "2 overtricks (undoubled): 2 × 20 = 40 above the line",
                     id="undoubled-minor-20"),
        pytest.param("1S", 8, True, 30, "1 overtrick (undoubled): 30 above the line",
                     id="undoubled-major-30"),
        pytest.param("1NT", 9, False, 60, "2 overtricks (undoubled): 2 × 30 = 60 above the line",
                     id="decision-NT-overtrick-30-not-40"),
        pytest.param("2HX", 10, False, 200,
                     "2 overtricks (doubled, not vulnerable): 2 × 100 = 200 above the line",
                     id="doubled-not-vulnerable-100"),
        pytest.param("2HX", 9, True, 200,
                     "1 overtrick (doubled, vulnerable): 200 above the line",
                     id="doubled-vulnerable-200"),
        pytest.param("1DXX", 8, False, 200,
                     "1 overtrick (redoubled, not vulnerable): 200 above the line",
                     id="redoubled-not-vulnerable-200"),
        pytest.param("1DXX", 9, True, 800,
                     "2 overtricks (redoubled, vulnerable): 2 × 400 = 800 above the line",
                     id="redoubled-vulnerable-400"),
    ],
)  # fmt: skip
def test_overtricks_above_the_line(contract, tricks, vulnerable, points, text):
    over = contract_scores(parse_contract(contract), tricks, vulnerable)
    assert over[1].declarer is True
    assert (over[1].where, over[1].points, over[1].what, over[1].text) == (
        "above",
        points,
        "overtricks",
        text,
    )


@pytest.mark.parametrize(
    "contract, bonus, text",
    [
        pytest.param("3HX", 50, "made doubled: 50 above", id="doubled-made-50"),
        pytest.param("3HXX", 100, "made redoubled: 100 above", id="redoubled-made-100"),
    ],
)
def test_making_a_doubled_contract(contract, bonus, text):
    scores = contract_scores(parse_contract(contract), 9, False)
    assert [(s.points, s.what, s.text) for s in scores[1:]] == [(bonus, "insult", text)]


@pytest.mark.parametrize(
    "contract, tricks, vulnerable, bonus, text",
    [
        pytest.param("6S", 12, False, 500, "small slam bid and made, not vulnerable: 500 above",
                     id="small-slam-500"),
        pytest.param("6C", 12, True, 750, "small slam bid and made, vulnerable: 750 above",
                     id="small-slam-vulnerable-750"),
        pytest.param("7NT", 13, False, 1000, "grand slam bid and made, not vulnerable: 1000 above",
                     id="grand-slam-1000"),
        pytest.param("7H", 13, True, 1500, "grand slam bid and made, vulnerable: 1500 above",
                     id="grand-slam-vulnerable-1500"),
    ],
)  # fmt: skip
def test_slam_bonuses(contract, tricks, vulnerable, bonus, text):
    scores = contract_scores(parse_contract(contract), tricks, vulnerable)
    assert (scores[-1].points, scores[-1].what, scores[-1].text) == (bonus, "slam", text)


def test_slam_needs_to_be_bid_twelve_tricks_in_4S_is_no_slam():
    scores = contract_scores(parse_contract("4S"), 12, False)
    assert [(s.where, s.points, s.what) for s in scores] == [
        ("below", 120, "tricks"),
        ("above", 60, "overtricks"),
    ]


def test_doubled_slam_made_with_overtrick_then_rubber_2_0():
    # They already have a game, so 6NTX made with 13 tricks is vulnerable:
    # 380 below (game), 200 overtrick, 50 for making it doubled, 750 slam, 700 rubber.
    outcome = play(hand("Bob", "3NT", 9), hand("Dee", "6NTX", 13))
    assert entries(outcome.hands[1]) == [
        (1, "below", 380, "tricks"),
        (1, "above", 200, "overtricks"),
        (1, "above", 50, "insult"),
        (1, "above", 750, "slam"),
        (1, "above", 700, "rubber"),
    ]
    assert outcome.hands[1].scores == sides(0, 2080)


# --- undertricks, to the defenders -----------------------------------------------


@pytest.mark.parametrize(
    "doubling, vulnerable, per_trick",
    [
        pytest.param("", False, [50, 50, 50, 50, 50], id="undoubled-not-vulnerable-50-each"),
        pytest.param("", True, [100, 100, 100, 100, 100], id="undoubled-vulnerable-100-each"),
        pytest.param("X", False, [100, 200, 200, 300, 300], id="doubled-not-vulnerable"),
        pytest.param("X", True, [200, 300, 300, 300, 300], id="doubled-vulnerable"),
        pytest.param("XX", False, [200, 400, 400, 600, 600], id="redoubled-not-vulnerable-twice"),
        pytest.param("XX", True, [400, 600, 600, 600, 600], id="redoubled-vulnerable-twice"),
    ],
)
def test_undertrick_table(doubling, vulnerable, per_trick):
    contract = parse_contract("7NT" + doubling)
    for down in range(1, 6):
        assert undertrick_values(contract, down, vulnerable) == per_trick[:down]
        [score] = contract_scores(contract, 13 - down, vulnerable)
        assert (score.declarer, score.where, score.points, score.what) == (
            False,
            "above",
            sum(per_trick[:down]),
            "undertricks",
        )


@pytest.mark.parametrize(
    "contract, tricks, vulnerable, text",
    [
        pytest.param("4S", 9, False, "4S down 1, not vulnerable: 50 above the line", id="one-down"),
        pytest.param("4S", 7, True, "4S down 3, vulnerable: 3 × 100 = 300 above the line",
                     id="same-each"),
        pytest.param("3NTX", 5, False,
                     "3NTX down 4, doubled, not vulnerable: "
                     "100 + 200 + 200 + 300 = 800 above the line",
                     id="doubled-sum"),
        pytest.param("2DXX", 6, True,
                     "2DXX down 2, redoubled, vulnerable: 400 + 600 = 1000 above the line",
                     id="redoubled-sum"),
    ],
)  # fmt: skip
def test_undertrick_explanation(contract, tricks, vulnerable, text):
    [score] = contract_scores(parse_contract(contract), tricks, vulnerable)
    assert score.text == text


def test_failed_contract_scores_only_for_the_defenders():
    result = play(hand("Bob", "4HX", 8)).hands[0]
    assert result.scores == sides(300, 0)
    assert entries(result) == [(0, "above", 300, "undertricks")]
    assert result.details.declarer_side == 1
    assert result.details.game_won is None


# --- honours -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "record, expected_scores, honours_entry",
    [
        pytest.param(
            hand("Ann", "4S", 10, honors={"holder": "Cy", "points": 150}),
            sides(270, 0),
            (0, "above", 150, "honours"),
            id="all-five-trump-honours-150-dummy",
        ),
        pytest.param(
            hand("Ann", "4S", 10, honors={"holder": "Bob", "points": 100}),
            sides(120, 100),
            (1, "above", 100, "honours"),
            id="four-honours-with-a-defender-100",
        ),
        pytest.param(
            hand("Ann", "4S", 9, honors={"holder": "Ann", "points": 100}),
            sides(100, 50),
            (0, "above", 100, "honours"),
            id="honours-count-when-the-contract-fails",
        ),
        pytest.param(
            hand("Ann", "3NT", 9, honors={"holder": "Dee", "points": 150}),
            sides(100, 150),
            (1, "above", 150, "honours"),
            id="NT-four-aces-150",
        ),
    ],
)
def test_honours_to_the_holders_side_whatever_the_result(record, expected_scores, honours_entry):
    result = play(record).hands[0]
    assert result.scores == expected_scores
    assert honours_entry in entries(result)


# --- games, vulnerability, rubbers ---------------------------------------------------------


def test_part_scores_add_up_to_a_game():
    outcome = play(hand("Ann", "2H", 8), hand("Cy", "2D", 8))
    assert [h.details.game_won for h in outcome.hands] == [None, 0]
    assert outcome.hands[1].explanation[-1] == "We: game (100 below the line)"
    assert outcome.upcoming.games == [1, 0]
    assert outcome.upcoming.vulnerable == ["We"]
    assert outcome.upcoming.game == 2


def test_a_game_wipes_both_part_scores_for_game_purposes():
    # We have 60 below; They make game; in game 2 We' old 60 no longer helps.
    outcome = play(hand("Ann", "2S", 8), hand("Bob", "4H", 10), hand("Ann", "2S", 8))
    assert outcome.hands[2].details.game_won is None
    assert outcome.upcoming.part_scores == [60, 0]
    assert outcome.totals == sides(120, 120)  # still counted in the totals


def test_only_tricks_bid_count_towards_game():
    # 1NT with 6 overtricks: 40 below and 180 above, no game.
    outcome = play(hand("Ann", "1NT", 13))
    assert outcome.hands[0].details.game_won is None
    assert outcome.upcoming.part_scores == [40, 0]


def test_doubled_part_score_contract_makes_game():
    outcome = play(hand("Ann", "2SX", 8))
    assert entries(outcome.hands[0]) == [(0, "below", 120, "tricks"), (0, "above", 50, "insult")]
    assert outcome.hands[0].details.game_won == 0


def test_a_side_with_a_game_is_vulnerable_on_undertricks():
    outcome = play(hand("Ann", "3NT", 9), hand("Cy", "4S", 9), hand("Bob", "4S", 9))
    assert outcome.hands[1].details.vulnerable == ["We"]
    assert outcome.hands[1].scores == sides(0, 100)  # We vulnerable: 100 a trick
    assert outcome.hands[2].scores == sides(50, 0)  # They not vulnerable: 50


@pytest.mark.parametrize(
    "games, bonus, text",
    [
        pytest.param(
            [hand("Ann", "3NT", 9), hand("Cy", "3NT", 9)],
            700,
            "We: rubber won 2–0: 700 above",
            id="rubber-2-0-700",
        ),
        pytest.param(
            [hand("Ann", "3NT", 9), hand("Bob", "3NT", 9), hand("Cy", "3NT", 9)],
            500,
            "We: rubber won 2–1: 500 above",
            id="rubber-2-1-500",
        ),
    ],
)
def test_rubber_bonus(games, bonus, text):
    outcome = play(*games)
    last = outcome.hands[-1]
    assert (0, "above", bonus, "rubber") in entries(last)
    assert last.explanation[-1] == text
    assert last.details.rubber_won == 0
    assert outcome.finished is True


def test_next_rubber_starts_with_no_games_and_no_one_vulnerable():
    outcome = play(hand("Ann", "3NT", 9), hand("Cy", "3NT", 9), options={"rubbers": 2})
    assert outcome.finished is False
    assert vars(outcome.upcoming) == {
        "dealer": "Cy",
        "number": 3,
        "dealer_after_passed_out": "Dee",  # rubber: a passed-out deal moves the deal on
        "vulnerable": [],
        "rubber": 2,
        "game": 1,
        "games": [0, 0],
        "part_scores": [0, 0],
        "side_names": ["We", "They"],
        "sides": [["Ann", "Cy"], ["Bob", "Dee"]],
        "round": None,
        "deal": None,
    }
    third = play(
        hand("Ann", "3NT", 9), hand("Cy", "3NT", 9), hand("Cy", "4S", 9), options={"rubbers": 2}
    )
    assert third.hands[2].details.rubber == 2
    assert third.hands[2].scores == sides(0, 50)


def test_finished_after_the_rubbers_option_and_no_hand_may_follow():
    two = [hand("Ann", "3NT", 9), hand("Cy", "3NT", 9)]
    assert play(*two, *two, options={"rubbers": 2}).finished is True
    assert errors(*two, hand()) == [
        "hand 3: the match is already finished after hand 2; no hand may follow"
    ]


def test_unit_differences_per_rubber_including_one_in_progress():
    outcome = play(
        hand("Ann", "3NT", 9),
        hand("Cy", "3NT", 9),  # rubber 1: We 100 + 100 + 700 = 900
        hand("Bob", "2H", 8),  # rubber 2 in progress: They 60
        options={"rubbers": 2},
    )
    assert outcome.summary.unit_differences == [900, -60]
    assert outcome.hands[2].details.rubber == 2


def test_unit_differences_leave_out_a_rubber_not_yet_scored():
    two = [hand("Ann", "3NT", 9), hand("Cy", "3NT", 9)]
    outcome = play(*two, {"passed_out": True}, options={"rubbers": 2})
    assert outcome.summary.unit_differences == [900]
    assert play().summary.unit_differences == []


def test_winners_are_all_players_on_a_tie():
    outcome = play(hand("Ann", "2S", 8), hand("Bob", "2S", 8), {"end": True})
    assert outcome.totals == sides(160, 160)
    assert outcome.winners == PLAYERS


# --- passed out and the dealer ---------------------------------------------------------------


def test_passed_out_scores_nothing_and_the_deal_passes_on():
    outcome = play({"passed_out": True}, hand("Bob", "2S", 8))
    first = outcome.hands[0]
    assert (first.dealer, first.counted, first.scores) == ("Ann", True, sides(0, 0))
    assert first.explanation == ["passed out: no score; Bob deals next"]
    assert first.details.entries == []
    assert outcome.hands[1].dealer == "Bob"


def test_dealer_goes_round_clockwise_from_the_first_player():
    outcome = play(*[hand("Ann", "1C", 7)] * 5)
    assert [h.dealer for h in outcome.hands] == ["Ann", "Bob", "Cy", "Dee", "Ann"]
    assert outcome.upcoming.dealer == "Bob"


# --- the end marker: unfinished rubber -----------------------------------------------


@pytest.mark.parametrize(
    "hands, scores, lines",
    [
        pytest.param(
            [hand("Ann", "4S", 10)],
            sides(300, 0),
            ["We: one game in the unfinished rubber: 300 above"],
            id="one-game-300",
        ),
        pytest.param(
            [hand("Bob", "2C", 8)],
            sides(0, 100),
            ["They: part score 40 in the unfinished game: 100 above"],
            id="part-score-100",
        ),
        pytest.param(
            [hand("Ann", "4S", 10), hand("Cy", "1NT", 7), hand("Bob", "1H", 7)],
            sides(400, 100),
            [
                "We: one game in the unfinished rubber: 300 above",
                "We: part score 40 in the unfinished game: 100 above",
                "They: part score 30 in the unfinished game: 100 above",
            ],
            id="game-and-part-scores-both-sides",
        ),
        pytest.param(
            [hand("Ann", "4S", 10), hand("Bob", "4S", 10)],
            sides(300, 300),
            [
                "We: one game in the unfinished rubber: 300 above",
                "They: one game in the unfinished rubber: 300 above",
            ],
            id="one-game-each",
        ),
        pytest.param([], sides(0, 0), [], id="nothing-played-no-bonus"),
    ],
)
def test_unfinished_rubber_bonuses_at_the_end_marker(hands, scores, lines):
    outcome = play(*hands, {"end": True})
    end = outcome.hands[-1]
    assert (end.dealer, end.counted, end.scores) == (None, False, scores)
    assert end.explanation == ["The players stopped here.", *lines]
    assert all(e["what"] == "unfinished" for e in end.details.entries)
    assert outcome.finished is True
    assert outcome.upcoming is None
    # The end entry's points belong to the unfinished rubber, so the hands add up.
    assert (
        sum(h.scores["Ann"] - h.scores["Bob"] for h in outcome.hands)
        == (outcome.summary.unit_differences or [0])[-1]
    )


def test_end_after_a_finished_match_is_refused():
    # README: nothing may follow a match finished by its own rules, the end marker included.
    assert errors(hand("Ann", "3NT", 9), hand("Cy", "3NT", 9), {"end": True}) == [
        "hand 3: the match is already finished after hand 2; no end marker may follow"
    ]


# --- the hand as entered: every check names its field --------------------------------------


@pytest.mark.parametrize(
    "record, lines",
    [
        pytest.param(
            hand("Zed"),
            ["hand 1: declarer: 'Zed' is not one of Ann, Bob, Cy, Dee"],
            id="declarer-one-of-the-players",
        ),
        pytest.param(
            {"declarer": "Ann", "tricks": 9},
            ["hand 1: contract: missing; give a contract like 4S, 3NTX or 6HXX"],
            id="contract-missing",
        ),
        pytest.param(
            hand(contract="8S"),
            ["hand 1: contract: level 8 is not allowed, use 1–7"],
            id="contract-level-1-to-7",
        ),
        pytest.param(
            hand(contract="4SXXX"),
            ["hand 1: contract: '4SXXX' is not a contract like 4S, 3NTX or 6HXX"],
            id="contract-shape",
        ),
        pytest.param(
            hand(tricks=14),
            ["hand 1: tricks: 14 is out of range; allowed 0–13"],
            id="tricks-0-to-13",
        ),
        pytest.param(
            hand(tricks="ten"),
            ["hand 1: tricks: 'ten' is not a whole number; allowed 0–13"],
            id="tricks-a-string",
        ),
        pytest.param(
            hand(tricks=True),
            ["hand 1: tricks: True is not a whole number; allowed 0–13"],
            id="tricks-a-bool",
        ),
        pytest.param(
            hand(honors=["Ann", 100]),
            ['hand 1: honors: give {"holder": player, "points": 100 or 150}'],
            id="honors-shape",
        ),
        pytest.param(
            hand(honors={"holder": "Ann", "points": 100, "suit": "S"}),
            ['hand 1: honors: give {"holder": player, "points": 100 or 150}'],
            id="honors-no-extra-keys",
        ),
        pytest.param(
            hand(honors={"holder": "Zed", "points": 120}),
            [
                "hand 1: honors: holder 'Zed' is not one of Ann, Bob, Cy, Dee",
                "hand 1: honors: points 120 is not allowed; give 100 or 150",
            ],
            id="honors-holder-and-points",
        ),
        pytest.param(
            hand(honors={"holder": "Ann", "points": 100.0}),
            ["hand 1: honors: points 100.0 is not allowed; give 100 or 150"],
            id="honors-points-whole-number",
        ),
        pytest.param(
            hand(contract="3NT", tricks=9, honors={"holder": "Ann", "points": 100}),
            ["hand 1: honors: at NT only the four aces count, for 150, not 100"],
            id="honors-NT-only-150",
        ),
        pytest.param(
            {"passed_out": False},
            ["hand 1: passed_out: False is not allowed; give true or leave it out"],
            id="passed-out-must-be-true",
        ),
        pytest.param(
            {"passed_out": True, "declarer": "Ann", "honors": {"holder": "Ann", "points": 100}},
            [
                "hand 1: declarer: must be left out on a passed-out hand",
                "hand 1: honors: must be left out on a passed-out hand",
            ],
            id="passed-out-nothing-else",
        ),
        pytest.param(
            hand(doubler="Bob"),
            [
                "hand 1: doubler: unknown field; allowed here: "
                "contract, declarer, honors, passed_out, tricks"
            ],
            id="unknown-field",
        ),
        pytest.param(
            {"declarer": 3, "contract": ["4S"], "tricks": None},
            [
                "hand 1: declarer: 3 is not one of Ann, Bob, Cy, Dee",
                "hand 1: contract: ['4S'] is not a contract like 4S, 3NTX or 6HXX",
                "hand 1: tricks: None is not a whole number; allowed 0–13",
            ],
            id="every-problem-at-once",
        ),
    ],
)
def test_hand_checks(record, lines):
    assert errors(record) == lines


def test_a_bad_hand_changes_nothing_before_it_is_reported():
    assert errors(hand("Ann", "3NT", 9), hand(tricks=-1)) == [
        "hand 2: tricks: -1 is out of range; allowed 0–13"
    ]


@pytest.mark.parametrize(
    "options, line",
    [
        pytest.param(
            {"rubbers": 0},
            "options: rubbers: 0 is not allowed; give a whole number 1–100",
            id="rubbers-at-least-1",
        ),
        pytest.param(
            {"round_to_hundreds": "yes"},
            "options: round_to_hundreds: 'yes' is not true or false",
            id="round-to-hundreds-bool",
        ),
        pytest.param(
            {"rounds": 2},
            "options: rounds: unknown option; allowed for rubber: rubbers, round_to_hundreds",
            id="rounds-is-chicago-only",
        ),
    ],
)
def test_option_checks(options, line):
    assert errors(options=options) == [line]


def test_option_defaults():
    assert play().options == {"rubbers": 1, "round_to_hundreds": True}


# --- Honeymoon: two players, each a side of their own ------------------------------------


def test_honeymoon_scores_exactly_as_a_rubber_with_one_player_a_side():
    outcome = play(
        hand("Ann", "4S", 10),
        hand("Bob", "3NT", 8),  # Bob not vulnerable: Ann 50
        hand("Bob", "6D", 12),  # Bob's game and slam, not vulnerable
        hand("Ann", "3NT", 9),  # Ann wins the rubber 2–1
        variant="honeymoon",
        players=PAIR,
    )
    assert [h.dealer for h in outcome.hands] == ["Ann", "Bob", "Ann", "Bob"]
    assert [h.scores for h in outcome.hands] == [
        {"Ann": 120, "Bob": 0},
        {"Ann": 50, "Bob": 0},
        {"Ann": 0, "Bob": 620},
        {"Ann": 600, "Bob": 0},
    ]
    assert outcome.hands[3].explanation[-1] == "Ann: rubber won 2–1: 500 above"
    assert outcome.hands[1].explanation == [
        "Ann: 3NT by Bob down 1, not vulnerable: 50 above the line"
    ]
    assert outcome.totals == {"Ann": 770, "Bob": 620}
    assert outcome.finished is True
    assert outcome.winners == ["Ann"]
    assert outcome.summary.unit_differences == [150]


def test_honeymoon_upcoming_names_players_as_sides():
    outcome = play(hand("Bob", "4H", 10), variant="honeymoon", players=PAIR)
    assert vars(outcome.upcoming) == {
        "dealer": "Bob",
        "number": 2,
        "dealer_after_passed_out": "Ann",
        "vulnerable": ["Bob"],
        "rubber": 1,
        "game": 2,
        "games": [0, 1],
        "part_scores": [0, 0],
        "side_names": ["Ann", "Bob"],
        "sides": [["Ann"], ["Bob"]],
        "round": None,
        "deal": None,
    }


def test_honeymoon_unfinished_rubber_and_tie():
    outcome = play(
        hand("Ann", "4S", 10),
        hand("Bob", "4S", 10),
        {"end": True},
        variant="honeymoon",
        players=PAIR,
    )
    assert outcome.hands[-1].scores == {"Ann": 300, "Bob": 300}
    assert outcome.winners == PAIR
    assert outcome.summary.unit_differences == [0]


def test_honeymoon_checks():
    assert errors(variant="honeymoon") == ["players: honeymoon needs 2 players, not 4"]
    assert errors(
        hand("Cy", honors={"holder": "Dee", "points": 100}), variant="honeymoon", players=PAIR
    ) == [
        "hand 1: declarer: 'Cy' is not one of Ann, Bob",
        "hand 1: honors: holder 'Dee' is not one of Ann, Bob",
    ]


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("rubber_won", "slam_made")

KIT = {
    "rubber": Kit(family="rubber", stake_per=100, partners="fixed"),
    "honeymoon": Kit(family="rubber", stake_per=100, partners="none"),
    "chicago": Kit(family="rubber", stake_per=100, partners="fixed"),
}

SIDES = "Points per side (above and below the line) after each hand"
EXAMPLE_RESULTS = {
    # Rubber 1: We 1930 − They 380 = +1550 → +1600; rubber 2: 0 − 1750 → −1800;
    # −200 × 0.50 / 100 = 1.00 from each of Margaret and Helen.
    "rubber": Example(
        12,
        {"Margaret": 1930, "Tom": 2130, "Helen": 1930, "Richard": 2130},
        ["Tom", "Richard"],
        [pay("Helen", "Richard", "1.00"), pay("Margaret", "Tom", "1.00")],
        chart=(SIDES, ["We (Margaret & Helen)", "They (Tom & Richard)"], ["1930", "2130"]),
        hands=12,
    ),
    # Rubber 1: 2070 − 380 = +1690 → +1700; unfinished rubber 2 (Sam part score
    # 100, Alex one game 300): 190 − 400 = −210 → −200; 1500 × 0.20 / 100 = 3.00.
    "honeymoon": Example(
        10,
        {"Sam": 2260, "Alex": 780},
        ["Sam"],
        [pay("Alex", "Sam", "3.00")],
        chart=(SIDES, ["Sam", "Alex"], ["2260", "780"]),
        hands=9,
    ),
    # Round 1: We 160 − They 1310 = −1150 → −1200; round 2: 1570 − 190 = +1380 → +1400;
    # +200 × 0.10 / 100 = 0.20 to each of Ann and Cy.
    "chicago": Example(
        9,
        {"Ann": 1730, "Bob": 1500, "Cy": 1730, "Dee": 1500},
        ["Ann", "Cy"],
        [pay("Bob", "Ann", "0.20"), pay("Dee", "Cy", "0.20")],
        chart=(SIDES, ["We (Ann & Cy)", "They (Bob & Dee)"], ["1730", "1500"]),
        hands=8,
    ),
}

# The hand forms as tests/test_hostile.py sends them (players Ann, Bob[, Cy, Dee]).
CONTRACT_WITHOUT = [
    ("declarer", "declarer: choose the declarer"),
    # Half a contract: the rules refuse it; the form names the button group left empty.
    ("level", "level: choose the level"),
    ("strain", "strain: choose a strain"),
    ("tricks", "tricks: choose the number of tricks won"),
]
HONOURS = 'honours_holder: give {"holder": player, "points": 100 or 150}'
HAND_FORMS = {
    "rubber": HandForm(
        good={
            "declarer": "Ann",
            "level": "2",
            "strain": "H",
            "tricks": "8",
            "honours_holder": "Ann",
            "honours_points": "100",
        },
        numbers=[("level", "strain"), ("tricks", "tricks"), ("honours_points", "honours_holder")],
        without=[*CONTRACT_WITHOUT, ("honours_holder", HONOURS), ("honours_points", HONOURS)],
        more=("doubling",),
        inputs={"honours_holder": PLAYER, "honours_points": {"100", "150"}},
        places={"honours_points": ("honours_holder",)},
    ),
    "honeymoon": HandForm(
        good={"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"},
        numbers=[("level", "strain"), ("tricks", "tricks")],
        without=[CONTRACT_WITHOUT[0], CONTRACT_WITHOUT[3]],
    ),
    "chicago": HandForm(
        good={"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"},
        numbers=[("level", "strain"), ("tricks", "tricks")],
        without=[CONTRACT_WITHOUT[1], CONTRACT_WITHOUT[3]],
        more=("doubling",),
    ),
}


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "rubber": Printed(
        ["Margaret", "Tom", "Helen", "Richard"],
        ["1 Margaret +90 0 +90 0", "2 Tom 0 0 0 0", "3 Helen 0 +100 0 +100",
         "4 Richard 0 +100 0 +100", "5 Margaret 0 +180 0 +180", "6 Tom +300 0 +300 0",
         "7 Helen +100 0 +100 0", "8 Richard +1440 0 +1440 0", "9 Margaret 0 +230 0 +230",
         "10 Tom 0 +40 0 +40", "11 Helen 0 +200 0 +200", "12 Richard 0 +1280 0 +1280"],
        "+1930 +2130 +1930 +2130",
        ["Helen pays Richard 1.00 GBP", "Margaret pays Tom 1.00 GBP"],
    ),
    "honeymoon": Printed(
        ["Sam", "Alex"],
        ["1 Sam +70 0", "2 Alex 0 +220", "3 Sam 0 0", "4 Alex +500 0", "5 Sam +130 0",
         "6 Alex 0 +60", "7 Sam +1370 +100", "8 Alex 0 +100", "9 Sam +90 0",
         "end +100 +300"],
        "+2260 +780",
        ["Alex pays Sam 3.00 EUR"],
    ),
    "chicago": Printed(
        ["Ann", "Bob", "Cy", "Dee"],
        ["1 Ann 0 +90 0 +90", "↻ Bob 0 0 0 0", "2 Bob 0 +720 0 +720", "3 Cy 0 +500 0 +500",
         "4 Dee +160 0 +160 0", "5 Ann +40 0 +40 0", "6 Bob +100 0 +100 0",
         "7 Cy +1430 0 +1430 0", "8 Dee 0 +190 0 +190"],
        "+1730 +1500 +1730 +1500",
        ["Bob pays Ann 0.20 EUR", "Dee pays Cy 0.20 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def rubber_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    if draw(st.integers(0, 9)) == 0:
        return {"passed_out": True}
    level = draw(st.integers(1, 7))
    strain = draw(st.sampled_from(STRAINS))
    doubled = draw(st.integers(0, 2))
    record: dict[str, Any] = {
        "declarer": draw(st.sampled_from(players)),
        "contract": f"{level}{strain}{'X' * doubled}",
        "tricks": tricks_for(draw, level + 6),
    }
    if draw(st.integers(0, 3)) == 0:
        points = 150 if strain == "NT" else draw(st.sampled_from([100, 150]))
        record["honors"] = {"holder": draw(st.sampled_from(players)), "points": points}
    return record


def rubber_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    return [(("tricks",), 0, 13)] if "tricks" in record else []


RUBBER_OPTIONS = st.fixed_dictionaries(
    {}, optional={"rubbers": st.integers(1, 2), "round_to_hundreds": st.booleans()}
)
GENERATED = {
    "rubber": Generated(
        rubber_hand,
        options=RUBBER_OPTIONS,
        optional=frozenset({"honors"}),
        numbers=rubber_numbers,
    ),
    "honeymoon": Generated(
        rubber_hand,
        options=RUBBER_OPTIONS,
        optional=frozenset({"honors"}),
        numbers=rubber_numbers,
    ),
    "chicago": Generated(
        rubber_hand,
        options=st.fixed_dictionaries(
            {},
            optional={
                "rounds": st.integers(1, 2),
                "round_to_hundreds": st.booleans(),
                "swap_vulnerability": st.booleans(),
            },
        ),
        optional=frozenset({"honors"}),
        numbers=rubber_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "rubber": ["Margaret & Helen 1930", "Tom & Richard 2130"],  # the whole match
    "honeymoon": ["Sam 2260", "Alex 780"],  # two players: a side each
    "chicago": ["Ann & Cy 1730", "Bob & Dee 1500"],  # every round so far
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    # A passed-out rubber hand (entry 2) is a deal: the deal passes on.
    "rubber": (numbered(range(1, 13)), "12 hands"),
    # The end marker (stopped early) is not a hand and has no number.
    "honeymoon": (numbered(range(1, 10), ""), "9 hands"),
    # A passed-out Chicago deal (entry 2) is dealt again and not counted.
    "chicago": (numbered(1, REDEAL_MARK, range(2, 9)), "8 hands"),
}
