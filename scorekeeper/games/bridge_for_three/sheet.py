"""Bridge for Three sheet: the peg board (one track per player, holes −6 … 11)
drawn as inline SVG, and the hand log with every player's peg after each hand."""

from __future__ import annotations

from typing import Any

from ...model import Match
from ...words import hand_label, minus
from ..common import Outcome, contract_text
from .rules import FLOOR, WINNING_HOLE, BridgeForThreeDetails

# Board geometry in SVG user units; the drawing scales to the page width.
HOLE_STEP = 20
MARGIN = 10
AXIS_HEIGHT = 20
TRACK_HEIGHT = 46
HOLES = list(range(FLOOR, WINNING_HOLE + 1))
START_HOLE = 0


NAME_ROOM = 26  # characters of a name that fit on a track before the peg count


def hole_x(hole: int) -> int:
    return MARGIN + (hole - FLOOR) * HOLE_STEP


def peg_board(players: list[str], pegs: dict[str, int], winners: list[str]) -> dict[str, Any]:
    """Everything the SVG needs, already placed: holes, tracks, pegs."""
    width = 2 * MARGIN + (len(HOLES) - 1) * HOLE_STEP
    tracks = []
    for i, player in enumerate(players):
        top = AXIS_HEIGHT + i * TRACK_HEIGHT
        tracks.append(
            {
                "player": player,
                "name": player if len(player) <= NAME_ROOM else player[: NAME_ROOM - 1] + "…",
                "peg": pegs[player],
                "peg_label": minus(pegs[player]),
                "winner": player in winners,
                "top": top,
                "label_y": top + 15,
                "hole_y": top + 31,
                "peg_x": hole_x(pegs[player]),
            }
        )
    return {
        "width": width,
        "height": AXIS_HEIGHT + len(players) * TRACK_HEIGHT + 4,
        "holes": [
            {
                "label": minus(h),
                "x": hole_x(h),
                "start": h == START_HOLE,
                "top": h == WINNING_HOLE,
            }
            for h in HOLES
        ],
        "start_x": hole_x(START_HOLE),
        "top_x": hole_x(WINNING_HOLE),
        "tracks": tracks,
        "summary": ", ".join(f"{p} {minus(pegs[p])}" for p in players),
    }


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    players = list(match.players)
    log = []
    for result in outcome.hands:
        details = result.details
        if not isinstance(details, BridgeForThreeDetails):  # the end marker
            log.append({"number": result.number, "end": True})
            continue
        after = details.pegs_after
        moved = {p for p in players if result.scores[p]}
        log.append(
            {
                "number": result.number,
                "label": hand_label(result),
                "end": False,
                "dealer": result.dealer,
                "sitting_out": details.sitting_out,
                "passed_out": details.passed_out,
                "declarer": details.declarer,
                "contract": contract_text(details.contract) if details.contract else "",
                "doubler": details.doubler,
                "tricks": details.tricks,
                "moved": details.moved,
                # The declarer's peg may move less: it stops in hole 11, or at the floor.
                "peg_moved": result.scores[details.declarer] if details.declarer else 0,
                "overflow": details.overflow,
                "pegs_after": [
                    {"player": p, "peg": minus(after[p]), "moved": p in moved} for p in players
                ],
            }
        )
    return {
        "board": peg_board(players, outcome.totals, outcome.winners),
        "log": log,
        "floor": FLOOR,
        "top": WINNING_HOLE,
    }
