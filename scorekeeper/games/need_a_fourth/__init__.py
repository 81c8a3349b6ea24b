"""Need a Fourth?: three players and a dummy (docs/variants/need-a-fourth.md)."""

from ..kit import GameKit, Variant
from ..settlement import PAIRWISE
from . import sheet, stats
from .rules import NeedAFourth

GAME = GameKit(
    family="need_a_fourth",
    variants=(Variant(NeedAFourth, "NeedAFourthEntry", PAIRWISE, partners="by hand"),),
    sheet=sheet.build,
    stats=stats.STATS,
)
