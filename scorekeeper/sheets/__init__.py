"""Score sheets: the replayed match laid out the way players draw it on paper.

`build_sheet` returns a plain view model (dicts and lists) that both the web
page and the PDF render with the same template, `sheets/<variant>.html`.
Nothing here is stored: it is computed from the replay every time.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from ..matchfile import Match
from ..variants import Outcome
from ..variants.common import HandResult, _is_int, contract_text, parse_contract


def hand_words(record: dict[str, Any], result: HandResult | None) -> str:
    """What happened in a hand, in a few words: `4♠X by Bob, down 1`, `all passed`."""
    if record.get("end"):
        return "stopped here"
    if record.get("passed_out"):
        return "all passed"
    if record.get("scrapped"):
        return "scrapped"
    if isinstance(record.get("contract"), str):
        return _contract_words(record)
    if "tallies" in record:
        return "tallies entered"
    return result.explanation[0] if result and result.explanation else "entered"


def tricks_needed(contract: str) -> int | None:
    """Tricks the contract needs (level + 6), None when it is not a contract."""
    try:
        return parse_contract(contract, max_level=None).needed
    except ValueError:
        return None


def _contract_words(record: dict[str, Any]) -> str:
    contract = record["contract"]
    needed = tricks_needed(contract)
    if needed is None:
        return contract
    text = contract_text(contract)
    who = record.get("declarer") or record.get("chooser")
    words = f"{text} by {who}" if isinstance(who, str) else text
    tricks = record.get("tricks")
    if _is_int(tricks):
        words += ", made" if tricks >= needed else f", down {needed - tricks}"
    return words


def hand_rows(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """One row per entry of `hands`: what every sheet's hand log shows (`what`
    happened in a few words; Calypso's tallies are named by their dealer)."""
    return [
        {
            "number": result.number,
            "dealer": result.dealer,
            "what": (
                f"{result.dealer} dealt"
                if "tallies" in match.hands[result.number - 1]
                else hand_words(match.hands[result.number - 1], result)
            ),
            "counted": result.counted,
            "scores": [result.scores[p] for p in match.players],
            "explanation": [minus_signs(line) for line in result.explanation],
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


def score_line(match: Match, outcome: Outcome) -> list[str]:
    """The running score of the match for the top of the next hand's form, one
    item per side or player: the sides' points in a partnership game (rubber,
    Honeymoon, Chicago, Calypso, Mini Bridge), pegs in Bridge for Three, each
    player's total otherwise. The rubber or round in progress has its own table."""
    from ..variants import VARIANTS
    from ..variants.common import partnerships

    settlement = VARIANTS[match.variant].settlement
    if settlement == "partnership":
        sides = partnerships(match.players)
        return [f"{' & '.join(side)} {outcome.totals[side[0]]}" for side in sides]
    if settlement == "pegging":
        return [f"{p} {minus(outcome.totals[p])}" for p in match.players]
    return [f"{p} {signed(outcome.totals[p])}" for p in match.players]


def minus(n: int) -> str:
    """Pegs and holes as on the board: no plus sign, a real minus sign (−3)."""
    return f"−{-n}" if n < 0 else str(n)


def signed(points: int | Decimal) -> str:
    """Scores as on paper: +5, −4, 0 (a real minus sign); money keeps its cents:
    +8.00, −8.00, 0.00."""
    figure = f"{abs(points):.2f}" if isinstance(points, Decimal) else str(abs(points))
    if points > 0:
        return f"+{figure}"
    return f"−{figure}" if points < 0 else figure


# A hyphen-minus starting a number, not inside a word or a name ("Ann-Marie 4").
_ASCII_MINUS = re.compile(r"(?<![\w-])-(?=\d)")


def minus_signs(line: str) -> str:
    """An explanation line as the page prints it: "Ann −4", not "Ann -4" (the
    rules write ASCII for the command line and the CSV)."""
    return _ASCII_MINUS.sub("−", line)


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
