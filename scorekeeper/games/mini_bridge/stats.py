"""What a Mini Bridge hand tells the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult
from ..facts import GameStats, HandFacts, get


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    declarer = get(details, "declarer")
    if not result.counted:  # 20–20, dealt again; or (three players) a weak deal scrapped
        counts = ((declarer, "scrapped"),) if declarer else ()
        return HandFacts(tuple(players), False, counts=counts)
    made = get(details, "made")
    counts = ((declarer, "game_made"),) if get(details, "game") and made else ()
    return HandFacts(tuple(players), True, declarer, None, made, counts=counts)


STATS = GameStats(
    read_hand,
    telling={
        "game_made": (_("GAME made"), _("Mini Bridge hands this player declared GAME and made it")),
        "scrapped": (
            _("Deals scrapped"),
            _("Mini Bridge for three deals this player scrapped as declarer"),
        ),
    },
)
