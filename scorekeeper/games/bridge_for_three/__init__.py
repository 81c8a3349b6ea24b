"""Bridge for Three: pegs on a board, settled per game won (docs/variants/bridge-for-three.md)."""

from ...speech import _
from ..kit import GameKit, Variant
from ..settlement import PEGGING
from . import sheet, stats
from .rules import BridgeForThree

GAME = GameKit(
    family="bridge_for_three",
    variants=(Variant(BridgeForThree, "BridgeForThreeEntry", PEGGING, partners="none"),),
    sheet=sheet.build,
    stats=stats.STATS,
    # Each hand's points are peg moves: the running total is where each peg stands.
    chart_title=_("Pegs"),
    chart_unit=_("Pegs"),
)
