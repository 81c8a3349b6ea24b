"""The games the shared suites run over: every variant of the catalog
(scorekeeper/games/catalog.py), and what each game's own test file pins for
them, so a new game is tested by the shared suites without editing them.

Each game's own test file, tests/test_<family>.py, pins what only the game can
say, as tables keyed by variant id that the shared suites read:

    KIT              variant id -> Kit(family, stake_per, partners): what its kit must say
    EXAMPLE_RESULTS  variant id -> Example(...): what examples/<id>.json scores to
    PRINTED          variant id -> Printed(...): what the PDF of that example shows
    HAND_FORMS       variant id -> HandForm(...): a good hand for its form, and what
                     the form says of each input missing or typed wrong (test_hostile.py)
    GENERATED        variant id -> Generated(...): how to draw a legal match of it
                     (test_properties.py, hypothesis)
    SCORE_LINE       variant id -> the running score the next hand's form shows
                     after its example (test_score_line.py)
    NUMBERED         variant id -> (each entry's label on the match page, the count
                     on the home page) for its example (test_hand_numbers.py)

The rest the shared suites ask of the game's kit (scorekeeper/games/catalog.py):
its players (`seated`), its options, the noun of one of its hands.

A variant without its row there fails the shared suites with a line saying
where to add it."""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from hypothesis import strategies as st

from scorekeeper.games.catalog import GAMES, VARIANTS, game_for
from scorekeeper.games.common import STRAINS

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


@dataclass(frozen=True)
class Printed:
    """What the PDF of examples/<id>.json shows: its players, the appendix line of
    every hand ("number dealer score…", ↻ for a redeal, "end" for the end marker),
    the totals and the payments."""

    players: list[str]
    hands: list[str]
    totals: str
    payments: list[str]


# What a hand-form input takes, for the generated junk of test_hostile.py: a
# (low, high) range of whole numbers, a set of choices, or one of these two.
PLAYER = "a player"
TEXT = "free text the rules judge"


@dataclass(frozen=True)
class HandForm:
    """A variant's hand form as the hostile-input suite (tests/test_hostile.py)
    sends it, with the players `seated` gives."""

    # A first hand the form takes as it is; every other case spoils one input.
    good: dict[str, str]
    # (input, where its refusal shows): every whole number the form reads.
    numbers: list[tuple[str, str]]
    # (input left out, the one refusal shown; None: the input is optional).
    without: list[tuple[str, str | None]]
    # Inputs the good hand leaves out (generated junk goes there too).
    more: tuple[str, ...] = ()
    # What each input takes, beyond the contract inputs every game shares
    # (test_hostile.py's CONTRACT_INPUTS).
    inputs: dict[str, Any] = field(default_factory=dict)
    # Where a refusal of an input is shown, when not under its own name.
    places: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Where else, when a value in range is refused with the rest (HCP that do not
    # add up to 40, tallies that do not count 208 cards).
    wholes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    # Input names left out of the form are optional when the rules check later.
    optional_numbers: frozenset[str] = frozenset()

    @property
    def fields(self) -> list[str]:
        return [*self.good, *self.more]


@dataclass(frozen=True)
class Generated:
    """How tests/test_properties.py draws a legal match of a variant."""

    # (draw, players, the replay's upcoming hand) -> a legal next hand record.
    hand: Callable[..., dict[str, Any]]
    # A hypothesis strategy of the variant's options.
    options: Any
    # Hand fields whose absence is fine; every other field, once present, is needed.
    optional: frozenset[str]
    # A hand record's whole numbers: (path in the record, lowest, highest).
    numbers: Callable[[dict[str, Any]], list[tuple[tuple[str, ...], int, int]]]


# Names for the players of a generated table, in seating order.
NAMES = ("Ann", "Bob", "Cy", "Dee", "Eve")


def seated(variant_id: str) -> tuple[str, ...]:
    """The fewest players the variant is played by, named in seating order."""
    return NAMES[: min(VARIANTS[variant_id].player_counts)]


def noun(variant_id: str) -> str:
    """What one entry of the match is called at the table ("Hand", "Game")."""
    return game_for(variant_id).noun


def numbered(*labels: str | range) -> list[str]:
    """Hand labels as a match page lists them: numbers, ranges of them, marks."""
    return [str(n) for part in labels for n in (part if isinstance(part, range) else [part])]


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


# --- drawing legal hands (Generated.hand) ------------------------------------


def bid_name(rank: int) -> str:
    """0 -> 1C, 4 -> 1NT, 34 -> 7NT."""
    return f"{rank // 5 + 1}{STRAINS[rank % 5]}"


def split(draw, total: int, parts: int, most: int) -> list[int]:
    """`total` cut into `parts` whole numbers, each at most `most`."""
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=parts - 1, max_size=parts - 1)))
    values = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    for i, value in enumerate(values):
        if value > most:  # only one part can be too big; give the excess to the next
            values[i] = most
            values[(i + 1) % parts] += value - most
    return values


def tricks_for(draw, needed: int) -> int:
    """Any number of tricks, but made contracts often enough to move the game on."""
    return draw(st.one_of(st.integers(0, 13), st.integers(min(needed, 13), 13)))
