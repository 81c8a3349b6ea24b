"""What a Need a Fourth? hand tells the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult
from ..facts import GameStats, HandFacts, contract_of, get


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    if get(details, "passed_out"):
        return HandFacts(tuple(players))
    chooser = get(details, "auction_winner")  # who bid it, also when the Partner redoubled
    pair = (get(details, "chooser"), get(details, "partner"))
    partner = next(p for p in pair if p != chooser)
    made = get(details, "made")
    counts = tuple((liar, "lied") for liar in get(details, "liars") or ())
    if made is False:
        counts += ((get(details, "declarer"), "set_alone"),)
    contract = contract_of(get(details, "contract"))
    return HandFacts(tuple(players), True, chooser, contract, made, partner, counts)


STATS = GameStats(
    read_hand,
    telling={
        "lied": (
            _("Lies caught"),
            _("Need a Fourth? hands where this player was found to have lied"),
        ),
        "set_alone": (
            _("Sets as Declarer"),
            _("Need a Fourth? contracts this player, alone as Declarer, held below their tricks"),
        ),
    },
)
