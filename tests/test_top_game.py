"""The Top Game: docs/variants/top-game.md, every table row and Decision."""

from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.catalog import game_for
from scorekeeper.games.common import STRAINS, parse_contract
from scorekeeper.games.top_game.rules import level_for, per_opponent_score
from scorekeeper.variants import MatchError, replay
from scorekeeper.words import REDEAL_MARK
from tests.games import TEXT, Example, Generated, HandForm, Kit, Printed, numbered, pay, tricks_for

PLAYERS = ["Ann", "Bob", "Cy"]


def play(*hands, options=None):
    return replay("top-game", PLAYERS, options or {}, list(hands))


def errors(*hands, options=None):
    with pytest.raises(MatchError) as caught:
        play(*hands, options=options)
    return caught.value.lines


def hand(contract="4D", tricks=10, bid=4, dummy_tops=3, declarer="Ann", **more):
    return {
        "declarer": declarer,
        "bid": bid,
        "dummy_tops": dummy_tops,
        "contract": contract,
        "tricks": tricks,
        **more,
    }


# The worked examples of top-game.md (the source's four examples): A declarer, B doubler.
@pytest.mark.parametrize(
    "record, expected",
    [
        pytest.param(hand("4D", 11), {"Ann": 10, "Bob": -5, "Cy": -5}, id="4D+1-undoubled"),
        pytest.param(
            hand("4DX", 11, doubler="Bob"), {"Ann": 13, "Bob": -8, "Cy": -5}, id="4D+1-doubled-by-B"
        ),
        pytest.param(hand("4D", 8), {"Ann": -4, "Bob": 2, "Cy": 2}, id="4D-2"),
        pytest.param(
            hand("4DXX", 9, doubler="Bob"),
            {"Ann": -6, "Bob": 6, "Cy": 0},
            id="4D-doubled-redoubled-1",
        ),
    ],
)
def test_worked_examples_from_the_source(record, expected):
    assert play(record).hands[0].scores == expected


@pytest.mark.parametrize(
    "tricks, s",
    [
        pytest.param(10, 4, id="made-exactly-4"),
        pytest.param(11, 5, id="one-overtrick-5"),
        pytest.param(13, 7, id="three-overtricks-7"),
        pytest.param(9, 0, id="down-1-zero"),
        pytest.param(8, -2, id="down-2-minus-2"),
        pytest.param(7, -4, id="down-3-minus-4"),
        pytest.param(0, -4, id="down-10-still-minus-4"),
    ],
)
def test_per_opponent_score_table(tricks, s):
    assert per_opponent_score(parse_contract("4S"), tricks) == s
    assert play(hand("4S", tricks)).hands[0].scores == {"Ann": 2 * s, "Bob": -s, "Cy": -s}


@pytest.mark.parametrize(
    "pn, strain, level",
    [
        pytest.param(5, "NT", 1, id="pn5-1NT"),
        pytest.param(5, "D", 2, id="pn5-2D"),
        pytest.param(7, "NT", 3, id="pn7-3NT"),
        pytest.param(7, "S", 4, id="pn7-4S"),
        pytest.param(11, "NT", 7, id="pn11-7NT"),
        pytest.param(11, "H", 8, id="pn11-8H-needs-14"),
    ],
)
def test_playnumber_gives_the_level(pn, strain, level):
    assert level_for(pn, strain) == level


@pytest.mark.parametrize(
    "doubled, tricks, expected",
    [
        pytest.param("X", 10, {"Ann": 11, "Bob": -7, "Cy": -4}, id="doubled-made-doubler-pays-3"),
        pytest.param("XX", 10, {"Ann": 14, "Bob": -10, "Cy": -4}, id="redoubled-made-pays-6"),
        pytest.param("X", 8, {"Ann": -7, "Bob": 5, "Cy": 2}, id="doubled-down-2-receives-3"),
        pytest.param("XX", 6, {"Ann": -14, "Bob": 10, "Cy": 4}, id="redoubled-down-4"),
    ],
)
def test_doubling_payments_pass_between_declarer_and_doubler(doubled, tricks, expected):
    result = play(hand("4S" + doubled, tricks, doubler="Bob")).hands[0]
    assert result.scores == expected
    assert sum(result.scores.values()) == 0


def test_doubled_by_the_other_opponent():
    assert play(hand("3NTX", 9, bid=5, dummy_tops=2, doubler="Cy")).hands[0].scores == {
        "Ann": 11,
        "Bob": -4,
        "Cy": -7,
    }


