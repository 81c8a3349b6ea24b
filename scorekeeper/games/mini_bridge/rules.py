"""Mini Bridge: no auction; the HCP announced decide who declares.

Rules: docs/variants/mini-bridge.md. `mini-bridge` is four players in two
partnerships; `mini-bridge-3` is three players and a dummy, each keeping a
personal score. Both share the contract (GAME or not, a strain) and its scoring.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ...speech import N_, _, ngettext
from ..common import (
    HCP_IN_DECK,
    STRAIN_SYMBOL,
    Checks,
    Details,
    Game,
    HandError,
    HandResult,
    LogFacts,
    NextHand,
    OptionSpec,
    Summary,
    _is_int,
    partnerships,
    together,
)


@dataclass(frozen=True)
class MiniBridgeSummary(Summary):
    target: int | None  # points to reach, when played to a target
    counted: int  # counted hands played (a redeal does not count)
    hands_to_play: int | None  # counted hands in the match, when not to a target


MAX_HCP = 37  # four aces, kings and queens plus one jack
BOOK = 6  # the first six tricks score nothing
NEEDED_WITHOUT_GAME = 7
NEEDED_FOR_GAME = {"NT": 9, "H": 10, "S": 10, "C": 11, "D": 11}
TRICK_VALUE = {"NT": 40, "H": 30, "S": 30, "C": 20, "D": 20}
GAME_BONUS = 300
UNDERTRICK_PENALTY = 50
SCRAP_BELOW = 21  # declarer + dummy under this may scrap the deal (three players)

PLAY_FIELDS = ("game", "strain", "tricks")


def tricks_needed(game: bool, strain: str) -> int:
    """7 without GAME; with GAME 9 in NT, 10 in a major, 11 in a minor."""
    return NEEDED_FOR_GAME[strain] if game else NEEDED_WITHOUT_GAME


def trick_score(strain: str, tricks: int) -> int:
    """Every trick above six at the strain's value, overtricks included."""
    return max(0, tricks - BOOK) * TRICK_VALUE[strain]


def contract_score(game: bool, strain: str, tricks: int) -> int:
    """Declarer's score for a made contract: trick score plus the GAME bonus."""
    return trick_score(strain, tricks) + (GAME_BONUS if game else 0)


def pick_declarer(hcp: dict[str, int], candidates: list[str], order: list[str]) -> str:
    """Most HCP among `candidates`; on a tie the one who announced first."""
    return min(candidates, key=lambda p: (-hcp[p], order.index(p)))


@dataclass(frozen=True)
class Declaring:
    """Who plays a four-handed deal, from the HCP announced."""

    side: list[str]  # declarer's side, in seating order
    defenders: list[str]
    declarer: str
    dummy: str
    ours: int  # the declaring side's HCP
    theirs: int


def declaring(players: list[str], order: list[str], hcp: dict[str, int]) -> Declaring | None:
    """The side with more HCP declares (None: 20 each, the same dealer deals again);
    its member with more HCP is declarer, the one who announced first on a tie."""
    sides = partnerships(players)
    side_hcp = [sum(hcp[p] for p in side) for side in sides]
    if side_hcp[0] == side_hcp[1]:
        return None
    won = 0 if side_hcp[0] > side_hcp[1] else 1
    side, defenders = sides[won], sides[1 - won]
    declarer = pick_declarer(hcp, side, order)
    dummy = side[1] if declarer == side[0] else side[0]
    return Declaring(side, defenders, declarer, dummy, side_hcp[won], side_hcp[1 - won])


def contract_name(game: bool, strain: str) -> str:
    if game:
        return _("GAME in %(strain)s", strain=STRAIN_SYMBOL[strain])
    return _("no GAME in %(strain)s", strain=STRAIN_SYMBOL[strain])


@dataclass(frozen=True)
class MiniBridgeNext(NextHand):
    """The next hand of Mini Bridge: who announces first, and how far from the end,
    as a target (`target`, `to_target`) or a number of hands (`hands_to_play`,
    `hands_left`); the other pair stays None."""

    announcement_order: list[str]
    counted_so_far: int
    deals_again: bool
    target: int | None = None
    to_target: int | None = None
    hands_to_play: int | None = None
    hands_left: int | None = None


