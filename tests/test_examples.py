"""Every examples/*.json scores, with its results pinned; README.md names every variant
and command.

The variants are the catalog's; each example's pinned numbers are in its game's
own test file (EXAMPLE_RESULTS in tests/test_<family>.py, tests/games.py), read once
from the scorer and checked by hand against docs/variants/*.md; the comments
there give the arithmetic.
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
from tests.games import VARIANT_IDS, pinned

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def example_text(variant: str) -> str:
    return (EXAMPLES / f"{variant}.json").read_text(encoding="utf-8")


def scored(variant: str) -> dict:
    return score_document(loads(example_text(variant)))


def test_every_variant_has_an_example():
    found = sorted(path.stem for path in EXAMPLES.glob("*.json"))
    assert found == sorted(VARIANTS) == sorted(VARIANT_IDS)


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_example_scores_to_the_pinned_result(variant):
    example = pinned(variant, "EXAMPLE_RESULTS")
    entries, totals = example.entries, example.totals
    winners, settlement = example.winners, example.settlement
    doc = scored(variant)
    assert doc["variant"] == variant
    assert len(doc["hands"]) == entries
    assert [hand["number"] for hand in doc["hands"]] == list(range(1, entries + 1))
    assert doc["totals"] == totals
    assert doc["finished"] is True
    assert doc["winners"] == winners
    assert doc["settlement"] == settlement


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_example_hand_scores_add_up_to_the_totals(variant):
    # In bridge-for-three the totals are pegs and each hand's scores are the peg
    # moves (floor overflow included), so the same sum holds there too.
    doc = scored(variant)
    for player in doc["players"]:
        assert sum(hand["scores"][player] for hand in doc["hands"]) == doc["totals"][player]


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_example_every_hand_scores_every_player_in_whole_numbers(variant):
    doc = scored(variant)
    for hand in doc["hands"]:
        assert list(hand["scores"]) == doc["players"]
        assert all(type(points) is int for points in hand["scores"].values())
        assert hand["explanation"]


@pytest.mark.parametrize("variant", VARIANT_IDS)
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
