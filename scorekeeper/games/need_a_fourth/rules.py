"""Need a Fourth?: three players, the auction winner picks a Partner, both must make it.

Rules: docs/variants/need-a-fourth.md. The Chooser (last bidder) and the Partner
she picks play together against the third player, the Declarer, who plays alone
with a dummy and never scores. Scores are individual and not zero-sum. The
optional liar rule makes structured bids promise a minimum; a lone liar on a
failed contract pays the Liar column.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any

from ...speech import N_, _, english, joined, ngettext
from ..common import (
    SUITS,
    Bid,
    Checks,
    Contract,
    Details,
    Game,
    HandResult,
    NextHand,
    OptionSpec,
    PlayedContract,
    overtricks,
    parse_bid,
    refusal,
    undertricks,
)

PASS = "P"
PASSES_TO_END = 2  # a bid followed by two passes ends the auction
PASSES_WITHOUT_BID = 3  # three passes and no bid: passed out
MAX_TRICKS = 13

CHOOSER, PARTNER, LIAR = "Chooser", "Partner", "Liar"

CATEGORY_SCORE = {"partial": 100, "game": 500, "small slam": 1200, "grand slam": 2000}
SLAM_LEVEL = {6: "small slam", 7: "grand slam"}
DOUBLING_BONUS = {1: {CHOOSER: 300, PARTNER: 200}, 2: {CHOOSER: 600, PARTNER: 400}}
DOUBLED_PARTIAL_BONUS = 300  # each of the two, doubled or redoubled
OVERTRICK = {0: 50, 1: 100, 2: 200}
UNDERTRICK = {
    0: {CHOOSER: -100, PARTNER: -50, LIAR: -150},
    1: {CHOOSER: -250, PARTNER: -150, LIAR: -350},
    2: {CHOOSER: -500, PARTNER: -300, LIAR: -600},
}
KIND_WORD = {  # each category (a key of the details) as players read it
    "partial": _("partial"),
    "game": _("game"),
    "small slam": _("small slam"),
    "grand slam": _("grand slam"),
}
COLUMN_WORD = {CHOOSER: _("Chooser"), PARTNER: _("Partner"), LIAR: _("Liar")}

# Structured bids (liar rule): cards needed in the suit for one of a suit as a
# first call, HCP for the NT first calls, and the lengths and HCP for raises.
OPENING_LENGTH = {"C": 4, "D": 4, "H": 5, "S": 5}
OPENING_HCP = 10
NT_OPENING_HCP = {1: 15, 2: 20}
RAISE_LENGTH = {"C": 4, "D": 4, "H": 3, "S": 3}
RAISE_HCP = {2: 5, 3: 10}
FIRST_CALL = _("first call")
RAISE_KIND = {2: _("single raise"), 3: _("double raise")}

FIELDS = frozenset(
    {"auction", "passed_out", "chooser", "partner", "contract", "redoubled_by", "tricks", "liars"}
)


def category(contract: Contract) -> str:
    """partial, game, small slam or grand slam; only the level bid counts."""
    if contract.level in SLAM_LEVEL:
        return SLAM_LEVEL[contract.level]
    return "game" if contract.is_game else "partial"


def made_parts(contract: Contract, tricks: int, column: str) -> list[tuple[int, str]]:
    """The items a made contract scores for the Chooser or the Partner column."""
    kind = category(contract)
    parts: list[tuple[int, str]] = [(CATEGORY_SCORE[kind], KIND_WORD[kind])]
    if contract.doubled:
        redoubled = contract.doubled == 2
        word = _("redoubled") if redoubled else _("doubled")
        parts.append((DOUBLING_BONUS[contract.doubled][column], word))
        if kind == "partial":
            word = _("redoubled partial") if redoubled else _("doubled partial")
            parts.append((DOUBLED_PARTIAL_BONUS, word))
    over = overtricks(contract, tricks)
    if over:
        word = ngettext("for %(num)d overtrick", "for %(num)d overtricks", over)
        parts.append((over * OVERTRICK[contract.doubled], word))
    return parts


def made_score(contract: Contract, tricks: int, column: str) -> int:
    """What the Chooser (or the Partner) gets for a made contract."""
    return sum(points for points, _ in made_parts(contract, tricks, column))


def failed_score(contract: Contract, tricks: int, column: str) -> int:
    """Undertricks times the column's penalty (Chooser, Partner or Liar)."""
    return undertricks(contract, tricks) * UNDERTRICK[contract.doubled][column]