def test_change_of_strain_after_double_keeps_pn_level():
    # pn 7: 4S doubled, declarer runs to 3NT; level is recomputed (suit -> NT one lower).
    assert play(hand("3NTX", 9, doubler="Bob")).hands[0].scores == {"Ann": 11, "Bob": -7, "Cy": -4}


def test_impossible_contract_above_pn_10_is_played():
    # pn 11: 8H needs 14 tricks, so it always fails; 13 tricks is down 1.
    result = play(hand("8H", 13, bid=9, dummy_tops=2)).hands[0]
    assert result.scores == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert result.explanation[0] == "pn = 9 + 2 = 11 → 8H needs 14 tricks"


@pytest.mark.parametrize(
    "record, expected",
    [
        # Decision: the −6 raise penalty is per opponent, like every score in this game.
        pytest.param(
            hand("4D", 11, declarer_tops=5),
            {"Ann": -12, "Bob": 6, "Cy": 6},
            id="raise-penalty-whatever-the-play",
        ),
        pytest.param(
            hand("4DX", 11, declarer_tops=5, doubler="Bob"),
            {"Ann": -12, "Bob": 6, "Cy": 6},
            id="raise-penalty-no-doubling-payments",
        ),
        # Decision: the penalty applies even when the playnumber passes the hand out.
        pytest.param(
            {"declarer": "Ann", "bid": 2, "dummy_tops": 1, "declarer_tops": 3},
            {"Ann": -12, "Bob": 6, "Cy": 6},
            id="raise-penalty-on-passed-out-pn",
        ),
        pytest.param(
            hand("4D", 11, declarer_tops=4),
            {"Ann": 10, "Bob": -5, "Cy": -5},
            id="tops-equal-to-bid-is-fine",
        ),
    ],
)
def test_raise_penalty(record, expected):
    assert play(record).hands[0].scores == expected


def test_playnumber_4_or_less_passes_the_hand_out_and_counts():
    outcome = play({"declarer": "Bob", "bid": 3, "dummy_tops": 1})
    result = outcome.hands[0]
    assert (result.counted, result.scores) == (True, {"Ann": 0, "Bob": 0, "Cy": 0})
    assert result.explanation == ["pn = 3 + 1 = 4 → 4 or less: the hand is passed out", "no score"]
    assert outcome.upcoming.dealer == "Bob"


def test_passed_out_auction_counts_and_deal_moves_on():
    outcome = play({"bids": [None, None, None], "passed_out": True})
    assert outcome.hands[0].counted is True
    assert outcome.hands[0].scores == {"Ann": 0, "Bob": 0, "Cy": 0}
    assert outcome.upcoming.dealer == "Bob"


def test_misinformation_informer_pays_2_per_opponent_and_same_dealer_redeals():
    # Decision: per opponent, so the informer −4 and each other player +2.
    outcome = play({"bids": [2, None, 3], "declarer": "Cy", "misinformation": "Bob"})
    result = outcome.hands[0]
    assert result.counted is False
    assert result.scores == {"Ann": 2, "Bob": -4, "Cy": 2}
    assert outcome.upcoming.dealer == "Ann"


def test_dealing_order_and_change_of_places_at_half_time():
    outcome = play(*[{"passed_out": True}] * 7, options={"hands_per_half": 6})
    dealers = [h.dealer for h in outcome.hands]
    # First half A, B, C, A, B, C; second half B and C change places: A deals hand 7.
    assert dealers == ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy", "Ann"]
    assert vars(outcome.upcoming) == {
        "dealer": "Cy",
        "number": 8,
        "half": 2,
        "hand_in_half": 2,
        "dealing_order": ["Ann", "Cy", "Bob"],
        "bidding_order": ["Cy", "Bob", "Ann"],
    }
    assert [h.details.half for h in outcome.hands] == [1] * 6 + [2]


def test_match_finishes_after_two_halves_and_refuses_more():
    hands = [hand("4D", 11)] + [{"passed_out": True}] * 3
    outcome = play(*hands, options={"hands_per_half": 2})
    assert outcome.finished is True
    assert outcome.winners == ["Ann"]
    assert outcome.upcoming is None
    assert errors(*hands, {"passed_out": True}, options={"hands_per_half": 2}) == [
        "hand 5: the match is already finished after hand 4; no hand may follow"
    ]


