"""Top Game: three or four players, each for themselves (docs/variants/top-game.md)."""

from ..kit import GameKit, Variant
from ..settlement import ZERO_SUM
from . import sheet
from .entry import TopGameEntry
from .rules import TopGame

GAME = GameKit(
    family="top_game",
    variants=(Variant(TopGame, TopGameEntry, ZERO_SUM),),
    sheet=sheet.build,
)
