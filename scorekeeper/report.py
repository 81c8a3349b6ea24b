"""The scored match as the JSON document `scorekeeper score` prints (a public interface),
and as the ledger's per-match summary."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from decimal import Decimal
from typing import Any

from .games.common import Outcome
from .ledger import summarize
from .model import Match, MatchSummary
from .settle import exact_balances, settle, settlement_json
from .variants import replay_match


def score_document(match: Match, outcome: Outcome | None = None) -> dict[str, Any]:
    """Replay the match and describe it exactly as docs/score-output.md says."""
    outcome = outcome or replay_match(match)
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


def match_summary(
    match: Match, outcome: Outcome | None = None, *, key: str = "", played: date | None = None
) -> MatchSummary:
    """The ledger's summary of a match (scorekeeper/ledger.py): its replay and its
    own settlement payments, the same ones `score_document` lists. `key` names the
    match (its id); `played` is the day it was played when the match file does not
    say (a stored match: the day it was started)."""
    outcome = outcome or replay_match(match)
    if played is not None and match.played is None:
        match = replace(match, played=played)
    payments = []
    if match.stake is not None:
        payments = settle(outcome, match.stake.amount, match.stake.per)[1]
    # The game's own settlement at one unit a point: what best and worst go by.
    margins = exact_balances(outcome, Decimal(1), 1)
    return summarize(match, outcome, payments, margins, key=key)