def test_misinformation_hand_is_not_counted_towards_the_match():
    hands = [{"declarer": "Ann", "misinformation": "Bob"}] + [{"passed_out": True}] * 2
    outcome = play(*hands, options={"hands_per_half": 1})
    assert outcome.finished is True
    assert [h.dealer for h in outcome.hands] == ["Ann", "Ann", "Ann"]


def test_dealer_note_for_the_sheet():
    assert play(hand("4D", 11)).hands[0].details.note == "4 · 3 · 4D"


def test_explanation_of_a_doubled_hand():
    assert play(hand("4DX", 11, doubler="Bob")).hands[0].explanation == [
        "pn = 4 + 3 = 7 → 4D needs 10 tricks",
        "4D made with 1 overtrick: 4 + 1 = 5 from each opponent",
        "doubled by Bob: Bob pays 3 more",
    ]


def test_end_marker_finishes_early_with_zero_scores():
    outcome = play(hand("4D", 11), {"end": True})
    assert outcome.finished is True
    assert outcome.hands[1].as_json() == {
        "number": 2,
        "dealer": None,
        "counted": False,
        "scores": {"Ann": 0, "Bob": 0, "Cy": 0},
        "explanation": ["The players stopped here."],
    }


@pytest.mark.parametrize(
    "record, line",
    [
        pytest.param(
            hand("3D"),
            "hand 1: contract: pn 7 in a suit gives level 4, not 3",
            id="level-must-match-pn-suit",
        ),
        pytest.param(
            hand("4NT"),
            "hand 1: contract: pn 7 in NT gives level 3, not 4",
            id="level-must-match-pn-nt",
        ),
        pytest.param(
            hand("8SX", 13, bid=9, dummy_tops=2, doubler="Bob"),
            "hand 1: contract: pn 11 is above 10: the contract cannot be doubled",
            id="no-double-above-pn-10",
        ),
        pytest.param(
            hand("4DX"),
            "hand 1: doubler: missing; give the opening leader, one of Bob, Cy",
            id="doubler-required-with-X",
        ),
        pytest.param(
            hand("4DX", doubler="Ann"),
            "hand 1: doubler: 'Ann' is not the opening leader, one of Bob, Cy",
            id="doubler-is-an-opponent",
        ),
        pytest.param(
            hand(doubler="Bob"),
            "hand 1: doubler: must be left out when the contract is not doubled",
            id="doubler-absent-when-undoubled",
        ),
        pytest.param(hand(bid=1), "hand 1: bid: 1 is out of range; allowed 2–13", id="bid-2-to-13"),
        pytest.param(
            hand(bid=14), "hand 1: bid: 14 is out of range; allowed 2–13", id="bid-max-13"
        ),
        pytest.param(
            hand(tricks=14), "hand 1: tricks: 14 is out of range; allowed 0–13", id="tricks-0-13"
        ),
        pytest.param(
            hand(dummy_tops=13),
            "hand 1: dummy_tops: 13 is out of range; allowed 0–12",
            id="dummy-tops-0-12",
        ),
        pytest.param(
            hand(declarer_tops=10),
            "hand 1: dummy_tops: declarer 10 + dummy 3 tops is more than the 12 in the deck",
            id="tops-sum-at-most-12",
        ),
        pytest.param(
            hand(declarer="Dee"),
            "hand 1: declarer: 'Dee' is not one of Ann, Bob, Cy",
            id="declarer-is-a-player",
        ),
        pytest.param(
            hand(bids=[2, 2, None]),
            "hand 1: bids: Bob: 2 is not higher than the previous bid 2",
            id="each-bid-higher",
        ),
        pytest.param(
            hand(bids=[1, None, None]),
            "hand 1: bids: Ann: the first bid must be at least 2, not 1",
            id="first-bid-at-least-2",
        ),
        pytest.param(
            hand(bids=[2, None]),
            "hand 1: bids: give exactly 3 calls, one each from Ann, Bob, Cy",
            id="exactly-3-calls",
        ),
        pytest.param(
            hand(bids=[2, 3, None]),
            "hand 1: declarer: Ann is not the highest bidder Bob",
            id="declarer-is-last-bidder",
        ),
        pytest.param(
            hand(bid=4, bids=[5, None, None]),
            "hand 1: bid: 4 is lower than the auction's highest bid 5",
            id="bid-at-least-auction",
        ),
        pytest.param(
            hand(dummy_longest="D3"),
            "hand 1: dummy_longest: 'D3' is not a suit letter and length 4–13, e.g. D5",
            id="dummy-longest-length-4-13",
        ),
        pytest.param(
            {"declarer": "Ann", "bid": 2, "dummy_tops": 1, "contract": "1NT", "tricks": 7},
            "hand 1: contract: must be left out when the playnumber 3 passes the hand out",
            id="no-contract-when-pn-passes-out",
        ),
        pytest.param(
            {"passed_out": True, "declarer": "Ann"},
            "hand 1: declarer: must be left out on a passed-out hand",
            id="passed-out-alone",
        ),
        pytest.param(
            {"bids": [None, None, None]},
            "hand 1: passed_out: all three passed, so give passed_out: true",
            id="all-pass-needs-passed-out",
        ),
        pytest.param(
            {"declarer": "Ann", "misinformation": "Ann"},
            "hand 1: misinformation: 'Ann' is not one of declarer's opponents Bob, Cy",
            id="informer-is-an-opponent",
        ),
        pytest.param(
            {"declarer": "Ann", "misinformation": "Bob", "tricks": 3},
            "hand 1: tricks: must be left out when dummy was misdescribed",
            id="misinformation-nothing-else",
        ),
        pytest.param(
            hand(trick=3),
            "hand 1: trick: unknown field; allowed here: bid, bids, contract, "
            "declarer, declarer_tops, doubler, dummy_longest, dummy_tops, misinformation, "
            "passed_out, tricks",
            id="unknown-key",
        ),
        pytest.param(
            hand(tricks="10"),
            "hand 1: tricks: '10' is not a whole number; allowed 0–13",
            id="tricks-must-be-a-number",
        ),
        pytest.param(
            hand(tricks=True),
            "hand 1: tricks: True is not a whole number; allowed 0–13",
            id="tricks-not-a-bool",
        ),
    ],
)
def test_checks_name_the_hand_and_field(record, line):
    assert line in errors(record)


