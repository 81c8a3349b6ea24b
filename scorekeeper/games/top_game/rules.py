"""The Top Game: three players and a dummy, playnumber contracts, per-opponent points.

Rules: docs/variants/top-game.md. Every score is "per opponent": declarer gains
2s, each opponent loses s, and doubling payments pass between declarer and the
doubler only, so every hand sums to zero.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...speech import N_, _, ngettext
from ..common import (
    SUITS,
    Checks,
    Contract,
    Details,
    Game,
    HandResult,
    LogFacts,
    NextHand,
    OptionSpec,
    Summary,
    _is_int,
    overtricks,
    undertricks,
)


@dataclass(frozen=True)
class TopGameSummary(Summary):
    per_half: int  # hands per half
    dealing_orders: list[list[str]]  # the first half's and the second's

    def dealing_order(self, half: int) -> list[str]:
        return self.dealing_orders[half - 1]


MIN_BID, MAX_BID = 2, 13
MAX_TOPS = 12  # aces, kings and queens in one hand
PASSED_OUT_PN = 4  # a playnumber of 4 or less passes the hand out
MAX_DOUBLABLE_PN = 10
MADE_BASE = 4
DOWN_SCORE = {1: 0, 2: -2}  # 3 or more down: DOWN_3_OR_MORE
DOWN_3_OR_MORE = -4
DOUBLING_PAYMENT = {1: 3, 2: 6}
RAISE_PENALTY = -6
MISINFORMATION_PENALTY = -2

FIELDS = frozenset(
    {
        "bids",
        "passed_out",
        "declarer",
        "bid",
        "declarer_tops",
        "dummy_tops",
        "dummy_longest",
        "contract",
        "doubler",
        "tricks",
        "misinformation",
    }
)


def level_for(pn: int, strain: str) -> int:
    """Contract level the playnumber gives: pn + 2 tricks in NT, pn + 3 in a suit."""
    return pn - 4 if strain == "NT" else pn - 3


def playnumbers() -> dict[int, dict[str, Any]]:
    """Every playnumber a hand can have and what it means: passed out, or the
    level in no trumps and in a suit and whether the contract may be doubled."""
    facts: dict[int, dict[str, Any]] = {}
    for pn in range(MIN_BID, MAX_BID + MAX_TOPS + 1):
        if pn <= PASSED_OUT_PN:
            facts[pn] = {"passed_out": True}
        else:
            facts[pn] = {
                "passed_out": False,
                "nt_level": level_for(pn, "NT"),
                "suit_level": level_for(pn, "S"),
                "doublable": pn <= MAX_DOUBLABLE_PN,
            }
    return facts


def per_opponent_score(contract: Contract, tricks: int) -> int:
    """`s` for a hand that was played: made 4 + overtricks; down 1: 0, 2: −2, more: −4."""
    down = undertricks(contract, tricks)
    if down == 0:
        return MADE_BASE + overtricks(contract, tricks)
    return DOWN_SCORE.get(down, DOWN_3_OR_MORE)


def spread(declarer: str, players: list[str], s: int) -> dict[str, int]:
    """Declarer gains 2s, each opponent loses s."""
    return {p: 2 * s if p == declarer else -s for p in players}


@dataclass(frozen=True)
class TopGameNext(NextHand):
    """The next hand of Top Game: its half, its place in the half, who deals and bids."""

    half: int
    hand_in_half: int
    dealing_order: list[str]
    bidding_order: list[str]


@dataclass(frozen=True)
class TopGameDetails(Details):
    """A Top Game hand on the sheet: its half, and the note under the dealer's score."""

    half: int

    @property
    def note(self) -> str:
        raise NotImplementedError


@dataclass(frozen=True)
class TopGamePlayed(TopGameDetails):
    """A hand bid out: the final bid, dummy's tops, their playnumber, and the
    contract it gave ("passed" when the playnumber passed the hand out)."""

    bid: int
    dummy_tops: int
    pn: int
    declarer: str
    contract: str
    raise_penalty: bool = False  # the declarer held more tops than the bid

    @property
    def note(self) -> str:
        if self.contract == "passed":
            return _("%(bid)d · %(tops)d · passed", bid=self.bid, tops=self.dummy_tops)
        return f"{self.bid} · {self.dummy_tops} · {self.contract}"

    def log_facts(self) -> LogFacts:
        return LogFacts(declarer=self.declarer, contract=self.contract)


@dataclass(frozen=True)
class TopGamePassedOut(TopGameDetails):
    """All three passed."""

    @property
    def note(self) -> str:
        return _("passed out")


@dataclass(frozen=True)
class TopGameMisinformation(TopGameDetails):
    """Dummy was misdescribed by `informer`: not counted, dealt again."""

    informer: str

    @property
    def note(self) -> str:
        return _("wrong dummy information")


