"""Rubber bridge, Honeymoon bridge and Chicago: one We/They score pad
(docs/variants/rubber.md, honeymoon.md, chicago.md)."""

from ...speech import _
from ..kit import GameKit, Variant
from ..settlement import ROUNDED_PARTNERSHIP
from . import sheet, stats
from .rules import Chicago, Honeymoon, Rubber

# A stake at rubber bridge is quoted per 100 points.
GAME = GameKit(
    family="rubber",
    # Honeymoon is two players, each for themselves; the others two fixed partnerships.
    variants=tuple(
        Variant(rules, "RubberEntry", ROUNDED_PARTNERSHIP, stake_per=100, partners=partners)
        for rules, partners in ((Rubber, "fixed"), (Honeymoon, "none"), (Chicago, "fixed"))
    ),
    sheet=sheet.build,
    stats=stats.STATS,
    # What a player calls their standing: every point, above and below the line.
    chart_title=_("Points per side (above and below the line)"),
    sides=sheet.chart_sides,
)