def test_all_problems_of_a_hand_are_reported():
    assert errors(
        {"declarer": "Dee", "bid": 1, "dummy_tops": 3, "contract": "4D", "tricks": 99}
    ) == [
        "hand 1: declarer: 'Dee' is not one of Ann, Bob, Cy",
        "hand 1: bid: 1 is out of range; allowed 2–13",
        "hand 1: tricks: 99 is out of range; allowed 0–13",
    ]


def test_error_in_a_later_hand_names_that_hand():
    assert errors(hand(), hand(), hand("5D")) == [
        "hand 3: contract: pn 7 in a suit gives level 4, not 5"
    ]


@pytest.mark.parametrize(
    "record, words",
    [
        pytest.param(
            hand("2H", 9, bid=3, dummy_tops=2, declarer_tops=4, declarer="Cy"),
            "2♥ by Cy, made, but not raising",
            id="made-but-not-raising",
        ),
        pytest.param(
            hand("2H", 7, bid=3, dummy_tops=2, declarer_tops=4, declarer="Cy"),
            "2♥ by Cy, down 1, and not raising",
            id="down-and-not-raising",
        ),
        pytest.param(
            hand("2H", 9, bid=3, dummy_tops=2, declarer_tops=3, declarer="Cy"),
            "2♥ by Cy, made",
            id="tops-equal-to-bid-just-made",
        ),
    ],
)
def test_hand_list_says_why_a_made_contract_lost(record, words):
    """The sheet's hand list: a −12 for not raising reads as such, not as "made"."""
    result = play(record).hands[0]
    assert result.scores["Cy"] == (-12 if record["declarer_tops"] > record["bid"] else 10)
    assert game_for("top-game").row_words(record, result) == words


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("misinformed", "raise_penalty")

KIT = {"top-game": Kit(family="top_game", stake_per=1, partners="none")}

EXAMPLE_RESULTS = {
    # Ann −5 −4 −7 0 +6 −4 −4 0 −10 +12 +4 +8 0 = −4; zero-sum, 0.50 a point:
    # Ann −2.00, Bob −0.50, Cy +2.50.
    "top-game": Example(
        13,
        {"Ann": -4, "Bob": -1, "Cy": 5},
        ["Cy"],
        [pay("Ann", "Cy", "2.00"), pay("Bob", "Cy", "0.50")],
        chart=("Running score after each hand", ["Ann", "Bob", "Cy"], ["−4", "−1", "5"]),
        hands=12,
    ),
}

