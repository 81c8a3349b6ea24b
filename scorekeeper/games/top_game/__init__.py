"""Top Game: three or four players, each for themselves (docs/variants/top-game.md)."""

from __future__ import annotations

from typing import Any

from ...words import hand_words
from ..common import HandResult, _is_int
from ..kit import GameKit, Variant
from ..settlement import ZERO_SUM
from . import sheet, stats
from .rules import TopGame


def row_words(record: dict[str, Any], result: HandResult | None) -> str:
    """A hand scored for not raising says so: "2♥ by Cy, made, but not raising"
    (its −6 stands whatever the play, so "made" alone reads like a mistake)."""
    words = hand_words(record, result)
    tops, bid = record.get("declarer_tops"), record.get("bid")
    if _is_int(tops) and _is_int(bid) and tops > bid and isinstance(record.get("contract"), str):
        if words.endswith(", made"):
            words += ", but not raising"
        elif ", down " in words:
            words += ", and not raising"
    return words


GAME = GameKit(
    family="top_game",
    variants=(Variant(TopGame, "TopGameEntry", ZERO_SUM, partners="none"),),
    sheet=sheet.build,
    stats=stats.STATS,
    row_words=row_words,
)
