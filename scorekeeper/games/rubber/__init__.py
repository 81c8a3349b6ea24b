"""Rubber bridge, Honeymoon bridge and Chicago: one We/They score pad
(docs/variants/rubber.md, honeymoon.md, chicago.md)."""

from ..kit import GameKit, Variant
from ..settlement import ROUNDED_PARTNERSHIP
from . import sheet
from .rules import Chicago, Honeymoon, Rubber

# A stake at rubber bridge is quoted per 100 points.
GAME = GameKit(
    family="rubber",
    variants=tuple(
        Variant(rules, "RubberEntry", ROUNDED_PARTNERSHIP, stake_per=100)
        for rules in (Rubber, Honeymoon, Chicago)
    ),
    sheet=sheet.build,
    # What a player calls their standing: every point, above and below the line.
    chart_title="Points per side (above and below the line)",
    sides=sheet.chart_sides,
)
