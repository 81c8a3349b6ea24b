"""Need a Fourth? entry: Chooser, Partner, contract, tricks; with the liar rule,
the auction (one call at a time) and a tick per structured bid whose requirement
was not met.

The auction is optional. When it is given, it decides the Chooser and the bid,
and the structured bids of the Chooser and the Partner are listed for the
liar check. Without JavaScript the auction is typed (`1C P 1H P P`); when the
contract failed and the list was not yet on screen for this auction, the form
stops once to show it.
"""

from __future__ import annotations

import re
from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, SelectMultipleField, StringField, ValidationError
from wtforms.validators import Length, Optional

from ...entry import HandEntry, HandForm, as_int, choice_field, player_choices, refuse_by
from .. import contract as contract_fields
from ..common import STRAIN_SYMBOL, STRAINS, Bid, Contract, NextHand
from .rules import (
    PASS,
    PASSES_TO_END,
    PASSES_WITHOUT_BID,
    Auction,
    NeedAFourthNext,
    parse_auction,
    redoubler_refused,
    structured_bids,
)

LEVELS = range(contract_fields.LOWEST_LEVEL, contract_fields.HIGHEST_LEVEL + 1)
RED_STRAINS = ("D", "H")  # drawn in red on the buttons
MAX_AUCTION_TEXT = 500  # 7NT reached one step at a time is about 100 calls
PASS_WORDS = {"PASS": PASS, "-": PASS}
SHOW_LIST = (
    "the contract failed: look at the structured bids listed under the auction, "
    "tick each requirement that was not met (or none), then save again"
)


def calls_from_text(text: str | None) -> list[str]:
    """`"1c p 1h  pass p"` -> `["1C", "P", "1H", "P", "P"]` (case and spacing ignored)."""
    tokens = [t for t in re.split(r"[\s,]+", (text or "").strip().upper()) if t]
    return [PASS_WORDS.get(t, t) for t in tokens]


def checked_auction(calls: list[str], bidders: list[str]) -> Auction | None:
    """The auction's result, or None when it is not a valid, complete auction."""
    if not calls:
        return None
    try:
        return parse_auction(calls, bidders)
    except ValueError:
        return None


def bid_buttons() -> list[dict[str, Any]]:
    """Every bid in the rules' order, each with its rank (the page's auction buttons:
    the script hides a bid whose rank is not above the last bid's)."""
    bids = [Bid(level, strain) for level in LEVELS for strain in STRAINS]
    return [
        {
            "call": str(bid),
            "label": bid_label(str(bid)),
            "rank": bid.rank,
            "level": bid.level,
            "strain": bid.strain,
            "red": bid.strain in RED_STRAINS,
        }
        for bid in bids
    ]


def bid_label(bid: str) -> str:
    """`"4S"` -> `"4♠"` for the page."""
    level, strain = bid[:1], bid[1:]
    return f"{level}{STRAIN_SYMBOL.get(strain, strain)}"


class NeedAFourthForm(HandForm):
    auction = StringField(
        _l("Auction from the dealer, e.g. 1C P 1H P P"),
        validators=[Optional(), Length(max=MAX_AUCTION_TEXT)],
    )
    # The auction for which the structured bids were on screen (set by the page).
    bids_shown = HiddenField()
    chooser = choice_field(_l("Chooser"), [])
    partner = choice_field(_l("Partner"))
    level = contract_fields.level_field()
    strain = contract_fields.strain_field()
    tricks = contract_fields.tricks_field(_l("Tricks won by Chooser and Partner"))
    doubling = contract_fields.doubling_field(_l("Doubled by the Declarer?"))
    redoubled_by = choice_field(_l("Redoubled by"))
    not_met = SelectMultipleField(_l("Requirement not met"), choices=[], validate_choice=False)
    liars = SelectMultipleField(_l("Who lied?"), choices=[], validate_choice=False)

    # Set by NeedAFourthEntry.prepare: the liar check needs the match's state.
    liar_rule = False
    structured_list: list[dict[str, Any]] = []
    auction_text = ""
    auction_chooser: str | None = None
    auction_complete = False  # a valid, finished auction (passed out or with a bid)
    failing = False

    def validate_not_met(self, field: SelectMultipleField) -> None:
        if not self.liar_rule or not self.structured_list:
            return
        if (self.bids_shown.data or "") == self.auction_text:
            return
        if self.failing or field.data:
            raise ValidationError(SHOW_LIST)


