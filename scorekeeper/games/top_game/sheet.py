"""Top Game sheet: two half-match sheets, one column per player in that half's
dealing order, the note (final bid · dummy tops · contract) under the dealer."""

from __future__ import annotations

import re
from typing import Any

from ...model import Match
from ...speech import Said, _
from ...words import hand_label, hand_title, signed
from ..common import Outcome, contract_text
from .rules import PASSED_OUT_PN, RAISE_PENALTY, TopGameDetails, TopGamePlayed, level_for

# The key's examples: a final bid and dummy's tops that make a contract, and a
# pair whose playnumber passes the hand out.
KEY_PLAYED = (3, 2, "S")
KEY_PASSED = (3, 1)
RAISE_MARK = "†"  # beside the score of a declarer who did not raise


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    summary = outcome.summary
    halves = []
    for half in (1, 2):
        order = summary.dealing_order(half)
        rows = []
        for result in outcome.hands:
            details = result.details
            if not isinstance(details, TopGameDetails) or details.half != half:
                continue
            rows.append(
                {
                    "number": result.number,
                    "label": hand_label(result),  # 1–12; a redeal shows the mark
                    "title": hand_title(result),
                    "dealer": result.dealer,
                    "counted": result.counted,
                    "cells": [
                        {
                            "player": p,
                            "score": result.scores[p],
                            "note": suits(details.note) if p == result.dealer else "",
                            "raise_penalty": p == penalised(details),
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
    penalties = sum(1 for h in outcome.hands if penalised(h.details) is not None)
    return {
        "halves": halves,
        "per_half": summary.per_half,
        "key": key(),
        "raise_penalties": penalties,
    }


def penalised(details: Any) -> str | None:
    """The declarer who scored the raise penalty on this hand, or None."""
    if isinstance(details, TopGamePlayed) and details.raise_penalty:
        return details.declarer
    return None


_CONTRACT = re.compile(r"\b[1-7](?:NT|[CDHS])X{0,2}\b")


def suits(note: str) -> str:
    """The note's contract as the cards show it: `3 · 2 · 2♠`, not `2S` (a note
    in words still said in the reader's language)."""
    if isinstance(note, Said):
        return note.then(_suits)
    return _suits(note)


def _suits(note: str) -> str:
    return _CONTRACT.sub(lambda found: contract_text(found.group(0)), note)


def key() -> dict[str, Any]:
    """What the small figures under the dealer's score mean, with an example
    each, the contract given by the rules' playnumber table."""
    bid, tops, strain = KEY_PLAYED
    pn = bid + tops
    contract = f"{level_for(pn, strain)}{strain}"
    passed_bid, passed_tops = KEY_PASSED
    return {
        "played": {
            "note": f"{bid} · {tops} · {contract_text(contract)}",
            "bid": bid,
            "tops": tops,
            "pn": pn,
            "contract": contract_text(contract),
            "nt": contract_text(f"{level_for(pn, 'NT')}NT"),
        },
        "passed": {
            "note": _("%(bid)d · %(tops)d · passed", bid=passed_bid, tops=passed_tops),
            "pn": passed_bid + passed_tops,
            "most": PASSED_OUT_PN,
        },
        # The raise penalty is per opponent (top-game.md): the declarer pays it twice.
        "raise": {
            "mark": RAISE_MARK,
            "each": signed(RAISE_PENALTY),
            "declarer": signed(2 * RAISE_PENALTY),
            "opponent": signed(-RAISE_PENALTY),
        },
    }
