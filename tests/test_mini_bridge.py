"""Mini Bridge (`mini-bridge`, `mini-bridge-3`): every rule of
docs/variants/mini-bridge.md and docs/variants/mini-bridge-3.md."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.games.catalog import settlement_for
from scorekeeper.games.common import STRAINS
from scorekeeper.games.mini_bridge.rules import (
    MiniBridge,
    MiniBridgePlayed,
    MiniBridgeRedeal,
    MiniBridgeScrapped,
    MiniBridgeThree,
    contract_score,
    pick_declarer,
    trick_score,
    tricks_needed,
)
from scorekeeper.games.settlement import PAIRWISE, PARTNERSHIP
from scorekeeper.variants import MatchError, check_players, replay, resolve_options
from scorekeeper.words import REDEAL_MARK
from tests.games import Example, Generated, HandForm, Kit, Printed, numbered, pay, split, tricks_for

FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def hcp4(ann: int, bob: int, cy: int, dee: int) -> dict[str, int]:
    return {"Ann": ann, "Bob": bob, "Cy": cy, "Dee": dee}


def hcp3(ann: int, bob: int, cy: int) -> dict[str, int]:
    return {"Ann": ann, "Bob": bob, "Cy": cy}


# Hand 1, Ann deals: Bob & Dee hold 22, Dee declares (the brief's worked hcp example).
DEE_DECLARES = hcp4(5, 10, 13, 12)
# Hand 1, Ann deals: Cy declares with 15 and a dummy of 11.
CY_DECLARES = hcp3(7, 7, 15)
# Both sides hold 20.
TWENTY_ALL = hcp4(9, 9, 11, 11)


def played(hcp: dict[str, int], game: bool = False, strain: str = "NT", tricks: int = 7) -> dict:
    return {"hcp": hcp, "game": game, "strain": strain, "tricks": tricks}


def four(hands: list[Any], options: dict[str, Any] | None = None):
    return replay("mini-bridge", FOUR, options or {}, hands)


def three(hands: list[Any], options: dict[str, Any] | None = None):
    return replay("mini-bridge-3", THREE, options or {}, hands)


def errors(variant: str, hands: list[Any], options: dict[str, Any] | None = None) -> list[str]:
    players = FOUR if variant == "mini-bridge" else THREE
    with pytest.raises(MatchError) as caught:
        replay(variant, players, options or {}, hands)
    return caught.value.lines


# --- the contract and its score (pure helpers) --------------------------------


@pytest.mark.parametrize(
    ("game", "strain", "needed"),
    [
        pytest.param(False, "NT", 7, id="no-game-NT-7"),
        pytest.param(False, "S", 7, id="no-game-major-7"),
        pytest.param(False, "C", 7, id="no-game-minor-7"),
        pytest.param(True, "NT", 9, id="game-NT-9"),
        pytest.param(True, "H", 10, id="game-hearts-10"),
        pytest.param(True, "S", 10, id="game-spades-10"),
        pytest.param(True, "C", 11, id="game-clubs-11"),
        pytest.param(True, "D", 11, id="game-diamonds-11"),
    ],
)
def test_tricks_needed_depends_on_game_and_strain(game: bool, strain: str, needed: int) -> None:
    assert tricks_needed(game, strain) == needed


@pytest.mark.parametrize(
    ("strain", "tricks", "points"),
    [
        pytest.param("NT", 8, 80, id="NT-40-a-trick"),
        pytest.param("H", 9, 90, id="hearts-30-a-trick"),
        pytest.param("S", 13, 210, id="spades-30-a-trick-overtricks-included"),
        pytest.param("C", 7, 20, id="clubs-20-a-trick"),
        pytest.param("D", 12, 120, id="diamonds-20-a-trick"),
        pytest.param("NT", 6, 0, id="first-six-tricks-score-nothing"),
    ],
)
def test_trick_score_counts_tricks_above_six(strain: str, tricks: int, points: int) -> None:
    assert trick_score(strain, tricks) == points


@pytest.mark.parametrize(
    ("game", "strain", "tricks", "points"),
    [
        pytest.param(True, "H", 11, 450, id="game-adds-300"),
        pytest.param(False, "S", 10, 120, id="100-or-more-without-game-no-bonus"),
        pytest.param(False, "NT", 13, 280, id="all-tricks-without-game-no-bonus"),
    ],
)
def test_contract_score_adds_bonus_only_for_announced_game(
    game: bool, strain: str, tricks: int, points: int
) -> None:
    assert contract_score(game, strain, tricks) == points


@pytest.mark.parametrize(
    ("hcp", "candidates", "order", "declarer"),
    [
        pytest.param({"A": 12, "B": 10}, ["A", "B"], ["B", "A"], "A", id="more-hcp-declares"),
        pytest.param({"A": 11, "B": 11}, ["A", "B"], ["B", "A"], "B", id="tie-announced-first"),
        pytest.param({"A": 11, "B": 11}, ["A", "B"], ["A", "B"], "A", id="tie-order-decides"),
    ],
)
def test_pick_declarer(
    hcp: dict[str, int], candidates: list[str], order: list[str], declarer: str
) -> None:
    assert pick_declarer(hcp, candidates, order) == declarer


# --- mini-bridge: scoring through replay --------------------------------------


@pytest.mark.parametrize(
    ("game", "strain", "tricks", "declaring", "defending"),
    [
        # rules file, Scoring, Examples: no GAME, 8 tricks in NT scores 80.
        pytest.param(False, "NT", 8, 80, 0, id="spec-example-no-game-8-tricks-80"),
        # rules file, Scoring, Examples: GAME in H, 11 tricks: 150 + 300 = 450.
        pytest.param(True, "H", 11, 450, 0, id="spec-example-game-hearts-11-tricks-450"),
        # rules file, Scoring, Examples: GAME in C, 10 tricks: defenders 50.
        pytest.param(True, "C", 10, 0, 50, id="spec-example-game-clubs-10-tricks-defenders-50"),
        pytest.param(False, "NT", 7, 40, 0, id="made-exactly-7"),
        pytest.param(False, "H", 7, 30, 0, id="hearts-30"),
        pytest.param(False, "D", 13, 140, 0, id="diamonds-20-overtricks-included"),
        pytest.param(False, "S", 10, 120, 0, id="trick-score-100-without-game-no-bonus"),
        pytest.param(True, "NT", 9, 420, 0, id="game-NT-made-exactly"),
        pytest.param(True, "S", 10, 420, 0, id="game-spades-made-exactly"),
        pytest.param(True, "D", 11, 400, 0, id="game-diamonds-made-exactly"),
        pytest.param(True, "C", 13, 440, 0, id="game-clubs-overtricks"),
        pytest.param(False, "H", 6, 0, 50, id="no-game-one-short"),
        pytest.param(False, "C", 0, 0, 350, id="no-game-seven-short"),
        pytest.param(True, "NT", 5, 0, 200, id="game-NT-four-short"),
        pytest.param(True, "H", 9, 0, 50, id="game-hearts-one-short"),
        pytest.param(True, "D", 0, 0, 550, id="game-diamonds-eleven-short"),
    ],
)
def test_four_scoring_goes_to_both_partners(
    game: bool, strain: str, tricks: int, declaring: int, defending: int
) -> None:
    outcome = four([played(DEE_DECLARES, game, strain, tricks)])
    expected = {"Ann": defending, "Bob": declaring, "Cy": defending, "Dee": declaring}
    assert outcome.hands[0].scores == expected
    assert outcome.totals == expected


def test_four_explanation_for_game_made() -> None:
    # rules file example "GAME in H, 11 tricks: 150 + 300 = 450", with the hcp example.
    hand = four([played(DEE_DECLARES, True, "H", 11)]).hands[0]
    assert hand.explanation == [
        "HCP Ann 5, Bob 10, Cy 13, Dee 12: Bob & Dee 22 against Ann & Cy 18",
        "Dee declares (12 HCP, more than Bob's 10); Bob is dummy",
        "GAME in ♥: 10 tricks needed, 11 taken",
        "made: 5 tricks above six × 30 = 150 for Bob & Dee",
        "GAME bonus: 150 + 300 = 450",
    ]


def test_four_explanation_for_trick_score_over_100_without_game() -> None:
    hand = four([played(DEE_DECLARES, False, "S", 10)]).hands[0]
    assert hand.explanation[2:] == [
        "no GAME in ♠: 7 tricks needed, 10 taken",
        "made: 4 tricks above six × 30 = 120 for Bob & Dee",
        "120 without announcing GAME: no bonus",
    ]


def test_four_explanation_for_failed_contract() -> None:
    hand = four([played(DEE_DECLARES, True, "C", 10)]).hands[0]
    assert hand.explanation[2:] == [
        "GAME in ♣: 11 tricks needed, 10 taken",
        "1 short: Ann & Cy score 1 × 50 = 50",
    ]


def test_four_details_for_the_score_sheet() -> None:
    hand = four([played(DEE_DECLARES, True, "H", 11)]).hands[0]
    assert hand.details == MiniBridgePlayed(
        hcp={"Ann": 5, "Bob": 10, "Cy": 13, "Dee": 12},
        announcement_order=["Ann", "Bob", "Cy", "Dee"],
        declarer="Dee",
        dummy="Bob",
        declaring_side=["Bob", "Dee"],
        defenders=["Ann", "Cy"],
        declaring_hcp=22,
        defending_hcp=18,
        game=True,
        strain="H",
        needed=10,
        tricks=11,
        made=True,
        trick_score=150,
        bonus=300,
        undertricks=0,
        note="Dee · GAME in ♥ · 11 tricks",
    )


# --- mini-bridge: who declares -------------------------------------------------


@pytest.mark.parametrize(
    ("hands", "declarer", "dummy"),
    [
        # The hcp example (Ann deals 5, Bob 10, Cy 13, Dee 12): Bob & Dee 22, Dee declares.
        pytest.param([played(DEE_DECLARES)], "Dee", "Bob", id="stronger-side-more-hcp-declares"),
        # Same example with Bob and Dee on 11 each: Bob announced before Dee.
        pytest.param(
            [played(hcp4(5, 11, 13, 11))], "Bob", "Dee", id="partners-tied-announced-first"
        ),
        pytest.param([played(hcp4(11, 7, 11, 11))], "Ann", "Cy", id="ann-first-when-ann-deals"),
        # Hand 2 Bob deals: order Bob, Cy, Dee, Ann, so Cy announces before Ann.
        pytest.param(
            [played(DEE_DECLARES), played(hcp4(11, 7, 11, 11))],
            "Cy",
            "Ann",
            id="tie-order-starts-at-dealer",
        ),
        pytest.param([played(hcp4(0, 1, 37, 2))], "Cy", "Ann", id="extreme-hcp"),
    ],
)
def test_four_declarer(hands: list[dict], declarer: str, dummy: str) -> None:
    details = four(hands).hands[-1].details
    assert (details.declarer, details.dummy) == (declarer, dummy)


def test_four_tie_explanation_names_announcing_first() -> None:
    hand = four([played(hcp4(5, 11, 13, 11))]).hands[0]
    assert (
        hand.explanation[1] == "Bob declares (11 HCP, tied with Dee, announced first); Dee is dummy"
    )


def test_four_declarer_field_is_an_optional_check() -> None:
    outcome = four([{**played(DEE_DECLARES), "declarer": "Dee"}])
    assert outcome.hands[0].scores == {"Ann": 0, "Bob": 40, "Cy": 0, "Dee": 40}


# --- mini-bridge: 20-20, dealing and the end of the match ----------------------


def test_four_twenty_all_is_dealt_again_by_the_same_dealer() -> None:
    outcome = four([{"hcp": TWENTY_ALL}])
    hand = outcome.hands[0]
    assert (hand.dealer, hand.counted, hand.scores) == (
        "Ann",
        False,
        {"Ann": 0, "Bob": 0, "Cy": 0, "Dee": 0},
    )
    assert hand.explanation == [
        "HCP Ann 9, Bob 9, Cy 11, Dee 11: 20 each side",
        "not counted: Ann deals again",
    ]
    assert hand.details == MiniBridgeRedeal(TWENTY_ALL)
    assert hand.details.note == "20–20: dealt again"
    assert vars(outcome.upcoming) == {
        "dealer": "Ann",
        "number": 1,
        "announcement_order": ["Ann", "Bob", "Cy", "Dee"],
        "counted_so_far": 0,
        "deals_again": True,
        "hands_to_play": 8,
        "hands_left": 8,
        "target": None,
        "to_target": None,
    }


def test_four_deal_passes_clockwise_on_counted_hands_only() -> None:
    hands = [played(DEE_DECLARES), {"hcp": TWENTY_ALL}, played(DEE_DECLARES)] + [
        played(DEE_DECLARES)
    ] * 3
    outcome = four(hands)
    assert [h.dealer for h in outcome.hands] == ["Ann", "Bob", "Bob", "Cy", "Dee", "Ann"]
    assert outcome.upcoming.dealer == "Bob"
    assert outcome.upcoming.announcement_order == ["Bob", "Cy", "Dee", "Ann"]
    assert outcome.upcoming.hands_left == 3


def test_four_default_is_eight_counted_hands() -> None:
    hands = [played(DEE_DECLARES)] * 4 + [{"hcp": TWENTY_ALL}] + [played(DEE_DECLARES)] * 4
    outcome = four(hands)
    assert outcome.finished is True
    assert outcome.totals == {"Ann": 0, "Bob": 320, "Cy": 0, "Dee": 320}
    assert outcome.winners == ["Bob", "Dee"]
    assert outcome.upcoming is None


def test_four_no_hand_after_the_last_counted_hand() -> None:
    lines = errors("mini-bridge", [played(DEE_DECLARES)] * 9)
    assert lines == ["hand 9: the match is already finished after hand 8; no hand may follow"]


def test_four_hands_option() -> None:
    outcome = four([played(DEE_DECLARES)] * 3, {"hands": 3})
    assert (outcome.finished, outcome.totals["Bob"]) == (True, 120)


def test_four_target_ends_the_match_after_the_hand_reaching_it() -> None:
    open_match = four([played(DEE_DECLARES, True, "H", 10)], {"target": 500})
    assert open_match.finished is False
    assert vars(open_match.upcoming) == {
        "dealer": "Bob",
        "number": 2,
        "announcement_order": ["Bob", "Cy", "Dee", "Ann"],
        "counted_so_far": 1,
        "deals_again": False,
        "target": 500,
        "to_target": 80,
        "hands_to_play": None,
        "hands_left": None,
    }
    done = four([played(DEE_DECLARES, True, "H", 10)] * 2, {"target": 500})
    assert (done.finished, done.winners, done.totals["Dee"]) == (True, ["Bob", "Dee"], 840)
    lines = errors("mini-bridge", [played(DEE_DECLARES, True, "H", 10)] * 3, {"target": 500})
    assert lines == ["hand 3: the match is already finished after hand 2; no hand may follow"]


def test_four_target_reached_by_the_defending_side() -> None:
    outcome = four([played(DEE_DECLARES, True, "NT", 0)], {"target": 400})
    assert (outcome.finished, outcome.winners) == (True, ["Ann", "Cy"])


def test_four_tied_sides_all_four_win() -> None:
    hands = [played(DEE_DECLARES, False, "NT", 8), played(hcp4(14, 6, 10, 10), False, "NT", 8)]
    outcome = four(hands, {"hands": 2})
    assert outcome.totals == {"Ann": 80, "Bob": 80, "Cy": 80, "Dee": 80}
    assert outcome.winners == FOUR


def test_four_end_marker_stops_early() -> None:
    outcome = four([played(DEE_DECLARES), {"end": True}])
    assert (outcome.finished, outcome.winners) == (True, ["Bob", "Dee"])
    assert outcome.hands[1].dealer is None


# --- mini-bridge: what is checked ------------------------------------------------


@pytest.mark.parametrize(
    ("record", "lines"),
    [
        pytest.param(
            {"game": True, "strain": "H", "tricks": 10},
            [
                "hand 1: hcp: missing; give each player's HCP, e.g. "
                '{"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10}'
            ],
            id="hcp-missing",
        ),
        pytest.param(
            {"hcp": [5, 10, 13, 12], "game": True, "strain": "H", "tricks": 10},
            [
                "hand 1: hcp: [5, 10, 13, 12] is not an object of HCP by player, e.g. "
                '{"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10}'
            ],
            id="hcp-not-an-object",
        ),
        pytest.param(
            played({"Ann": 5, "Bob": 10, "Cy": 13, "Zed": 12}),
            [
                "hand 1: hcp: 'Zed' is not a player; give Ann, Bob, Cy, Dee",
                "hand 1: hcp: Dee is missing; give Ann, Bob, Cy, Dee",
            ],
            id="hcp-every-player-exactly-once",
        ),
        pytest.param(
            played(hcp4("5", 10, 13, True)),
            [
                "hand 1: hcp: Ann: '5' is not a whole number; allowed 0–37",
                "hand 1: hcp: Dee: True is not a whole number; allowed 0–37",
            ],
            id="hcp-whole-numbers",
        ),
        pytest.param(
            played(hcp4(38, -1, 2, 1)),
            [
                "hand 1: hcp: Ann: 38 is out of range; allowed 0–37",
                "hand 1: hcp: Bob: -1 is out of range; allowed 0–37",
            ],
            id="hcp-0-to-37",
        ),
        pytest.param(
            played(hcp4(5, 10, 13, 11)),
            ["hand 1: hcp: the four hands add up to 39, not 40; count again"],
            id="hcp-sum-40",
        ),
        pytest.param(
            {"hcp": DEE_DECLARES, "strain": "H", "tricks": 10},
            ["hand 1: game: missing; give true or false"],
            id="game-required",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"game": "yes"},
            ["hand 1: game: 'yes' is not true or false"],
            id="game-boolean",
        ),
        pytest.param(
            {"hcp": DEE_DECLARES, "game": False, "tricks": 10},
            ["hand 1: strain: missing; give C, D, H, S or NT"],
            id="strain-required",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"strain": "X"},
            ["hand 1: strain: 'X' is not a strain; allowed C, D, H, S, NT"],
            id="strain-one-of-five",
        ),
        pytest.param(
            {"hcp": DEE_DECLARES, "game": False, "strain": "S"},
            ["hand 1: tricks: missing; give a whole number 0–13"],
            id="tricks-required",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"tricks": 14},
            ["hand 1: tricks: 14 is out of range; allowed 0–13"],
            id="tricks-0-to-13",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"tricks": "9"},
            ["hand 1: tricks: '9' is not a whole number; allowed 0–13"],
            id="tricks-whole-number",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"declarer": "Bob"},
            ["hand 1: declarer: Bob is not the declarer; by the HCP it is Dee"],
            id="declarer-must-equal-derived",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"declarer": "Zed"},
            ["hand 1: declarer: 'Zed' is not one of Ann, Bob, Cy, Dee"],
            id="declarer-a-player",
        ),
        pytest.param(
            played(DEE_DECLARES) | {"dummy": "Bob"},
            ["hand 1: dummy: unknown field; allowed here: declarer, game, hcp, strain, tricks"],
            id="unknown-field",
        ),
        pytest.param(
            {"hcp": TWENTY_ALL, "game": False, "strain": "NT", "tricks": 7, "declarer": "Cy"},
            [
                "hand 1: game: must be left out when both sides hold 20: the same dealer deals "
                "again",
                "hand 1: strain: must be left out when both sides hold 20: the same dealer deals "
                "again",
                "hand 1: tricks: must be left out when both sides hold 20: the same dealer deals "
                "again",
                "hand 1: declarer: must be left out when both sides hold 20: the same dealer "
                "deals again",
            ],
            id="twenty-all-only-hcp",
        ),
        pytest.param(
            {"hcp": hcp4(5, 10, 13, 13), "game": 1, "strain": 4, "tricks": -1, "declarer": 3},
            [
                "hand 1: hcp: the four hands add up to 41, not 40; count again",
                "hand 1: game: 1 is not true or false",
                "hand 1: strain: 4 is not a strain; allowed C, D, H, S, NT",
                "hand 1: tricks: -1 is out of range; allowed 0–13",
                "hand 1: declarer: 3 is not one of Ann, Bob, Cy, Dee",
            ],
            id="every-problem-reported-at-once",
        ),
    ],
)
def test_four_checks(record: dict, lines: list[str]) -> None:
    assert errors("mini-bridge", [record]) == lines


def test_four_strain_in_lower_case_is_accepted() -> None:
    hand = four([played(DEE_DECLARES, True, "nt", 9)]).hands[0]
    assert (hand.details.strain, hand.scores["Dee"]) == ("NT", 420)


def test_four_bad_hand_leaves_earlier_hands_alone() -> None:
    lines = errors("mini-bridge", [played(DEE_DECLARES), "4S made"])
    assert lines == ["hand 2: give an object of fields, not str"]


# --- options -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "options", "problems"),
    [
        pytest.param(
            MiniBridge,
            {"hands": 4, "target": 1000},
            ["options: give either hands or target, not both"],
            id="hands-or-target-not-both",
        ),
        pytest.param(
            MiniBridgeThree,
            {"hands": 6, "target": 1000},
            ["options: give either hands or target, not both"],
            id="three-hands-or-target-not-both",
        ),
        pytest.param(
            MiniBridge,
            {"hands": 0},
            ["options: hands: 0 is not allowed; give a whole number 1–100"],
            id="hands-1-to-100",
        ),
        pytest.param(
            MiniBridge,
            {"target": True},
            ["options: target: True is not allowed; give a whole number 1–100000"],
            id="target-whole-number",
        ),
        pytest.param(MiniBridge, {"hands": None, "target": 500}, [], id="null-counts-as-absent"),
    ],
)
def test_option_checks(variant: type, options: dict, problems: list[str]) -> None:
    assert [str(p) for p in resolve_options(variant, options)[1]] == problems


@pytest.mark.parametrize(
    ("variant", "players", "options", "hands_to_play"),
    [
        pytest.param("mini-bridge", FOUR, {}, 8, id="four-default-8"),
        pytest.param("mini-bridge-3", THREE, {}, 9, id="three-default-9"),
        pytest.param("mini-bridge", FOUR, {"hands": 12}, 12, id="hands-given"),
        pytest.param("mini-bridge-3", THREE, {"target": 700}, None, id="target-no-hand-limit"),
    ],
)
def test_hands_default_applies_only_without_target(
    variant: str, players: list[str], options: dict, hands_to_play: int | None
) -> None:
    game = replay(variant, players, options, []).summary
    assert game.hands_to_play == hands_to_play


def test_settlement_kinds() -> None:
    kinds = (settlement_for(MiniBridge.id), settlement_for(MiniBridgeThree.id))
    assert kinds == (PARTNERSHIP, PAIRWISE)
    assert [kind.name for kind in kinds] == ["partnership", "pairwise"]


@pytest.mark.parametrize(
    ("cls", "players", "problems"),
    [
        pytest.param(MiniBridge, THREE, ["players: mini-bridge needs 4 players, not 3"], id="four"),
        pytest.param(
            MiniBridgeThree, FOUR, ["players: mini-bridge-3 needs 3 players, not 4"], id="three"
        ),
    ],
)
def test_player_counts(cls: type, players: list[str], problems: list[str]) -> None:
    assert [str(p) for p in check_players(cls, players)] == problems


# --- mini-bridge-3 ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("game", "strain", "tricks", "scores"),
    [
        # rules file examples, scored by the declarer alone in the three-player form.
        pytest.param(False, "NT", 8, {"Ann": 0, "Bob": 0, "Cy": 80}, id="spec-example-80"),
        pytest.param(True, "H", 11, {"Ann": 0, "Bob": 0, "Cy": 450}, id="spec-example-450"),
        # GAME in C, 10 tricks: each defender scores the 50.
        pytest.param(True, "C", 10, {"Ann": 50, "Bob": 50, "Cy": 0}, id="spec-example-each-50"),
        pytest.param(False, "S", 10, {"Ann": 0, "Bob": 0, "Cy": 120}, id="no-bonus-without-game"),
        pytest.param(True, "NT", 6, {"Ann": 150, "Bob": 150, "Cy": 0}, id="each-defender-150"),
    ],
)
def test_three_made_scores_declarer_failed_scores_each_defender(
    game: bool, strain: str, tricks: int, scores: dict[str, int]
) -> None:
    outcome = three([played(CY_DECLARES, game, strain, tricks)])
    assert outcome.hands[0].scores == scores
    assert outcome.totals == scores


def test_three_explanation_and_details() -> None:
    hand = three([played(CY_DECLARES, True, "C", 10)]).hands[0]
    assert hand.explanation == [
        "HCP Ann 7, Bob 7, Cy 15, dummy 40 − 29 = 11",
        "Cy declares (15 HCP, the most); with dummy 15 + 11 = 26",
        "GAME in ♣: 11 tricks needed, 10 taken",
        "1 short: Ann and Bob each score 1 × 50 = 50",
    ]
    assert hand.details == MiniBridgePlayed(
        hcp={"Ann": 7, "Bob": 7, "Cy": 15},
        announcement_order=["Ann", "Bob", "Cy"],
        declarer="Cy",
        dummy=None,
        declaring_side=["Cy"],
        defenders=["Ann", "Bob"],
        declaring_hcp=26,
        defending_hcp=14,
        game=True,
        strain="C",
        needed=11,
        tricks=10,
        made=False,
        trick_score=0,
        bonus=0,
        undertricks=1,
        note="Cy · GAME in ♣ · 10 tricks",
        dummy_hcp=11,
    )


@pytest.mark.parametrize(
    ("hands", "declarer"),
    [
        pytest.param([played(hcp3(12, 9, 8))], "Ann", id="most-hcp-declares"),
        pytest.param([played(hcp3(3, 13, 13))], "Bob", id="tie-announced-first"),
        # Hand 2, Bob deals: order Bob, Cy, Ann, so Cy announces before Ann.
        pytest.param(
            [played(CY_DECLARES), played(hcp3(12, 9, 12))], "Cy", id="tie-order-starts-at-dealer"
        ),
        # Dummy may hold more than anyone; it never declares.
        pytest.param([played(hcp3(1, 1, 2))], "Cy", id="dummy-never-declares"),
    ],
)
def test_three_declarer(hands: list[dict], declarer: str) -> None:
    assert three(hands).hands[-1].details.declarer == declarer


def test_three_tie_explanation() -> None:
    hand = three([played(hcp3(3, 13, 13))]).hands[0]
    assert hand.explanation[1] == (
        "Bob declares (13 HCP, the most, tied with Cy, announced first); with dummy 13 + 11 = 24"
    )


@pytest.mark.parametrize(
    "hcp",
    [
        pytest.param(hcp3(0, 1, 2), id="dummy-37"),
        pytest.param(hcp3(10, 15, 15), id="dummy-0"),
    ],
)
def test_three_dummy_hcp_limits_allowed(hcp: dict[str, int]) -> None:
    assert three([played(hcp)]).hands[0].details.dummy_hcp == 40 - sum(hcp.values())


def test_three_scrapped_deal_is_dealt_again() -> None:
    # Ann declares 12 + dummy 8 = 20, under 21: she may scrap.
    outcome = three([{"hcp": hcp3(12, 10, 10), "scrapped": True}])
    hand = outcome.hands[0]
    assert (hand.dealer, hand.counted, hand.scores) == ("Ann", False, {"Ann": 0, "Bob": 0, "Cy": 0})
    assert hand.explanation == [
        "HCP Ann 12, Bob 10, Cy 10, dummy 40 − 32 = 8",
        "Ann declares (12 HCP, the most); with dummy 12 + 8 = 20",
        "scrapped: not counted, Ann deals again",
    ]
    assert hand.details == MiniBridgeScrapped(
        hcp={"Ann": 12, "Bob": 10, "Cy": 10},
        dummy_hcp=8,
        declarer="Ann",
        declaring_hcp=20,
        note="scrapped by Ann (20 HCP)",
    )
    assert vars(outcome.upcoming) == {
        "dealer": "Ann",
        "number": 1,
        "announcement_order": ["Ann", "Bob", "Cy"],
        "counted_so_far": 0,
        "deals_again": True,
        "hands_to_play": 9,
        "hands_left": 9,
        "target": None,
        "to_target": None,
    }


def test_three_under_21_may_still_be_played() -> None:
    outcome = three([played(hcp3(12, 10, 10), False, "D", 8)])
    assert (outcome.hands[0].counted, outcome.totals["Ann"]) == (True, 40)


def test_three_deal_passes_on_counted_hands_and_nine_is_the_default() -> None:
    scrap = {"hcp": hcp3(12, 10, 10), "scrapped": True}
    hands = [played(CY_DECLARES), scrap] + [played(CY_DECLARES)] * 8
    outcome = three(hands)
    assert [h.dealer for h in outcome.hands[:5]] == ["Ann", "Bob", "Bob", "Cy", "Ann"]
    assert (outcome.finished, outcome.winners) == (True, ["Cy"])
    assert outcome.totals == {"Ann": 0, "Bob": 0, "Cy": 360}
    lines = errors("mini-bridge-3", [*hands, played(CY_DECLARES)])
    assert lines == ["hand 11: the match is already finished after hand 10; no hand may follow"]


def test_three_target_reached_by_a_player() -> None:
    outcome = three([played(CY_DECLARES, True, "NT", 0)] * 2, {"target": 800})
    assert outcome.totals == {"Ann": 900, "Bob": 900, "Cy": 0}
    assert (outcome.finished, outcome.winners) == (True, ["Ann", "Bob"])


def test_three_upcoming_with_target() -> None:
    outcome = three([played(CY_DECLARES, True, "NT", 9)], {"target": 1000})
    assert vars(outcome.upcoming) == {
        "dealer": "Bob",
        "number": 2,
        "announcement_order": ["Bob", "Cy", "Ann"],
        "counted_so_far": 1,
        "deals_again": False,
        "target": 1000,
        "to_target": 580,
        "hands_to_play": None,
        "hands_left": None,
    }


@pytest.mark.parametrize(
    ("record", "lines"),
    [
        pytest.param(
            played(hcp3(1, 1, 0)),
            ["hand 1: hcp: the three hold 2, leaving dummy 38; together they must hold 3–40"],
            id="dummy-at-most-37",
        ),
        pytest.param(
            played(hcp3(20, 11, 10)),
            ["hand 1: hcp: the three hold 41, leaving dummy -1; together they must hold 3–40"],
            id="dummy-at-least-0",
        ),
        pytest.param(
            played({"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10}),
            ["hand 1: hcp: 'Dee' is not a player; give Ann, Bob, Cy"],
            id="hcp-only-the-three-players",
        ),
        pytest.param(
            played(hcp3(38, 0, 0)),
            ["hand 1: hcp: Ann: 38 is out of range; allowed 0–37"],
            id="hcp-0-to-37",
        ),
        pytest.param(
            {"hcp": "12 9 8"},
            [
                "hand 1: hcp: '12 9 8' is not an object of HCP by player, e.g. "
                '{"Ann": 10, "Bob": 10, "Cy": 10}'
            ],
            id="hcp-not-an-object",
        ),
        pytest.param(
            {"hcp": hcp3(12, 9, 9), "scrapped": True},
            [
                "hand 1: scrapped: Ann and dummy hold 12 + 10 = 22; a deal may be scrapped "
                "only below 21"
            ],
            id="scrap-only-below-21",
        ),
        pytest.param(
            {"hcp": hcp3(12, 9, 10), "scrapped": True},
            [
                "hand 1: scrapped: Ann and dummy hold 12 + 9 = 21; a deal may be scrapped "
                "only below 21"
            ],
            id="scrap-not-at-21",
        ),
        pytest.param(
            {**played(hcp3(12, 10, 10)), "scrapped": True},
            [
                "hand 1: game: must be left out when the deal is scrapped",
                "hand 1: strain: must be left out when the deal is scrapped",
                "hand 1: tricks: must be left out when the deal is scrapped",
            ],
            id="scrapped-has-no-play",
        ),
        pytest.param(
            {**played(CY_DECLARES), "scrapped": False},
            ["hand 1: scrapped: False is not allowed; give true or leave it out"],
            id="scrapped-true-or-absent",
        ),
        pytest.param(
            {"hcp": CY_DECLARES},
            [
                "hand 1: game: missing; give true or false",
                "hand 1: strain: missing; give C, D, H, S or NT",
                "hand 1: tricks: missing; give a whole number 0–13",
            ],
            id="played-hand-needs-game-strain-tricks",
        ),
        pytest.param(
            {**played(CY_DECLARES), "declarer": "Cy"},
            ["hand 1: declarer: unknown field; allowed here: game, hcp, scrapped, strain, tricks"],
            id="no-declarer-field",
        ),
    ],
)
def test_three_checks(record: dict, lines: list[str]) -> None:
    assert errors("mini-bridge-3", [record]) == lines


# --- the example evenings ------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "totals", "winners"),
    [
        pytest.param(
            "mini-bridge.json",
            {"Ann": 670, "Bob": 1030, "Cy": 670, "Dee": 1030},
            ["Bob", "Dee"],
            id="four",
        ),
        pytest.param(
            "mini-bridge-3.json", {"Ann": 640, "Bob": 1130, "Cy": 580}, ["Bob"], id="three"
        ),
    ],
)
def test_example_evenings_replay_to_the_end(
    file: str, totals: dict[str, int], winners: list[str]
) -> None:
    match = json.loads((EXAMPLES / file).read_text(encoding="utf-8"))
    assert match["format"] == "scorekeeper-match/1"
    outcome = replay(match["variant"], match["players"], match["options"], match["hands"])
    assert (outcome.totals, outcome.finished, outcome.winners) == (totals, True, winners)
    assert [h.counted for h in outcome.hands].count(False) == 1


# --- nothing a user can type raises anything but MatchError ---------------------------

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 45) | st.sampled_from(["NT", "h", "Ann", "x"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner),
    max_leaves=6,
)
_HCP = st.dictionaries(st.sampled_from([*FOUR, "Zed"]), st.integers(-1, 38) | _JSON)
_RECORD = st.fixed_dictionaries(
    {},
    optional={
        "hcp": _HCP | _JSON,
        "game": st.booleans() | _JSON,
        "strain": st.sampled_from(["C", "D", "H", "S", "NT"]) | _JSON,
        "tricks": st.integers(-1, 14) | _JSON,
        "declarer": st.sampled_from(FOUR) | _JSON,
        "scrapped": st.booleans() | _JSON,
    },
)


@settings(max_examples=150, deadline=None)
@given(variant=st.sampled_from(["mini-bridge", "mini-bridge-3"]), records=st.lists(_RECORD))
def test_any_typed_input_is_scored_or_refused_cleanly(variant: str, records: list) -> None:
    players = FOUR if variant == "mini-bridge" else THREE
    try:
        outcome = replay(variant, players, {}, records)
    except MatchError as exc:
        assert all(line.startswith("hand ") for line in exc.lines)
    else:
        assert len(outcome.hands) == len(records)


# The one place the declaring side is found: the hand form's preview and the
# replay both ask `declaring` (rules: the side with more HCP declares; its
# stronger member declares, the first to announce on a tie; 20–20 deals again).
@pytest.mark.parametrize(
    "hcp, order, expected",
    [
        ({"Ann": 5, "Bob": 10, "Cy": 13, "Dee": 12}, FOUR, (["Bob", "Dee"], "Dee", "Bob", 22, 18)),
        ({"Ann": 12, "Bob": 10, "Cy": 12, "Dee": 6}, FOUR, (["Ann", "Cy"], "Ann", "Cy", 24, 16)),
        (
            {"Ann": 12, "Bob": 10, "Cy": 12, "Dee": 6},
            ["Cy", "Dee", "Ann", "Bob"],
            (["Ann", "Cy"], "Cy", "Ann", 24, 16),
        ),
        ({"Ann": 10, "Bob": 10, "Cy": 10, "Dee": 10}, FOUR, None),
        ({"Ann": 15, "Bob": 0, "Cy": 5, "Dee": 20}, FOUR, None),
    ],
)
def test_declaring_side_from_the_hcp(hcp, order, expected):
    from scorekeeper.games.mini_bridge.rules import declaring

    plays = declaring(FOUR, order, hcp)
    if expected is None:
        assert plays is None
    else:
        assert (plays.side, plays.declarer, plays.dummy, plays.ours, plays.theirs) == expected
        assert sorted(plays.side + plays.defenders) == sorted(FOUR)


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("game_made", "scrapped")

KIT = {
    "mini-bridge": Kit(family="mini_bridge", stake_per=1, partners="fixed"),
    "mini-bridge-3": Kit(family="mini_bridge", stake_per=1, partners="none"),
}

EXAMPLE_RESULTS = {
    # Ann & Cy 80 + 50 + 120 + 420 = 670, Bob & Dee 450 + 460 + 100 + 20 = 1030;
    # 360 × 0.10 / 10 = 3.60 from each of Ann and Cy.
    "mini-bridge": Example(
        9,
        {"Ann": 670, "Bob": 1030, "Cy": 670, "Dee": 1030},
        ["Bob", "Dee"],
        [pay("Ann", "Bob", "3.60"), pay("Cy", "Dee", "3.60")],
        chart=("Running score after each hand", ["Ann & Cy", "Bob & Dee"], ["670", "1030"]),
        hands=8,
    ),
    # Pairwise at 0.01 a point: Ann −490 + 60 = −430, Cy −60 − 550 = −610, Bob +1040.
    "mini-bridge-3": Example(
        10,
        {"Ann": 640, "Bob": 1130, "Cy": 580},
        ["Bob"],
        [pay("Ann", "Bob", "4.30"), pay("Cy", "Bob", "6.10")],
        chart=("Running score after each hand", ["Ann", "Bob", "Cy"], ["640", "1130", "580"]),
        hands=9,
    ),
}


def hcp_form(good: dict[str, str], numbers, without) -> HandForm:
    """Mini Bridge's form: one HCP box per player (Ann, Bob, Cy, Dee in seat order)."""
    boxes = [name for name in good if name.startswith("hcp")]
    players = ["Ann", "Bob", "Cy", "Dee"]
    return HandForm(
        good=good,
        numbers=numbers,
        without=without,
        inputs={**dict.fromkeys(boxes, (0, 37)), "game": {"yes", "no"}},
        # An empty box is said in the form's words: whose points to enter.
        places={
            box: (f"hcp: {players[int(box[3:]) - 1]}", "hcp: enter the points of", box)
            for box in boxes
        },
        wholes=dict.fromkeys(boxes, ("hcp",)),  # HCP that do not add up to 40
    )


