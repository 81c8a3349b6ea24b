"""Score sheets: the replayed match laid out the way players draw it on paper.

`build_sheet` returns a plain view model (dicts and lists) that both the web
page and the PDF render with the same template, `sheets/<variant>.html`.
Nothing here is stored: it is computed from the replay every time.
"""

from __future__ import annotations

from typing import Any

from ..matchfile import Match
from ..variants import Outcome


def hand_rows(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """One row per entry of `hands`: what every sheet's hand log shows."""
    return [
        {
            "number": result.number,
            "dealer": result.dealer,
            "counted": result.counted,
            "scores": [result.scores[p] for p in match.players],
            "explanation": result.explanation,
            "details": result.details,
            "record": match.hands[result.number - 1],
        }
        for result in outcome.hands
    ]


def build_sheet(match: Match, outcome: Outcome) -> dict[str, Any]:
    """The variant's sheet: `build` of sheets/<family>.py, drawn by sheets/<family>.html."""
    from ..registry import family, module
    from ..variants import VARIANTS

    cls = VARIANTS[match.variant]
    builder = module("sheets", cls).build
    return {
        "template": f"sheets/{family(cls)}.html",
        "players": list(match.players),
        "rows": hand_rows(match, outcome),
        "totals": [outcome.totals[p] for p in match.players],
        **builder(match, outcome),
    }


def signed(points: int) -> str:
    """Scores as on paper: +5, −4, 0 (a real minus sign)."""
    if points > 0:
        return f"+{points}"
    return f"−{-points}" if points < 0 else "0"


def running_rows(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """Per-player running totals after each hand (the sheet of Need a Fourth?,
    Mini Bridge…): each row has the hand's scores and the totals so far."""
    totals = dict.fromkeys(match.players, 0)
    rows = []
    for result in outcome.hands:
        for player in match.players:
            totals[player] += result.scores[player]
        rows.append(
            {
                "number": result.number,
                "dealer": result.dealer,
                "counted": result.counted,
                "scores": [result.scores[p] for p in match.players],
                "running": [totals[p] for p in match.players],
                "details": result.details,
            }
        )
    return rows
