"""Need a Fourth? (docs/variants/need-a-fourth.md): every rule line, checked through replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.catalog import settlement_for
from scorekeeper.games.common import parse_contract
from scorekeeper.games.need_a_fourth.rules import (
    NeedAFourthDetails,
    category,
    failed_score,
    made_score,
    parse_auction,
    structured_bids,
)
from scorekeeper.games.settlement import PAIRWISE
from scorekeeper.variants import MatchError, replay
from tests.games import (
    PLAYER,
    TEXT,
    Example,
    Generated,
    HandForm,
    Kit,
    Printed,
    bid_name,
    numbered,
    pay,
    tricks_for,
)

PLAYERS = ["Ann", "Bob", "Cy"]
VARIANT = "need-a-fourth"
LIAR = {"liar_rule": True}
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "need-a-fourth.json"


def play(*hands: dict[str, Any], **options: Any):
    return replay(VARIANT, PLAYERS, options, list(hands))


def problems(*hands: Any, **options: Any) -> list[str]:
    with pytest.raises(MatchError) as caught:
        replay(VARIANT, PLAYERS, options, list(hands))
    return caught.value.lines


def hand(chooser: str, partner: str, contract: str, tricks: int, **more: Any) -> dict[str, Any]:
    return {"chooser": chooser, "partner": partner, "contract": contract, "tricks": tricks} | more


def scores(*hands: dict[str, Any], **options: Any) -> tuple[int, int, int]:
    """What the last hand adds to Ann, Bob and Cy."""
    last = play(*hands, **options).hands[-1].scores
    return last["Ann"], last["Bob"], last["Cy"]


# --- worked examples ------------------------------------------------------------

WORKED = [
    # need-a-fourth.md, "Worked examples": 4S, 10 tricks
    pytest.param(hand("Ann", "Bob", "4S", 10), {}, (500, 500, 0), id="worked-4S-10-tricks"),
    # need-a-fourth.md, "Worked examples": 2HX, 9 tricks (1 over)
    pytest.param(hand("Ann", "Bob", "2HX", 9), {}, (800, 700, 0), id="worked-2HX-9-tricks"),
    # need-a-fourth.md, "Worked examples": 4H, 9 tricks
    pytest.param(hand("Ann", "Bob", "4H", 9), {}, (-100, -50, 0), id="worked-4H-9-tricks"),
    # need-a-fourth.md, "Worked examples": 3NTXX, 7 tricks, liar rule, Chooser lied
    pytest.param(
        hand("Ann", "Bob", "3NTXX", 7, redoubled_by="Ann", liars=["Ann"]),
        LIAR,
        (-1200, -600, 0),
        id="worked-3NTXX-7-tricks-chooser-lied",
    ),
]


@pytest.mark.parametrize(("record", "options", "expected"), WORKED)
def test_worked_examples_from_the_rules_file(record, options, expected):
    assert scores(record, **options) == expected


# --- scoring tables ---------------------------------------------------------------

MADE = [
    # (contract, tricks, Chooser, Partner): the "Made" table, one row each
    pytest.param("2S", 8, 100, 100, id="partial-100-each"),
    pytest.param("4D", 10, 100, 100, id="4D-is-a-partial"),
    pytest.param("3NT", 9, 500, 500, id="3NT-is-a-game"),
    pytest.param("5C", 11, 500, 500, id="5C-is-a-game"),
    pytest.param("6NT", 12, 1200, 1200, id="small-slam-1200-each"),
    pytest.param("7C", 13, 2000, 2000, id="grand-slam-2000-each"),
    pytest.param("4SX", 10, 800, 700, id="doubled-bonus-300-chooser-200-partner"),
    pytest.param("4SXX", 10, 1100, 900, id="redoubled-bonus-600-400-instead-of-doubled"),
    pytest.param("1CX", 7, 700, 600, id="doubled-partial-300-more-each"),
    pytest.param("1CXX", 7, 1000, 800, id="redoubled-partial-300-more-each"),
    pytest.param("2S", 10, 200, 200, id="overtricks-undoubled-50-each"),
    pytest.param("4SX", 11, 900, 800, id="overtricks-doubled-100-each"),
    pytest.param("4SXX", 12, 1500, 1300, id="overtricks-redoubled-200-each"),
    pytest.param("4H", 12, 600, 600, id="only-the-level-bid-counts-4H-with-12"),
    pytest.param("6SX", 13, 1600, 1500, id="doubled-slam-no-partial-bonus"),
]


@pytest.mark.parametrize(("contract", "tricks", "chooser", "partner"), MADE)
def test_made_contract_scores_chooser_and_partner(contract, tricks, chooser, partner):
    extra = {"redoubled_by": "Ann"} if contract.endswith("XX") else {}
    assert scores(hand("Ann", "Bob", contract, tricks, **extra)) == (chooser, partner, 0)


FAILED = [
    # (contract, tricks, Chooser, Partner): the "Failed" table, per undertrick
    pytest.param("4H", 8, -200, -100, id="undoubled-100-chooser-50-partner"),
    pytest.param("4HX", 8, -500, -300, id="doubled-250-chooser-150-partner"),
    pytest.param("4HXX", 8, -1000, -600, id="redoubled-500-chooser-300-partner"),
    pytest.param("7NT", 0, -1300, -650, id="thirteen-down"),
]


@pytest.mark.parametrize(("contract", "tricks", "chooser", "partner"), FAILED)
def test_failed_contract_costs_per_undertrick(contract, tricks, chooser, partner):
    extra = {"redoubled_by": "Ann"} if contract.endswith("XX") else {}
    assert scores(hand("Ann", "Bob", contract, tricks, **extra)) == (chooser, partner, 0)


@pytest.mark.parametrize(
    ("contract", "expected"),
    [
        pytest.param("3S", "partial", id="3S-partial"),
        pytest.param("2NT", "partial", id="2NT-partial"),
        pytest.param("3NT", "game", id="3NT-game"),
        pytest.param("4H", "game", id="4H-game"),
        pytest.param("5D", "game", id="5D-game"),
        pytest.param("6C", "small slam", id="level-6-small-slam"),
        pytest.param("7NT", "grand slam", id="level-7-grand-slam"),
    ],
)
def test_category_of_the_contract(contract, expected):
    assert category(parse_contract(contract)) == expected


@pytest.mark.parametrize(
    ("contract", "tricks", "column", "expected"),
    [
        pytest.param("3NTXX", 7, "Liar", -1200, id="liar-redoubled"),
        pytest.param("3NTX", 8, "Liar", -350, id="liar-doubled"),
        pytest.param("3NT", 6, "Liar", -450, id="liar-undoubled"),
        pytest.param("3NT", 9, "Chooser", 0, id="no-undertricks-no-penalty"),
    ],
)
def test_failed_score_helper_uses_the_column(contract, tricks, column, expected):
    assert failed_score(parse_contract(contract), tricks, column) == expected


def test_made_score_helper_partner_column():
    assert made_score(parse_contract("2HX"), 9, "Partner") == 700


def test_declarer_always_scores_zero_and_explanation_names_the_roles():
    result = play(hand("Bob", "Cy", "2HX", 9)).hands[0]
    assert result.scores == {"Ann": 0, "Bob": 800, "Cy": 700}
    assert result.explanation == [
        "2HX needs 8 tricks, 9 taken: a partial made with 1 overtrick",
        "Bob (Chooser): 100 partial + 300 doubled + 300 doubled partial "
        "+ 100 for 1 overtrick = +800",
        "Cy (Partner): 100 partial + 200 doubled + 300 doubled partial "
        "+ 100 for 1 overtrick = +700",
        "Ann (Declarer) scores 0",
    ]
    assert result.details == NeedAFourthDetails(
        passed_out=False,
        auction_winner="Bob",
        chooser="Bob",
        partner="Cy",
        declarer="Ann",
        contract="2HX",
        category="partial",
        liars=[],
        redoubled_by=None,
        made=True,
        tricks=9,
    )


# --- redoubling -------------------------------------------------------------------


def test_partner_who_redoubles_becomes_the_chooser_for_scoring():
    result = play(hand("Ann", "Bob", "4SXX", 9, redoubled_by="Bob")).hands[0]
    assert result.scores == {"Ann": -300, "Bob": -500, "Cy": 0}
    assert result.details.chooser == "Bob"
    assert result.details.partner == "Ann"
    assert result.details.auction_winner == "Ann"
    assert result.explanation[0] == "Bob redoubled after Ann passed: Bob is the Chooser for scoring"


def test_chooser_who_redoubles_stays_the_chooser():
    assert scores(hand("Ann", "Bob", "4SXX", 11, redoubled_by="Ann")) == (1300, 1100, 0)


# --- liar rule --------------------------------------------------------------------

LIARS = [
    # (record, Ann, Bob, Cy); Ann is the auction's Chooser, Bob the Partner
    pytest.param(
        hand("Ann", "Bob", "4H", 9, liars=["Ann"]), (-150, -50, 0), id="chooser-lied-undoubled"
    ),
    pytest.param(
        hand("Ann", "Bob", "4H", 9, liars=["Bob"]),
        (-50, -150, 0),
        id="partner-lied-chooser-gets-partner-column",
    ),
    pytest.param(
        hand("Ann", "Bob", "4HX", 8, liars=["Bob"]), (-300, -700, 0), id="partner-lied-doubled"
    ),
    pytest.param(
        hand("Ann", "Bob", "4H", 8, liars=["Ann", "Bob"]),
        (-200, -100, 0),
        id="both-lied-scored-as-usual",
    ),
    pytest.param(
        hand("Ann", "Bob", "4H", 10, liars=["Ann"]), (500, 500, 0), id="made-lying-changes-nothing"
    ),
    pytest.param(
        hand("Ann", "Bob", "4HXX", 9, redoubled_by="Bob", liars=["Ann"]),
        (-600, -300, 0),
        id="liar-pays-even-when-truthful-partner-redoubles",
    ),
    pytest.param(hand("Ann", "Bob", "4H", 9, liars=[]), (-100, -50, 0), id="no-liars-as-usual"),
]


@pytest.mark.parametrize(("record", "expected"), LIARS)
def test_liar_rule_lone_liar_pays_liar_column(record, expected):
    assert scores(record, liar_rule=True) == expected


def test_liar_explanation_lines():
    result = play(hand("Ann", "Bob", "4H", 8, liars=["Bob"]), liar_rule=True).hands[0]
    assert result.explanation == [
        "4H needs 10 tricks, 8 taken: down 2",
        "only Bob lied: Bob pays the Liar column, Ann the Partner column",
        "Bob (Liar): 2 × -150 = -300",
        "Ann (Partner): 2 × -50 = -100",
        "Cy (Declarer) scores 0",
    ]


@pytest.mark.parametrize(
    ("record", "line"),
    [
        pytest.param(
            hand("Ann", "Bob", "4H", 8, liars=["Bob", "Ann"]),
            "Bob and Ann both lied: scored as usual",
            id="both-lied",
        ),
        pytest.param(
            hand("Ann", "Bob", "4H", 10, liars=["Ann"]),
            "Ann lied, but the contract made: no change",
            id="lied-but-made",
        ),
    ],
)
def test_liar_explanation_when_nothing_changes(record, line):
    assert line in play(record, liar_rule=True).hands[0].explanation


def test_liar_with_auction_lists_structured_bids_in_details():
    # Ann 1S, Bob 2S (single raise), Cy passes, Ann passes, Bob is the Chooser.
    record = {
        "auction": ["1S", "2S", "P", "P"],
        "partner": "Ann",
        "contract": "2S",
        "tricks": 6,
        "liars": ["Ann"],
    }
    result = play(record, liar_rule=True).hands[0]
    assert result.scores == {"Ann": -300, "Bob": -100, "Cy": 0}
    assert [bid.as_json() for bid in result.details.structured_bids] == [
        {
            "index": 0,
            "bidder": "Ann",
            "bid": "1S",
            "kind": "first call",
            "requirement": "at least 5 spades and 10 HCP",
        },
        {
            "index": 1,
            "bidder": "Bob",
            "bid": "2S",
            "kind": "single raise",
            "requirement": "at least 3 spades and 5 HCP",
        },
    ]


# --- structured bids --------------------------------------------------------------

A, B, C = "A", "B", "C"
FIRST, SINGLE, DOUBLE = "first call", "single raise", "double raise"

STRUCTURED = [
    # need-a-fourth.md example: A 1C, B 1H, C pass, A 2H is a structured single raise
    pytest.param(
        ["1C", "1H", "P", "2H", "P", "P"],
        [
            (0, A, "1C", FIRST, "at least 4 clubs and 10 HCP"),
            (1, B, "1H", FIRST, "at least 5 hearts and 10 HCP"),
            (3, A, "2H", SINGLE, "at least 3 hearts and 5 HCP"),
        ],
        id="spec-example-own-first-call-after-someone-elses-1H",
    ),
    # need-a-fourth.md example: 1S, 2S, 3S by three different players, all structured
    pytest.param(
        ["1S", "2S", "3S", "P", "P"],
        [
            (0, A, "1S", FIRST, "at least 5 spades and 10 HCP"),
            (1, B, "2S", SINGLE, "at least 3 spades and 5 HCP"),
            (2, C, "3S", DOUBLE, "at least 3 spades and 10 HCP"),
        ],
        id="spec-example-1S-2S-3S-double-raise-after-single-raise",
    ),
    pytest.param(
        ["1D", "P", "P"], [(0, A, "1D", FIRST, "at least 4 diamonds and 10 HCP")], id="1D-minor"
    ),
    pytest.param(["1NT", "P", "P"], [(0, A, "1NT", FIRST, "at least 15 HCP")], id="1NT-15-hcp"),
    pytest.param(["2NT", "P", "P"], [(0, A, "2NT", FIRST, "at least 20 HCP")], id="2NT-20-hcp"),
    pytest.param(
        ["P", "1C", "P", "1S", "P", "P"],
        [(1, B, "1C", FIRST, "at least 4 clubs and 10 HCP")],
        id="1-level-after-own-pass-unstructured",
    ),
    pytest.param(
        ["P", "1C", "P", "2NT", "P", "P"],
        [(1, B, "1C", FIRST, "at least 4 clubs and 10 HCP")],
        id="2NT-after-own-pass-unstructured",
    ),
    pytest.param(
        ["1C", "1D", "P", "1H", "P", "P"],
        [
            (0, A, "1C", FIRST, "at least 4 clubs and 10 HCP"),
            (1, B, "1D", FIRST, "at least 4 diamonds and 10 HCP"),
        ],
        id="second-1-level-bid-after-opening-unstructured",
    ),
    pytest.param(
        ["1C", "1D", "P", "1H", "2H", "P", "P"],
        [
            (0, A, "1C", FIRST, "at least 4 clubs and 10 HCP"),
            (1, B, "1D", FIRST, "at least 4 diamonds and 10 HCP"),
        ],
        id="raise-of-unstructured-1-bid-unstructured",
    ),
    pytest.param(
        ["P", "1S", "P", "2S", "P", "P"],
        [
            (1, B, "1S", FIRST, "at least 5 spades and 10 HCP"),
            (3, A, "2S", SINGLE, "at least 3 spades and 5 HCP"),
        ],
        id="pass-before-the-1-bid-does-not-spoil-a-raise",
    ),
    pytest.param(
        ["1S", "P", "2C", "P", "2S", "P", "P"],
        [(0, A, "1S", FIRST, "at least 5 spades and 10 HCP")],
        id="raise-not-at-first-call-after-the-1-bid-unstructured",
    ),
    pytest.param(
        ["1C", "2C", "P", "P"],
        [
            (0, A, "1C", FIRST, "at least 4 clubs and 10 HCP"),
            (1, B, "2C", SINGLE, "at least 4 clubs and 5 HCP"),
        ],
        id="single-raise-minor-4-cards",
    ),
    pytest.param(
        ["1D", "3D", "P", "P"],
        [
            (0, A, "1D", FIRST, "at least 4 diamonds and 10 HCP"),
            (1, B, "3D", DOUBLE, "at least 4 diamonds and 10 HCP"),
        ],
        id="double-raise-minor",
    ),
    pytest.param(
        ["1H", "1S", "P", "2H", "P", "P"],
        [
            (0, A, "1H", FIRST, "at least 5 hearts and 10 HCP"),
            (1, B, "1S", FIRST, "at least 5 spades and 10 HCP"),
        ],
        id="rebid-of-own-suit-is-not-a-raise",
    ),
    pytest.param(
        ["1H", "4H", "P", "P"],
        [(0, A, "1H", FIRST, "at least 5 hearts and 10 HCP")],
        id="jump-to-4-unstructured",
    ),
    pytest.param(["2S", "P", "P"], [], id="2-of-a-suit-without-a-1-bid-unstructured"),
    pytest.param(["3NT", "P", "P"], [], id="3NT-opening-unstructured"),
    pytest.param(["P", "P", "P"], [], id="passed-out-none"),
    pytest.param(
        ["1H", "1S", "2H", "P", "P"],
        [
            (0, A, "1H", FIRST, "at least 5 hearts and 10 HCP"),
            (1, B, "1S", FIRST, "at least 5 spades and 10 HCP"),
            (2, C, "2H", SINGLE, "at least 3 hearts and 5 HCP"),
        ],
        id="raise-over-an-intervening-bid",
    ),
    pytest.param(
        ["1NT", "2NT", "P", "P"],
        [(0, A, "1NT", FIRST, "at least 15 HCP"), (1, B, "2NT", FIRST, "at least 20 HCP")],
        id="2NT-as-first-call-over-1NT",
    ),
    pytest.param(
        ["1C", "1H", "1S", "P", "2C", "P", "P"],
        [
            (0, A, "1C", FIRST, "at least 4 clubs and 10 HCP"),
            (1, B, "1H", FIRST, "at least 5 hearts and 10 HCP"),
            (2, C, "1S", FIRST, "at least 5 spades and 10 HCP"),
        ],
        id="raise-after-already-calling-since-the-1-bid-unstructured",
    ),
    pytest.param(
        ["1S", "2S", "P", "3S", "P", "P"],
        [
            (0, A, "1S", FIRST, "at least 5 spades and 10 HCP"),
            (1, B, "2S", SINGLE, "at least 3 spades and 5 HCP"),
        ],
        id="opener-raising-own-suit-unstructured",
    ),
    pytest.param(
        [" 1s", "p", "p"],
        [(0, A, "1S", FIRST, "at least 5 spades and 10 HCP")],
        id="calls-in-lower-case-with-spaces",
    ),
]


@pytest.mark.parametrize(("auction", "expected"), STRUCTURED)
def test_structured_bids_table(auction, expected):
    found = structured_bids(auction, [A, B, C])
    assert [(s.index, s.bidder, s.bid, s.kind, s.requirement) for s in found] == expected


def test_structured_bids_accepts_bidders_written_out_in_full():
    found = structured_bids(["1C", "1H", "P", "2H", "P", "P"], [A, B, C, A, B, C])
    assert [(s.bidder, s.bid) for s in found] == [(A, "1C"), (B, "1H"), (A, "2H")]


# --- the auction ------------------------------------------------------------------


def test_auction_gives_chooser_and_contract_check():
    # Bob deals hand 2: Bob 1H, Cy pass, Ann 4H, Bob pass, Cy pass; Ann is the Chooser.
    record = {"auction": ["1H", "P", "4H", "P", "P"], "partner": "Bob", "contract": "4H"}
    outcome = play({"passed_out": True}, record | {"tricks": 10})
    assert outcome.hands[1].dealer == "Bob"
    assert outcome.hands[1].scores == {"Ann": 500, "Bob": 500, "Cy": 0}


def test_chooser_given_with_auction_may_agree():
    record = {"auction": ["1S", "2S", "P", "P"], "chooser": "Bob", "partner": "Cy"}
    assert scores(record | {"contract": "2S", "tricks": 8}) == (0, 100, 100)


def test_three_players_and_pairwise_settlement():
    with pytest.raises(MatchError) as caught:
        replay(VARIANT, PLAYERS + ["Di"], {}, [])
    assert caught.value.lines == ["players: need-a-fourth needs 3 players, not 4"]
    assert settlement_for(play().variant) is PAIRWISE


def test_parse_auction_reports_the_last_bidder():
    auction = parse_auction(["P", "1S", "2S", "P", "P"], ["Cy", "Ann", "Bob"])
    assert (str(auction.last_bid), auction.last_bidder) == ("2S", "Bob")


AUCTION_ERRORS = [
    pytest.param(
        "1S P P",
        "hand 1: auction: give a list of calls from the dealer on, "
        'e.g. ["1S", "P", "2S", "P", "P"]',
        id="not-a-list",
    ),
    pytest.param(
        ["1S", "1Z", "P", "P"],
        "hand 1: auction: call 2 (Bob): '1Z' is not a pass (P) or a bid like 1C, 3NT or 7S",
        id="not-a-call",
    ),
    pytest.param(
        ["1S", 2, "P", "P"],
        "hand 1: auction: call 2 (Bob): 2 is not a pass (P) or a bid like 1C, 3NT or 7S",
        id="number-instead-of-call",
    ),
    pytest.param(
        ["1S", "X", "P", "P"],
        "hand 1: auction: call 2 (Bob): double and redouble are not calls here; "
        "put X or XX in contract",
        id="no-double-in-the-auction",
    ),
    pytest.param(
        ["8S", "P", "P"],
        "hand 1: auction: call 1 (Ann): level 8 is not allowed, use 1–7",
        id="level-above-7",
    ),
    pytest.param(
        ["1NT", "1S", "P", "P"],
        "hand 1: auction: call 2 (Bob): 1S is not higher than the previous bid 1NT",
        id="each-bid-outranks-the-last",
    ),
    pytest.param(
        ["1S", "P", "1S", "P", "P"],
        "hand 1: auction: call 3 (Cy): 1S is not higher than the previous bid 1S",
        id="same-bid-again",
    ),
    pytest.param(
        ["1S", "P", "P", "P"],
        "hand 1: auction: call 4 (Ann): the auction already ended after call 3",
        id="nothing-after-bid-and-two-passes",
    ),
    pytest.param(
        ["1S", "P"],
        "hand 1: auction: incomplete: an auction ends with a bid followed by two passes, "
        "or with three passes; give every call",
        id="must-be-complete",
    ),
    pytest.param(
        [],
        "hand 1: auction: incomplete: an auction ends with a bid followed by two passes, "
        "or with three passes; give every call",
        id="empty-is-incomplete",
    ),
]


@pytest.mark.parametrize(("auction", "line"), AUCTION_ERRORS)
def test_auction_checks(auction, line):
    record = {"auction": auction, "chooser": "Ann", "partner": "Bob", "contract": "1S"}
    assert problems(record | {"tricks": 7}) == [line]


def test_nothing_after_three_passes():
    assert problems({"auction": ["P", "P", "P", "1C"], "passed_out": True}) == [
        "hand 1: auction: call 4 (Ann): the auction already ended after call 3"
    ]


# --- passed-out hands and the deal ----------------------------------------------


def test_passed_out_scores_zero_counts_and_the_deal_moves_on():
    outcome = play({"auction": ["P", "P", "P"], "passed_out": True}, {"passed_out": True})
    first = outcome.hands[0]
    assert first.as_json() == {
        "number": 1,
        "dealer": "Ann",
        "counted": True,
        "scores": {"Ann": 0, "Bob": 0, "Cy": 0},
        "explanation": ["all three passed: no score; the hand counts and the deal moves on"],
    }
    assert first.details.passed_out is True
    assert outcome.hands[1].dealer == "Bob"
    assert vars(outcome.upcoming) == {
        "dealer": "Cy",
        "number": 3,
        "bidding_order": ["Cy", "Ann", "Bob"],
        "liar_rule": False,
        "hand": 3,
        "hands_left": 7,
    }


def test_dealer_passes_to_the_left_every_hand():
    outcome = play(*[{"passed_out": True}] * 4)
    assert [h.dealer for h in outcome.hands] == ["Ann", "Bob", "Cy", "Ann"]
    assert outcome.upcoming.dealer == "Bob"
    assert outcome.upcoming.bidding_order == ["Bob", "Cy", "Ann"]


def test_upcoming_with_liar_rule_and_default_nine_hands():
    assert vars(play(liar_rule=True).upcoming) == {
        "dealer": "Ann",
        "number": 1,
        "bidding_order": ["Ann", "Bob", "Cy"],
        "liar_rule": True,
        "hand": 1,
        "hands_left": 9,
    }


PASSED_OUT_ERRORS = [
    pytest.param(
        {"passed_out": True, "chooser": "Ann"},
        ["hand 1: chooser: must be left out on a passed-out hand"],
        id="no-other-field-on-a-passed-out-hand",
    ),
    pytest.param(
        {"passed_out": True, "auction": ["1S", "P", "P"]},
        ["hand 1: passed_out: Ann bid 1S, so the hand was not passed out"],
        id="passed-out-but-someone-bid",
    ),
    pytest.param(
        {"auction": ["P", "P", "P"]},
        ["hand 1: passed_out: all three passed, so give passed_out: true"],
        id="three-passes-need-passed-out-true",
    ),
    pytest.param(
        {"passed_out": "yes"},
        [
            "hand 1: passed_out: 'yes' is not allowed; give true or leave it out",
            "hand 1: chooser: missing; give one of Ann, Bob, Cy",
            "hand 1: partner: missing; give one of Ann, Bob, Cy",
            "hand 1: contract: missing; give a contract like 4S, 3NTX or 6HXX",
            "hand 1: tricks: missing; give a whole number 0–13",
        ],
        id="passed-out-must-be-true",
    ),
]


@pytest.mark.parametrize(("record", "lines"), PASSED_OUT_ERRORS)
def test_passed_out_checks(record, lines):
    assert problems(record) == lines


# --- match length -----------------------------------------------------------------


def test_finished_after_the_number_of_hands_and_highest_total_wins():
    outcome = play(
        hand("Ann", "Bob", "4S", 10),
        {"passed_out": True},
        hand("Cy", "Bob", "2H", 9),
        hands=3,
    )
    assert outcome.finished is True
    assert outcome.totals == {"Ann": 500, "Bob": 650, "Cy": 150}
    assert outcome.winners == ["Bob"]
    assert outcome.upcoming is None


def test_no_hand_after_the_last():
    extra = hand("Ann", "Bob", "4S", 10)
    assert problems(*[{"passed_out": True}] * 3, extra, hands=3) == [
        "hand 4: the match is already finished after hand 3; no hand may follow"
    ]


def test_end_marker_stops_early_and_tied_players_all_win():
    outcome = play(hand("Ann", "Bob", "4S", 10), {"end": True})
    assert outcome.finished is True
    assert outcome.winners == ["Ann", "Bob"]
    assert outcome.hands[1].as_json()["dealer"] is None


@pytest.mark.parametrize(
    ("options", "line"),
    [
        pytest.param(
            {"hands": 10}, "options: hands: 10 is not a multiple of 3", id="multiple-of-3"
        ),
        pytest.param(
            {"hands": 0},
            "options: hands: 0 is not allowed; give a whole number 3–99",
            id="at-least-3-hands",
        ),
        pytest.param(
            {"liar_rule": "yes"}, "options: liar_rule: 'yes' is not true or false", id="liar-bool"
        ),
    ],
)
def test_option_checks(options, line):
    assert problems(**options) == [line]


# --- the hand as entered ----------------------------------------------------------

ENTRY_ERRORS = [
    pytest.param(
        {"auction": ["1S", "2S", "P", "P"], "chooser": "Ann", "partner": "Cy", "contract": "2S"},
        {},
        ["hand 1: chooser: Ann is not the last bidder; Bob bid 2S"],
        id="chooser-must-agree-with-auction",
    ),
    pytest.param(
        {"auction": ["1S", "2S", "P", "P"], "partner": "Cy", "contract": "3S"},
        {},
        ["hand 1: contract: the bid part 3S is not the auction's last bid 2S"],
        id="contract-must-match-last-bid",
    ),
    pytest.param(
        {"partner": "Bob", "contract": "4S"},
        {},
        ["hand 1: chooser: missing; give one of Ann, Bob, Cy"],
        id="chooser-required-without-auction",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Ann", "contract": "4S"},
        {},
        ["hand 1: partner: 'Ann' is not one of the other two players: Bob, Cy"],
        id="partner-is-one-of-the-two-others",
    ),
    pytest.param(
        {"chooser": "Ann", "contract": "4S"},
        {},
        ["hand 1: partner: missing; give one of the other two players: Bob, Cy"],
        id="partner-required",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "8S"},
        {},
        ["hand 1: contract: level 8 is not allowed, use 1–7"],
        id="contract-level-1-to-7",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4SXX"},
        {},
        ["hand 1: redoubled_by: missing; give the Chooser or the Partner: Ann, Bob"],
        id="redoubled-by-required-with-XX",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4SXX", "redoubled_by": "Cy"},
        {},
        ["hand 1: redoubled_by: 'Cy' is not the Chooser or the Partner: Ann, Bob"],
        id="redoubled-by-chooser-or-partner",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4SX", "redoubled_by": "Ann"},
        {},
        ["hand 1: redoubled_by: must be left out unless the contract is redoubled (XX)"],
        id="redoubled-by-absent-otherwise",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "liars": ["Ann"]},
        {},
        ["hand 1: liars: only allowed with the liar rule (options.liar_rule: true)"],
        id="liars-only-with-liar-rule",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "liars": "Ann"},
        LIAR,
        ["hand 1: liars: 'Ann' is not a list of names, e.g. [\"Ann\"]"],
        id="liars-is-a-list",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "liars": ["Ann", "Ann"]},
        LIAR,
        ["hand 1: liars: Ann is listed twice"],
        id="liars-no-repeats",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "liars": ["Cy"]},
        LIAR,
        ["hand 1: liars: 'Cy' is not the Chooser or the Partner: Ann, Bob"],
        id="liars-among-chooser-and-partner",
    ),
    pytest.param(
        {"auction": ["P", "1S", "4S", "P", "P"], "partner": "Bob", "contract": "4S"}
        | {"liars": ["Cy"]},
        LIAR,
        ["hand 1: liars: Cy made no structured bid in the auction, so cannot have lied"],
        id="liar-must-have-made-a-structured-bid",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "declarer": "Cy"},
        {},
        [
            "hand 1: declarer: unknown field; allowed here: auction, chooser, contract, "
            "liars, partner, passed_out, redoubled_by, tricks"
        ],
        id="unknown-field",
    ),
]


@pytest.mark.parametrize(("record", "options", "lines"), ENTRY_ERRORS)
def test_hand_checks(record, options, lines):
    assert problems({"tricks": 9} | record, **options) == lines


@pytest.mark.parametrize(
    ("tricks", "line"),
    [
        pytest.param(14, "hand 1: tricks: 14 is out of range; allowed 0–13", id="at-most-13"),
        pytest.param(-1, "hand 1: tricks: -1 is out of range; allowed 0–13", id="at-least-0"),
        pytest.param("10", "hand 1: tricks: '10' is not a whole number; allowed 0–13", id="text"),
        pytest.param(True, "hand 1: tricks: True is not a whole number; allowed 0–13", id="bool"),
    ],
)
def test_tricks_0_to_13(tricks, line):
    assert problems(hand("Ann", "Bob", "4S", tricks)) == [line]


def test_every_problem_of_a_hand_is_reported_at_once():
    record = {"chooser": "Zed", "partner": 3, "contract": "4Q", "tricks": 20, "liars": ["Ann"]}
    assert problems(record) == [
        "hand 1: chooser: 'Zed' is not one of Ann, Bob, Cy",
        "hand 1: partner: 3 is not one of Ann, Bob, Cy",
        "hand 1: contract: '4Q' is not a contract like 4S, 3NTX or 6HXX",
        "hand 1: tricks: 20 is out of range; allowed 0–13",
        "hand 1: liars: only allowed with the liar rule (options.liar_rule: true)",
    ]


ODD_TYPES = [
    pytest.param(
        {"chooser": ["Ann"], "partner": {"x": 1}, "contract": 4, "tricks": 9},
        [
            "hand 1: chooser: ['Ann'] is not one of Ann, Bob, Cy",
            "hand 1: partner: {'x': 1} is not one of Ann, Bob, Cy",
            "hand 1: contract: 4 is not a contract like 4S, 3NTX or 6HXX",
        ],
        id="list-dict-int-instead-of-text",
    ),
    pytest.param(
        {"auction": [None, [], {}], "passed_out": True},
        ["hand 1: auction: call 1 (Ann): None is not a pass (P) or a bid like 1C, 3NT or 7S"],
        id="auction-odd-calls",
    ),
    pytest.param(
        hand("Ann", "Bob", "4SXX", 9, redoubled_by=["Ann"], liars=[["Ann"]]),
        [
            "hand 1: redoubled_by: ['Ann'] is not the Chooser or the Partner: Ann, Bob",
            "hand 1: liars: [['Ann']] is not a list of names, e.g. [\"Ann\"]",
        ],
        id="nested-lists",
    ),
    pytest.param(
        {"passed_out": 1},
        [
            "hand 1: passed_out: 1 is not allowed; give true or leave it out",
            "hand 1: chooser: missing; give one of Ann, Bob, Cy",
            "hand 1: partner: missing; give one of Ann, Bob, Cy",
            "hand 1: contract: missing; give a contract like 4S, 3NTX or 6HXX",
            "hand 1: tricks: missing; give a whole number 0–13",
        ],
        id="passed-out-int",
    ),
]


@pytest.mark.parametrize(("record", "lines"), ODD_TYPES)
def test_odd_types_are_hand_errors_not_crashes(record, lines):
    assert problems(record, liar_rule=True) == lines


def test_state_unchanged_by_a_rejected_hand():
    # a failed hand raises before the totals move: replaying the good part again is identical
    good = hand("Ann", "Bob", "4S", 10)
    assert problems(good, hand("Ann", "Bob", "4S", 14)) == [
        "hand 2: tricks: 14 is out of range; allowed 0–13"
    ]
    assert play(good).totals == {"Ann": 500, "Bob": 500, "Cy": 0}


# --- the example evening ----------------------------------------------------------


def test_example_file_replays_and_finishes():
    match = json.loads(EXAMPLE.read_text())
    assert match["format"] == "scorekeeper-match/1"
    assert match["variant"] == VARIANT
    assert match["options"]["liar_rule"] is True
    outcome = replay(VARIANT, match["players"], match["options"], match["hands"])
    assert outcome.finished is True
    assert outcome.totals == {"Maren": 2800, "Tobias": 750, "Ilse": 2400}
    assert outcome.winners == ["Maren"]


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("lied", "set_alone")

KIT = {"need-a-fourth": Kit(family="need_a_fourth", stake_per=1, partners="by hand")}

EXAMPLE_RESULTS = {
    # Pairwise at 0.10 per 10: Maren (2800−750)+(2800−2400) = 2450 → 24.50,
    # Ilse 1650−400 = 1250 → 12.50, Tobias −3700 → −37.00.
    "need-a-fourth": Example(
        9,
        {"Maren": 2800, "Tobias": 750, "Ilse": 2400},
        ["Maren"],
        [pay("Tobias", "Ilse", "12.50"), pay("Tobias", "Maren", "24.50")],
        chart=(
            "Running score after each hand",
            ["Maren", "Tobias", "Ilse"],
            ["2800", "750", "2400"],
        ),
        hands=9,
    ),
}

# The hand form as tests/test_hostile.py sends it (players Ann, Bob, Cy).
HAND_FORMS = {
    "need-a-fourth": HandForm(
        good={"chooser": "Ann", "partner": "Bob", "level": "2", "strain": "H", "tricks": "8"},
        numbers=[("level", "strain"), ("tricks", "tricks")],  # level and strain make one contract
        without=[
            ("chooser", "chooser: choose the Chooser"),
            ("partner", "partner: choose the Partner"),
            ("level", "level: choose the level"),
            ("strain", "strain: choose a strain"),
            ("tricks", "tricks: choose the number of tricks won"),
        ],
        more=("auction", "doubling"),
        inputs={"chooser": PLAYER, "partner": PLAYER, "auction": TEXT},
    ),
}


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "need-a-fourth": Printed(
        ["Maren", "Tobias", "Ilse"],
        ["1 Maren +150 0 +150", "2 Tobias +800 +700 0", "3 Ilse 0 0 0",
         "4 Maren −350 0 −150", "5 Tobias 0 −100 −50", "6 Ilse +1200 0 +1000",
         "7 Maren +1200 0 +1200", "8 Tobias −200 −100 0", "9 Ilse 0 +250 +250"],
        "+2800 +750 +2400",
        ["Tobias pays Ilse 12.50 EUR", "Tobias pays Maren 24.50 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def need_a_fourth_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    if draw(st.integers(0, 9)) == 0:
        calls = draw(st.sampled_from([{}, {"auction": ["P", "P", "P"]}]))
        return {**calls, "passed_out": True}
    rank = draw(st.integers(0, 34))
    record: dict[str, Any] = {}
    if draw(st.booleans()):
        # Bids rising, never two passes after a bid (that would end the auction) or
        # three before the first one; the last bid is followed by two passes.
        calls: list[str] = []
        lower = st.integers(0, rank - 1) if rank else st.nothing()
        earlier = sorted(draw(st.lists(lower, unique=True, max_size=4 if rank else 0)))
        for bid in [*earlier, rank]:
            calls += ["P"] * draw(st.integers(0, 1 if calls else 2))
            calls.append(bid_name(bid))
        record["auction"] = [*calls, "P", "P"]
        chooser = coming.bidding_order[(len(calls) - 1) % 3]
    else:
        chooser = draw(st.sampled_from(players))
        record["chooser"] = chooser
    partner = draw(st.sampled_from([p for p in players if p != chooser]))
    doubled = draw(st.integers(0, 2))
    record |= {"partner": partner, "contract": bid_name(rank) + "X" * doubled}
    if doubled == 2:
        record["redoubled_by"] = draw(st.sampled_from([chooser, partner]))
    record["tricks"] = tricks_for(draw, rank // 5 + 7)
    if coming.liar_rule and "auction" not in record and draw(st.booleans()):
        record["liars"] = draw(st.lists(st.sampled_from([chooser, partner]), unique=True))
    return record


def need_a_fourth_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    return [(("tricks",), 0, 13)] if "tricks" in record else []


GENERATED = {
    "need-a-fourth": Generated(
        need_a_fourth_hand,
        options=st.fixed_dictionaries(
            {}, optional={"hands": st.sampled_from([3, 6]), "liar_rule": st.booleans()}
        ),
        optional=frozenset({"auction", "liars"}),
        numbers=need_a_fourth_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "need-a-fourth": ["Maren +2800", "Tobias +750", "Ilse +2400"],  # each player's total
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    # All passed (entry 3) counts as a hand.
    "need-a-fourth": (numbered(range(1, 10)), "9 hands"),
}