@dataclass(frozen=True)
class MiniBridgeRedeal(Details):
    """Both sides held 20: not counted, the same dealer deals again."""

    hcp: dict[str, int]
    note: str = "20–20: dealt again"

    def log_facts(self) -> LogFacts:
        return LogFacts(redeal=True)


@dataclass(frozen=True)
class MiniBridgeScrapped(Details):
    """Three players: the declarer scrapped a weak deal (not counted)."""

    hcp: dict[str, int]
    dummy_hcp: int
    declarer: str
    declaring_hcp: int  # the declarer's and dummy's
    note: str

    def log_facts(self) -> LogFacts:
        return LogFacts(declarer=self.declarer, scrapped=True)


@dataclass(frozen=True)
class MiniBridgePlayed(Details):
    """A played hand: who declared with whom, GAME or not in a strain, and its score."""

    hcp: dict[str, int]
    announcement_order: list[str]
    declarer: str
    dummy: str | None  # None with three players: dummy is nobody's hand
    declaring_side: list[str]
    defenders: list[str]
    declaring_hcp: int
    defending_hcp: int
    game: bool
    strain: str
    needed: int
    tricks: int
    made: bool
    trick_score: int
    bonus: int
    undertricks: int
    note: str
    dummy_hcp: int | None = None  # three players: what the dummy held

    def log_facts(self) -> LogFacts:
        return LogFacts(declarer=self.declarer, tricks=self.tricks)


