"""Bridge for Three: cut-throat bidding, three players a hand, a race along a peg board.

Rules: docs/variants/bridge-for-three.md. Only the declarer's peg moves, except
when a set would take it below the floor: the holes that do not fit there move
every other player of the match forward instead. Totals are peg positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...speech import N_, _, ngettext
from ..common import (
    Bid,
    Checks,
    Contract,
    Details,
    Game,
    HandResult,
    NextHand,
    PlayedContract,
    parse_bid,
    refusal,
    together,
    undertricks,
)

HAND_SIZE = 3  # players taking part in each hand
FLOOR = -6  # the lowest hole on the board
WINNING_HOLE = 11
DOUBLED_FACTOR = 2
PASS, DOUBLE, REDOUBLE = "P", "X", "XX"
CALL_HINT = '"P", a bid like 2S, or "X"'

FIELDS = frozenset({"auction", "passed_out", "declarer", "contract", "doubler", "tricks"})


@dataclass(frozen=True)
class Auction:
    """What a complete auction settled: None as bidder when all three passed."""

    bid: Bid | None
    bidder: str | None
    doubler: str | None

    @property
    def contract(self) -> str:
        return f"{self.bid}{DOUBLE if self.doubler else ''}"


def peg_move(contract: Contract, tricks: int) -> int:
    """Holes the declarer moves: +level when made (no overtricks), −undertricks when set."""
    down = undertricks(contract, tricks)
    move = -down if down else contract.level
    return move * DOUBLED_FACTOR if contract.doubled else move


def apply_move(pegs: dict[str, int], declarer: str, move: int) -> tuple[dict[str, int], int]:
    """New peg positions after the declarer's move, and the overflow below the floor.

    Whatever would take the declarer below the floor moves everyone else forward;
    no peg goes past the winning hole.
    """
    target = pegs[declarer] + move
    overflow = max(0, FLOOR - target)
    after = {p: pos + overflow for p, pos in pegs.items()}
    after[declarer] = max(FLOOR, target)
    return {p: min(WINNING_HOLE, pos) for p, pos in after.items()}, overflow


def read_auction(calls: Any, order: list[str]) -> tuple[Auction | None, str | None]:
    """Check an auction called round `order` from the dealer; (result, problem)."""
    if not isinstance(calls, list):
        message = N_("give a list of calls from %(dealer)s on, each %(hint)s")
        return None, _(message, dealer=order[0], hint=CALL_HINT)
    high: Bid | None = None
    bidder = doubler = None
    passes = 0
    for i, call in enumerate(calls):
        who = order[i % HAND_SIZE]
        where = {"call": i + 1, "who": who}
        if passes == (2 if bidder else HAND_SIZE):
            message = N_(
                "call %(call)d (%(who)s): the auction was already over after call %(calls)d"
            )
            return None, _(message, **where, calls=i)
        text = call.strip().upper() if isinstance(call, str) else call
        if text == PASS:
            passes += 1
        elif text == REDOUBLE:
            return None, _(
                "call %(call)d (%(who)s): redoubling is not allowed in this game", **where
            )
        elif text == DOUBLE:
            if high is None:
                return None, _("call %(call)d (%(who)s): there is no bid to double", **where)
            if bidder == who:
                message = N_(
                    "call %(call)d (%(who)s): %(who)s made the last bid %(high)s; "
                    "only an opponent may double"
                )
                return None, _(message, **where, high=str(high))
            if doubler is not None:
                message = N_("call %(call)d (%(who)s): %(high)s is already doubled by %(doubler)s")
                return None, _(message, **where, high=str(high), doubler=doubler)
            doubler, passes = who, 0
        else:
            try:
                bid = parse_bid(call)
            except ValueError as exc:
                problem = refusal(exc)
                if isinstance(call, str) and call[:1].isdigit():
                    return None, _("call %(call)d (%(who)s): %(problem)s", **where, problem=problem)
                message = N_("call %(call)d (%(who)s): %(problem)s; give %(hint)s")
                return None, _(message, **where, problem=problem, hint=CALL_HINT)
            if not bid.outranks(high):
                message = N_(
                    "call %(call)d (%(who)s): %(bid)s is not higher than the previous bid %(high)s"
                )
                return None, _(message, **where, bid=str(bid), high=str(high))
            high, bidder, doubler, passes = bid, who, None, 0
    if passes < (2 if bidder else HAND_SIZE):
        message = N_(
            "not finished: two passes must follow the last bid or double (three if no bid)"
        )
        return None, _(message)
    return Auction(high, bidder, doubler), None


@dataclass(frozen=True)
class BridgeForThreeNext(NextHand):
    """The next hand of Bridge for Three: who calls, who sits out, the pegs so far."""

    players: list[str]
    sitting_out: list[str]
    pegs: dict[str, int]


@dataclass(frozen=True)
class BridgeForThreeDetails(PlayedContract, Details):
    """One hand on the peg board: who played and sat out, the contract and how
    far the declarer's peg moved (`moved`, before the floor or hole 11 stop it;
    `overflow`, the holes the floor pushed onto the others), the pegs after."""

    players: list[str]  # this hand's three, in calling order
    sitting_out: list[str]
    pegs_after: dict[str, int]
    passed_out: bool = False
    declarer: str | None = None
    contract: str | None = None
    doubler: str | None = None
    tricks: int | None = None
    moved: int = 0
    overflow: int = 0


class BridgeForThree(Game):
    id = "bridge-for-three"
    name = _("Bridge for Three")
    summary = _("Cut-throat bidding for 3–5 players; pegs race from 0 to hole 11, floor at −6.")
    player_counts = (3, 4, 5)
    option_specs = ()
    hand_fields = FIELDS

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        self.hands_dealt = 0  # every hand, passed out or not, moves the deal on

    # -- where the match stands ---------------------------------------------
    def dealer(self) -> str:
        return self.players[self.hands_dealt % len(self.players)]

    def hand_players(self) -> list[str]:
        """This hand's three players in calling order: the dealer and the next two."""
        start = self.hands_dealt % len(self.players)
        return [self.players[(start + i) % len(self.players)] for i in range(HAND_SIZE)]

    def sitting_out(self) -> list[str]:
        playing = self.hand_players()
        return [p for p in self.players if p not in playing]

    def is_finished(self) -> bool:
        return any(pos >= WINNING_HOLE for pos in self.totals.values())

    def upcoming(self) -> BridgeForThreeNext:
        return BridgeForThreeNext(
            dealer=self.dealer(),
            players=self.hand_players(),
            sitting_out=self.sitting_out(),
            pegs=dict(self.totals),
        )

    # -- one hand -------------------------------------------------------------
    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, FIELDS)
        playing = self.hand_players()
        auction = None
        if "auction" in record:
            auction, problem = read_auction(record["auction"], playing)
            if problem:
                checks.fail("auction", problem)
        passed_out = checks.get_flag("passed_out")
        if passed_out or (auction is not None and auction.bidder is None):
            play = None
            self._check_passed_out(checks, auction, passed_out)
        else:
            play = self._check_played(checks, auction, playing)
        checks.done()

        sitting_out = self.sitting_out()
        lines: list[str] = []
        if sitting_out:
            lines.append(_("%(players)s sat this hand out", players=", ".join(sitting_out)))
        played: dict[str, Any] = {}
        if play is None:
            scores = self.zero()
            lines.append(_("all three passed: no peg moves and the deal passes on"))
        else:
            scores, played = self._score(play, lines)
        self.add(scores)
        self.hands_dealt += 1
        details = BridgeForThreeDetails(
            players=playing,
            sitting_out=sitting_out,
            pegs_after=dict(self.totals),
            passed_out=play is None,
            **played,
        )
        reached = [p for p in self.players if self.totals[p] >= WINNING_HOLE]
        if len(reached) == 1:
            message = N_("%(player)s reaches hole %(hole)d and wins the game")
            lines.append(_(message, player=reached[0], hole=WINNING_HOLE))
        elif reached:
            players = together(reached)
            message = N_("%(players)s reach hole %(hole)d together: a tie")
            lines.append(_(message, players=players, hole=WINNING_HOLE))
        return HandResult(number, playing[0], True, scores, lines, details)

    def _check_passed_out(self, checks: Checks, auction: Auction | None, flag: bool) -> None:
        checks.only({"auction", "passed_out"}, _("on a passed-out hand"))
        if auction is not None and auction.bidder is not None and flag:
            message = N_("%(bidder)s bid %(bid)s, so it was not passed out")
            checks.fail("passed_out", _(message, bidder=auction.bidder, bid=str(auction.bid)))
        if not flag:
            checks.fail("passed_out", _("all three passed, so give passed_out: true"))

    def _check_played(
        self, checks: Checks, auction: Auction | None, playing: list[str]
    ) -> tuple[str, Contract, str | None, int] | None:
        declarer = checks.get_player("declarer", playing, what=_("one of this hand's players"))
        contract = checks.get_contract("contract")
        tricks = checks.get_int("tricks", 0, 13)
        if contract is not None and contract.doubled > 1:
            message = N_("redoubling is not allowed in this game; use %(bid)sX")
            checks.fail("contract", _(message, bid=str(contract.bid)))
        if auction is not None:
            if declarer is not None and declarer != auction.bidder:
                message = N_("%(declarer)s is not the last bidder %(bidder)s")
                checks.fail("declarer", _(message, declarer=declarer, bidder=auction.bidder))
            if contract is not None and str(contract) != auction.contract:
                message = N_("%(contract)s does not match the auction's %(auctions)s")
                named = {"contract": str(contract), "auctions": auction.contract}
                checks.fail("contract", _(message, **named))
        doubler = None
        if contract is not None and contract.doubled and "doubler" in checks.record:
            opponents = [p for p in playing if p != declarer]
            doubler = checks.get_player(
                "doubler", opponents, what=_("declarer's opponent in this hand, one of")
            )
            # With no double in the auction the contract check has said it already.
            if doubler and auction and auction.doubler and doubler != auction.doubler:
                message = N_("%(doubler)s did not double; %(auctions)s did")
                checks.fail("doubler", _(message, doubler=doubler, auctions=auction.doubler))
        elif contract is not None and contract.doubled and auction is not None:
            doubler = auction.doubler  # the auction names the doubler when the hand does not
        elif contract is not None and not contract.doubled:
            checks.absent("doubler", _("when the contract is not doubled"))
        if declarer is None or contract is None or tricks is None:
            return None
        return declarer, contract, doubler, tricks

    def _score(
        self,
        play: tuple[str, Contract, str | None, int],
        lines: list[str],
    ) -> tuple[dict[str, int], dict[str, Any]]:
        """Each player's peg move, and the facts of the play for the details."""
        declarer, contract, doubler, tricks = play
        move = peg_move(contract, tricks)
        after, overflow = apply_move(self.totals, declarer, move)
        scores = {p: after[p] - self.totals[p] for p in self.players}
        played = {
            "declarer": declarer,
            "contract": str(contract),
            "doubler": doubler,
            "tricks": tricks,
            "moved": move,
            "overflow": overflow,
        }

        down = undertricks(contract, tricks)
        base = -down if down else contract.level
        named = {"contract": str(contract), "tricks": tricks}
        if down:
            text = _(
                "%(contract)s down %(down)d (%(tricks)d tricks): back %(down)d", **named, down=down
            )
        elif tricks > contract.needed:
            message = N_(
                "%(contract)s made with %(tricks)d tricks: forward %(base)d, overtricks never count"
            )
            text = _(message, **named, base=base)
        else:
            text = _("%(contract)s made (%(tricks)d tricks): forward %(base)d", **named, base=base)
        if contract.doubled:
            named = {"play": text, "factor": DOUBLED_FACTOR, "base": abs(base), "move": abs(move)}
            if doubler:
                message = N_(
                    "%(play)s; doubled by %(doubler)s, so %(factor)d × %(base)d = %(move)d"
                )
                text = _(message, **named, doubler=doubler)
            else:
                text = _("%(play)s; doubled, so %(factor)d × %(base)d = %(move)d", **named)
        lines.append(text)
        start, end = self.totals[declarer], after[declarer]
        named = {"declarer": declarer, "start": start, "end": end}
        if start + move > WINNING_HOLE:
            lines.append(_("%(declarer)s: %(start)d → %(end)d (pegs stop there)", **named))
        else:
            lines.append(f"{declarer}: {start} → {end}")  # names and numbers: no words
        if overflow:
            others = [p for p in self.players if p != declarer]
            pegs = ", ".join(f"{p} {self.totals[p]} → {after[p]}" for p in others)
            message = ngettext(
                "%(declarer)s stops at the floor %(floor)d; the %(num)d hole that did not fit "
                "moves everyone else forward: %(pegs)s",
                "%(declarer)s stops at the floor %(floor)d; the %(num)d holes that did not fit "
                "move everyone else forward: %(pegs)s",
                overflow,
                declarer=declarer,
                floor=FLOOR,
                pegs=pegs,
            )
            lines.append(message)
        return scores, played