class TopGame(Game):
    id = "top-game"
    name = _("The Top Game")
    summary = _("Three players and a dummy; the bid plus dummy's tops fixes the contract.")
    player_counts = (3,)
    option_specs = (
        OptionSpec(
            "hands_per_half", 6, _("counted hands in each half of the match"), low=1, high=30
        ),
    )
    hand_fields = FIELDS

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        self.counted = 0

    # -- where the match stands ---------------------------------------------
    @property
    def per_half(self) -> int:
        return self.options["hands_per_half"]

    def half(self) -> int:
        return 1 if self.counted < self.per_half else 2

    def dealing_order(self, half: int | None = None) -> list[str]:
        """A, B, C in the first half; B and C change places for the second."""
        a, b, c = self.players
        return [a, b, c] if (half or self.half()) == 1 else [a, c, b]

    def dealer(self) -> str:
        return self.dealing_order()[(self.counted % self.per_half) % 3]

    def bidding_order(self) -> list[str]:
        order = self.dealing_order()
        start = order.index(self.dealer())
        return order[start:] + order[:start]

    def is_finished(self) -> bool:
        return self.counted >= 2 * self.per_half

    def summarize(self) -> TopGameSummary:
        return TopGameSummary(self.per_half, [self.dealing_order(1), self.dealing_order(2)])

    def upcoming(self) -> TopGameNext:
        return TopGameNext(
            dealer=self.dealer(),
            half=self.half(),
            hand_in_half=self.counted % self.per_half + 1,
            dealing_order=self.dealing_order(),
            bidding_order=self.bidding_order(),
        )

    # -- one hand -------------------------------------------------------------
    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, FIELDS)
        dealer = self.dealer()
        high_bid, high_bidder = self._check_bids(checks)

        if "misinformation" in record:
            result = self._misinformation(checks, number, dealer)
        elif record.get("passed_out") is not None or (
            "bids" in record and high_bidder is None and checks.ok
        ):
            result = self._passed_out(checks, number, dealer, high_bidder)
        else:
            result = self._played(checks, number, dealer, high_bid, high_bidder)
        checks.done()
        if result.counted:
            self.counted += 1
        self.add(result.scores)
        return result

    def _check_bids(self, checks: Checks) -> tuple[int | None, str | None]:
        """Check the auction; return the highest bid and who made it."""
        if "bids" not in checks.record:
            return None, None
        calls = checks.record["bids"]
        order = self.bidding_order()
        if not isinstance(calls, list) or len(calls) != 3:
            players = ", ".join(order)
            checks.fail(
                "bids", _("give exactly 3 calls, one each from %(players)s", players=players)
            )
            return None, None
        high, bidder = None, None
        for who, call in zip(order, calls, strict=True):
            if call is None:
                continue
            if not _is_int(call):
                message = N_("%(who)s: %(typed)s is not a whole number or a pass (null)")
                checks.fail("bids", _(message, who=who, typed=repr(call)))
                return None, None
            if high is None and call < MIN_BID:
                message = N_("%(who)s: the first bid must be at least %(least)d, not %(call)d")
                checks.fail("bids", _(message, who=who, least=MIN_BID, call=call))
                return None, None
            if call > MAX_BID:
                message = N_("%(who)s: %(call)d is above the highest bid %(most)d")
                checks.fail("bids", _(message, who=who, call=call, most=MAX_BID))
                return None, None
            if high is not None and call <= high:
                message = N_("%(who)s: %(call)d is not higher than the previous bid %(high)d")
                checks.fail("bids", _(message, who=who, call=call, high=high))
                return None, None
            high, bidder = call, who
        return high, bidder

    def _misinformation(self, checks: Checks, number: int, dealer: str) -> HandResult:
        checks.only({"bids", "declarer", "misinformation"}, _("when dummy was misdescribed"))
        declarer = checks.get_player("declarer", self.players)
        informer = None
        if declarer is not None:
            opponents = [p for p in self.players if p != declarer]
            informer = checks.get_player(
                "misinformation", opponents, what=_("one of declarer's opponents")
            )
        if informer is None:
            return HandResult(number, dealer, False, self.zero(), [])
        scores = spread(informer, self.players, MISINFORMATION_PENALTY)
        return HandResult(
            number,
            dealer,
            False,
            scores,
            [
                _(
                    "%(informer)s gave wrong information about dummy: %(penalty)d per opponent, "
                    "so %(informer)s %(score)+d, each other player %(each)+d",
                    informer=informer,
                    penalty=MISINFORMATION_PENALTY,
                    score=scores[informer],
                    each=-MISINFORMATION_PENALTY,
                ),
                _("not counted: %(dealer)s deals again", dealer=dealer),
            ],
            TopGameMisinformation(self.half(), informer),
        )

    def _passed_out(
        self, checks: Checks, number: int, dealer: str, high_bidder: str | None
    ) -> HandResult:
        checks.only({"bids", "passed_out"}, _("on a passed-out hand"))
        flag = checks.get_bool("passed_out")
        if flag is False:
            checks.fail("passed_out", _("all three passed, so give passed_out: true"))
        if flag and high_bidder is not None:
            message = N_("%(bidder)s bid, so the hand was not passed out")
            checks.fail("passed_out", _(message, bidder=high_bidder))
        if "bids" in checks.record and "passed_out" not in checks.record:
            checks.fail("passed_out", _("all three passed, so give passed_out: true"))
        lines = [_("all three passed: no score")]
        return HandResult(number, dealer, True, self.zero(), lines, TopGamePassedOut(self.half()))

    def _played(
        self,
        checks: Checks,
        number: int,
        dealer: str,
        high_bid: int | None,
        high_bidder: str | None,
    ) -> HandResult:
        declarer = checks.get_player("declarer", self.players)
        if declarer is not None and high_bidder is not None and declarer != high_bidder:
            message = N_("%(declarer)s is not the highest bidder %(bidder)s")
            checks.fail("declarer", _(message, declarer=declarer, bidder=high_bidder))
        bid = checks.get_int("bid", MIN_BID, MAX_BID)
        if bid is not None and high_bid is not None and bid < high_bid:
            message = N_("%(bid)d is lower than the auction's highest bid %(high)d")
            checks.fail("bid", _(message, bid=bid, high=high_bid))
        declarer_tops = checks.get_int("declarer_tops", 0, MAX_TOPS, required=False)
        dummy_tops = checks.get_int("dummy_tops", 0, MAX_TOPS)
        if (declarer_tops or 0) + (dummy_tops or 0) > MAX_TOPS:
            checks.fail(
                "dummy_tops",
                _(
                    "declarer %(declarer)d + dummy %(dummy)d tops is more than the %(most)d "
                    "in the deck",
                    declarer=declarer_tops or 0,
                    dummy=dummy_tops or 0,
                    most=MAX_TOPS,
                ),
            )
        self._check_longest(checks)
        if declarer is None or bid is None or dummy_tops is None:
            # Without a playnumber the level cannot be checked; the rest still can.
            if "contract" in checks.record:
                checks.get_contract("contract", max_level=None)
            checks.get_int("tricks", 0, 13, required=False)
            return HandResult(number, dealer, True, self.zero(), [])

        pn = bid + dummy_tops
        lines: list[str] = []
        sum_pn = {"bid": bid, "tops": dummy_tops, "pn": pn}
        raise_penalty = declarer_tops is not None and declarer_tops > bid
        note = {"bid": bid, "dummy_tops": dummy_tops, "pn": pn, "declarer": declarer}
        note["raise_penalty"] = raise_penalty
        opponents = [p for p in self.players if p != declarer]

        if pn <= PASSED_OUT_PN:
            for name in ("contract", "doubler", "tricks"):
                checks.absent(name, _("when the playnumber %(pn)d passes the hand out", pn=pn))
            lines.append(
                _(
                    "pn = %(bid)d + %(tops)d = %(pn)d → %(most)d or less: the hand is passed out",
                    **sum_pn,
                    most=PASSED_OUT_PN,
                )
            )
            s = 0
            note["contract"] = "passed"
        else:
            contract = checks.get_contract("contract", max_level=None)
            tricks = checks.get_int("tricks", 0, 13)
            if contract is None:
                return HandResult(number, dealer, True, self.zero(), [])
            level = level_for(pn, contract.strain)
            if contract.level != level:
                named = {"pn": pn, "level": level, "given": contract.level}
                if contract.strain == "NT":
                    message = _("pn %(pn)d in NT gives level %(level)d, not %(given)d", **named)
                else:
                    message = _("pn %(pn)d in a suit gives level %(level)d, not %(given)d", **named)
                checks.fail("contract", message)
            if contract.doubled and pn > MAX_DOUBLABLE_PN:
                message = N_("pn %(pn)d is above %(most)d: the contract cannot be doubled")
                checks.fail("contract", _(message, pn=pn, most=MAX_DOUBLABLE_PN))
            doubler = None
            if contract.doubled:
                what = _("the opening leader, one of")
                doubler = checks.get_player("doubler", opponents, what=what)
            else:
                checks.absent("doubler", _("when the contract is not doubled"))
            if tricks is None or not checks.ok:
                return HandResult(number, dealer, True, self.zero(), [])
            lines.append(
                _(
                    "pn = %(bid)d + %(tops)d = %(pn)d → %(contract)s needs %(needed)d tricks",
                    **sum_pn,
                    contract=str(contract.bid),
                    needed=contract.needed,
                )
            )
            note["contract"] = str(contract)
            s, more = self._play_lines(contract, tricks)
            lines += more
            if not raise_penalty and doubler is not None:
                scores = spread(declarer, self.players, s)
                payment = DOUBLING_PAYMENT[contract.doubled]
                named = {"doubler": doubler, "payment": payment}
                redoubled = contract.doubled == 2
                if tricks >= contract.needed:
                    scores[declarer] += payment
                    scores[doubler] -= payment
                    if redoubled:
                        line = N_(
                            "doubled by %(doubler)s and redoubled: "
                            "%(doubler)s pays %(payment)d more"
                        )
                    else:
                        line = N_("doubled by %(doubler)s: %(doubler)s pays %(payment)d more")
                else:
                    scores[declarer] -= payment
                    scores[doubler] += payment
                    if redoubled:
                        line = N_(
                            "doubled by %(doubler)s and redoubled: "
                            "%(doubler)s receives %(payment)d more"
                        )
                    else:
                        line = N_("doubled by %(doubler)s: %(doubler)s receives %(payment)d more")
                lines.append(_(line, **named))
                return self._result(number, dealer, scores, lines, note)

        if raise_penalty:
            lines.append(
                _(
                    "%(declarer)s held %(tops)d tops but bid %(bid)d and did not raise: "
                    "%(penalty)d per opponent whatever the play",
                    declarer=declarer,
                    tops=declarer_tops,
                    bid=bid,
                    penalty=RAISE_PENALTY,
                )
            )
            s = RAISE_PENALTY
        elif pn <= PASSED_OUT_PN:
            lines.append(_("no score"))
        scores = spread(declarer, self.players, s)
        if s:
            message = N_("%(declarer)s %(score)+d, each opponent %(each)+d")
            lines.append(_(message, declarer=declarer, score=scores[declarer], each=-s))
        return self._result(number, dealer, scores, lines, note)

    @staticmethod
    def _play_lines(contract: Contract, tricks: int) -> tuple[int, list[str]]:
        s = per_opponent_score(contract, tricks)
        over, down = overtricks(contract, tricks), undertricks(contract, tricks)
        if down == 0 and over == 0:
            message = N_("%(contract)s made exactly: %(base)d from each opponent")
            text = _(message, contract=str(contract.bid), base=MADE_BASE)
        elif down == 0:
            text = ngettext(
                "%(contract)s made with %(num)d overtrick: %(base)d + %(num)d = %(s)d from each "
                "opponent",
                "%(contract)s made with %(num)d overtricks: %(base)d + %(num)d = %(s)d from each "
                "opponent",
                over,
                contract=str(contract.bid),
                base=MADE_BASE,
                s=s,
            )
        else:
            message = N_("%(contract)s down %(down)d: %(s)d per opponent")
            text = _(message, contract=str(contract.bid), down=down, s=s)
        return s, [text]

    def _result(
        self,
        number: int,
        dealer: str,
        scores: dict[str, int],
        lines: list[str],
        note: dict[str, Any],
    ) -> HandResult:
        return HandResult(number, dealer, True, scores, lines, TopGamePlayed(self.half(), **note))

    @staticmethod
    def _check_longest(checks: Checks) -> None:
        if "dummy_longest" not in checks.record:
            return
        value = checks.record["dummy_longest"]
        ok = (
            isinstance(value, str)
            and len(value) >= 2
            and value[0].upper() in SUITS
            and value[1:].isascii()
            and value[1:].isdigit()
            and 4 <= int(value[1:]) <= 13
        )
        if not ok:
            message = N_("%(typed)s is not a suit letter and length 4–13, e.g. D5")
            checks.fail("dummy_longest", _(message, typed=repr(value)))


# -- what the hand form may offer --------------------------------------------


def doubling_refused(pn: int) -> str | None:
    """Why a contract at playnumber `pn` may not be doubled, or None when it may."""
    if pn > MAX_DOUBLABLE_PN:
        message = N_("playnumber %(pn)d is above %(most)d, so nobody may double")
        return _(message, pn=pn, most=MAX_DOUBLABLE_PN)
    return None


def declarer_tops_refused(dummy_tops: int) -> dict[int, str]:
    """Declarer's tops the deck cannot hold beside `dummy_tops` in dummy, with why."""
    most = MAX_TOPS - dummy_tops
    reason = _(
        "dummy holds %(dummy)d of the %(all)d tops, so declarer at most %(most)d",
        dummy=dummy_tops,
        all=MAX_TOPS,
        most=most,
    )
    return {tops: reason for tops in range(max(most + 1, 0), MAX_TOPS + 1)}
