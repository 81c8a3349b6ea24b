"""Every examples/*.json scores, with its results pinned; README.md names every variant
and command.

The pinned numbers were read once from the scorer and checked by hand against
docs/variants/*.md; the comments give the arithmetic.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from scorekeeper.cli import build_parser
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.matchfile import dumps, loads
from scorekeeper.report import score_document

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def pay(payer: str, payee: str, amount: str) -> dict[str, str]:
    return {"from": payer, "to": payee, "amount": amount}


# variant -> (entries in hands, totals, winners, settlement)
PINNED = {
    # Ann −5 −4 −7 0 +6 −4 −4 0 −10 +12 +4 +8 0 = −4; zero-sum, 0.50 a point:
    # Ann −2.00, Bob −0.50, Cy +2.50.
    "top-game": (
        13,
        {"Ann": -4, "Bob": -1, "Cy": 5},
        ["Cy"],
        [pay("Ann", "Cy", "2.00"), pay("Bob", "Cy", "0.50")],
    ),
    # Pairwise at 0.10 per 10: Maren (2800−750)+(2800−2400) = 2450 → 24.50,
    # Ilse 1650−400 = 1250 → 12.50, Tobias −3700 → −37.00.
    "need-a-fourth": (
        9,
        {"Maren": 2800, "Tobias": 750, "Ilse": 2400},
        ["Maren"],
        [pay("Tobias", "Ilse", "12.50"), pay("Tobias", "Maren", "24.50")],
    ),
    # Bob set at the floor pushes the others on 2; Cy 8 + 4 stops at 11 and wins;
    # each of the three others pays the 0.50 stake.
    "bridge-for-three": (
        11,
        {"Ann": 10, "Bob": -5, "Cy": 11, "Dan": 4},
        ["Cy"],
        [pay("Ann", "Cy", "0.50"), pay("Bob", "Cy", "0.50"), pay("Dan", "Cy", "0.50")],
    ),
    # Ann & Cy 80 + 50 + 120 + 420 = 670, Bob & Dee 450 + 460 + 100 + 20 = 1030;
    # 360 × 0.10 / 10 = 3.60 from each of Ann and Cy.
    "mini-bridge": (
        9,
        {"Ann": 670, "Bob": 1030, "Cy": 670, "Dee": 1030},
        ["Bob", "Dee"],
        [pay("Ann", "Bob", "3.60"), pay("Cy", "Dee", "3.60")],
    ),
    # Pairwise at 0.01 a point: Ann −490 + 60 = −430, Cy −60 − 550 = −610, Bob +1040.
    "mini-bridge-3": (
        10,
        {"Ann": 640, "Bob": 1130, "Cy": 580},
        ["Bob"],
        [pay("Ann", "Bob", "4.30"), pay("Cy", "Bob", "6.10")],
    ),
    # Rubber 1: We 1930 − They 380 = +1550 → +1600; rubber 2: 0 − 1750 → −1800;
    # −200 × 0.50 / 100 = 1.00 from each of Margaret and Helen.
    "rubber": (
        12,
        {"Margaret": 1930, "Tom": 2130, "Helen": 1930, "Richard": 2130},
        ["Tom", "Richard"],
        [pay("Helen", "Richard", "1.00"), pay("Margaret", "Tom", "1.00")],
    ),
    # Rubber 1: 2070 − 380 = +1690 → +1700; unfinished rubber 2 (Sam part score
    # 100, Alex one game 300): 190 − 400 = −210 → −200; 1500 × 0.20 / 100 = 3.00.
    "honeymoon": (
        10,
        {"Sam": 2260, "Alex": 780},
        ["Sam"],
        [pay("Alex", "Sam", "3.00")],
    ),
    # Round 1: We 160 − They 1310 = −1150 → −1200; round 2: 1570 − 190 = +1380 → +1400;
    # +200 × 0.10 / 100 = 0.20 to each of Ann and Cy.
    "chicago": (
        9,
        {"Ann": 1730, "Bob": 1500, "Cy": 1730, "Dee": 1500},
        ["Ann", "Cy"],
        [pay("Bob", "Ann", "0.20"), pay("Dee", "Cy", "0.20")],
    ),
    # Ann & Cy 2110 + 2190 = 4300, Bob & Dan 1990 + 3330 = 5320; 1020 × 0.10 / 100.
    "calypso": (
        2,
        {"Ann": 4300, "Bob": 5320, "Cy": 4300, "Dan": 5320},
        ["Bob", "Dan"],
        [pay("Ann", "Bob", "1.02"), pay("Cy", "Dan", "1.02")],
    ),
}


def example_text(variant: str) -> str:
    return (EXAMPLES / f"{variant}.json").read_text(encoding="utf-8")


def scored(variant: str) -> dict:
    return score_document(loads(example_text(variant)))


def test_every_variant_has_an_example_and_every_example_is_pinned():
    found = sorted(path.stem for path in EXAMPLES.glob("*.json"))
    assert found == sorted(VARIANTS)
    assert sorted(PINNED) == sorted(VARIANTS)


@pytest.mark.parametrize("variant", list(PINNED))
def test_example_scores_to_the_pinned_result(variant):
    entries, totals, winners, settlement = PINNED[variant]
    doc = scored(variant)
    assert doc["variant"] == variant
    assert len(doc["hands"]) == entries
    assert [hand["number"] for hand in doc["hands"]] == list(range(1, entries + 1))
    assert doc["totals"] == totals
    assert doc["finished"] is True
    assert doc["winners"] == winners
    assert doc["settlement"] == settlement


@pytest.mark.parametrize("variant", list(PINNED))
def test_example_hand_scores_add_up_to_the_totals(variant):
    # In bridge-for-three the totals are pegs and each hand's scores are the peg
    # moves (floor overflow included), so the same sum holds there too.
    doc = scored(variant)
    for player in doc["players"]:
        assert sum(hand["scores"][player] for hand in doc["hands"]) == doc["totals"][player]


@pytest.mark.parametrize("variant", list(PINNED))
def test_example_every_hand_scores_every_player_in_whole_numbers(variant):
    doc = scored(variant)
    for hand in doc["hands"]:
        assert list(hand["scores"]) == doc["players"]
        assert all(type(points) is int for points in hand["scores"].values())
        assert hand["explanation"]


@pytest.mark.parametrize("variant", list(PINNED))
def test_example_round_trips_through_dumps_and_loads(variant):
    text = example_text(variant)
    match = loads(text)
    again = loads(dumps(match))
    assert again == match
    assert dumps(again) == dumps(match)
    # Nothing of the original document is lost; only an empty `options` is left out.
    original = json.loads(text)
    if original.get("options") == {}:
        del original["options"]
    assert json.loads(dumps(match)) == original
    assert score_document(again) == score_document(match)


# --- docs that fail when they drift (sqlite-utils tests/test_docs.py) --------------

README = (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_readme_documents_every_variant(variant):
    assert f"`{variant}`" in README


def subcommands() -> list[str]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return list(action.choices)


def test_parser_has_the_documented_subcommands():
    assert subcommands() == [
        "score",
        "ledger",
        "variants",
        "matches",
        "serve",
        "backup",
        "restore",
        "export",
        "import",
    ]


@pytest.mark.parametrize("command", subcommands())
def test_readme_documents_every_subcommand(command):
    assert f"scorekeeper {command}" in README