# --- the auction ------------------------------------------------------------


@dataclass(frozen=True)
class Auction:
    """What a checked, complete auction decides: the last bid and who made it."""

    last_bid: Bid | None
    last_bidder: str | None


def _read_call(call: Any) -> Bid | None:
    """One call: None for a pass, else the Bid; ValueError says what is allowed."""
    if isinstance(call, str) and call.strip().upper() == PASS:
        return None
    if isinstance(call, str) and call.strip().upper() in ("X", "XX"):
        raise ValueError(_("double and redouble are not calls here; put X or XX in contract"))
    try:
        return parse_bid(call)
    except ValueError as exc:
        if "level" in english(refusal(exc)):  # a bid above 7: parse_bid's message is clear
            raise
        message = N_("%(typed)s is not a pass (P) or a bid like 1C, 3NT or 7S")
        raise ValueError(_(message, typed=repr(call))) from None


def parse_auction(calls: Any, bidders: list[str]) -> Auction:
    """Check a whole auction (calls from the dealer on); ValueError names the call."""
    if not isinstance(calls, list):
        raise ValueError(
            _('give a list of calls from the dealer on, e.g. ["1S", "P", "2S", "P", "P"]')
        )
    last_bid, last_bidder, passes = None, None, 0
    for i, call in enumerate(calls):
        who = bidders[i % len(bidders)]
        where = {"call": i + 1, "who": who}
        if (last_bid is None and passes == PASSES_WITHOUT_BID) or (
            last_bid is not None and passes == PASSES_TO_END
        ):
            message = N_("call %(call)d (%(who)s): the auction already ended after call %(calls)d")
            raise ValueError(_(message, **where, calls=i))
        try:
            bid = _read_call(call)
        except ValueError as exc:
            message = N_("call %(call)d (%(who)s): %(problem)s")
            raise ValueError(_(message, **where, problem=refusal(exc))) from None
        if bid is None:
            passes += 1
        elif not bid.outranks(last_bid):
            message = N_(
                "call %(call)d (%(who)s): %(bid)s is not higher than the previous bid %(last)s"
            )
            raise ValueError(_(message, **where, bid=str(bid), last=str(last_bid)))
        else:
            last_bid, last_bidder, passes = bid, who, 0
    if passes < (PASSES_TO_END if last_bid else PASSES_WITHOUT_BID):
        raise ValueError(
            _(
                "incomplete: an auction ends with a bid followed by two passes, or with "
                "three passes; give every call"
            )
        )
    return Auction(last_bid, last_bidder)


@dataclass(frozen=True)
class StructuredBid:
    """A bid that promises a minimum under the liar rule."""

    index: int  # position in the auction list, 0 = the dealer's first call
    bidder: str
    bid: str
    kind: str  # "first call", "single raise" or "double raise"
    requirement: str

    def as_json(self) -> dict[str, Any]:
        return asdict(self)


def _requirement(bid: Bid, kind: str) -> str:
    if bid.strain == "NT":
        return _("at least %(hcp)d HCP", hcp=NT_OPENING_HCP[bid.level])
    length = OPENING_LENGTH if kind == FIRST_CALL else RAISE_LENGTH
    hcp = OPENING_HCP if kind == FIRST_CALL else RAISE_HCP[bid.level]
    named = {"length": length[bid.strain], "hcp": hcp}
    return _(REQUIREMENT[bid.strain], **named)


REQUIREMENT = {  # a structured bid's promise, by its suit
    "C": N_("at least %(length)d clubs and %(hcp)d HCP"),
    "D": N_("at least %(length)d diamonds and %(hcp)d HCP"),
    "H": N_("at least %(length)d hearts and %(hcp)d HCP"),
    "S": N_("at least %(length)d spades and %(hcp)d HCP"),
}


@dataclass
class _OneBid:
    """Someone's bid of one of a suit, and who has called since (for raises)."""

    bidder: str
    structured: bool
    called_since: set[str]


