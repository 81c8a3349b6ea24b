"""What a game of Calypso tells the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult
from ..facts import GameStats, HandFacts, get


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    # Each player's tally: `tallies` in the typed details, `players` in the dict.
    tallies = get(result.details, "tallies") or get(result.details, "players") or {}
    counts = tuple(
        (p, "calypsos") for p in players for _ in range(tallies.get(p, {}).get("calypsos", 0))
    )
    return HandFacts(tuple(players), counts=counts)


STATS = GameStats(
    read_hand, telling={"calypsos": (_("Calypsos"), _("calypsos this player completed"))}
)