class _MiniBridgeGame(Game):
    """What both forms share: dealing, announcing, the contract and its score."""

    default_hands: int

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        self.counted = 0
        self.again = False  # the last entry was a redeal: the same dealer deals

    @classmethod
    def check_option_combination(cls, options: dict[str, Any]) -> list[str]:
        if options.get("hands") is not None and options.get("target") is not None:
            return [_("give either hands or target, not both")]
        return []

    # -- where the match stands ---------------------------------------------
    @property
    def target(self) -> int | None:
        return self.options.get("target")

    @property
    def hands_to_play(self) -> int | None:
        """The `hands` option, or its default when no target was set."""
        if self.target is not None:
            return None
        return self.options.get("hands") or self.default_hands

    def dealer(self) -> str:
        return self.players[self.counted % len(self.players)]

    def announcement_order(self) -> list[str]:
        start = self.players.index(self.dealer())
        return self.players[start:] + self.players[:start]

    def best_total(self) -> int:
        return max(self.totals.values())

    def summarize(self) -> MiniBridgeSummary:
        return MiniBridgeSummary(self.target, self.counted, self.hands_to_play)

    def is_finished(self) -> bool:
        if self.target is not None:
            return self.best_total() >= self.target
        return self.counted >= (self.hands_to_play or 0)

    def upcoming(self) -> MiniBridgeNext:
        common = {
            "dealer": self.dealer(),
            "announcement_order": self.announcement_order(),
            "counted_so_far": self.counted,
            "deals_again": self.again,
        }
        if self.target is not None:
            return MiniBridgeNext(
                **common, target=self.target, to_target=self.target - self.best_total()
            )
        return MiniBridgeNext(
            **common,
            hands_to_play=self.hands_to_play,
            hands_left=(self.hands_to_play or 0) - self.counted,
        )

    # -- checking -------------------------------------------------------------
    def _read_hcp(self, checks: Checks, holders: list[str]) -> dict[str, int] | None:
        """The `hcp` object: one whole number 0–37 for each of `holders`."""
        example = json.dumps({p: 10 for p in holders}, ensure_ascii=False)
        if "hcp" not in checks.record:
            checks.fail(
                "hcp", _("missing; give each player's HCP, e.g. %(example)s", example=example)
            )
            return None
        given = checks.record["hcp"]
        if not isinstance(given, dict):
            message = N_("%(typed)s is not an object of HCP by player, e.g. %(example)s")
            checks.fail("hcp", _(message, typed=repr(given), example=example))
            return None
        problems_before = len(checks.problems)
        players = ", ".join(holders)
        for name in given:
            if name not in holders:
                message = N_("%(typed)s is not a player; give %(players)s")
                checks.fail("hcp", _(message, typed=repr(name), players=players))
        for name in holders:
            if name not in given:
                message = N_("%(name)s is missing; give %(players)s")
                checks.fail("hcp", _(message, name=name, players=players))
                continue
            points = given[name]
            if not _is_int(points):
                message = N_("%(name)s: %(typed)s is not a whole number; allowed 0–%(most)d")
                checks.fail("hcp", _(message, name=name, typed=repr(points), most=MAX_HCP))
            elif not 0 <= points <= MAX_HCP:
                message = N_("%(name)s: %(points)d is out of range; allowed 0–%(most)d")
                checks.fail("hcp", _(message, name=name, points=points, most=MAX_HCP))
        if len(checks.problems) > problems_before:
            return None
        return {p: given[p] for p in holders}

    @staticmethod
    def _read_play(checks: Checks, required: bool = True) -> tuple[Any, Any, Any]:
        """`game`, `strain`, `tricks`; with `required=False` only what is given."""
        game = checks.get_bool("game", required=required)
        strain = checks.get_strain("strain") if required or "strain" in checks.record else None
        tricks = checks.get_int("tricks", 0, 13, required=required)
        return game, strain, tricks

    @staticmethod
    def _stop(checks: Checks) -> HandError:
        """The hand cannot be scored: every problem found so far (at least one)."""
        return HandError(checks.problems or [("hcp", _("could not be read"))])

    # -- scoring --------------------------------------------------------------
    @staticmethod
    def _contract_lines(
        game: bool, strain: str, tricks: int, declarers: str, defenders: str
    ) -> tuple[int, int, list[str]]:
        """(declarer's score, each defender's score, explanation) for one contract."""
        needed = tricks_needed(game, strain)
        message = N_("%(contract)s: %(needed)d tricks needed, %(tricks)d taken")
        named = {"contract": contract_name(game, strain), "needed": needed, "tricks": tricks}
        lines = [_(message, **named)]
        if tricks < needed:
            down = needed - tricks
            penalty = down * UNDERTRICK_PENALTY
            message = N_("%(down)d short: %(defenders)s score %(down)d × %(each)d = %(penalty)d")
            named = {"down": down, "defenders": defenders, "each": UNDERTRICK_PENALTY}
            lines.append(_(message, **named, penalty=penalty))
            return 0, penalty, lines
        odd, value = tricks - BOOK, TRICK_VALUE[strain]
        points = trick_score(strain, tricks)
        lines.append(
            ngettext(
                "made: %(num)d trick above six × %(value)d = %(points)d for %(declarers)s",
                "made: %(num)d tricks above six × %(value)d = %(points)d for %(declarers)s",
                odd,
                value=value,
                points=points,
                declarers=declarers,
            )
        )
        if game:
            total = points + GAME_BONUS
            message = N_("GAME bonus: %(points)d + %(bonus)d = %(total)d")
            lines.append(_(message, points=points, bonus=GAME_BONUS, total=total))
            return total, 0, lines
        if points >= 100:
            lines.append(_("%(points)d without announcing GAME: no bonus", points=points))
        return points, 0, lines

    def _details(
        self,
        hcp: dict[str, int],
        declarer: str,
        dummy: str | None,
        side: list[str],
        defenders: list[str],
        play: tuple[bool, str, int],
        declaring_hcp: int,
        dummy_hcp: int | None = None,
    ) -> MiniBridgePlayed:
        game, strain, tricks = play
        needed = tricks_needed(game, strain)
        made = tricks >= needed
        return MiniBridgePlayed(
            hcp=hcp,
            announcement_order=self.announcement_order(),
            declarer=declarer,
            dummy=dummy,
            declaring_side=side,
            defenders=defenders,
            declaring_hcp=declaring_hcp,
            defending_hcp=HCP_IN_DECK - declaring_hcp,
            game=game,
            strain=strain,
            needed=needed,
            tricks=tricks,
            made=made,
            trick_score=trick_score(strain, tricks) if made else 0,
            bonus=GAME_BONUS if made and game else 0,
            undertricks=max(0, needed - tricks),
            note=_(
                "%(declarer)s · %(contract)s · %(tricks)d tricks",
                declarer=declarer,
                contract=contract_name(game, strain),
                tricks=tricks,
            ),
            dummy_hcp=dummy_hcp,
        )

    def _moved_on(self, result: HandResult) -> HandResult:
        """Move the replay state on after a checked hand."""
        self.again = not result.counted
        if result.counted:
            self.counted += 1
        self.add(result.scores)
        return result