# The hand form as tests/test_hostile.py sends it (players Ann, Bob, Cy[, Dee]).
HAND_FORMS = {
    "mini-bridge": hcp_form(
        {"hcp1": "10", "hcp2": "10", "hcp3": "12", "hcp4": "8", "game": "no", "strain": "H",
         "tricks": "8"},
        numbers=[("hcp1", "hcp: Ann"), ("hcp4", "hcp: Dee"), ("tricks", "tricks")],
        without=[
            ("hcp1", "hcp: enter the points of Ann"),
            ("hcp4", "hcp: enter the points of Dee"),
            ("game", "game: choose GAME or No GAME"),
            ("strain", "strain: choose a strain"),
            ("tricks", "tricks: choose the number of tricks won"),
        ],
    ),
    "mini-bridge-3": hcp_form(
        {"hcp1": "10", "hcp2": "10", "hcp3": "12", "game": "no", "strain": "H", "tricks": "8"},
        numbers=[("hcp2", "hcp: Bob"), ("hcp3", "hcp: Cy"), ("tricks", "tricks")],
        without=[
            ("hcp3", "hcp: enter the points of Cy"),
            ("game", "game: choose GAME or No GAME"),
            ("strain", "strain: choose a strain"),
            ("tricks", "tricks: choose the number of tricks won"),
        ],
    ),
}  # fmt: skip


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "mini-bridge": Printed(
        ["Ann", "Bob", "Cy", "Dee"],
        ["1 Ann 0 +450 0 +450", "↻ Bob 0 0 0 0", "2 Bob +80 0 +80 0", "3 Cy +50 0 +50 0",
         "4 Dee +120 0 +120 0", "5 Ann 0 +460 0 +460", "6 Bob 0 +100 0 +100",
         "7 Cy 0 +20 0 +20", "8 Dee +420 0 +420 0"],
        "+670 +1030 +670 +1030",
        ["Ann pays Bob 3.60 EUR", "Cy pays Dee 3.60 EUR"],
    ),
    "mini-bridge-3": Printed(
        ["Ann", "Bob", "Cy"],
        ["1 Ann +420 0 0", "↻ Bob 0 0 0", "2 Bob 0 +90 0", "3 Cy +50 +50 0", "4 Ann +20 0 0",
         "5 Bob 0 +420 0", "6 Cy 0 0 +420", "7 Ann 0 0 +160", "8 Bob 0 +420 0",
         "9 Cy +150 +150 0"],
        "+640 +1130 +580",
        ["Ann pays Bob 4.30 EUR", "Cy pays Bob 6.10 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def mini_bridge_play(draw) -> dict[str, Any]:
    game = draw(st.booleans())
    strain = draw(st.sampled_from(STRAINS))
    needed = {"NT": 9, "H": 10, "S": 10, "C": 11, "D": 11}[strain] if game else 7
    return {"game": game, "strain": strain, "tricks": tricks_for(draw, needed)}


def mini_bridge_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    hcp = dict(zip(players, split(draw, 40, 4, 37), strict=True))
    ours, theirs = hcp[players[0]] + hcp[players[2]], hcp[players[1]] + hcp[players[3]]
    if ours == theirs:
        return {"hcp": hcp}  # 20–20: the same dealer deals again
    record = {"hcp": hcp, **mini_bridge_play(draw)}
    if draw(st.booleans()):
        side = players[0::2] if ours > theirs else players[1::2]
        order = coming.announcement_order
        record["declarer"] = min(side, key=lambda p: (-hcp[p], order.index(p)))
    return record


def mini_bridge_3_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    *held, dummy = split(draw, 40, 4, 37)
    hcp = dict(zip(players, held, strict=True))
    order = coming.announcement_order
    declarer = min(players, key=lambda p: (-hcp[p], order.index(p)))
    if hcp[declarer] + dummy < 21 and draw(st.booleans()):
        return {"hcp": hcp, "scrapped": True}
    return {"hcp": hcp, **mini_bridge_play(draw)}


def mini_bridge_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    tricks = [(("tricks",), 0, 13)] if "tricks" in record else []
    return tricks + [(("hcp", player), 0, 37) for player in record.get("hcp", {})]


TARGET_OR_HANDS = st.one_of(
    st.just({}),
    st.builds(dict, hands=st.integers(1, 6)),
    st.builds(dict, target=st.integers(200, 1500)),
)
GENERATED = {
    "mini-bridge": Generated(
        mini_bridge_hand,
        options=TARGET_OR_HANDS,
        optional=frozenset({"declarer"}),
        numbers=mini_bridge_numbers,
    ),
    "mini-bridge-3": Generated(
        mini_bridge_3_hand,
        options=TARGET_OR_HANDS,
        optional=frozenset(),
        numbers=mini_bridge_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "mini-bridge": [
        "Ann & Cy 670",
        "Bob & Dee 1030",
    ],  # the partnerships' totals
    "mini-bridge-3": ["Ann +640", "Bob +1130", "Cy +580"],
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    # 20–20 (entry 2): "the same dealer deals again", recorded, not counted.
    "mini-bridge": (numbered(1, REDEAL_MARK, range(2, 9)), "8 hands"),
    # A scrapped deal (entry 2): not counted, the same dealer deals again.
    "mini-bridge-3": (numbered(1, REDEAL_MARK, range(2, 10)), "9 hands"),
}
