"""Need a Fourth?: three players and a dummy (docs/variants/need-a-fourth.md)."""

from ..kit import GameKit, Variant
from ..settlement import PAIRWISE
from . import sheet
from .rules import NeedAFourth

GAME = GameKit(
    family="need_a_fourth",
    variants=(Variant(NeedAFourth, "NeedAFourthEntry", PAIRWISE),),
    sheet=sheet.build,
)
