"""Need a Fourth? sheet: per-player running totals, as on paper, with the contract
and result of each hand and who was Chooser, Partner and Declarer."""

from __future__ import annotations

from typing import Any

from ...model import Match
from ...sheets import running_rows
from ...speech import _, joined, pgettext
from ..common import STRAIN_SYMBOL, Details, Outcome, parse_contract
from .rules import NeedAFourthDetails


def contract_label(contract: str) -> str:
    """`"3NTXX"` -> `"3NTXX"`, `"4S"` -> `"4♠"`: the contract as written on paper."""
    parsed = parse_contract(contract)
    return f"{parsed.level}{STRAIN_SYMBOL[parsed.strain]}{'X' * parsed.doubled}"


def result_label(contract: str, tricks: int) -> str:
    """`=` when made exactly, `+2` with overtricks, `−1` when down."""
    difference = tricks - parse_contract(contract).needed
    if difference == 0:
        return "="
    return f"+{difference}" if difference > 0 else f"−{-difference}"


def roles(details: Details | None, players: list[str]) -> list[str]:
    """C / P / D under each player (as scored), with L added for a liar: each
    language its own letters, the ones the key under the sheet names."""
    if not isinstance(details, NeedAFourthDetails):
        return [""] * len(players)
    letters = {
        details.chooser: pgettext("letter for the Chooser", "C"),
        details.partner: pgettext("letter for the Partner", "P"),
        details.declarer: pgettext("letter for the Declarer", "D"),
    }
    marks: list[str] = []
    for player in players:
        mark = [letters[player]] if player in letters else []
        if player in details.liars:
            mark.append(pgettext("letter for a liar", "L"))
        marks.append(joined(" ", mark) if mark else "")
    return marks


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    rows = running_rows(match, outcome)
    for row in rows:
        details = row["details"]
        if (
            isinstance(details, NeedAFourthDetails)
            and details.contract
            and details.tricks is not None
        ):
            row["contract"] = contract_label(details.contract)
            row["result"] = result_label(details.contract, details.tricks)
        else:
            passed = isinstance(details, NeedAFourthDetails) and details.passed_out
            row["contract"] = _("passed") if passed else _("end")
            row["result"] = ""
        row["roles"] = roles(details, match.players)
    played = sum(1 for row in rows if row["dealer"])
    return {"running": rows, "played": played, "hands_total": outcome.options["hands"]}
