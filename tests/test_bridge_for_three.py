"""Bridge for Three (docs/variants/bridge-for-three.md): pegs, floor, hole 11, auctions."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.bridge_for_three.rules import (
    BridgeForThree,
    BridgeForThreeDetails,
    apply_move,
    peg_move,
    read_auction,
)
from scorekeeper.games.common import STRAINS, HandError, parse_contract
from scorekeeper.variants import MatchError, replay
from tests.games import TEXT, Example, Generated, HandForm, Kit, Printed, numbered, pay, tricks_for

THREE = ["Ann", "Bob", "Cy"]
FOUR = ["Ann", "Bob", "Cy", "Dan"]
FIVE = ["Ann", "Bob", "Cy", "Dan", "Eve"]
PASSED = {"passed_out": True}
EXAMPLE = Path(__file__).parent.parent / "examples" / "bridge-for-three.json"


def hand(declarer: str, contract: str, tricks: int, **more: Any) -> dict[str, Any]:
    return {"declarer": declarer, "contract": contract, "tricks": tricks, **more}


def play(players: list[str], hands: list[dict[str, Any]]):
    return replay("bridge-for-three", players, {}, hands)


def problems(players: list[str], hands: list[Any], options: Any = None) -> list[str]:
    with pytest.raises(MatchError) as caught:
        replay("bridge-for-three", players, options, hands)
    return caught.value.lines


# Hand 1 (dealer Ann): Ann goes down 4, to -4.
ANN_AT_MINUS_4 = [hand("Ann", "4S", 6)]


# --- worked examples -------------------------------------------------------


@pytest.mark.parametrize(
    "contract, tricks, move",
    [
        # bridge-for-three.md "Worked examples (from the source)", row 1
        pytest.param("4S", 10, 4, id="example-4S-bid-10-tricks-plus-4"),
        # row 2: overtricks never count
        pytest.param("4S", 12, 4, id="example-4S-bid-12-tricks-plus-4"),
        # row 3: doubled, made
        pytest.param("2SX", 8, 4, id="example-2S-doubled-8-tricks-plus-4"),
        # row 4: set three
        pytest.param("4S", 7, -3, id="example-4S-bid-7-tricks-minus-3"),
    ],
)
def test_worked_examples_from_the_source(contract: str, tricks: int, move: int) -> None:
    assert peg_move(parse_contract(contract), tricks) == move
    outcome = play(THREE, [hand("Ann", contract, tricks)])
    assert outcome.hands[0].scores == {"Ann": move, "Bob": 0, "Cy": 0}
    assert outcome.totals == {"Ann": move, "Bob": 0, "Cy": 0}


# --- scoring: peg moves ------------------------------------------------------


@pytest.mark.parametrize(
    "contract, tricks, move",
    [
        pytest.param("1C", 7, 1, id="made-exactly-moves-the-level"),
        pytest.param("3NT", 13, 3, id="made-overtricks-never-count"),
        pytest.param("7NT", 13, 7, id="grand-slam-moves-7"),
        pytest.param("2H", 7, -1, id="set-one-moves-back-one"),
        pytest.param("6D", 0, -12, id="set-twelve-moves-back-twelve-before-floor"),
        pytest.param("3HX", 9, 6, id="doubled-made-twice-the-level"),
        pytest.param("3HX", 11, 6, id="doubled-made-overtricks-still-ignored"),
        pytest.param("3HX", 7, -4, id="doubled-set-twice-the-undertricks"),
    ],
)
def test_peg_move_table(contract: str, tricks: int, move: int) -> None:
    assert peg_move(parse_contract(contract), tricks) == move


@pytest.mark.parametrize(
    "pegs, declarer, move, after, overflow",
    [
        # bridge-for-three.md "Floor at -6": declarer at -4 set 5 -> -6, everyone else +3
        pytest.param(
            {"Ann": -4, "Bob": 2, "Cy": 0, "Dan": 5},
            "Ann",
            -5,
            {"Ann": -6, "Bob": 5, "Cy": 3, "Dan": 8},
            3,
            id="floor-spec-example-others-move-3",
        ),
        pytest.param(
            {"Ann": -6, "Bob": 0, "Cy": 1},
            "Ann",
            -2,
            {"Ann": -6, "Bob": 2, "Cy": 3},
            2,
            id="floor-already-at-minus-6-all-of-the-set-goes-to-others",
        ),
        pytest.param(
            {"Ann": -2, "Bob": 0, "Cy": 1},
            "Ann",
            -4,
            {"Ann": -6, "Bob": 0, "Cy": 1},
            0,
            id="floor-exactly-reached-nothing-overflows",
        ),
        pytest.param(
            {"Ann": 9, "Bob": 0, "Cy": 1},
            "Ann",
            4,
            {"Ann": 11, "Bob": 0, "Cy": 1},
            0,
            id="cap-pegs-stop-at-11",
        ),
        pytest.param(
            {"Ann": -5, "Bob": 9, "Cy": 10},
            "Ann",
            -6,
            {"Ann": -6, "Bob": 11, "Cy": 11},
            5,
            id="cap-overflow-cannot-push-past-11",
        ),
    ],
)
def test_floor_and_cap(
    pegs: dict[str, int], declarer: str, move: int, after: dict[str, int], overflow: int
) -> None:
    assert apply_move(pegs, declarer, move) == (after, overflow)


def test_floor_overflow_moves_every_other_player_including_those_sitting_out() -> None:
    # With 4 players hand 3 is played by Cy, Dan and Ann: Bob sits out but moves too.
    outcome = play(FOUR, [*ANN_AT_MINUS_4, PASSED, hand("Ann", "5C", 6)])
    third = outcome.hands[2]
    assert third.scores == {"Ann": -2, "Bob": 3, "Cy": 3, "Dan": 3}
    assert outcome.totals == {"Ann": -6, "Bob": 3, "Cy": 3, "Dan": 3}
    assert third.details == BridgeForThreeDetails(
        players=["Cy", "Dan", "Ann"],
        sitting_out=["Bob"],
        declarer="Ann",
        contract="5C",
        doubler=None,
        tricks=6,
        moved=-5,
        overflow=3,
        pegs_after={"Ann": -6, "Bob": 3, "Cy": 3, "Dan": 3},
    )
    assert third.explanation == [
        "Bob sat this hand out",
        "5C down 5 (6 tricks): back 5",
        "Ann: -4 → -6",
        "Ann stops at the floor -6; the 3 holes that did not fit move everyone else "
        "forward: Bob 0 → 3, Cy 0 → 3, Dan 0 → 3",
    ]


# --- winning at hole 11 ------------------------------------------------------

# Bob and Cy reach 9 each, Ann sinks to -4, then her set of 5 overflows 3 to both.
TIE_AT_11 = [
    hand("Bob", "4S", 10),  # dealer Ann
    hand("Bob", "5H", 11),  # dealer Bob
    hand("Cy", "4S", 10),  # dealer Cy
    hand("Cy", "5D", 11),  # dealer Ann
    hand("Ann", "4S", 6),  # dealer Bob
    hand("Ann", "5C", 6),  # dealer Cy
]


def test_winning_first_to_11_ends_the_game_and_pegs_stop_at_11() -> None:
    outcome = play(THREE, [hand("Ann", "5S", 11), hand("Ann", "7NT", 13)])
    assert outcome.hands[1].scores == {"Ann": 6, "Bob": 0, "Cy": 0}
    assert outcome.hands[1].explanation == [
        "7NT made (13 tricks): forward 7",
        "Ann: 5 → 11 (pegs stop there)",
        "Ann reaches hole 11 and wins the game",
    ]
    assert outcome.totals == {"Ann": 11, "Bob": 0, "Cy": 0}
    assert outcome.finished is True
    assert outcome.winners == ["Ann"]
    assert outcome.upcoming is None


def test_winning_several_reach_11_at_once_is_a_tie() -> None:
    outcome = play(THREE, TIE_AT_11)
    assert outcome.hands[5].scores == {"Ann": -2, "Bob": 2, "Cy": 2}
    assert outcome.totals == {"Ann": -6, "Bob": 11, "Cy": 11}
    assert outcome.hands[5].explanation[-1] == "Bob and Cy reach hole 11 together: a tie"
    assert outcome.winners == ["Bob", "Cy"]


def test_winning_no_hand_may_follow_a_finished_game() -> None:
    assert problems(THREE, [*TIE_AT_11, PASSED]) == [
        "hand 7: the match is already finished after hand 6; no hand may follow"
    ]


def test_end_marker_stops_early_and_the_leaders_win() -> None:
    outcome = play(THREE, [hand("Bob", "3NT", 9), {"end": True}])
    assert outcome.finished is True
    assert outcome.winners == ["Bob"]
    assert outcome.hands[1].dealer is None
    assert outcome.hands[1].scores == {"Ann": 0, "Bob": 0, "Cy": 0}


# --- dealer and who plays ----------------------------------------------------


@pytest.mark.parametrize(
    "players, played_before, dealer, playing, sitting_out",
    [
        pytest.param(THREE, 0, "Ann", ["Ann", "Bob", "Cy"], [], id="3p-hand-1"),
        pytest.param(THREE, 2, "Cy", ["Cy", "Ann", "Bob"], [], id="3p-hand-3"),
        pytest.param(THREE, 3, "Ann", ["Ann", "Bob", "Cy"], [], id="3p-hand-4-wraps"),
        pytest.param(FOUR, 0, "Ann", ["Ann", "Bob", "Cy"], ["Dan"], id="4p-hand-1-players-123"),
        pytest.param(FOUR, 1, "Bob", ["Bob", "Cy", "Dan"], ["Ann"], id="4p-hand-2-players-234"),
        pytest.param(FOUR, 2, "Cy", ["Cy", "Dan", "Ann"], ["Bob"], id="4p-hand-3-players-341"),
        pytest.param(FOUR, 3, "Dan", ["Dan", "Ann", "Bob"], ["Cy"], id="4p-hand-4-players-412"),
        pytest.param(FOUR, 4, "Ann", ["Ann", "Bob", "Cy"], ["Dan"], id="4p-hand-5-repeats"),
        pytest.param(FIVE, 0, "Ann", ["Ann", "Bob", "Cy"], ["Dan", "Eve"], id="5p-hand-1-123"),
        pytest.param(FIVE, 2, "Cy", ["Cy", "Dan", "Eve"], ["Ann", "Bob"], id="5p-hand-3-345"),
        pytest.param(FIVE, 3, "Dan", ["Dan", "Eve", "Ann"], ["Bob", "Cy"], id="5p-hand-4-451"),
        pytest.param(FIVE, 4, "Eve", ["Eve", "Ann", "Bob"], ["Cy", "Dan"], id="5p-hand-5-512"),
        pytest.param(FIVE, 5, "Ann", ["Ann", "Bob", "Cy"], ["Dan", "Eve"], id="5p-hand-6-repeats"),
    ],
)
def test_deal_rotates_and_the_dealer_plays_with_the_next_two(
    players: list[str],
    played_before: int,
    dealer: str,
    playing: list[str],
    sitting_out: list[str],
) -> None:
    # Passed-out hands move the deal on like any other (Decision), so they
    # are enough to walk the deal round the table.
    outcome = play(players, [PASSED] * played_before)
    assert vars(outcome.upcoming) == {
        "dealer": dealer,
        "number": played_before + 1,  # passed-out hands count (Decision)
        "players": playing,
        "sitting_out": sitting_out,
        "pegs": {p: 0 for p in players},
    }
    outcome = play(players, [PASSED] * (played_before + 1))
    assert outcome.hands[-1].dealer == dealer
    assert outcome.hands[-1].details.players == playing
    assert outcome.hands[-1].details.sitting_out == sitting_out


def test_passed_out_hand_scores_nothing_and_moves_the_deal_on() -> None:
    # Decision: a hand all three pass moves the deal on like any other hand.
    outcome = play(FOUR, [{"auction": ["P", "P", "P"], "passed_out": True}])
    result = outcome.hands[0]
    assert result.counted is True
    assert result.scores == {"Ann": 0, "Bob": 0, "Cy": 0, "Dan": 0}
    assert result.explanation == [
        "Dan sat this hand out",
        "all three passed: no peg moves and the deal passes on",
    ]
    assert result.details.passed_out is True
    assert result.details.moved == 0
    assert outcome.upcoming.dealer == "Bob"


# --- the auction -------------------------------------------------------------


@pytest.mark.parametrize(
    "calls, bid, bidder, doubler",
    [
        pytest.param(["1S", "P", "P"], "1S", "Ann", None, id="bid-then-two-passes"),
        pytest.param(["P", "1H", "2S", "P", "P"], "2S", "Cy", None, id="overcall-wins"),
        pytest.param(["1S", "P", "X", "P", "P"], "1S", "Ann", "Cy", id="double-then-two-passes"),
        pytest.param(["1S", "X", "2S", "P", "P"], "2S", "Cy", None, id="new-bid-clears-double"),
        pytest.param(["1S", "X", "P", "2S", "P", "P"], "2S", "Ann", None, id="doubled-rebids"),
        pytest.param(["p", "p", " p "], None, None, None, id="three-passes-any-case"),
        pytest.param(["1nt", "P", "P"], "1NT", "Ann", None, id="lower-case-bid"),
    ],
)
def test_auction_complete(
    calls: list[str], bid: str | None, bidder: str | None, doubler: str | None
) -> None:
    auction, problem = read_auction(calls, THREE)
    assert problem is None
    assert auction is not None
    assert (str(auction.bid) if auction.bid else None, auction.bidder, auction.doubler) == (
        bid,
        bidder,
        doubler,
    )


def test_auction_agrees_with_the_entered_hand() -> None:
    record = hand("Ann", "1SX", 7, doubler="Cy", auction=["1S", "P", "X", "P", "P"])
    outcome = play(THREE, [record])
    assert outcome.hands[0].scores == {"Ann": 2, "Bob": 0, "Cy": 0}
    assert outcome.hands[0].explanation == [
        "1SX made (7 tricks): forward 1; doubled by Cy, so 2 × 1 = 2",
        "Ann: 0 → 2",
    ]


AUCTION_PROBLEMS = [
    pytest.param(
        "1S P P",
        'hand 1: auction: give a list of calls from Ann on, each "P", a bid like 2S, or "X"',
        id="not-a-list",
    ),
    pytest.param(
        ["Q"],
        "hand 1: auction: call 1 (Ann): 'Q' is not a bid like 1C, 3NT or 7S; "
        'give "P", a bid like 2S, or "X"',
        id="unknown-call",
    ),
    pytest.param(
        [True],
        "hand 1: auction: call 1 (Ann): True is not a bid like 1C, 3NT or 7S; "
        'give "P", a bid like 2S, or "X"',
        id="bool-call",
    ),
    pytest.param(
        ["8S"], "hand 1: auction: call 1 (Ann): level 8 is not allowed, use 1–7", id="level-8"
    ),
    pytest.param(
        ["2S", "2C"],
        "hand 1: auction: call 2 (Bob): 2C is not higher than the previous bid 2S",
        id="bids-must-rise",
    ),
    pytest.param(
        ["X"], "hand 1: auction: call 1 (Ann): there is no bid to double", id="double-no-bid"
    ),
    pytest.param(
        ["1S", "X", "P", "X"],
        "hand 1: auction: call 4 (Ann): Ann made the last bid 1S; only an opponent may double",
        id="double-own-bid",
    ),
    pytest.param(
        ["1S", "X", "X"],
        "hand 1: auction: call 3 (Cy): 1S is already doubled by Bob",
        id="double-twice",
    ),
    pytest.param(
        ["1S", "X", "XX"],
        "hand 1: auction: call 3 (Cy): redoubling is not allowed in this game",
        id="no-redouble",
    ),
    pytest.param(
        ["1S", "P", "P", "P"],
        "hand 1: auction: call 4 (Ann): the auction was already over after call 3",
        id="call-after-the-end",
    ),
    pytest.param(
        ["P", "P", "P", "1C"],
        "hand 1: auction: call 4 (Ann): the auction was already over after call 3",
        id="call-after-passed-out",
    ),
    pytest.param(
        ["1S", "P"],
        "hand 1: auction: not finished: two passes must follow the last bid or double "
        "(three if no bid)",
        id="incomplete",
    ),
    pytest.param(
        [],
        "hand 1: auction: not finished: two passes must follow the last bid or double "
        "(three if no bid)",
        id="empty",
    ),
]


@pytest.mark.parametrize("calls, line", AUCTION_PROBLEMS)
def test_auction_checks(calls: Any, line: str) -> None:
    assert problems(THREE, [hand("Ann", "1S", 7, auction=calls)]) == [line]


def test_auction_follows_this_hands_calling_order() -> None:
    # With 4 players hand 2 is called by Bob, Cy and Dan.
    assert problems(FOUR, [PASSED, hand("Bob", "1S", 7, auction=["1S", "X", "P", "X"])]) == [
        "hand 2: auction: call 4 (Bob): Bob made the last bid 1S; only an opponent may double"
    ]


@pytest.mark.parametrize(
    "record, lines",
    [
        pytest.param(
            hand("Ann", "2H", 8, auction=["1S", "2H", "P", "P"]),
            ["hand 1: declarer: Ann is not the last bidder Bob"],
            id="declarer-must-be-last-bidder",
        ),
        pytest.param(
            hand("Ann", "1S", 8, auction=["1S", "P", "X", "P", "P"]),
            ["hand 1: contract: 1S does not match the auction's 1SX"],
            id="contract-must-show-the-double",
        ),
        pytest.param(
            hand("Ann", "2S", 8, auction=["1S", "P", "P"]),
            ["hand 1: contract: 2S does not match the auction's 1S"],
            id="contract-must-be-the-last-bid",
        ),
        pytest.param(
            hand("Ann", "1SX", 8, doubler="Bob", auction=["1S", "P", "X", "P", "P"]),
            ["hand 1: doubler: Bob did not double; Cy did"],
            id="doubler-must-be-who-doubled",
        ),
        pytest.param(
            hand("Ann", "1SX", 8, doubler="Bob", auction=["1S", "P", "P"]),
            ["hand 1: contract: 1SX does not match the auction's 1S"],
            id="doubled-contract-but-nobody-doubled",
        ),
        pytest.param(
            {"auction": ["1S", "P", "P"], "passed_out": True},
            ["hand 1: passed_out: Ann bid 1S, so it was not passed out"],
            id="passed-out-but-someone-bid",
        ),
        pytest.param(
            {"auction": ["P", "P", "P"]},
            ["hand 1: passed_out: all three passed, so give passed_out: true"],
            id="three-passes-need-passed-out-true",
        ),
        pytest.param(
            {"auction": ["P", "P", "P"], "passed_out": True, "declarer": "Ann", "tricks": 7},
            [
                "hand 1: declarer: must be left out on a passed-out hand",
                "hand 1: tricks: must be left out on a passed-out hand",
            ],
            id="passed-out-takes-nothing-but-the-auction",
        ),
    ],
)
def test_auction_must_agree_with_the_hand(record: dict[str, Any], lines: list[str]) -> None:
    assert problems(THREE, [record]) == lines


# --- the other fields, as entered ---------------------------------------------


@pytest.mark.parametrize(
    "players, record, lines",
    [
        pytest.param(
            FOUR,
            hand("Dan", "2S", 8),
            ["hand 1: declarer: 'Dan' is not one of this hand's players Ann, Bob, Cy"],
            id="declarer-sitting-out",
        ),
        pytest.param(
            THREE,
            {"contract": "2S", "tricks": 8},
            ["hand 1: declarer: missing; give one of this hand's players Ann, Bob, Cy"],
            id="declarer-missing",
        ),
        pytest.param(
            THREE,
            hand("Ann", "4HXX", 10),
            ["hand 1: contract: redoubling is not allowed in this game; use 4HX"],
            id="contract-no-redouble",
        ),
        pytest.param(
            THREE,
            hand("Ann", "8S", 13),
            ["hand 1: contract: level 8 is not allowed, use 1–7"],
            id="contract-level-1-to-7",
        ),
        pytest.param(
            THREE,
            hand("Ann", "four spades", 10),
            ["hand 1: contract: 'four spades' is not a contract like 4S, 3NTX or 6HXX"],
            id="contract-not-a-contract",
        ),
        pytest.param(
            FOUR,
            hand("Ann", "2SX", 8, doubler="Dan"),
            ["hand 1: doubler: 'Dan' is not declarer's opponent in this hand, one of Bob, Cy"],
            id="doubler-sitting-out",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2SX", 8, doubler="Ann"),
            ["hand 1: doubler: 'Ann' is not declarer's opponent in this hand, one of Bob, Cy"],
            id="doubler-not-the-declarer",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2S", 8, doubler="Bob"),
            ["hand 1: doubler: must be left out when the contract is not doubled"],
            id="doubler-needs-a-doubled-contract",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2S", 14),
            ["hand 1: tricks: 14 is out of range; allowed 0–13"],
            id="tricks-0-to-13",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2S", "8"),
            ["hand 1: tricks: '8' is not a whole number; allowed 0–13"],
            id="tricks-string",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2S", True),
            ["hand 1: tricks: True is not a whole number; allowed 0–13"],
            id="tricks-bool",
        ),
        pytest.param(
            THREE,
            {"passed_out": False},
            [
                "hand 1: passed_out: False is not allowed; give true or leave it out",
                "hand 1: declarer: missing; give one of this hand's players Ann, Bob, Cy",
                "hand 1: contract: missing; give a contract like 4S, 3NTX or 6HXX",
                "hand 1: tricks: missing; give a whole number 0–13",
            ],
            id="passed-out-only-true",
        ),
        pytest.param(
            THREE,
            hand("Ann", "2S", 8, bid="2S"),
            [
                "hand 1: bid: unknown field; allowed here: auction, contract, declarer, "
                "doubler, passed_out, tricks"
            ],
            id="unknown-field",
        ),
        pytest.param(
            FOUR,
            hand("Dan", ["2S"], -1),
            [
                "hand 1: declarer: 'Dan' is not one of this hand's players Ann, Bob, Cy",
                "hand 1: contract: ['2S'] is not a contract like 4S, 3NTX or 6HXX",
                "hand 1: tricks: -1 is out of range; allowed 0–13",
            ],
            id="every-problem-reported-at-once",
        ),
    ],
)
def test_hand_checks(players: list[str], record: dict[str, Any], lines: list[str]) -> None:
    assert problems(players, [record]) == lines


def test_doubled_contract_without_doubler_is_accepted_and_doubled() -> None:
    outcome = play(THREE, [hand("Bob", "2SX", 8)])
    assert outcome.hands[0].scores == {"Ann": 0, "Bob": 4, "Cy": 0}
    assert outcome.hands[0].explanation == [
        "2SX made (8 tricks): forward 2; doubled, so 2 × 2 = 4",
        "Bob: 0 → 4",
    ]


def test_doubler_taken_from_the_auction_when_not_entered() -> None:
    record = hand("Ann", "1SX", 6, auction=["1S", "X", "P", "P"])
    outcome = play(THREE, [record])
    assert outcome.hands[0].details.doubler == "Bob"
    assert outcome.hands[0].explanation == [
        "1SX down 1 (6 tricks): back 1; doubled by Bob, so 2 × 1 = 2",
        "Ann: 0 → -2",
    ]


def test_floor_one_hole_over_from_minus_6() -> None:
    outcome = play(THREE, [hand("Ann", "6C", 6), hand("Ann", "1C", 6)])
    assert outcome.hands[1].scores == {"Ann": 0, "Bob": 1, "Cy": 1}
    assert outcome.hands[1].explanation[-1] == (
        "Ann stops at the floor -6; the 1 hole that did not fit moves everyone else "
        "forward: Bob 0 → 1, Cy 0 → 1"
    )


def test_a_refused_hand_changes_nothing() -> None:
    game = BridgeForThree(THREE, {})
    with pytest.raises(HandError):
        game.play_hand(hand("Ann", "2S", 14), 1)
    assert game.totals == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert game.upcoming().dealer == "Ann"


@pytest.mark.parametrize(
    "players, options, lines",
    [
        pytest.param(
            ["Ann", "Bob"],
            {},
            ["players: bridge-for-three needs 3 or 4 or 5 players, not 2"],
            id="players-3-to-5",
        ),
        pytest.param(
            THREE,
            {"games": 2},
            ["options: games: unknown option; allowed for bridge-for-three: none"],
            id="no-options",
        ),
    ],
)
def test_match_checks(players: list[str], options: dict[str, Any], lines: list[str]) -> None:
    assert problems(players, [], options) == lines


def test_example_file_replays_to_hole_11() -> None:
    match = json.loads(EXAMPLE.read_text())
    outcome = replay(match["variant"], match["players"], match["options"], match["hands"])
    assert outcome.finished is True
    assert outcome.winners == ["Cy"]
    assert outcome.totals == {"Ann": 10, "Bob": -5, "Cy": 11, "Dan": 4}
    assert [h.details.overflow for h in outcome.hands].count(2) == 1


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("pegged_out",)

KIT = {"bridge-for-three": Kit(family="bridge_for_three", stake_per=1, partners="none")}

EXAMPLE_RESULTS = {
    # Bob set at the floor pushes the others on 2; Cy 8 + 4 stops at 11 and wins;
    # each of the three others pays the 0.50 stake.
    "bridge-for-three": Example(
        11,
        {"Ann": 10, "Bob": -5, "Cy": 11, "Dan": 4},
        ["Cy"],
        [pay("Ann", "Cy", "0.50"), pay("Bob", "Cy", "0.50"), pay("Dan", "Cy", "0.50")],
        chart=("Pegs after each hand", ["Ann", "Bob", "Cy", "Dan"], ["10", "−5", "11", "4"]),
        hands=11,
    ),
}

# The hand form as tests/test_hostile.py sends it (players Ann, Bob, Cy).
HAND_FORMS = {
    "bridge-for-three": HandForm(
        good={"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"},
        numbers=[("level", "strain"), ("tricks", "tricks")],  # level and strain make one contract
        without=[
            ("declarer", "declarer: choose the declarer"),
            ("level", "level: choose the level"),
            ("strain", "strain: choose a strain"),
            ("tricks", "tricks: choose the number of tricks won"),
        ],
        more=("doubled", "auction"),
        inputs={"doubled": {"", "X"}, "auction": TEXT},
        places={"doubled": ("strain", "doubler")},
    ),
}


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "bridge-for-three": Printed(
        ["Ann", "Bob", "Cy", "Dan"],
        ["1 Ann 0 0 +2 0", "2 Bob 0 0 0 0", "3 Cy 0 0 0 +3", "4 Dan 0 −6 0 0",
         "5 Ann +2 0 0 0", "6 Bob +2 0 +2 +2", "7 Cy 0 0 +4 0", "8 Dan +6 0 0 0",
         "9 Ann 0 +1 0 0", "10 Bob 0 0 0 −1", "11 Cy 0 0 +3 0"],
        "+10 −5 +11 +4",
        ["Ann pays Cy 0.50 EUR", "Bob pays Cy 0.50 EUR", "Dan pays Cy 0.50 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def bridge_for_three_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    playing = coming.players
    if draw(st.integers(0, 9)) == 0:
        calls = draw(st.sampled_from([{}, {"auction": ["P", "P", "P"]}]))
        return {**calls, "passed_out": True}
    declarer = draw(st.sampled_from(playing))
    level = draw(st.integers(1, 7))
    bid = f"{level}{draw(st.sampled_from(STRAINS))}"
    doubled = draw(st.booleans())
    record: dict[str, Any] = {}
    seat = playing.index(declarer)
    doubler = playing[(seat + 1) % 3]
    if draw(st.booleans()):
        record["auction"] = ["P"] * seat + [bid] + (["X", "P", "P"] if doubled else ["P", "P"])
    else:
        doubler = draw(st.sampled_from([p for p in playing if p != declarer]))
    record |= {"declarer": declarer, "contract": bid + ("X" if doubled else "")}
    if doubled and draw(st.booleans()):
        record["doubler"] = doubler
    record["tricks"] = tricks_for(draw, level + 6)
    return record


def bridge_for_three_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    return [(("tricks",), 0, 13)] if "tricks" in record else []


GENERATED = {
    "bridge-for-three": Generated(
        bridge_for_three_hand,
        options=st.just({}),
        optional=frozenset({"auction", "doubler"}),
        numbers=bridge_for_three_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "bridge-for-three": ["Ann 10", "Bob −5", "Cy 11", "Dan 4"],  # holes, not points
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    # All passed (entry 2) counts as a hand.
    "bridge-for-three": (numbered(range(1, 12)), "11 hands"),
}
