"""Mini Bridge sheet: a column per side (four players, headed by both partners'
names) or per player (three players), the hand's points over the running total,
and beside the hand number who declared what and how it went."""

from __future__ import annotations

from typing import Any

from ...model import Match
from ...words import hand_label, hand_title
from ..common import STRAIN_SYMBOL, Details, Outcome
from .rules import MiniBridgePlayed, MiniBridgeRedeal, MiniBridgeScrapped


def columns(match: Match) -> list[list[str]]:
    """The players who share each column: 1 & 3 against 2 & 4, or one each."""
    players = match.players
    if match.variant == "mini-bridge":
        return [[players[0], players[2]], [players[1], players[3]]]
    return [[p] for p in players]


def chart_sides(match: Match, outcome: Outcome) -> list[tuple[str, list[str]]]:
    """The chart's lines: one per column of the sheet (a side, or a player)."""
    return [(" & ".join(group), group) for group in columns(match)]


def contract_note(details: Details | None) -> tuple[str, str]:
    """(declarer and contract, result) as written beside the hand number."""
    if isinstance(details, MiniBridgeRedeal):
        return "20–20", "dealt again"
    if isinstance(details, MiniBridgeScrapped):
        return f"{details.declarer} scrapped", f"{details.declaring_hcp} HCP with dummy"
    if not isinstance(details, MiniBridgePlayed):
        return "stopped", ""
    strain = STRAIN_SYMBOL[details.strain]
    contract = f"GAME {strain}" if details.game else f"{strain}, no GAME"
    tricks = details.tricks
    if details.made:
        result = f"{tricks} tricks, made"
    else:
        result = f"{tricks} tricks, {details.undertricks} down"
    return f"{details.declarer}: {contract}", result


def goal(match: Match, outcome: Outcome) -> str:
    """How far the match has to go: hands left or the target."""
    game = outcome.summary
    if game.target is not None:
        best = max(outcome.totals.values())
        if best >= game.target:
            return f"Playing to {game.target}: reached with {best}."
        if outcome.finished:
            return f"Playing to {game.target}: stopped at {best}."
        return f"Playing to {game.target}: the leader has {best}, {game.target - best} to go."
    played = f"{game.counted} of {game.hands_to_play} counted hands played"
    if outcome.finished:
        return f"{played}: the match is over."
    left = game.hands_to_play - game.counted
    return f"{played}, {left} left."


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    groups = columns(match)
    running = [0] * len(groups)
    rows = []
    for result in outcome.hands:
        points = [result.scores[group[0]] for group in groups]
        running = [total + p for total, p in zip(running, points, strict=True)]
        contract, outcome_note = contract_note(result.details)
        rows.append(
            {
                "number": result.number,
                "label": hand_label(result),  # a 20–20 redeal is not a hand
                "title": hand_title(result),
                "counted": result.counted,
                "points": points,
                "running": running,
                "contract": contract,
                "result": outcome_note,
            }
        )
    return {
        "columns": [" & ".join(group) for group in groups],
        "column_rows": rows,
        "column_totals": running,
        "goal": goal(match, outcome),
        "four": match.variant == "mini-bridge",
    }
