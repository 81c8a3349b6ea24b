"""Statistics (scorekeeper/stats.py) of the hand-worked group of tests/test_ledger.py:
the Top Game, rubber, Calypso, Chicago and Need a Fourth? matches of Ann, Bob, Cy and
Dee ("Annie" and "Dan" in the Calypso match). Each figure below is counted by hand
from the hands written out there."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from decimal import Decimal
from pathlib import Path
from types import SimpleNamespace

import pytest

from scorekeeper.ledger import Period, select
from scorekeeper.matchfile import from_document, loads
from scorekeeper.report import match_summary
from scorekeeper.stats import Figure, statistics, tally_match
from scorekeeper.variants import replay_match
from tests.test_ledger import (
    CALYPSO,
    CHICAGO,
    NEED_A_FOURTH,
    NOVEMBER,
    RUBBER,
    SAME,
    TOP_GAME,
    summaries,
)


@pytest.fixture(scope="module")
def stats():
    return statistics(select(summaries(), same=SAME))


# Hands played: Top Game 4 counted of 5 (the wrong dummy information is dealt again),
# rubber 7 (a passed-out deal counts), Calypso 1 game, Chicago 4 of 5 (its passed-out
# deal is dealt again), Need a Fourth? 3 (a passed-out hand counts): 19 for each of
# Ann, Bob, Cy; Dee 7 + 1 + 4 = 12.
# Declared, made (doubled, redoubled):
#   Ann  Top 4♥X down; rubber 2♥, 3♦ made; Chicago 4♥ made          4, 3 (1, 0)
#   Bob  Top 4♦ made; rubber 3NT; Chicago 2♠; NaF 4♥XX (his bid) made 4, 4 (0, 1)
#   Cy   rubber 4♠X down, 2♠ made; Chicago 3NT down; NaF 2♠X down    4, 1 (2, 0)
#        (his Top Game bid of 2 passed out on a playnumber of 4: no contract)
#   Dee  rubber 4♥ made; Chicago 3♣ made                             2, 2 (0, 0)
# Won: Ann Calypso; Bob Top, rubber, Chicago; Cy Calypso, NaF; Dee rubber, Chicago.
OVERALL = [
    ("Ann", ["5", "1 of 5 (20%)", "19", "4", "3 of 4 (75%)", "1", "0"]),
    ("Bob", ["5", "3 of 5 (60%)", "19", "4", "4 of 4 (100%)", "0", "1"]),
    ("Cy", ["5", "2 of 5 (40%)", "19", "4", "1 of 4 (25%)", "2", "0"]),
    ("Dee", ["3", "2 of 3 (67%)", "12", "2", "2 of 2 (100%)", "0", "0"]),
]


@pytest.mark.parametrize("member, shown", OVERALL)
def test_overall_figures(stats, member, shown):
    figures = stats[member].overall
    assert [f.key for f in figures] == [
        "matches",
        "won",
        "hands",
        "declared",
        "made",
        "doubled",
        "redoubled",
    ]
    assert [f.shown for f in figures] == shown


# (member, game, key, shown, match named)
PER_GAME = [
    # Top Game: Bob 18 points over 4 hands = 4.5; the zero-sum margin is his total.
    ("Bob", "top-game", "average", "+4.5", None),
    ("Bob", "top-game", "best", "+18", "top-game"),
    ("Cy", "top-game", "average", "-4.5", None),
    ("Cy", "top-game", "misinformed", "1", None),
    ("Cy", "top-game", "raise_penalty", "1", None),
    ("Ann", "top-game", "made", "0 of 1 (0%)", None),
    ("Ann", "top-game", "doubled", "1", None),
    # Rubber: We − They = −710, rounded to −700 as the settlement does.
    ("Ann", "rubber", "worst", "-700", "rubber"),
    ("Bob", "rubber", "best", "+700", "rubber"),
    ("Bob", "rubber", "rubber_won", "1", None),
    ("Dee", "rubber", "rubber_won", "1", None),
    ("Ann", "rubber", "average", "+34.3", None),  # 240 / 7 = 34.29
    # Calypso: Annie's calypso counts as Ann's; Bob completed two.
    ("Ann", "calypso", "calypsos", "1", None),
    ("Bob", "calypso", "calypsos", "2", None),
    ("Ann", "calypso", "best", "+120", "calypso"),  # 2110 − 1990
    ("Ann", "calypso", "average", "+2110", None),  # one game of 2110
    # Chicago, no stake: played and won count all the same.
    ("Dee", "chicago", "won", "1 of 1 (100%)", None),
    ("Cy", "chicago", "made", "0 of 1 (0%)", None),
    # Need a Fourth?: the pairwise margin, Ann −1450 − 1500 = −2950; Bob +1400.
    ("Ann", "need-a-fourth", "lied", "1", None),
    ("Ann", "need-a-fourth", "worst", "-2950", "need-a-fourth"),
    ("Ann", "need-a-fourth", "average", "-116.7", None),  # −350 / 3
    ("Bob", "need-a-fourth", "set_alone", "1", None),  # alone, he beat Cy's 2♠X
    ("Bob", "need-a-fourth", "redoubled", "1", None),
    ("Bob", "need-a-fourth", "best", "+1400", "need-a-fourth"),
    ("Cy", "need-a-fourth", "declared", "1", None),
]


@pytest.mark.parametrize("member, game, key, shown, named", PER_GAME)
def test_per_game_figures(stats, member, game, key, shown, named):
    figure = stats[member].figure(key, game)
    assert (figure.shown, figure.match) == (shown, named)


def test_each_game_lists_only_its_own_telling_counts(stats):
    assert [f.key for f in stats["Cy"].games["top-game"]][-2:] == ["misinformed", "raise_penalty"]
    assert [f.key for f in stats["Dee"].games["calypso"]][-1] == "worst"  # Dan made none
    assert sorted(stats["Dee"].games) == ["calypso", "chicago", "rubber"]


def test_every_figure_says_what_it_counts(stats):
    lie = stats["Ann"].figure("lied", "need-a-fourth")
    assert (lie.label, lie.says) == (
        "Lies caught",
        "Need a Fourth? hands where this player was found to have lied",
    )
    made = stats["Ann"].figure("made")
    assert (made.label, made.says) == ("Made", "contracts made of those this player declared")


# Fixed partners (rubber, Calypso, Chicago: seats 1 & 3 against 2 & 4), then Need a
# Fourth?'s partners of a hand (Chooser and Partner).
PARTNERS = [
    ("Ann", ["Cy: 3 matches as partners, 1 won", "Cy: 1 hand as Chooser and Partner, 0 made"]),
    ("Bob", ["Dee: 3 matches as partners, 2 won", "Cy: 1 hand as Chooser and Partner, 1 made"]),
    (
        "Cy",
        [
            "Ann: 3 matches as partners, 1 won",
            "Ann: 1 hand as Chooser and Partner, 0 made",
            "Bob: 1 hand as Chooser and Partner, 1 made",
        ],
    ),
    ("Dee", ["Bob: 3 matches as partners, 2 won"]),
]


@pytest.mark.parametrize("member, records", PARTNERS)
def test_partner_records(stats, member, records):
    assert [f"{r.partner}: {r.says}" for r in stats[member].partners] == records


def test_a_period_leaves_matches_out_of_the_statistics():
    # November: Top Game, rubber and Calypso only (NaF in October, Chicago undated).
    found = statistics(select(summaries(), same=SAME, period=NOVEMBER))
    assert [(m, s.figure("matches").shown, s.figure("hands").shown) for m, s in found.items()] == [
        ("Ann", "3", "12"),
        ("Bob", "3", "12"),
        ("Cy", "3", "12"),
        ("Dee", "2", "8"),
    ]
    assert statistics(select(summaries(), period=Period(end=NOVEMBER.start))).keys() == {
        "Ann",
        "Bob",
        "Cy",
    }


def test_pegged_out_first_counts_the_winner_of_a_bridge_for_three_game():
    # examples/bridge-for-three.json: Cy reaches hole 11 and wins.
    path = Path(__file__).resolve().parent.parent / "examples" / "bridge-for-three.json"
    summary = match_summary(loads(path.read_text(encoding="utf-8")), key="b43")
    found = statistics([summary])
    assert found["Cy"].figure("pegged_out", "bridge-for-three").shown == "1"
    assert [f.key for f in found["Ann"].games["bridge-for-three"]][-1] == "worst"


def test_the_end_marker_is_no_hand():
    # The Top Game's first two hands (Bob's 4♦ made, a passed-out hand), then stopped.
    doc = {**TOP_GAME, "hands": [*TOP_GAME["hands"][:2], {"end": True}]}
    found = statistics([match_summary(from_document(doc), key="short")])
    assert [(m, s.figure("hands").shown, s.figure("declared").shown) for m, s in found.items()] == [
        ("Ann", "2", "0"),
        ("Bob", "2", "1"),
        ("Cy", "2", "0"),
    ]


# docs/match-file.md's Mini Bridge for three, "Three of us to 500":
#  1 Cy 15 HCP declares GAME in NT, 9 tricks: made, 3 × 40 + 300 = 420
#  2 Bob 12 + dummy 8 = 20, under 21: scrapped by Bob, not counted
#  3 Bob 14 declares 1♠ without GAME, 6 tricks: down 1, Ann and Cy 50 each
#  4 Ann 16 declares GAME in ♥, 11 tricks: 5 × 30 + 300 = 450; Ann 500 reaches the target
MINI_THREE = {
    "format": "scorekeeper-match/1",
    "variant": "mini-bridge-3",
    "players": ["Ann", "Bob", "Cy"],
    "options": {"target": 500},
    "hands": [
        {"hcp": {"Ann": 7, "Bob": 7, "Cy": 15}, "game": True, "strain": "NT", "tricks": 9},
        {"hcp": {"Ann": 9, "Bob": 12, "Cy": 11}, "scrapped": True},
        {"hcp": {"Ann": 10, "Bob": 14, "Cy": 9}, "game": False, "strain": "S", "tricks": 6},
        {"hcp": {"Ann": 16, "Bob": 5, "Cy": 8}, "game": True, "strain": "H", "tricks": 11},
    ],
}


def test_mini_bridge_for_three_counts_scrapped_deals_and_game_made():
    found = statistics([match_summary(from_document(MINI_THREE), key="mini")])
    game = "mini-bridge-3"
    assert {m: [(f.key, f.shown) for f in s.games[game][2:5]] for m, s in found.items()} == {
        "Ann": [("hands", "3"), ("declared", "1"), ("made", "1 of 1 (100%)")],
        "Bob": [("hands", "3"), ("declared", "1"), ("made", "0 of 1 (0%)")],
        "Cy": [("hands", "3"), ("declared", "1"), ("made", "1 of 1 (100%)")],
    }
    assert [(f.key, f.shown) for f in found["Bob"].games[game][10:]] == [("scrapped", "1")]
    assert [(f.key, f.shown) for f in found["Ann"].games[game][10:]] == [("game_made", "1")]
    assert found["Ann"].figure("won").shown == "1 of 1 (100%)"


def flipped(details):
    """A hand's details the other way round: a dict of facts as an object, a typed
    dataclass as a dict of its fields (None stays None)."""
    if isinstance(details, Mapping):
        return SimpleNamespace(**details)
    if details is None:
        return None
    return {f.name: getattr(details, f.name) for f in fields(details)}


@pytest.mark.parametrize("doc", [TOP_GAME, NEED_A_FOURTH, CALYPSO, RUBBER, CHICAGO, MINI_THREE])
def test_details_read_the_same_as_a_dict_or_as_an_object(doc):
    """The games' rules are turning each hand's `details` from a dict into a typed
    dataclass: the accessors read a fact by key or by attribute alike."""
    match = from_document(doc)
    outcome = replay_match(match)
    as_given = tally_match(match.variant, match.players, match.hands, outcome)
    for result in outcome.hands:
        result.details = flipped(result.details)
    assert tally_match(match.variant, match.players, match.hands, outcome) == as_given


def test_a_share_of_nothing_is_shown_without_a_percentage():

    assert Figure("made", "Made", 0, "contracts made", of=0).shown == "0 of 0"
    assert Figure("made", "Made", 2, "contracts made", of=3).shown == "2 of 3 (67%)"


@pytest.mark.parametrize(
    "key, value, shown",
    [
        ("average", Decimal("12.5"), "+12.5"),
        ("average", Decimal("-4"), "-4"),  # the page turns "-" into "−" as everywhere
        ("best", 0, "0"),  # nothing is not "+0"
        ("worst", Decimal("0.0"), "0"),
        ("declared", 3, "3"),
        ("made", None, "–"),
    ],
)
def test_a_figure_is_written_as_on_paper(key, value, shown):
    assert Figure(key, "label", value, "says").shown == shown
