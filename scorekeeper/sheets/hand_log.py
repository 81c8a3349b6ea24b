"""The hand log as a table a spreadsheet reads (the CSV export): one row per
entry of `hands`, with who declared what and how it went in columns of their
own, each player's points, and the rules' explanation.

The columns are read from the replay (`HandResult.details`) and, where the
rules did not restate a field, from the hand as entered; nothing is scored here.
"""

from __future__ import annotations

from typing import Any

from ..matchfile import Match
from ..variants import Outcome
from ..variants.common import HandResult, _is_int
from . import tricks_needed

HAND_COLUMNS = ["hand", "dealer", "counted", "declarer", "contract", "tricks", "result"]


def made_or_down(contract: str, tricks: Any) -> str:
    """`made`, `made +1`, `down 2`: a played contract against its tricks."""
    needed = tricks_needed(contract)
    if not _is_int(tricks) or needed is None:
        return ""
    if tricks < needed:
        return f"down {needed - tricks}"
    return "made" if tricks == needed else f"made +{tricks - needed}"


def _mini_bridge(details: dict[str, Any]) -> tuple[str, str]:
    """Mini Bridge announces GAME or not in a strain; the rules say if it made."""
    contract = f"{'GAME' if details['game'] else 'no GAME'} in {details['strain']}"
    if details.get("made"):
        over = details["tricks"] - details["needed"]
        return contract, "made" if over <= 0 else f"made +{over}"
    return contract, f"down {details.get('undertricks', '')}"


def hand_columns(record: dict[str, Any], result: HandResult | None) -> list[Any]:
    """declarer, contract, tricks and result of one entry of `hands`."""
    details = result.details if result else {}
    declarer = details.get("declarer") or record.get("declarer") or ""
    contract = details.get("contract") or record.get("contract") or ""
    tricks = details.get("tricks", record.get("tricks"))
    outcome = ""
    if record.get("end"):
        outcome = "stopped here"
    elif record.get("passed_out") or details.get("passed_out") or contract == "passed":
        contract, tricks, outcome = "", None, "passed out"
    elif details.get("redeal"):
        outcome = "dealt again"
    elif record.get("scrapped") or details.get("scrapped"):
        outcome = "scrapped"
    elif "misinformation" in record:
        outcome = f"wrong dummy information from {record['misinformation']}"
    elif "strain" in details and "game" in details:
        contract, outcome = _mini_bridge(details)
    elif isinstance(contract, str) and contract:
        outcome = made_or_down(contract, tricks)
    elif details.get("winning_side"):  # Calypso: a game of tallies, won by a side
        outcome = f"won by {' & '.join(details['winning_side'])}"
    if not isinstance(contract, str):
        contract = ""
    return [
        declarer if isinstance(declarer, str) else "",
        contract,
        tricks if _is_int(tricks) else "",
        outcome,
    ]


def log_table(match: Match, outcome: Outcome | None) -> list[list[Any]]:
    """Header, one row per entry of `hands` and the totals (when the match replays)."""
    rows: list[list[Any]] = [[*HAND_COLUMNS, *match.players, "explanation"]]
    results = outcome.hands if outcome else []
    for i, record in enumerate(match.hands):
        result = results[i] if i < len(results) else None
        rows.append(
            [
                i + 1,
                (result.dealer or "") if result else "",
                ("yes" if result.counted else "no") if result else "",
                *hand_columns(record, result),
                *[(result.scores[p] if result else "") for p in match.players],
                " | ".join(result.explanation) if result else "",
            ]
        )
    if outcome:
        blank = [""] * (len(HAND_COLUMNS) - 1)
        rows.append(["total", *blank, *[outcome.totals[p] for p in match.players], ""])
    return rows
