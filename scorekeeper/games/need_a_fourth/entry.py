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

from wtforms import HiddenField, SelectMultipleField, StringField, ValidationError
from wtforms.validators import Length, Optional

from ...entry import HandEntry, HandForm, as_int, choice_field, number_choices, player_choices
from ..common import DOUBLING_SUFFIX, STRAIN_SYMBOL, STRAINS, SUITS, parse_contract
from .rules import PASS, Auction, parse_auction, structured_bids

DOUBLING = [("", "—"), ("X", "X"), ("XX", "XX")]
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


def requirement_table() -> dict[str, dict[str, str]]:
    """Every bid that can be structured -> its kind and requirement, for the page's
    script; read off the rules' own `structured_bids` so the wording is theirs."""
    seats = ["a", "b", "c"]
    table: dict[str, dict[str, str]] = {}
    samples = [[f"1{s}", f"2{s}", f"3{s}", PASS, PASS] for s in SUITS]
    samples.append(["1NT", "2NT", PASS, PASS])
    for calls in samples:
        for found in structured_bids(calls, seats):
            table[found.bid] = {"kind": found.kind, "requirement": found.requirement}
    return table


def bid_label(bid: str) -> str:
    """`"4S"` -> `"4♠"` for the page."""
    level, strain = bid[:1], bid[1:]
    return f"{level}{STRAIN_SYMBOL.get(strain, strain)}"


class NeedAFourthForm(HandForm):
    auction = StringField(
        "Auction from the dealer, e.g. 1C P 1H P P",
        validators=[Optional(), Length(max=MAX_AUCTION_TEXT)],
    )
    # The auction for which the structured bids were on screen (set by the page).
    bids_shown = HiddenField()
    chooser = choice_field("Chooser", [])
    partner = choice_field("Partner")
    level = choice_field("Level", number_choices(1, 7))
    strain = choice_field("Strain", [(s, STRAIN_SYMBOL[s]) for s in STRAINS])
    tricks = choice_field("Tricks won by Chooser and Partner", number_choices(0, 13))
    doubling = choice_field("Doubled by the Declarer?", DOUBLING)
    redoubled_by = choice_field("Redoubled by")
    not_met = SelectMultipleField("Requirement not met", choices=[], validate_choice=False)
    liars = SelectMultipleField("Who lied?", choices=[], validate_choice=False)

    # Set by NeedAFourthEntry.prepare: the liar check needs the match's state.
    liar_rule = False
    structured_list: list[dict[str, Any]] = []
    auction_text = ""
    auction_chooser: str | None = None
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
    field_for = {"contract": "strain", "passed_out": "quick"}
    quick_actions = {"passed_out": "All passed"}

    def prepare(self, form: HandForm, players: list[str], upcoming: dict[str, Any]) -> None:
        order = upcoming.get("bidding_order", players)
        for name in ("chooser", "partner", "redoubled_by", "liars"):
            getattr(form, name).choices = player_choices(order)
        form.liar_rule = bool(upcoming.get("liar_rule"))
        calls = calls_from_text(form.auction.data)
        form.auction_text = " ".join(calls)
        auction = checked_auction(calls, order)
        form.structured_list = []
        form.failing = False
        form.auction_chooser = auction.last_bidder if auction is not None else None
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

    def to_record(self, form: HandForm, upcoming: dict[str, Any]) -> dict[str, Any]:
        order = upcoming.get("bidding_order", [])
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
            record["contract"] = f"{level}{strain}{form.doubling.data or ''}"
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
        if "contract" in record:
            try:
                contract = parse_contract(record["contract"])
            except ValueError:
                return data
            data["level"] = contract.level
            data["strain"] = contract.strain
            data["doubling"] = DOUBLING_SUFFIX[contract.doubled]
        return data

    def context(self, outcome, upcoming: dict[str, Any]) -> dict[str, Any]:
        hand = upcoming.get("hand", 1)
        return {
            "hands_total": hand + upcoming.get("hands_left", 1) - 1,
            "facts": {
                "bidders": upcoming.get("bidding_order", []),
                "liarRule": bool(upcoming.get("liar_rule")),
                "requirements": requirement_table(),
                "symbols": STRAIN_SYMBOL,
            },
        }
