"""Calypso sheet: each game's tallies, side by side, as the players add them up on
paper (every player's breakdown, the side totals, the difference), then the
match totals per side."""

from __future__ import annotations

from typing import Any

from ...model import Match
from ..common import Outcome
from .rules import CalypsoDetails


def _side_row(side: dict[str, Any], tallies: dict[str, Any], winning: list[str] | None):
    return {
        "players": side["players"],
        "points": side["points"],
        "winner": winning == side["players"],
        "tallies": [{"player": p, **tallies[p]} for p in side["players"]],
    }


def chart_sides(match: Match, outcome: Outcome) -> list[tuple[str, list[str]]]:
    """The chart's two lines: the partnerships, named by both partners."""
    return [(" & ".join(side), list(side)) for side in outcome.summary.sides]


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    sides = [list(side) for side in outcome.summary.sides]
    games = []
    running = [0, 0]
    totals_rows = []
    for result in outcome.hands:
        details = result.details
        # The end marker: the players stopped before all games were played.
        if not isinstance(details, CalypsoDetails):
            games.append({"number": result.number, "end": True})
            continue
        side_rows = [
            _side_row(side, details.tallies, details.winning_side) for side in details.sides
        ]
        games.append(
            {
                "number": result.number,
                "end": False,
                "game": details.game,
                "dealers": details.dealers,
                "sides": side_rows,
                "difference": details.difference,
                "winning_side": details.winning_side,
            }
        )
        points = [row["points"] for row in side_rows]
        running = [running[0] + points[0], running[1] + points[1]]
        totals_rows.append(
            {
                "number": result.number,
                "game": details.game,
                "points": points,
                "difference": points[0] - points[1],
                "running": list(running),
            }
        )
    return {
        "sides": sides,
        "games": games,
        "totals_rows": totals_rows,
        "side_totals": running,
        "match_difference": running[0] - running[1],
        "games_to_play": outcome.options["games"],
    }
