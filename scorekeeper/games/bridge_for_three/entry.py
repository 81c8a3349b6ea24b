"""Bridge for Three entry: declarer, level, strain, tricks; a double behind a panel.

The dealer, the three players of the hand and who sits out all follow from the
number of hands dealt, so the form offers only this hand's three players.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField

from ...entry import HandEntry, HandForm, as_int, choice_field, player_choices, refuse_by
from ...words import minus
from .. import contract as contract_fields
from ..common import NextHand, Outcome
from .rules import DOUBLE, FLOOR, WINNING_HOLE, BridgeForThreeNext

DOUBLING = [("", _l("Not doubled")), (DOUBLE, _l("Doubled"))]


class BridgeForThreeForm(HandForm):
    declarer = choice_field(_l("Declarer"))
    level = contract_fields.level_field()
    strain = contract_fields.strain_field()
    tricks = contract_fields.tricks_field(_l("Tricks won by declarer and dummy"))
    doubled = contract_fields.doubling_field(_l("Double"), DOUBLING)
    doubler = choice_field(_l("Doubled by"))
    # No input of its own: carries the rules' problems with the contract as a whole.
    contract = HiddenField()
    # An auction that came in with an imported match file, calls separated by
    # spaces: kept unless dropped (the form has no way to enter one).
    auction = HiddenField()
    drop_auction = BooleanField(_l("Forget this auction"))


class BridgeForThreeEntry(HandEntry):
    form = BridgeForThreeForm
    field_for = {"contract": "strain", "passed_out": "quick"}
    quick_actions = {"passed_out": _l("All three passed")}

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        # This hand's three in seating order, as in the pegs table and the sheet,
        # the same places every hand (the calling order is shown as text above).
        playing = upcoming.players if isinstance(upcoming, BridgeForThreeNext) else players
        seats = [p for p in players if p in playing]
        form.declarer.choices = player_choices(seats)
        # All three are drawn; the declarer is left out of the doublers (the hint
        # says "one of the declarer's two opponents"), by the table the page carries.
        form.doubler.choices = player_choices(seats)
        refuse_by(form.doubler, form.declarer, {p: {p: "the declarer"} for p in seats}, hide=True)

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if form.auction.data and not form.drop_auction.data:
            record["auction"] = form.auction.data.split()
        if form.declarer.data:
            record["declarer"] = form.declarer.data
        if form.level.data and form.strain.data:
            record["contract"] = contract_fields.joined(
                form.level.data, form.strain.data, form.doubled.data
            )
        if form.doubler.data:
            record["doubler"] = form.doubler.data
        if form.tricks.data not in (None, ""):
            record["tricks"] = as_int(form.tricks.data)
        return record

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        data = {k: record[k] for k in ("declarer", "doubler", "tricks") if k in record}
        if "auction" in record:
            calls = record["auction"]
            data["auction"] = " ".join(map(str, calls)) if isinstance(calls, list) else calls
        parts = contract_fields.split(record)
        if parts:
            # One double only: the form's `doubled` is ticked or not.
            doubled = DOUBLE if parts.pop("doubling") else ""
            data.update(parts, doubled=doubled)
        return data

    def context(self, outcome: Outcome, upcoming: NextHand | None) -> dict[str, Any]:
        coming = upcoming if isinstance(upcoming, BridgeForThreeNext) else None
        pegs = coming.pegs if coming else outcome.totals
        playing = coming.players if coming else []
        return {
            "pegs": [
                {"player": p, "peg": minus(pegs[p]), "playing": p in playing}
                for p in outcome.players
            ],
            # For the live preview of the move (its static/bridge_for_three.js).
            "board": {"pegs": pegs, "floor": FLOOR, "top": WINNING_HOLE},
        }
