"""Top Game: three or four players, each for themselves (docs/variants/top-game.md)."""

from __future__ import annotations

from typing import Any

from ...speech import _
from ...words import hand_words, signed
from ..common import HandResult
from ..kit import GameKit, Variant
from ..settlement import ZERO_SUM
from . import sheet, stats
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
        return _("%(words)s, but not raising", words=words)
    if ", down " in words:
        return _("%(words)s, and not raising", words=words)
    if details.contract == "passed":
        declarer = details.declarer
        return _(
            "%(words)s; %(declarer)s did not raise: %(score)s, each opponent %(each)s",
            words=words,
            declarer=declarer,
            score=signed(result.scores[declarer]),
            each=signed(-RAISE_PENALTY),
        )
    return words


GAME = GameKit(
    family="top_game",
    variants=(Variant(TopGame, "TopGameEntry", ZERO_SUM, partners="none"),),
    sheet=sheet.build,
    stats=stats.STATS,
    row_words=row_words,
)
