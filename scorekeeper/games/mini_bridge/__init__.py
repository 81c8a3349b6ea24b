"""Mini Bridge, for four (partners) or three (docs/variants/mini-bridge.md, mini-bridge-3.md)."""

from __future__ import annotations

from ..common import Details
from ..kit import GameKit, Variant
from ..settlement import PAIRWISE, PARTNERSHIP
from . import sheet, stats
from .rules import MiniBridge, MiniBridgePlayed, MiniBridgeThree


def log_words(details: Details) -> tuple[str, str] | None:
    """The hand log's contract and result: GAME or not in a strain, made or down."""
    if not isinstance(details, MiniBridgePlayed):
        return None
    contract = f"{'GAME' if details.game else 'no GAME'} in {details.strain}"
    if details.made:
        over = details.tricks - details.needed
        return contract, "made" if over <= 0 else f"made +{over}"
    return contract, f"down {details.undertricks}"


GAME = GameKit(
    family="mini_bridge",
    variants=(
        Variant(MiniBridge, "MiniBridgeEntry", PARTNERSHIP, partners="fixed"),
        Variant(MiniBridgeThree, "MiniBridgeThreeEntry", PAIRWISE, partners="none"),
    ),
    sheet=sheet.build,
    stats=stats.STATS,
    log_words=log_words,
    sides=sheet.chart_sides,
)
