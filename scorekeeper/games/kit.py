"""What a game family is made of, declared once in its package's `__init__.py`.

    scorekeeper/games/<family>/rules.py    the rules (Game subclasses, pure)
    scorekeeper/games/<family>/entry.py    the hand form (HandEntry subclasses, WTForms)
    scorekeeper/games/<family>/sheet.py    `build(match, outcome)`, the score sheet
    templates/games/<family>/hand.html, sheet.html, rules_<stem>.html
    static/games/<family>/                  its script and styles

The package names its pieces in one `GameKit`; shared code asks the kit (its
settlement strategy, its stake basis, its hand-log words) instead of branching
on the game's id. scorekeeper/games/catalog.py lists the kits.

The kit names each variant's hand entry by its class name in the family's
entry.py instead of importing it: the rules, the sheet and the kit stay below
WTForms, and scorekeeper/registry.py (the views' layer) attaches the entries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..sheets import hand_rows
from ..words import hand_words
from .common import Details, Game, HandResult, Outcome
from .settlement import Settlement

if TYPE_CHECKING:  # only for type hints: the match file module sits above the games
    from ..matchfile import Match


def stem(variant_id: str) -> str:
    """A variant id as a file name: top-game -> top_game."""
    return variant_id.replace("-", "_")


@dataclass(frozen=True)
class Variant:
    """One rule set of a family (rubber, Honeymoon and Chicago are one family)."""

    rules: type[Game]
    # The name of its HandEntry class in scorekeeper/games/<family>/entry.py.
    entry: str
    settlement: Settlement
    # The points a stake is usually quoted per; New match fills it in.
    stake_per: int = 1

    @property
    def id(self) -> str:
        return self.rules.id


@dataclass(frozen=True)
class GameKit:
    """A game family's pieces. `family` is its package's name and its folders'."""

    family: str
    variants: tuple[Variant, ...]
    sheet: Callable[[Match, Outcome], dict[str, Any]]
    # What a hand was, in a few words, on the sheets' hand log.
    row_words: Callable[[dict[str, Any], HandResult | None], str] = hand_words
    # The hand log's (contract, result) columns for a hand the game words its own
    # way (Mini Bridge's GAME or not, Calypso's winning side); None: the usual words.
    log_words: Callable[[Details], tuple[str, str] | None] | None = None

    @property
    def entry_module(self) -> str:
        """The module holding the family's hand entry (registry.py imports it)."""
        return f"{__package__}.{self.family}.entry"

    @property
    def hand_template(self) -> str:
        return f"games/{self.family}/hand.html"

    @property
    def sheet_template(self) -> str:
        return f"games/{self.family}/sheet.html"

    def rules_template(self, variant_id: str) -> str:
        return f"games/{self.family}/rules_{stem(variant_id)}.html"

    def build_sheet(self, match: Match, outcome: Outcome) -> dict[str, Any]:
        """The sheet: the rows all sheets share and what this game's `sheet` adds."""
        return {
            "template": self.sheet_template,
            "players": list(match.players),
            "rows": hand_rows(match, outcome, self.row_words),
            "totals": [outcome.totals[p] for p in match.players],
            **self.sheet(match, outcome),
        }
