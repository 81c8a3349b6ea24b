"""The scored match as the JSON document `scorekeeper score` prints (a public interface)."""

from __future__ import annotations

from typing import Any

from .matchfile import Match
from .settle import settlement_json
from .variants import Outcome


def score_document(match: Match, outcome: Outcome | None = None) -> dict[str, Any]:
    """Replay the match and describe it exactly as docs/score-output.md says."""
    outcome = outcome or match.replay()
    doc: dict[str, Any] = {
        "variant": match.variant,
        "players": list(match.players),
        "hands": [hand.as_json() for hand in outcome.hands],
        "totals": dict(outcome.totals),
        "finished": outcome.finished,
        "winners": list(outcome.winners),
    }
    if match.stake is not None:
        doc["settlement"] = settlement_json(outcome, match.stake.amount, match.stake.per)
    return doc