class NeedAFourthEntry(HandEntry):
    form = NeedAFourthForm
    # The structured bids of the auction tapped so far: the script asks the
    # preview as the auction and the Partner change (the rules stay here).
    preview_template = "games/need_a_fourth/_bids.html"
    field_for = {"contract": "strain", "passed_out": "quick"}
    quick_actions = {"passed_out": _l("All passed")}

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        coming = upcoming if isinstance(upcoming, NeedAFourthNext) else None
        order = coming.bidding_order if coming else players
        for name in ("chooser", "partner", "redoubled_by", "liars"):
            getattr(form, name).choices = player_choices(order)
        # The Chooser picks one of the other two: left out of the Partners.
        refuse_by(form.partner, form.chooser, {p: {p: "the Chooser"} for p in order}, hide=True)
        # Only the Chooser or the Partner redoubles: the Declarer is left out.
        pairs = [(c, p) for c in order for p in order if p != c]
        refuse_by(
            form.redoubled_by,
            (form.chooser, form.partner),
            {(c, p): redoubler_refused(order, c, p) for c, p in pairs},
            hide=True,
        )
        form.liar_rule = bool(coming and coming.liar_rule)
        calls = calls_from_text(form.auction.data)
        form.auction_text = " ".join(calls)
        auction = checked_auction(calls, order)
        form.structured_list = []
        form.failing = False
        form.auction_chooser = auction.last_bidder if auction is not None else None
        form.auction_complete = auction is not None
        if not form.liar_rule or auction is None or auction.last_bid is None:
            return
        tricks = as_int(form.tricks.data)
        level = as_int(form.level.data) if form.level.data else auction.last_bid.level
        form.failing = isinstance(tricks, int) and isinstance(level, int) and tricks < level + 6
        partner = form.partner.data if form.partner.data in order else None
        sides = {auction.last_bidder, partner} if partner else set(order)
        # A record being edited names liars, not bids: tick each liar's first bid.
        ticked = [v for v in form.not_met.data or [] if v.isdigit()]
        named = [v for v in form.not_met.data or [] if not v.isdigit()]
        for found in structured_bids(calls, order):
            if found.bidder not in sides:
                continue
            if found.bidder in named:
                ticked.append(str(found.index))
                named.remove(found.bidder)
            form.structured_list.append(
                {
                    "index": found.index,
                    "bidder": found.bidder,
                    "bid": bid_label(found.bid),
                    "kind": found.kind,
                    "requirement": found.requirement,
                    "checked": str(found.index) in ticked,
                }
            )
        form.not_met.data = ticked

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        order = upcoming.bidding_order if isinstance(upcoming, NeedAFourthNext) else []
        record: dict[str, Any] = {}
        calls = calls_from_text(form.auction.data)
        auction = checked_auction(calls, order)
        if calls:
            record["auction"] = calls
            if auction is not None and auction.last_bid is None:
                record["passed_out"] = True  # three passes typed or tapped
        for name in ("chooser", "partner"):
            if getattr(form, name).data:
                record[name] = getattr(form, name).data
        level, strain = form.level.data, form.strain.data
        if auction is not None and auction.last_bid is not None and not level and not strain:
            level, strain = auction.last_bid.level, auction.last_bid.strain
        if level and strain:
            record["contract"] = contract_fields.joined(level, strain, form.doubling.data)
        if form.doubling.data == "XX" and form.redoubled_by.data:
            record["redoubled_by"] = form.redoubled_by.data
        if form.tricks.data not in (None, ""):
            record["tricks"] = as_int(form.tricks.data)
        liars = self._liars(form, calls, order)
        if liars:
            record["liars"] = liars
        return record

    def _liars(self, form: HandForm, calls: list[str], order: list[str]) -> list[str]:
        """Bidders of the ticked structured bids, then any player ticked directly."""
        bidder_of = {}
        if checked_auction(calls, order) is not None:
            bidder_of = {str(s.index): s.bidder for s in structured_bids(calls, order)}
        liars: list[str] = []
        for name in [bidder_of.get(v) for v in form.not_met.data or []] + list(
            form.liars.data or []
        ):
            if name and name not in liars:
                liars.append(name)
        return liars

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        data = {
            k: record[k] for k in ("chooser", "partner", "redoubled_by", "tricks") if k in record
        }
        if isinstance(record.get("auction"), list):
            text = " ".join(str(call) for call in record["auction"])
            data["auction"] = data["bids_shown"] = text
            data["not_met"] = list(record.get("liars", []))  # names; prepare finds the bids
        elif "liars" in record:
            data["liars"] = list(record["liars"])
        data.update(contract_fields.split(record))
        return data

    def derive(self, form: HandForm) -> dict[str, Any]:
        """What the rules say of the auction on the form (after `prepare`): the
        structured bids of the Chooser and the Partner, for the page and the preview."""
        return {
            "calls": form.auction_text,
            "complete": form.auction_complete,
            # The auction whose list is on screen (the form's `bids_shown`).
            "shown": form.auction_text if form.auction_chooser else None,
            "bids": form.structured_list,
        }

    def context(self, outcome, upcoming: NextHand | None) -> dict[str, Any]:
        coming = upcoming if isinstance(upcoming, NeedAFourthNext) else None
        hand = coming.hand if coming else 1
        return {
            "hands_total": hand + (coming.hands_left if coming else 1) - 1,
            "derive": self.derive,
            "bids": bid_buttons(),
            "facts": {
                "bidders": coming.bidding_order if coming else [],
                "liarRule": bool(coming and coming.liar_rule),
                "symbols": STRAIN_SYMBOL,
                # When the auction is over, and the tricks each level needs: the
                # script shows the auction as it is tapped with the rules' numbers.
                "passesToEnd": PASSES_TO_END,
                "passesWithoutBid": PASSES_WITHOUT_BID,
                "needed": {level: Contract(level, STRAINS[0]).needed for level in LEVELS},
            },
        }