def _structured(
    index: int, who: str, bid: Bid, first_call: bool, one: _OneBid | None
) -> StructuredBid | None:
    opening = (bid.level == 1 and bid.strain in SUITS) or (
        bid.strain == "NT" and bid.level in NT_OPENING_HCP
    )
    # A raise promises something only at the raiser's first call after another
    # player's structured 1-bid; passes made before that 1-bid do not matter.
    raises = (
        bid.level in RAISE_KIND
        and one is not None
        and one.structured
        and one.bidder != who
        and who not in one.called_since
    )
    if first_call and opening:
        kind = FIRST_CALL
    elif raises:
        kind = RAISE_KIND[bid.level]
    else:
        return None
    return StructuredBid(index, who, str(bid), kind, _requirement(bid, kind))


def structured_bids(auction: list[str], bidders: list[str]) -> list[StructuredBid]:
    """Every structured bid of a (checked) auction; `bidders` cycle from the dealer."""
    found: list[StructuredBid] = []
    has_called: set[str] = set()
    one_bids: dict[str, _OneBid] = {}  # suit -> the only 1-level bid in it
    for i, call in enumerate(auction):
        who = bidders[i % len(bidders)]
        bid = _read_call(call)
        entry = None
        if bid is not None:
            entry = _structured(i, who, bid, who not in has_called, one_bids.get(bid.strain))
        if entry:
            found.append(entry)
        for one in one_bids.values():
            one.called_since.add(who)
        if bid is not None and bid.level == 1 and bid.strain in SUITS:
            one_bids[bid.strain] = _OneBid(who, entry is not None, set())
        has_called.add(who)
    return found


# --- the game ---------------------------------------------------------------


@dataclass(frozen=True)
class NeedAFourthNext(NextHand):
    """The next hand of Need a Fourth: bidding order, the liar rule, hands to go."""

    bidding_order: list[str]
    liar_rule: bool
    hand: int
    hands_left: int


@dataclass(frozen=True)
class NeedAFourthDetails(PlayedContract, Details):
    """One hand: the roles as scored (the Partner who redoubled is the Chooser
    for scoring; `auction_winner` is who won the auction), the contract, its
    category and result, the liars. All None on a passed-out hand."""

    passed_out: bool
    auction_winner: str | None = None
    chooser: str | None = None
    partner: str | None = None
    declarer: str | None = None
    contract: str | None = None
    category: str | None = None
    liars: list[str] = field(default_factory=list)
    redoubled_by: str | None = None
    made: bool | None = None
    tricks: int | None = None
    # With the liar rule and an auction: its structured bids; None otherwise.
    structured_bids: list[StructuredBid] | None = None


