"""Calypso (docs/variants/calypso.md): end-of-game tallies, partnership scores."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.calypso.rules import Calypso, calypso_points, player_points
from scorekeeper.games.common import HandError
from scorekeeper.variants import MatchError, replay
from tests.games import Example, Generated, HandForm, Kit, Printed, numbered, pay, split

PLAYERS = ["Ann", "Bob", "Cy", "Dan"]
EXAMPLE = Path(__file__).parent.parent / "examples" / "calypso.json"


def tally(calypsos: int, incomplete: int, discards: int) -> dict[str, int]:
    return {"calypsos": calypsos, "incomplete": incomplete, "discards": discards}


# calypso.md scoring on one game (also game 1 of examples/calypso.json):
# 51 + 54 + 69 + 34 = 208 cards; Ann 950, Bob 1560, Cy 1160, Dan 430.
GAME = {
    "tallies": {
        "Ann": tally(1, 7, 31),
        "Bob": tally(2, 3, 25),
        "Cy": tally(1, 10, 46),
        "Dan": tally(0, 9, 25),
    }
}
# Every player 1 calypso and 39 discards: 4 × 52 = 208 cards, 890 points each.
TIED_GAME = {"tallies": {p: tally(1, 0, 39) for p in PLAYERS}}
# Bob & Dan ahead: 52 + 52 + 52 + 52 cards.
SECOND_GAME = {
    "tallies": {
        "Ann": tally(0, 12, 40),
        "Bob": tally(2, 0, 26),
        "Cy": tally(0, 2, 50),
        "Dan": tally(3, 0, 13),
    }
}


def play(hands: list[Any], options: Any = None):
    return replay("calypso", PLAYERS, options, hands)


def problems(hands: list[Any], options: Any = None, players: Any = None) -> list[str]:
    with pytest.raises(MatchError) as caught:
        replay("calypso", players or PLAYERS, options, hands)
    return caught.value.lines


def with_tally(player: str, value: Any) -> dict[str, Any]:
    return {"tallies": {**GAME["tallies"], player: value}}


# --- scoring -------------------------------------------------------------------


def test_worked_example_two_calypsos_five_incomplete_twenty_discards() -> None:
    # calypso.md "Scoring", Example: 500 + 750 + 100 + 200 = 1550.
    assert player_points(2, 5, 20) == {
        "calypsos": 2,
        "incomplete": 5,
        "discards": 20,
        "calypso_points": 1250,
        "incomplete_points": 100,
        "discard_points": 200,
        "points": 1550,
    }


@pytest.mark.parametrize(
    "calypsos, points",
    [
        pytest.param(0, 0, id="no-calypso-0"),
        pytest.param(1, 500, id="first-calypso-500"),
        pytest.param(2, 1250, id="second-calypso-750"),
        pytest.param(3, 2250, id="third-calypso-1000"),
        pytest.param(4, 3250, id="fourth-calypso-1000"),
    ],
)
def test_calypso_points(calypsos: int, points: int) -> None:
    assert calypso_points(calypsos) == points


@pytest.mark.parametrize(
    "calypsos, incomplete, discards, points",
    [
        pytest.param(0, 1, 0, 20, id="incomplete-card-20"),
        pytest.param(0, 12, 0, 240, id="incomplete-12-cards-240"),
        pytest.param(0, 0, 1, 10, id="discard-card-10"),
        pytest.param(0, 0, 208, 2080, id="all-discards-2080"),
        pytest.param(4, 0, 0, 3250, id="four-calypsos-3250"),
        pytest.param(1, 7, 31, 950, id="one-of-each-item-950"),
    ],
)
def test_player_points(calypsos: int, incomplete: int, discards: int, points: int) -> None:
    assert player_points(calypsos, incomplete, discards)["points"] == points


def test_side_score_is_the_sum_of_its_players_and_both_partners_get_it() -> None:
    result = play([GAME]).hands[0]
    assert result.scores == {"Ann": 2110, "Bob": 1990, "Cy": 2110, "Dan": 1990}
    assert result.details.sides == [
        {"players": ["Ann", "Cy"], "points": 2110},
        {"players": ["Bob", "Dan"], "points": 1990},
    ]
    assert result.details.difference == 120
    assert result.details.winning_side == ["Ann", "Cy"]
    assert result.details.game == 1
    assert result.details.tallies["Cy"] == {
        "calypsos": 1,
        "incomplete": 10,
        "discards": 46,
        "calypso_points": 500,
        "incomplete_points": 200,
        "discard_points": 460,
        "points": 1160,
    }


def test_explanation_shows_each_player_each_side_and_the_difference() -> None:
    assert play([GAME]).hands[0].explanation == [
        "Ann: 1 calypso 500; 7 incomplete × 20 = 140; 31 discards × 10 = 310; total 950",
        "Bob: calypsos 500 + 750 = 1250; 3 incomplete × 20 = 60; 25 discards × 10 = 250; "
        "total 1560",
        "Cy: 1 calypso 500; 10 incomplete × 20 = 200; 46 discards × 10 = 460; total 1160",
        "Dan: no calypso; 9 incomplete × 20 = 180; 25 discards × 10 = 250; total 430",
        "Ann & Cy: 950 + 1160 = 2110",
        "Bob & Dan: 1560 + 430 = 1990",
        "Ann & Cy win the game by 120 (2110 − 1990)",
    ]


def test_tied_game_has_no_winning_side() -> None:
    outcome = play([TIED_GAME])
    result = outcome.hands[0]
    assert result.scores == {"Ann": 1780, "Bob": 1780, "Cy": 1780, "Dan": 1780}
    assert result.details.difference == 0
    assert result.details.winning_side is None
    assert result.explanation[-1] == "the game is a tie: both sides 1780"
    assert outcome.winners == PLAYERS


# --- match: games, dealer, winners -----------------------------------------------


def test_match_one_game_by_default_then_finished() -> None:
    outcome = play([GAME])
    assert outcome.options == {"games": 1}
    assert outcome.finished is True
    assert outcome.winners == ["Ann", "Cy"]
    assert outcome.upcoming is None
    assert problems([GAME, GAME]) == [
        "hand 2: the match is already finished after hand 1; no hand may follow"
    ]


def test_match_totals_add_each_games_side_points() -> None:
    outcome = play([GAME, SECOND_GAME], {"games": 2})
    assert [h.scores["Ann"] for h in outcome.hands] == [2110, 1180]
    assert [h.scores["Dan"] for h in outcome.hands] == [1990, 3890]
    assert outcome.totals == {"Ann": 3290, "Bob": 5880, "Cy": 3290, "Dan": 5880}
    assert outcome.hands[1].details.difference == 2710
    assert outcome.finished is True
    assert outcome.winners == ["Bob", "Dan"]


def test_match_unfinished_has_no_winners_yet() -> None:
    outcome = play([GAME], {"games": 3})
    assert outcome.finished is False
    assert outcome.winners == []
    assert vars(outcome.upcoming) == {
        "dealer": "Bob",
        "number": 2,
        "dealers": ["Bob", "Cy", "Dan", "Ann"],
        "game": 2,
        "games": 3,
    }


@pytest.mark.parametrize(
    "games_before, dealer",
    [
        pytest.param(0, "Ann", id="game-1-started-by-player-1"),
        pytest.param(1, "Bob", id="game-2-started-by-player-2"),
        pytest.param(3, "Dan", id="game-4-started-by-player-4"),
        pytest.param(4, "Ann", id="game-5-back-to-player-1"),
    ],
)
def test_first_dealer_of_each_game_moves_one_seat_on(games_before: int, dealer: str) -> None:
    outcome = play([TIED_GAME] * games_before, {"games": 6})
    assert outcome.upcoming.dealer == dealer
    assert outcome.upcoming.game == games_before + 1
    played = play([TIED_GAME] * (games_before + 1), {"games": 6})
    assert played.hands[-1].dealer == dealer
    assert played.hands[-1].details.dealers[0] == dealer


def test_end_marker_finishes_early_with_the_leading_side() -> None:
    outcome = play([GAME, {"end": True}], {"games": 3})
    assert outcome.finished is True
    assert outcome.winners == ["Ann", "Cy"]
    assert outcome.hands[1].scores == {"Ann": 0, "Bob": 0, "Cy": 0, "Dan": 0}


def test_example_file_replays_two_games() -> None:
    match = json.loads(EXAMPLE.read_text())
    outcome = replay(match["variant"], match["players"], match["options"], match["hands"])
    assert outcome.finished is True
    assert outcome.totals == {"Ann": 4300, "Bob": 5320, "Cy": 4300, "Dan": 5320}
    assert outcome.winners == ["Bob", "Dan"]


# --- one game, as entered --------------------------------------------------------


@pytest.mark.parametrize(
    "record, lines",
    [
        pytest.param(
            {},
            [
                "hand 1: tallies: missing; for each of Ann, Bob, Cy, Dan give calypsos, "
                "incomplete and discards"
            ],
            id="tallies-missing",
        ),
        pytest.param(
            {"tallies": [1, 2, 3, 4]},
            [
                "hand 1: tallies: give an object naming each player; for each give calypsos, "
                "incomplete and discards"
            ],
            id="tallies-not-an-object",
        ),
        pytest.param(
            {**GAME, "game": 1},
            ["hand 1: game: unknown field; allowed here: tallies"],
            id="unknown-hand-field",
        ),
        pytest.param(
            {"tallies": {**GAME["tallies"], "Eve": tally(0, 0, 0)}},
            ["hand 1: tallies: 'Eve' is not one of Ann, Bob, Cy, Dan"],
            id="unknown-player",
        ),
        pytest.param(
            {"tallies": {p: GAME["tallies"][p] for p in ("Ann", "Bob", "Cy")}},
            ["hand 1: tallies.Dan: missing; give calypsos, incomplete and discards"],
            id="every-player-must-appear",
        ),
        pytest.param(
            with_tally("Bob", [2, 3, 25]),
            [
                "hand 1: tallies.Bob: [2, 3, 25] is not an object; "
                "give calypsos, incomplete and discards"
            ],
            id="player-tally-not-an-object",
        ),
        pytest.param(
            with_tally("Bob", {**tally(2, 3, 25), "runs": 1}),
            [
                "hand 1: tallies.Bob.runs: unknown field; "
                "allowed here: calypsos, discards, incomplete"
            ],
            id="unknown-key-inside",
        ),
        pytest.param(
            with_tally("Bob", {"calypsos": 2, "discards": 28}),
            ["hand 1: tallies.Bob.incomplete: missing; give a whole number 0–12"],
            id="every-count-required",
        ),
        pytest.param(
            with_tally("Bob", tally(5, 0, 0)),
            ["hand 1: tallies.Bob.calypsos: 5 is out of range; allowed 0–4"],
            id="calypsos-0-to-4",
        ),
        pytest.param(
            with_tally("Bob", tally(2, 13, 15)),
            ["hand 1: tallies.Bob.incomplete: 13 is out of range; allowed 0–12"],
            id="incomplete-0-to-12",
        ),
        pytest.param(
            with_tally("Bob", tally(0, 0, 209)),
            ["hand 1: tallies.Bob.discards: 209 is out of range; allowed 0–208"],
            id="discards-0-to-208",
        ),
        pytest.param(
            with_tally("Bob", tally(0, 0, -1)),
            ["hand 1: tallies.Bob.discards: -1 is out of range; allowed 0–208"],
            id="discards-not-negative",
        ),
        pytest.param(
            with_tally("Bob", {"calypsos": "2", "incomplete": True, "discards": 2.5}),
            [
                "hand 1: tallies.Bob.calypsos: '2' is not a whole number; allowed 0–4",
                "hand 1: tallies.Bob.incomplete: True is not a whole number; allowed 0–12",
                "hand 1: tallies.Bob.discards: 2.5 is not a whole number; allowed 0–208",
            ],
            id="counts-must-be-whole-numbers-all-reported",
        ),
        pytest.param(
            with_tally("Dan", tally(4, 1, 0)),
            [
                "hand 1: tallies.Dan.incomplete: 4 calypsos use every trump card of the four "
                "decks, so no calypso can be in progress; give 0"
            ],
            id="four-calypsos-leave-no-incomplete",
        ),
        pytest.param(
            with_tally("Dan", tally(0, 9, 21)),
            [
                "hand 1: tallies: the tallies count 204 cards, but the four decks hold 208: "
                "every card ends in a calypso, a calypso in progress or a discard pile"
            ],
            id="cards-must-add-up-to-208",
        ),
        pytest.param(
            with_tally("Dan", tally(1, 9, 25)),
            [
                "hand 1: tallies: the tallies count 221 cards, but the four decks hold 208: "
                "every card ends in a calypso, a calypso in progress or a discard pile"
            ],
            id="cards-counted-with-13-per-calypso",
        ),
    ],
)
def test_tally_checks(record: dict[str, Any], lines: list[str]) -> None:
    assert problems([record]) == lines


@pytest.mark.parametrize(
    "options, players, lines",
    [
        pytest.param(
            {"games": 0},
            None,
            ["options: games: 0 is not allowed; give a whole number 1–50"],
            id="games-at-least-1",
        ),
        pytest.param(
            {"target": 500},
            None,
            ["options: target: unknown option; allowed for calypso: games"],
            id="only-games-option",
        ),
        pytest.param(
            {},
            ["Ann", "Bob", "Cy"],
            ["players: calypso needs 4 players, not 3"],
            id="four-players",
        ),
    ],
)
def test_match_checks(options: dict[str, Any], players: list[str] | None, lines: list[str]) -> None:
    assert problems([], options, players) == lines


def test_a_refused_game_changes_nothing() -> None:
    game = Calypso(PLAYERS, {"games": 2})
    with pytest.raises(HandError):
        game.play_hand(with_tally("Dan", tally(0, 9, 21)), 1)
    assert game.totals == {"Ann": 0, "Bob": 0, "Cy": 0, "Dan": 0}
    assert game.upcoming().game == 1


# --- what the shared suites ask of this game (tests/games.py) ----------------------

# The game's telling counts on a group's statistics, in the order its stats.py names them.
TELLING = ("calypsos",)

KIT = {"calypso": Kit(family="calypso", stake_per=1, partners="fixed")}

EXAMPLE_RESULTS = {
    # Ann & Cy 2110 + 2190 = 4300, Bob & Dan 1990 + 3330 = 5320; 1020 × 0.10 / 100.
    "calypso": Example(
        2,
        {"Ann": 4300, "Bob": 5320, "Cy": 4300, "Dan": 5320},
        ["Bob", "Dan"],
        [pay("Ann", "Bob", "1.02"), pay("Cy", "Dan", "1.02")],
        chart=("Points per side after each game", ["Ann & Cy", "Bob & Dan"], ["4300", "5320"]),
        hands=2,
    ),
}

# The hand form as tests/test_hostile.py sends it (players Ann, Bob, Cy, Dee):
# four tallies that account for the 208 cards of four decks (examples/calypso.json).
CALYPSO_TALLIES = [("1", "7", "31"), ("2", "3", "25"), ("1", "10", "46"), ("0", "9", "25")]
TALLY_RANGES = {"calypsos": (0, 4), "incomplete": (0, 12), "discards": (0, 208)}
SEATS = {f"p{seat}": player for seat, player in enumerate(["Ann", "Bob", "Cy", "Dee"], 1)}
TALLY_BOXES = [f"{seat}_{count}" for seat in SEATS for count in TALLY_RANGES]
HAND_FORMS = {
    "calypso": HandForm(
        good={
            f"p{seat}_{count}": value
            for seat, tally in enumerate(CALYPSO_TALLIES, 1)
            for count, value in zip(TALLY_RANGES, tally, strict=True)
        },
        numbers=[
            ("p1_calypsos", "tallies.Ann.calypsos"),
            ("p2_incomplete", "tallies.Bob.incomplete"),
            ("p3_discards", "tallies.Cy.discards"),
            ("p4_calypsos", "tallies.Dee.calypsos"),
        ],
        without=[
            ("p1_calypsos", "tallies.Ann.calypsos: missing; give a whole number 0–4"),
            ("p2_incomplete", "tallies.Bob.incomplete: missing; give a whole number 0–12"),
            ("p4_discards", "tallies.Dee.discards: missing; give a whole number 0–208"),
        ],
        inputs={box: TALLY_RANGES[box.split("_")[1]] for box in TALLY_BOXES},
        places={box: (f"tallies.{SEATS[box[:2]]}.{box[3:]}", box) for box in TALLY_BOXES},
        # Tallies that do not count 208 cards are refused with the whole.
        wholes={box: ("tallies", f"tallies.{SEATS[box[:2]]}") for box in TALLY_BOXES},
    ),
}


# What the PDF of the example shows (tests/test_pdf.py): the appendix line of
# every hand (its number as players count it, ↻ for a redeal, which is not a
# hand, and no number before "end", the end marker), totals and payments.
PRINTED = {
    "calypso": Printed(
        ["Ann", "Bob", "Cy", "Dan"],
        ["1 Ann +2110 +1990 +2110 +1990", "2 Bob +2190 +3330 +2190 +3330"],
        "+4300 +5320 +4300 +5320",
        ["Ann pays Bob 1.02 EUR", "Cy pays Dan 1.02 EUR"],
    ),
}  # fmt: skip


# --- drawing a legal match, for tests/test_properties.py (Generated, tests/games.py)


def calypso_hand(draw, players: list[str], coming: Any) -> dict[str, Any]:
    left = 208
    tallies = {}
    for player in players:
        calypsos = draw(st.integers(0, min(4, left // 13)))
        left -= 13 * calypsos
        # Four calypsos use all four decks' cards of that trump: none can be in progress.
        incomplete = draw(st.integers(0, min(12, left) if calypsos < 4 else 0))
        left -= incomplete
        tallies[player] = {"calypsos": calypsos, "incomplete": incomplete}
    for player, discards in zip(players, split(draw, left, 4, 208), strict=True):
        tallies[player]["discards"] = discards
    return {"tallies": tallies}


def calypso_numbers(record: dict[str, Any]) -> list[tuple[tuple[str, ...], int, int]]:
    highest = {"calypsos": 4, "incomplete": 12, "discards": 208}
    return [
        (("tallies", player, count), 0, highest[count])
        for player, tally in record.get("tallies", {}).items()
        for count in tally
    ]


GENERATED = {
    "calypso": Generated(
        calypso_hand,
        options=st.fixed_dictionaries({}, optional={"games": st.integers(1, 3)}),
        optional=frozenset(),
        numbers=calypso_numbers,
    ),
}

# The running score at the top of the next hand's form after the example
# (tests/test_score_line.py).
SCORE_LINE = {
    "calypso": ["Ann & Cy 4300", "Bob & Dan 5320"],
}

# The example imported: the number of each entry on the match page and the
# count the home page shows (tests/test_hand_numbers.py).
NUMBERED = {
    "calypso": (numbered(1, 2), "2 games"),
}
