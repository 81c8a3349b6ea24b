"""What a Top Game hand tells the statistics."""

from __future__ import annotations

from ...speech import _
from ..common import HandResult
from ..facts import GameStats, HandFacts, contract_of, get, made


def read_hand(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    informer = get(details, "informer")
    if informer:
        return HandFacts(tuple(players), False, counts=((informer, "misinformed"),))
    declarer = get(details, "declarer")
    tops, bid = record.get("declarer_tops"), record.get("bid")
    raised = isinstance(tops, int) and isinstance(bid, int) and tops > bid
    # The penalty is due whatever the play, also when the playnumber passes the hand out.
    counts = ((declarer, "raise_penalty"),) if declarer and raised else ()
    written = get(details, "contract")
    contract = contract_of(written) if written != "passed" else None
    if declarer is None or contract is None:  # passed out, or a playnumber of 4 or less
        return HandFacts(tuple(players), counts=counts)
    result_made = made(contract, record.get("tricks"))  # the details keep no tricks
    return HandFacts(tuple(players), True, declarer, contract, result_made, counts=counts)


STATS = GameStats(
    read_hand,
    telling={
        "misinformed": (
            _("Wrong dummy information"),
            _("Top Game hands where this player misdescribed dummy"),
        ),
        "raise_penalty": (
            _("Raise penalties"),
            _("Top Game contracts where this player held more tops than the bid and did not raise"),
        ),
    },
)
