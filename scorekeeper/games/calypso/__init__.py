"""Calypso: four trump suits, games of tallies won by a side (docs/variants/calypso.md)."""

from __future__ import annotations

from typing import Any

from ...speech import _
from ...words import hand_words
from ..common import Details, HandResult
from ..kit import GameKit, Variant
from ..settlement import PARTNERSHIP
from . import sheet, stats
from .rules import Calypso, CalypsoDetails


def row_words(record: dict[str, Any], result: HandResult | None) -> str:
    """A game of tallies is named by its dealer on the sheet's hand log."""
    if "tallies" in record and result is not None:
        return _("%(dealer)s dealt", dealer=result.dealer)
    return hand_words(record, result)


def log_words(details: Details) -> tuple[str, str] | None:
    """The hand log's result of a game of tallies: the side that won it."""
    if isinstance(details, CalypsoDetails) and details.winning_side:
        return "", _("won by %(side)s", side=" & ".join(details.winning_side))
    return None


GAME = GameKit(
    family="calypso",
    noun="Game",
    variants=(Variant(Calypso, "CalypsoEntry", PARTNERSHIP, partners="fixed"),),
    sheet=sheet.build,
    stats=stats.STATS,
    row_words=row_words,
    log_words=log_words,
    chart_title=_("Points per side"),
    sides=sheet.chart_sides,
)