class MiniBridge(_MiniBridgeGame):
    id = "mini-bridge"
    name = _("Mini Bridge")
    summary = _("Four players in two partnerships; the side with more HCP declares.")
    player_counts = (4,)
    default_hands = 8
    option_specs = (
        OptionSpec("hands", None, _("counted hands to play (8 when no target)"), low=1, high=100),
        OptionSpec(
            "target", None, _("a side reaching this many points ends the match"), high=100000
        ),
    )
    hand_fields = frozenset({"hcp", *PLAY_FIELDS, "declarer"})

    def winners(self) -> list[str]:
        return self.side_winners()

    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, self.hand_fields)
        dealer, order = self.dealer(), self.announcement_order()
        hcp = self._read_hcp(checks, self.players)
        if hcp is not None and sum(hcp.values()) != HCP_IN_DECK:
            message = N_("the four hands add up to %(total)d, not 40; count again")
            checks.fail("hcp", _(message, total=sum(hcp.values())))
            hcp = None
        if hcp is None:
            self._read_play(checks, required=False)
            checks.get_player("declarer", self.players, required=False)
            raise self._stop(checks)

        plays = declaring(self.players, order, hcp)
        shown = ", ".join(f"{p} {hcp[p]}" for p in order)
        if plays is None:
            checks.only({"hcp"}, _("when both sides hold 20: the same dealer deals again"))
            checks.done()
            lines = [
                _("HCP %(shown)s: 20 each side", shown=shown),
                _("not counted: %(dealer)s deals again", dealer=dealer),
            ]
            details = MiniBridgeRedeal(hcp)
            return self._moved_on(HandResult(number, dealer, False, self.zero(), lines, details))

        side, defenders = plays.side, plays.defenders
        declarer, dummy = plays.declarer, plays.dummy
        claimed = checks.get_player("declarer", self.players, required=False)
        if claimed is not None and claimed != declarer:
            message = N_("%(claimed)s is not the declarer; by the HCP it is %(declarer)s")
            checks.fail("declarer", _(message, claimed=claimed, declarer=declarer))
        game, strain, tricks = self._read_play(checks)
        checks.done()

        ours = hcp[declarer] + hcp[dummy]
        named = {"declarer": declarer, "hcp": hcp[declarer], "dummy": dummy}
        if hcp[declarer] == hcp[dummy]:
            message = N_(
                "%(declarer)s declares (%(hcp)d HCP, tied with %(dummy)s, announced first); "
                "%(dummy)s is dummy"
            )
            declares = _(message, **named)
        else:
            message = N_(
                "%(declarer)s declares (%(hcp)d HCP, more than %(dummy)s's %(dummy_hcp)d); "
                "%(dummy)s is dummy"
            )
            declares = _(message, **named, dummy_hcp=hcp[dummy])
        message = N_("HCP %(shown)s: %(side)s %(ours)d against %(defenders)s %(theirs)d")
        named = {"shown": shown, "side": " & ".join(side), "ours": ours}
        lines = [
            _(message, **named, defenders=" & ".join(defenders), theirs=HCP_IN_DECK - ours),
            declares,
        ]
        won, penalty, more = self._contract_lines(
            game, strain, tricks, " & ".join(side), " & ".join(defenders)
        )
        scores = {p: won if p in side else penalty for p in self.players}
        details = self._details(hcp, declarer, dummy, side, defenders, (game, strain, tricks), ours)
        return self._moved_on(HandResult(number, dealer, True, scores, lines + more, details))


