"""What a hand of rubber bridge, Honeymoon or Chicago tells the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult, partnerships
from ..facts import GameStats, HandFacts, contract_of, get, made


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    if not result.counted:  # Chicago's passed-out deal, dealt again
        return HandFacts(tuple(players), False)
    counts: tuple[tuple[str, str], ...] = ()
    won = get(details, "rubber_won")
    if won is not None:
        counts += tuple((p, "rubber_won") for p in partnerships(players)[won])
    if get(details, "passed_out"):
        return HandFacts(tuple(players), counts=counts)
    declarer = record.get("declarer")  # the details name only the declaring side
    contract = contract_of(get(details, "contract"))
    result_made = made(contract, get(details, "tricks"))
    if result_made and contract is not None and contract.level >= 6:
        counts += ((declarer, "slam_made"),)
    return HandFacts(tuple(players), True, declarer, contract, result_made, counts=counts)


STATS = GameStats(
    read_hand,
    telling={
        "rubber_won": (_("Rubbers won"), _("rubbers this player's side won")),
        "slam_made": (_("Slams made"), _("small and grand slams this player declared and made")),
    },
)