class NeedAFourth(Game):
    id = "need-a-fourth"
    name = _("Need a Fourth?")
    summary = _("Three players; the auction winner picks a Partner and the third plays alone.")
    player_counts = (3,)
    option_specs = (
        OptionSpec(
            "hands", 9, _("hands in the match (a multiple of 3)"), low=3, high=99, multiple_of=3
        ),
        OptionSpec(
            "liar_rule",
            False,
            _("structured bids promise a minimum; liars pay more"),
            kind="bool",
        ),
    )
    hand_fields = FIELDS

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        self.played = 0  # passed-out hands count too

    def dealer(self) -> str:
        return self.players[self.played % len(self.players)]

    def bidding_order(self) -> list[str]:
        start = self.players.index(self.dealer())
        return self.players[start:] + self.players[:start]

    def is_finished(self) -> bool:
        return self.played >= self.options["hands"]

    def upcoming(self) -> NeedAFourthNext:
        return NeedAFourthNext(
            dealer=self.dealer(),
            bidding_order=self.bidding_order(),
            liar_rule=self.options["liar_rule"],
            hand=self.played + 1,
            hands_left=self.options["hands"] - self.played,
        )

    # -- one hand -------------------------------------------------------------
    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, FIELDS)
        dealer = self.dealer()
        auction = None
        if "auction" in record:
            try:
                auction = parse_auction(record["auction"], self.bidding_order())
            except ValueError as exc:
                checks.fail("auction", refusal(exc))
        passed_out = checks.get_flag("passed_out")
        if passed_out or (auction is not None and auction.last_bid is None):
            result = self._passed_out(checks, number, dealer, auction, passed_out)
        else:
            result = self._played(checks, number, dealer, auction)
        checks.done()
        self.played += 1
        self.add(result.scores)
        return result

    def _passed_out(
        self,
        checks: Checks,
        number: int,
        dealer: str,
        auction: Auction | None,
        passed_out: bool,
    ) -> HandResult:
        checks.only({"auction", "passed_out"}, _("on a passed-out hand"))
        if auction is not None and auction.last_bid is not None:
            message = N_("%(bidder)s bid %(bid)s, so the hand was not passed out")
            checks.fail(
                "passed_out", _(message, bidder=auction.last_bidder, bid=str(auction.last_bid))
            )
        if not passed_out and "passed_out" not in checks.record:
            checks.fail("passed_out", _("all three passed, so give passed_out: true"))
        lines = [_("all three passed: no score; the hand counts and the deal moves on")]
        details = NeedAFourthDetails(passed_out=True)
        return HandResult(number, dealer, True, self.zero(), lines, details)

    def _played(
        self, checks: Checks, number: int, dealer: str, auction: Auction | None
    ) -> HandResult:
        record = checks.record
        chooser = checks.get_player("chooser", self.players, required="auction" not in record)
        if auction is not None and "chooser" not in record:
            chooser = auction.last_bidder
        elif auction is not None and chooser is not None and chooser != auction.last_bidder:
            message = N_("%(chooser)s is not the last bidder; %(bidder)s bid %(bid)s")
            named = {
                "chooser": chooser,
                "bidder": auction.last_bidder,
                "bid": str(auction.last_bid),
            }
            checks.fail("chooser", _(message, **named))
        others = [p for p in self.players if p != chooser]
        what = _("one of the other two players:") if chooser else _("one of")
        partner = checks.get_player("partner", others, what=what)
        contract = checks.get_contract("contract")
        if contract and auction and auction.last_bid and contract.bid != auction.last_bid:
            message = N_("the bid part %(bid)s is not the auction's last bid %(last)s")
            checks.fail("contract", _(message, bid=str(contract.bid), last=str(auction.last_bid)))
        redoubled_by = self._check_redoubler(checks, contract, chooser, partner)
        tricks = checks.get_int("tricks", 0, MAX_TRICKS)
        liars = self._check_liars(checks, chooser, partner, auction)
        if (
            chooser is None
            or partner is None
            or contract is None
            or tricks is None
            or liars is None
            or not checks.ok
        ):
            return HandResult(number, dealer, True, self.zero(), [])
        result = self._score(
            number, dealer, chooser, partner, contract, tricks, liars, redoubled_by
        )
        if auction is not None and self.options["liar_rule"]:
            found = structured_bids(record["auction"], self.bidding_order())
            result.details = replace(result.details, structured_bids=found)
        return result

    def _check_redoubler(
        self, checks: Checks, contract: Contract | None, chooser: str | None, partner: str | None
    ) -> str | None:
        if contract is None or contract.doubled != 2:
            if contract is not None:
                checks.absent("redoubled_by", _("unless the contract is redoubled (XX)"))
            return None
        among = self.players if chooser is None or partner is None else [chooser, partner]
        return checks.get_player("redoubled_by", among, what=_("the Chooser or the Partner:"))

    def _check_liars(
        self, checks: Checks, chooser: str | None, partner: str | None, auction: Auction | None
    ) -> list[str] | None:
        if "liars" not in checks.record:
            return []
        value = checks.record["liars"]
        if not self.options["liar_rule"]:
            # An empty list changes nothing, so it is accepted with the rule off.
            if value != []:
                message = N_("only allowed with the liar rule (options.liar_rule: true)")
                checks.fail("liars", _(message))
            return []
        if not isinstance(value, list) or not all(isinstance(name, str) for name in value):
            message = N_('%(typed)s is not a list of names, e.g. ["%(player)s"]')
            checks.fail("liars", _(message, typed=repr(value), player=self.players[0]))
            return None
        structured = None
        if auction is not None:
            bidders = self.bidding_order()
            raw = checks.record["auction"]
            structured = {s.bidder for s in structured_bids(raw, bidders)}
        for i, name in enumerate(value):
            if name in value[:i]:
                checks.fail("liars", _("%(name)s is listed twice", name=name))
            elif chooser and partner and name not in (chooser, partner):
                message = N_(
                    "%(typed)s is not the Chooser or the Partner: %(chooser)s, %(partner)s"
                )
                named = {"typed": repr(name), "chooser": chooser, "partner": partner}
                checks.fail("liars", _(message, **named))
            elif structured is not None and name not in structured:
                message = N_("%(name)s made no structured bid in the auction, so cannot have lied")
                checks.fail("liars", _(message, name=name))
        return value

    def _score(
        self,
        number: int,
        dealer: str,
        chooser: str,
        partner: str,
        contract: Contract,
        tricks: int,
        liars: list[str],
        redoubled_by: str | None,
    ) -> HandResult:
        declarer = next(p for p in self.players if p not in (chooser, partner))
        auction_winner = chooser
        lines = []
        if redoubled_by == partner:
            message = N_(
                "%(partner)s redoubled after %(chooser)s passed: "
                "%(partner)s is the Chooser for scoring"
            )
            lines.append(_(message, partner=partner, chooser=chooser))
            chooser, partner = partner, chooser
        kind = category(contract)
        columns = {chooser: CHOOSER, partner: PARTNER}
        scores = self.zero()
        if tricks >= contract.needed:
            over = overtricks(contract, tricks)
            named = {"contract": str(contract), "needed": contract.needed, "tricks": tricks}
            if over:
                message = ngettext(
                    "%(contract)s needs %(needed)d tricks, %(tricks)d taken: "
                    "a %(kind)s made with %(num)d overtrick",
                    "%(contract)s needs %(needed)d tricks, %(tricks)d taken: "
                    "a %(kind)s made with %(num)d overtricks",
                    over,
                    kind=KIND_WORD[kind],
                    **named,
                )
            else:
                message = _(
                    "%(contract)s needs %(needed)d tricks, %(tricks)d taken: a %(kind)s made",
                    kind=KIND_WORD[kind],
                    **named,
                )
            lines.append(message)
            for player, column in columns.items():
                scores[player] = made_score(contract, tricks, column)
                parts = joined(
                    " + ",
                    [
                        _("%(points)d %(what)s", points=points, what=label)
                        for points, label in made_parts(contract, tricks, column)
                    ],
                )
                message = N_("%(player)s (%(column)s): %(parts)s = %(score)+d")
                column_word = COLUMN_WORD[column]
                lines.append(
                    _(message, player=player, column=column_word, parts=parts, score=scores[player])
                )
            if len(liars) == 1:
                message = N_("%(liar)s lied, but the contract made: no change")
                lines.append(_(message, liar=liars[0]))
            elif liars:
                message = N_("%(first)s and %(second)s lied, but the contract made: no change")
                lines.append(_(message, first=liars[0], second=liars[1]))
        else:
            down = undertricks(contract, tricks)
            message = N_("%(contract)s needs %(needed)d tricks, %(tricks)d taken: down %(down)d")
            named = {"contract": str(contract), "needed": contract.needed, "tricks": tricks}
            lines.append(_(message, **named, down=down))
            if len(liars) == 1:
                liar = liars[0]
                honest = partner if liar == chooser else chooser
                columns = {liar: LIAR, honest: PARTNER}
                message = N_(
                    "only %(liar)s lied: %(liar)s pays the Liar column, "
                    "%(honest)s the Partner column"
                )
                lines.append(_(message, liar=liar, honest=honest))
            elif liars:
                message = N_("%(first)s and %(second)s both lied: scored as usual")
                lines.append(_(message, first=liars[0], second=liars[1]))
            per = UNDERTRICK[contract.doubled]
            for player, column in columns.items():
                scores[player] = failed_score(contract, tricks, column)
                message = N_("%(player)s (%(column)s): %(down)d × %(each)d = %(score)+d")
                named = {"player": player, "column": COLUMN_WORD[column], "down": down}
                lines.append(_(message, **named, each=per[column], score=scores[player]))
        lines.append(_("%(declarer)s (Declarer) scores 0", declarer=declarer))
        details = NeedAFourthDetails(
            passed_out=False,
            auction_winner=auction_winner,
            chooser=chooser,
            partner=partner,
            declarer=declarer,
            contract=str(contract),
            category=kind,
            liars=list(liars),
            redoubled_by=redoubled_by,
            made=tricks >= contract.needed,
            tricks=tricks,
        )
        return HandResult(number, dealer, True, scores, lines, details)


def redoubler_refused(players: list[str], chooser: str, partner: str) -> dict[str, str]:
    """Who may not redouble once the Chooser and the Partner are known: the
    Declarer (the third player), who may only double."""
    reason = _("the Declarer may only double")
    return {p: reason for p in players if p not in (chooser, partner)}