class MiniBridgeThree(_MiniBridgeGame):
    id = "mini-bridge-3"
    name = _("Mini Bridge for three")
    summary = _("Three players and a dummy; most HCP declares, each keeps a personal score.")
    player_counts = (3,)
    default_hands = 9
    option_specs = (
        OptionSpec("hands", None, _("counted hands to play (9 when no target)"), low=1, high=100),
        OptionSpec(
            "target", None, _("a player reaching this many points ends the match"), high=100000
        ),
    )
    hand_fields = frozenset({"hcp", "scrapped", *PLAY_FIELDS})

    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, self.hand_fields)
        dealer, order = self.dealer(), self.announcement_order()
        hcp = self._read_hcp(checks, self.players)
        if hcp is not None and not 0 <= HCP_IN_DECK - sum(hcp.values()) <= MAX_HCP:
            held = sum(hcp.values())
            message = N_(
                "the three hold %(held)d, leaving dummy %(dummy)d; "
                "together they must hold %(least)d–%(most)d"
            )
            named = {"held": held, "dummy": HCP_IN_DECK - held}
            checks.fail("hcp", _(message, **named, least=HCP_IN_DECK - MAX_HCP, most=HCP_IN_DECK))
            hcp = None
        scrapped = checks.get_flag("scrapped")
        if hcp is None:
            self._read_play(checks, required=False)
            raise self._stop(checks)

        dummy_hcp = HCP_IN_DECK - sum(hcp.values())
        declarer = pick_declarer(hcp, self.players, order)
        defenders = [p for p in order if p != declarer]
        ours = hcp[declarer] + dummy_hcp
        shown = ", ".join(f"{p} {hcp[p]}" for p in order)
        tied = [p for p in order if hcp[p] == hcp[declarer] and p != declarer]
        named = {"declarer": declarer, "hcp": hcp[declarer], "dummy": dummy_hcp, "ours": ours}
        if tied:
            message = N_(
                "%(declarer)s declares (%(hcp)d HCP, the most, tied with %(tied)s, announced "
                "first); with dummy %(hcp)d + %(dummy)d = %(ours)d"
            )
            declares = _(message, **named, tied=together(tied))
        else:
            message = N_(
                "%(declarer)s declares (%(hcp)d HCP, the most); "
                "with dummy %(hcp)d + %(dummy)d = %(ours)d"
            )
            declares = _(message, **named)
        message = N_("HCP %(shown)s, dummy %(deck)d − %(held)d = %(dummy)d")
        named = {"shown": shown, "deck": HCP_IN_DECK, "held": sum(hcp.values())}
        lines = [_(message, **named, dummy=dummy_hcp), declares]
        if scrapped:
            if ours >= SCRAP_BELOW:
                message = N_(
                    "%(declarer)s and dummy hold %(hcp)d + %(dummy)d = %(ours)d; "
                    "a deal may be scrapped only below %(below)d"
                )
                named = {"declarer": declarer, "hcp": hcp[declarer], "dummy": dummy_hcp}
                checks.fail("scrapped", _(message, **named, ours=ours, below=SCRAP_BELOW))
            checks.only({"hcp", "scrapped"}, _("when the deal is scrapped"))
            checks.done()
            lines.append(_("scrapped: not counted, %(dealer)s deals again", dealer=dealer))
            details = MiniBridgeScrapped(
                hcp=hcp,
                dummy_hcp=dummy_hcp,
                declarer=declarer,
                declaring_hcp=ours,
                note=_("scrapped by %(declarer)s (%(hcp)d HCP)", declarer=declarer, hcp=ours),
            )
            return self._moved_on(HandResult(number, dealer, False, self.zero(), lines, details))

        game, strain, tricks = self._read_play(checks)
        checks.done()
        won, penalty, more = self._contract_lines(
            game, strain, tricks, declarer, _("%(players)s each", players=together(defenders))
        )
        scores = {p: won if p == declarer else penalty for p in self.players}
        details = self._details(
            hcp, declarer, None, [declarer], defenders, (game, strain, tricks), ours, dummy_hcp
        )
        return self._moved_on(HandResult(number, dealer, True, scores, lines + more, details))


# -- what the hand form flags while the HCP are typed -------------------------


def announcement_problem(points: Any) -> str | None:
    """Why one typed announcement cannot be right, or None when it can be:
    a whole number from 0 to 37, the most one hand holds."""
    if not _is_int(points):
        message = N_("%(typed)s is not a whole number; allowed 0–%(most)d")
        return _(message, typed=repr(points), most=MAX_HCP)
    if points > MAX_HCP:
        message = N_("%(points)d is more than one hand holds; allowed 0–%(most)d")
        return _(message, points=points, most=MAX_HCP)
    if points < 0:
        return _("%(points)d is below 0; allowed 0–%(most)d", points=points, most=MAX_HCP)
    return None


def announced_problem(announced: list[int]) -> str | None:
    """Why the announcements typed so far cannot all be right together (more
    points than the deck holds), or None."""
    total = sum(announced)
    if total > HCP_IN_DECK:
        sums = " + ".join(map(str, announced))
        message = N_("%(sums)s = %(total)d, more than the %(deck)d in the deck")
        return _(message, sums=sums, total=total, deck=HCP_IN_DECK)
    return None
