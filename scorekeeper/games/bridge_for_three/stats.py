"""What a Bridge for Three hand, and a match won, tell the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult, Outcome
from ..facts import GameStats, HandFacts, contract_of, get, made


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    at_table = tuple(get(details, "players") or players)
    declarer = get(details, "declarer")
    if not declarer:
        return HandFacts(at_table)
    contract = contract_of(get(details, "contract"))
    return HandFacts(at_table, True, declarer, contract, made(contract, get(details, "tricks")))


def finished(outcome: Outcome) -> tuple[tuple[str, str], ...]:
    """The winner of a finished match pegged out first."""
    return tuple((p, "pegged_out") for p in outcome.winners)


STATS = GameStats(
    read_hand,
    telling={
        "pegged_out": (
            _("Pegged out first"),
            _("Bridge for Three games this player won by reaching hole 11 first"),
        ),
    },
    finished=finished,
)
