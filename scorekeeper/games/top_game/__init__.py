"""Top Game: three or four players, each for themselves (docs/variants/top-game.md)."""

from __future__ import annotations

from typing import Any

from ...words import hand_words, signed
from ..common import HandResult
from ..kit import GameKit, Variant
from ..settlement import ZERO_SUM
from . import sheet
from .rules import RAISE_PENALTY, TopGame, TopGamePlayed


def row_words(record: dict[str, Any], result: HandResult | None) -> str:
    """A hand scored for not raising says so: "2♥ by Cy, made, but not raising"
    (its −6 stands whatever the play, so "made" alone reads like a mistake), and
    a hand its playnumber passed out names the declarer's score too: nothing else
    on that line says why a passed-out hand scored."""
    words = hand_words(record, result)
    details = result.details if result else None
    if not isinstance(details, TopGamePlayed) or not details.raise_penalty:
        return words
    if words.endswith(", made"):
        words += ", but not raising"
    elif ", down " in words:
        words += ", and not raising"
    elif details.contract == "passed":
        declarer = details.declarer
        words += (
            f"; {declarer} did not raise: {signed(result.scores[declarer])},"
            f" each opponent {signed(-RAISE_PENALTY)}"
        )
    return words


GAME = GameKit(
    family="top_game",
    variants=(Variant(TopGame, "TopGameEntry", ZERO_SUM),),
    sheet=sheet.build,
    row_words=row_words,
)
