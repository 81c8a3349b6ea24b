"""Mini Bridge sheet: a column per side (four players, headed by both partners'
names) or per player (three players), the hand's points over the running total,
and beside the hand number who declared what and how it went."""

from __future__ import annotations

from typing import Any

from ...model import Match
from ...speech import N_, _
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
        return "20–20", _("dealt again")
    if isinstance(details, MiniBridgeScrapped):
        return (
            _("%(declarer)s scrapped", declarer=details.declarer),
            _("%(hcp)d HCP with dummy", hcp=details.declaring_hcp),
        )
    if not isinstance(details, MiniBridgePlayed):
        return _("stopped"), ""
    strain = STRAIN_SYMBOL[details.strain]
    named = {"declarer": details.declarer, "strain": strain}
    if details.game:
        contract = _("%(declarer)s: GAME %(strain)s", **named)
    else:
        contract = _("%(declarer)s: %(strain)s, no GAME", **named)
    tricks = details.tricks
    if details.made:
        result = _("%(tricks)d tricks, made", tricks=tricks)
    else:
        result = _("%(tricks)d tricks, %(down)d down", tricks=tricks, down=details.undertricks)
    return contract, result


def goal(match: Match, outcome: Outcome) -> str:
    """How far the match has to go: hands left or the target."""
    game = outcome.summary
    if game.target is not None:
        best = max(outcome.totals.values())
        named = {"target": game.target, "best": best}
        if best >= game.target:
            return _("Playing to %(target)d: reached with %(best)d.", **named)
        if outcome.finished:
            return _("Playing to %(target)d: stopped at %(best)d.", **named)
        message = N_("Playing to %(target)d: the leader has %(best)d, %(left)d to go.")
        return _(message, **named, left=game.target - best)
    named = {"played": game.counted, "hands": game.hands_to_play}
    if outcome.finished:
        return _("%(played)d of %(hands)d counted hands played: the match is over.", **named)
    left = game.hands_to_play - game.counted
    return _("%(played)d of %(hands)d counted hands played, %(left)d left.", **named, left=left)


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
