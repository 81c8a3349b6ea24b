"""The games the shared suites run over: every variant of the catalog
(scorekeeper/games/catalog.py), and what each game's own test file pins for
them, so a new game is tested by the shared suites without editing them.

Each game's own test file, tests/test_<family>.py, pins what only the game can
say, as two tables keyed by variant id that the shared suites read:

    KIT              variant id -> Kit(family, stake_per, partners): what its kit must say
    EXAMPLE_RESULTS  variant id -> Example(...): what examples/<id>.json scores to

A variant without its row there fails the shared suites with a line saying
where to add it."""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from scorekeeper.games.catalog import GAMES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES_FOLDER = ROOT / "examples"

# Every variant id in the catalog's order, and the family it belongs to.
VARIANT_IDS: list[str] = [variant.id for game in GAMES for variant in game.variants]
FAMILY_OF: dict[str, str] = {variant.id: game.family for game in GAMES for variant in game.variants}
FAMILIES: list[str] = [game.family for game in GAMES]


@dataclass(frozen=True)
class Kit:
    """What a variant's kit says, pinned by the game's own tests."""

    family: str
    stake_per: int
    partners: str


@dataclass(frozen=True)
class Example:
    """What examples/<id>.json scores to: its entries, totals, winners and
    settlement (`scorekeeper score`), its running-score chart (title, the
    legend's names, the last points of each line) and its count of hands."""

    entries: int
    totals: dict[str, int]
    winners: list[str]
    settlement: list[dict[str, str]]
    chart: tuple[str, list[str], list[str]]
    # Hands as the rules count them: a redeal (Top Game, Mini Bridge, Chicago) and
    # Honeymoon's end marker are entries of the file, not hands.
    hands: int


def pay(payer: str, payee: str, amount: str) -> dict[str, str]:
    return {"from": payer, "to": payee, "amount": amount}


def own_tests(family: str) -> ModuleType:
    """The game's own test file, tests/test_<family>.py."""
    return importlib.import_module(f"tests.test_{family}")


def pinned(variant_id: str, table: str) -> Any:
    """The row of `table` (KIT or EXAMPLE_RESULTS) the game's own test file pins for the variant."""
    family = FAMILY_OF[variant_id]
    rows = getattr(own_tests(family), table, {})
    if variant_id not in rows:
        pytest.fail(
            f"{variant_id}: tests/test_{family}.py pins no {table} row for it (tests/games.py)"
        )
    return rows[variant_id]


def example_document(variant_id: str) -> dict[str, Any]:
    """examples/<id>.json, the game's realistic evening."""
    return json.loads((EXAMPLES_FOLDER / f"{variant_id}.json").read_text(encoding="utf-8"))
