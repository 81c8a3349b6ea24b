"""Mini Bridge, for four (partners) or three (docs/variants/mini-bridge.md, mini-bridge-3.md)."""

from __future__ import annotations

from ...speech import _
from ..common import Details
from ..kit import GameKit, Variant
from ..settlement import PAIRWISE, PARTNERSHIP
from . import sheet, stats
from .rules import MiniBridge, MiniBridgePlayed, MiniBridgeThree


def log_words(details: Details) -> tuple[str, str] | None:
    """The hand log's contract and result: GAME or not in a strain, made or down."""
    if not isinstance(details, MiniBridgePlayed):
        return None
    if details.game:
        contract = _("GAME in %(strain)s", strain=details.strain)
    else:
        contract = _("no GAME in %(strain)s", strain=details.strain)
    if details.made:
        over = details.tricks - details.needed
        return contract, _("made") if over <= 0 else _("made +%(over)d", over=over)
    return contract, _("down %(down)d", down=details.undertricks)


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