# The hand form as tests/test_hostile.py sends it (players Ann, Bob, Cy).
HAND_FORMS = {
    "top-game": HandForm(
        good={
            "declarer": "Ann",
            "bid": "4",
            "dummy_tops": "3",
            "strain": "S",
            "tricks": "10",
            "declarer_tops": "2",
        },
        numbers=[
            ("bid", "bid"),
            ("dummy_tops", "dummy_tops"),
            ("tricks", "tricks"),
            ("declarer_tops", "declarer_tops"),
        ],
        without=[
            ("declarer", "declarer: choose the declarer"),
            ("bid", "bid: choose the final bid"),
            ("dummy_tops", "dummy_tops: choose the tops in dummy"),
            ("strain", "strain: choose a strain"),
            ("tricks", "tricks: choose the number of tricks won"),
            ("declarer_tops", None),  # checked after play, when someone asks
        ],
        more=("doubling", "dummy_longest"),
        inputs={
            "bid": (2, 13),
            "dummy_tops": (0, 12),
            "declarer_tops": (0, 12),
            "dummy_longest": TEXT,
        },
        optional_numbers=frozenset({"declarer_tops"}),  # checked after play, when someone asks
    ),
}


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "top-game": Printed(
        ["Ann", "Bob", "Cy"],
        ["1 Ann −5 +10 −5", "2 Bob −4 −4 +8", "3 Cy −7 +5 +2", "4 Ann 0 0 0",
         "5 Bob +6 −12 +6", "↻ Cy −4 +2 +2", "6 Cy −4 +8 −4", "7 Ann 0 0 0",
         "8 Cy −10 −4 +14", "9 Bob +12 −6 −6", "10 Ann +4 +4 −8", "11 Cy +8 −4 −4",
         "12 Bob 0 0 0"],
        "−4 −1 +5",
        ["Ann pays Cy 2.00 EUR", "Bob pays Cy 0.50 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def top_game_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    kind = draw(st.sampled_from(["played"] * 4 + ["passed", "misinformation"]))
    if kind == "passed":
        calls = draw(st.sampled_from([{}, {"bids": [None, None, None]}]))
        return {**calls, "passed_out": True}
    declarer = draw(st.sampled_from(players))
    opponents = [p for p in players if p != declarer]
    if kind == "misinformation":
        return {"declarer": declarer, "misinformation": draw(st.sampled_from(opponents))}
    bid = draw(st.integers(2, 13))
    dummy_tops = draw(st.integers(0, 12))
    record: dict[str, Any] = {}
    if draw(st.booleans()):
        # The auction: bids rising in bidding order, the declarer's the last and highest.
        order = coming.bidding_order
        seat = order.index(declarer)
        top = draw(st.integers(2, bid))
        earlier = (
            draw(st.lists(st.integers(2, top - 1), unique=True, max_size=seat)) if top > 2 else []
        )
        seats = sorted(draw(st.permutations(range(seat)))[: len(earlier)]) if seat else []
        calls: list[int | None] = [None, None, None]
        for where, value in zip(seats, sorted(earlier), strict=True):
            calls[where] = value
        calls[seat] = top
        record["bids"] = calls
    record |= {"declarer": declarer, "bid": bid, "dummy_tops": dummy_tops}
    if draw(st.booleans()):
        record["declarer_tops"] = draw(st.integers(0, 12 - dummy_tops))
    if draw(st.booleans()):
        record["dummy_longest"] = draw(st.sampled_from("CDHS")) + str(draw(st.integers(4, 13)))
    pn = bid + dummy_tops
    if pn <= 4:
        return record
    strain = draw(st.sampled_from(STRAINS))
    level = pn - 4 if strain == "NT" else pn - 3
    doubled = draw(st.integers(0, 2)) if pn <= 10 else 0
    record["contract"] = f"{level}{strain}{'X' * doubled}"
    if doubled:
        record["doubler"] = draw(st.sampled_from(opponents))
    record["tricks"] = tricks_for(draw, level + 6)
    return record


def top_game_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    ranges = {"bid": (2, 13), "dummy_tops": (0, 12), "declarer_tops": (0, 12), "tricks": (0, 13)}
    return [((key,), *ranges[key]) for key in record if key in ranges]


GENERATED = {
    "top-game": Generated(
        top_game_hand,
        options=st.fixed_dictionaries({}, optional={"hands_per_half": st.integers(1, 6)}),
        optional=frozenset({"bids", "declarer_tops", "dummy_longest"}),
        numbers=top_game_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "top-game": ["Ann −4", "Bob −1", "Cy +5"],
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    # Wrong information about dummy (entry 6): the same hand is dealt again.
    "top-game": (numbered(range(1, 6), REDEAL_MARK, range(6, 13)), "12 hands"),
}
