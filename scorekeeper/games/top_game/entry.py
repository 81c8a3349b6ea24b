"""Top Game entry: declarer, bid, dummy's tops, strain, tricks. The level comes from pn."""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import StringField
from wtforms.validators import Length, Optional

from ...entry import (
    HandEntry,
    HandForm,
    as_int,
    choice_field,
    number_choices,
    player_choices,
    refuse,
    refuse_by,
    whole_number,
)
from .. import contract as contract_fields
from ..common import NextHand
from .rules import (
    MAX_BID,
    MAX_TOPS,
    MIN_BID,
    PASSED_OUT_PN,
    TopGameNext,
    declarer_tops_refused,
    doubling_refused,
    level_for,
    playnumbers,
)

DOUBLING = [("", "—"), ("X", "X"), ("XX", "XX")]


class TopGameForm(HandForm):
    declarer = choice_field(_l("Declarer"))
    bid = choice_field(_l("Final bid"), number_choices(MIN_BID, MAX_BID))
    dummy_tops = choice_field(_l("Tops in dummy"), number_choices(0, MAX_TOPS))
    strain = contract_fields.strain_field()
    doubling = contract_fields.doubling_field(_l("Doubled?"))
    doubler = choice_field(_l("Doubled by"))
    tricks = contract_fields.tricks_field(_l("Tricks won by declarer"))
    declarer_tops = choice_field(
        _l("Declarer's tops (checked after play)"), [("", "—"), *number_choices(0, MAX_TOPS)]
    )
    dummy_longest = StringField(
        _l("Dummy's longest suit (e.g. D5)"), validators=[Optional(), Length(max=4)]
    )
    informer = choice_field(_l("Who gave wrong information about dummy?"))


def _doubles_refused(pn: int) -> dict[str, str]:
    """X and XX with the reason they are refused at playnumber `pn` (none when allowed)."""
    reason = doubling_refused(pn)
    return {mark: reason for mark in ("X", "XX")} if reason else {}


class TopGameEntry(HandEntry):
    form = TopGameForm
    field_for = {
        "contract": "strain",
        "misinformation": "informer",
        "passed_out": "quick",
        "bids": "quick",
    }
    quick_actions = {"passed_out": _l("All passed")}

    def context(self, outcome, upcoming: NextHand | None) -> dict[str, Any]:
        """The playnumber table for the preview while tapping (the rules', not the
        script's), and the doubles each playnumber refuses, in words."""
        return {
            "facts": {
                "playnumbers": playnumbers(),
                "doubling_refused": {pn: _doubles_refused(pn) for pn in playnumbers()},
            }
        }

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        # Seating order, the order of the half's sheet columns (B and C change
        # places for the second half), the same on every hand: buttons that moved
        # with the auction invited taps on the wrong name. The bidding order is
        # shown as text above them.
        seats = upcoming.dealing_order if isinstance(upcoming, TopGameNext) else players
        for group in (form.declarer, form.doubler, form.informer):
            group.choices = player_choices(seats)
        # What the rules would refuse for the taps on the form: no double above
        # playnumber 10, no more tops for declarer than the deck has beside dummy's,
        # and the declarer is neither the doubler nor the misinformer (the hints say so).
        bid, tops = whole_number(str(form.bid.data)), whole_number(str(form.dummy_tops.data))
        refuse(form.doubling, _doubles_refused(bid + tops) if bid and tops is not None else {})
        refuse_by(
            form.declarer_tops,
            form.dummy_tops,
            {t: declarer_tops_refused(t) for t in range(MAX_TOPS + 1)},
        )
        by_declarer = {p: {p: "the declarer"} for p in seats}
        refuse_by(form.doubler, form.declarer, by_declarer, hide=True)
        refuse_by(form.informer, form.declarer, by_declarer, hide=True)

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if form.declarer.data:
            record["declarer"] = form.declarer.data
        if form.informer.data:
            record["misinformation"] = form.informer.data
            return record
        for name in ("bid", "dummy_tops"):
            value = getattr(form, name).data
            if value not in (None, ""):
                record[name] = as_int(value)
        if form.declarer_tops.data not in (None, ""):
            record["declarer_tops"] = as_int(form.declarer_tops.data)
        longest = (form.dummy_longest.data or "").strip().upper()
        if longest:
            record["dummy_longest"] = longest
        bid, tops = record.get("bid"), record.get("dummy_tops")
        pn = bid + tops if isinstance(bid, int) and isinstance(tops, int) else None
        if pn is not None and pn <= PASSED_OUT_PN:
            return record  # passed out by the playnumber: no contract, no tricks
        # Without a playnumber there is no level: the rules name the bid or the tops
        # (inventing level 0 showed the player a contract "0S" they never typed).
        if form.strain.data and pn is not None:
            strain = form.strain.data
            record["contract"] = contract_fields.joined(
                level_for(pn, strain), strain, form.doubling.data
            )
        if form.doubling.data and form.doubler.data:
            record["doubler"] = form.doubler.data
        if form.tricks.data not in (None, ""):
            record["tricks"] = as_int(form.tricks.data)
        return record

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        data = {
            k: record[k]
            for k in (
                "declarer",
                "bid",
                "dummy_tops",
                "declarer_tops",
                "dummy_longest",
                "doubler",
                "tricks",
            )
            if k in record
        }
        if "misinformation" in record:
            data["informer"] = record["misinformation"]
        parts = contract_fields.split(record, max_level=None)
        parts.pop("level", None)  # the level follows from the playnumber
        data.update(parts)
        return data
