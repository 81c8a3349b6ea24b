"""What a game tells the statistics (pure Python): the facts of one hand, read
by the game itself, and the counts of its own that the statistics show.

Each family's stats.py reads its hands into `HandFacts` and names its telling
counts in a `GameStats`, which its kit carries (games/kit.py); scorekeeper/stats.py
adds the facts up without knowing any game. `get` reads a hand's `details`, a
dict of facts or the typed dataclass of the game's rules, alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .common import Contract, HandResult, Outcome, parse_contract

# How partners come about in a variant, for its partner records:
# "fixed": seats 1 & 3 against 2 & 4 for the whole match (a record counts matches);
# "by hand": the game picks partners hand by hand (HandFacts.partner; a record counts hands);
# "none": everyone for themselves.
PARTNER_KINDS = ("fixed", "by hand", "none")


@dataclass(frozen=True)
class HandFacts:
    """What the statistics read from one replayed hand."""

    at_table: tuple[str, ...]  # the players dealt in (Bridge for Three: not those sitting out)
    played: bool = True  # False: not counted (a redeal, a scrapped deal, wrong dummy information)
    declarer: str | None = None  # whose contract it was (Need a Fourth?: the Chooser's)
    contract: Contract | None = None  # None where the game has no bid contract (Mini Bridge)
    made: bool | None = None  # None when nobody declared
    partner: str | None = None  # the declarer's partner, where partners change hand by hand
    counts: tuple[tuple[str, str], ...] = ()  # (player, telling count) to add one to


# A hand's facts from the players, the hand as entered and its replayed result.
ReadHand = Callable[[list[str], dict, HandResult], HandFacts]


@dataclass(frozen=True)
class GameStats:
    """A game's part of the statistics: how to read a hand, its own telling
    counts (key -> (label, what it counts)), and what a finished match counts
    besides its hands ((player, key) pairs; Bridge for Three's pegging out)."""

    read_hand: ReadHand
    telling: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    finished: Callable[[Outcome], tuple[tuple[str, str], ...]] | None = None


def get(details: Any, name: str) -> Any:
    """One fact of a hand's `details`, a dict of facts or a typed dataclass of the
    game's rules (None when that kind of hand has no such fact)."""
    if isinstance(details, Mapping):
        return details.get(name)
    return getattr(details, name, None)


def contract_of(text: Any) -> Contract | None:
    return parse_contract(text, max_level=None) if isinstance(text, str) else None


def made(contract: Contract | None, tricks: Any) -> bool | None:
    if contract is None or not isinstance(tricks, int):
        return None
    return tricks >= contract.needed
