"""Top Game sheet: two half-match sheets, one column per player in that half's
dealing order, the note (final bid · dummy tops · contract) under the dealer."""

from __future__ import annotations

from typing import Any

from ..matchfile import Match
from ..variants import Outcome


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    summary = outcome.summary
    halves = []
    for half in (1, 2):
        order = summary.dealing_order(half)
        rows = []
        for result in outcome.hands:
            if result.details.get("half") != half:
                continue
            rows.append(
                {
                    "number": result.number,
                    "dealer": result.dealer,
                    "counted": result.counted,
                    "cells": [
                        {
                            "player": p,
                            "score": result.scores[p],
                            "note": result.details.get("note") if p == result.dealer else "",
                        }
                        for p in order
                    ],
                }
            )
        subtotal = {p: sum(r["cells"][i]["score"] for r in rows) for i, p in enumerate(order)}
        halves.append(
            {
                "half": half,
                "order": order,
                "rows": rows,
                "subtotal": [subtotal[p] for p in order],
                "counted": sum(1 for r in rows if r["counted"]),
            }
        )
    return {"halves": halves, "per_half": summary.per_half}
