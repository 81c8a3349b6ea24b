"""Rubber bridge, Honeymoon bridge (two players) and Chicago (four-deal rounds).

Rules: docs/variants/rubber.md. All three share the Laws' contract scoring
(`contract_scores`), the hand checks, the We/They sheet above and below the
line, and the per-rubber (per-round) differences used for settlement. They
differ only in what makes a side vulnerable, what a passed-out deal does and
which bonuses a game brings: each class's `_vulnerable`, `_passed_out` and
`_bonuses`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar, NamedTuple

from ...speech import N_, Said, _, ngettext
from ..common import (
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
    next_player,
    overtricks,
    partnerships,
    undertricks,
)

FIELDS = frozenset({"declarer", "contract", "tricks", "honors", "passed_out"})

TRICK_VALUE = {"C": 20, "D": 20, "H": 30, "S": 30, "NT": 30}
NT_FIRST_TRICK = 40
DOUBLING_FACTOR = {0: 1, 1: 2, 2: 4}  # trick score below the line
UNDOUBLED_OVERTRICK = TRICK_VALUE  # Decision: 30 at NT, as the Laws say
DOUBLED_OVERTRICK = {False: 100, True: 200}  # keyed by vulnerable; redoubled twice that
UNDOUBLED_UNDERTRICK = {False: 50, True: 100}
# Doubled undertricks: 1st, 2nd, 3rd, 4th and every further one.
DOUBLED_UNDERTRICKS = {False: (100, 200, 200, 300), True: (200, 300, 300, 300)}
REDOUBLE_FACTOR = 2  # redoubled over- and undertricks are twice the doubled figure
INSULT = {1: 50, 2: 100}  # making a doubled / redoubled contract
SLAM_BONUS = {(6, False): 500, (6, True): 750, (7, False): 1000, (7, True): 1500}
SLAM_MADE = {  # keyed by level: what the slam bonus line says
    6: N_("small slam bid and made, %(state)s: %(bonus)d above"),
    7: N_("grand slam bid and made, %(state)s: %(bonus)d above"),
}
HONOURS = (100, 150)  # four or all five trump honours in one hand
NT_HONOURS = 150  # the four aces in one hand, the only honours at NT

GAME_POINTS = 100  # trick points below the line that win a game
GAMES_IN_RUBBER = 2
RUBBER_BONUS = {0: 700, 1: 500}  # keyed by the losing side's games
UNFINISHED_GAME_BONUS = 300
UNFINISHED_PART_SCORE_BONUS = 100

DEALS_IN_ROUND = 4
CHICAGO_GAME_BONUS = {False: 300, True: 500}  # keyed by vulnerable on that deal
LAST_DEAL_PART_SCORE_BONUS = 100


class Score(NamedTuple):
    """One line of the score sheet, for declarer's side or for the defenders."""

    declarer: bool
    where: str  # "above" or "below" the line
    points: int
    what: str
    text: str


def _sum_text(values: list[int]) -> str:
    if len(values) == 1:
        return str(values[0])
    if len(set(values)) == 1:
        return f"{len(values)} × {values[0]} = {sum(values)}"
    return f"{' + '.join(map(str, values))} = {sum(values)}"


def trick_score(contract: Contract) -> tuple[int, str]:
    """Points below the line for the tricks bid, and how they were counted."""
    level, strain = contract.level, contract.strain
    if strain == "NT":
        points = NT_FIRST_TRICK + (level - 1) * TRICK_VALUE["NT"]
        text = f"{NT_FIRST_TRICK} + {level - 1} × {TRICK_VALUE['NT']}" if level > 1 else ""
    else:
        points = level * TRICK_VALUE[strain]
        text = f"{level} × {TRICK_VALUE[strain]}"
    factor = DOUBLING_FACTOR[contract.doubled]
    if factor > 1:
        text = f"({text}) × {factor}" if text else f"{points} × {factor}"
    return points * factor, f"{text} = {points * factor}" if text else str(points)


def undertrick_values(contract: Contract, down: int, vulnerable: bool) -> list[int]:
    """What the defenders score for each undertrick, first one first."""
    if not contract.doubled:
        return [UNDOUBLED_UNDERTRICK[vulnerable]] * down
    table = DOUBLED_UNDERTRICKS[vulnerable]
    factor = REDOUBLE_FACTOR if contract.doubled == 2 else 1
    return [table[min(i, len(table) - 1)] * factor for i in range(down)]


def contract_scores(
    contract: Contract, tricks: int, vulnerable: bool, declarer: str = ""
) -> list[Score]:
    """Every entry a played contract gives (honours apart); `vulnerable` is declarer's."""
    played = _("%(contract)s by %(declarer)s", contract=str(contract), declarer=declarer)
    if not declarer:
        played = str(contract)
    state = _("vulnerable") if vulnerable else _("not vulnerable")
    down = undertricks(contract, tricks)
    if down:
        values = undertrick_values(contract, down, vulnerable)
        named = {"played": played, "down": down, "state": state, "sum": _sum_text(values)}
        if contract.doubled == 2:
            text = _(
                "%(played)s down %(down)d, redoubled, %(state)s: %(sum)s above the line", **named
            )
        elif contract.doubled:
            text = _(
                "%(played)s down %(down)d, doubled, %(state)s: %(sum)s above the line", **named
            )
        else:
            text = _("%(played)s down %(down)d, %(state)s: %(sum)s above the line", **named)
        return [Score(False, "above", sum(values), "undertricks", text)]

    points, how = trick_score(contract)
    made = _("%(played)s made: %(how)s below the line", played=played, how=how)
    scores = [Score(True, "below", points, "tricks", made)]
    over = overtricks(contract, tricks)
    if over:
        if contract.doubled == 2:
            each = DOUBLED_OVERTRICK[vulnerable] * REDOUBLE_FACTOR
            kind = _("redoubled, %(state)s", state=state)
        elif contract.doubled:
            each, kind = DOUBLED_OVERTRICK[vulnerable], _("doubled, %(state)s", state=state)
        else:
            each, kind = UNDOUBLED_OVERTRICK[contract.strain], _("undoubled")
        text = ngettext(
            "%(num)d overtrick (%(kind)s): %(sum)s above the line",
            "%(num)d overtricks (%(kind)s): %(sum)s above the line",
            over,
            kind=kind,
            sum=_sum_text([each] * over),
        )
        scores.append(Score(True, "above", each * over, "overtricks", text))
    if contract.doubled:
        bonus = INSULT[contract.doubled]
        if contract.doubled == 2:
            text = _("made redoubled: %(bonus)d above", bonus=bonus)
        else:
            text = _("made doubled: %(bonus)d above", bonus=bonus)
        scores.append(Score(True, "above", bonus, "insult", text))
    if contract.level in SLAM_MADE:
        bonus = SLAM_BONUS[contract.level, vulnerable]
        text = _(SLAM_MADE[contract.level], state=state, bonus=bonus)
        scores.append(Score(True, "above", bonus, "slam", text))
    return scores


class _Sheet:
    """The entries and explanation lines one hand adds to the We/They sheet."""

    def __init__(self, side_names: list[str]):
        self.side_names = side_names
        self.entries: list[dict[str, Any]] = []
        self.lines: list[str] = []

    def add(self, side: int, where: str, points: int, what: str, text: str) -> None:
        self.entries.append({"side": side, "where": where, "points": points, "what": what})
        self.lines.append(_("%(side)s: %(what)s", side=self.side_names[side], what=text))

    def points(self, side: int, where: str | None = None) -> int:
        return sum(
            e["points"] for e in self.entries if e["side"] == side and where in (None, e["where"])
        )


# What a page says of each rubber (Chicago: round) in the worked settlement, by
# the summary's unit key: whole sentences, so that every language can say them.
UNIT_SAID = {
    "rubber": {
        "label": N_("Rubber %(number)s"),
        "differences": N_(
            "Each rubber's difference, %(first)s − %(second)s, rounded to the nearest 100:"
        ),
        "rounding": N_(
            "Before that, the difference of every rubber, including one still being played, is"
            " rounded to the nearest 100 (a half rounds away from zero: 550 counts as 600), and"
            " the rounded differences are added up."
        ),
    },
    "round": {
        "label": N_("Round %(number)s"),
        "differences": N_(
            "Each round's difference, %(first)s − %(second)s, rounded to the nearest 100:"
        ),
        "rounding": N_(
            "Before that, the difference of every round, including one still being played, is"
            " rounded to the nearest 100 (a half rounds away from zero: 550 counts as 600), and"
            " the rounded differences are added up."
        ),
    },
}


@dataclass(frozen=True)
class PartnershipSummary(Summary):
    """Sides, and the points of each rubber (Chicago: round), the last one in progress."""

    unit_word: str  # "rubber" or "round" (a key: pages say it in their own words)
    side_names: list[
        str
    ]  # "We", "They" (said in the reader's language); with two players, their names
    sides: list[list[str]]  # players of each side
    unit_points: list[list[int]]  # per unit: [first side, second side]
    unit_differences: list[int]  # first side minus second, per unit played into
    vulnerable: list[bool]  # each side, for the next deal

    def unit_label(self, number: int) -> Said:
        """ "Rubber 2", "Round 2": a line of the worked settlement."""
        return _(UNIT_SAID[self.unit_word]["label"], number=number)

    def differences_said(self, first: str, second: str) -> Said:
        """The heading of each unit's difference, the first side's minus the second's."""
        return _(UNIT_SAID[self.unit_word]["differences"], first=first, second=second)

    def rounding_said(self) -> Said:
        """How each unit's difference is rounded before the differences are added up."""
        return _(UNIT_SAID[self.unit_word]["rounding"])


@dataclass(frozen=True)
class RubberNext(NextHand):
    """The next deal of Rubber, Honeymoon or Chicago: the sides, their games and part
    scores, who is vulnerable; `rubber` (Rubber, Honeymoon) or `round` and `deal`
    (Chicago) count where the match is, the other stays None."""

    dealer_after_passed_out: str
    vulnerable: list[str]
    game: int
    games: list[int]
    part_scores: list[int]
    side_names: list[str]
    sides: list[list[str]]
    rubber: int | None = None
    round: int | None = None
    deal: int | None = None


@dataclass(frozen=True)
class RubberDetails(Details):
    """What one entry of `hands` wrote on the We/They pad: each entry's side
    (0 or 1), where ("above" or "below" the line), points and what for."""

    entries: list[dict[str, Any]]


@dataclass(frozen=True)
class RubberDeal(RubberDetails):
    """A deal: who was vulnerable, the game it was played towards in its
    `rubber` (Rubber, Honeymoon) or `round` and `deal` (Chicago), the other
    None; the contract and what it won (`game_won`, `rubber_won`: a side's index)."""

    vulnerable: list[str]
    game: int
    rubber: int | None = None
    round: int | None = None
    deal: int | None = None
    passed_out: bool = False
    declarer_side: int | None = None
    contract: str | None = None
    tricks: int | None = None
    game_won: int | None = None
    rubber_won: int | None = None
    round_over: bool = False

    @property
    def unit(self) -> int:
        """The rubber (Chicago: round) the deal was played in."""
        unit = self.rubber if self.rubber is not None else self.round
        assert unit is not None
        return unit

    def log_facts(self) -> LogFacts:
        return LogFacts(contract=self.contract, tricks=self.tricks, passed_out=self.passed_out)


@dataclass(frozen=True)
class RubberEnd(RubberDetails):
    """The end marker: the bonuses of the unfinished rubber (none in Chicago)."""


class _PartnershipGame(Game):
    """What rubber, honeymoon and Chicago share: sides, checks, contract scores, units.

    A "unit" is a rubber (a Chicago round): settlement rounds each unit's
    difference on its own, so the points of every unit are kept apart.
    """

    hand_fields = FIELDS
    unit_word: ClassVar[str] = "rubber"

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        # Seats 1 & 3 against 2 & 4; with two players each is a side of their own.
        self.sides = list(partnerships(players))
        self.side_names = [_("We"), _("They")] if len(players) == 4 else list(players)
        self.deals = 0  # deals that moved the dealer on
        self.below = [0, 0]  # trick points in the current game
        self.games = [0, 0]  # games won in the current rubber (Chicago: round)
        self.game_number = 1
        self.unit_points: list[list[int]] = [[0, 0]]  # per unit; the last one is current

    # -- to implement per variant ---------------------------------------------
    def _vulnerable(self) -> list[bool]:
        raise NotImplementedError

    def _bonuses(self, sheet: _Sheet, side: int, vulnerable: list[bool]) -> dict[str, Any]:
        """Game and rubber (round) bonuses after a made contract; moves the state on."""
        raise NotImplementedError

    def _units_wanted(self) -> int:
        raise NotImplementedError

    # -- shared -----------------------------------------------------------------
    def _dealer(self) -> str:
        return self.players[self.deals % len(self.players)]

    def _vulnerable_names(self) -> list[str]:
        return [n for n, v in zip(self.side_names, self._vulnerable(), strict=True) if v]

    def side_index(self, player: str) -> int:
        return 0 if player in self.sides[0] else 1

    def side_scores(self, side_points: list[int]) -> dict[str, int]:
        """Both partners get their side's score."""
        return {p: side_points[self.side_index(p)] for p in self.players}

    def unit_differences(self) -> list[int]:
        """First side minus second side in each rubber (round) so far, one in progress too."""
        units = self.unit_points[:-1]
        if any(self.unit_points[-1]):
            units = self.unit_points
        return [first - second for first, second in units]

    def is_finished(self) -> bool:
        return len(self.unit_points) - 1 >= self._units_wanted()

    def summarize(self) -> PartnershipSummary:
        return PartnershipSummary(
            unit_word=self.unit_word,
            side_names=list(self.side_names),
            sides=[list(side) for side in self.sides],
            unit_points=[list(points) for points in self.unit_points],
            unit_differences=self.unit_differences(),
            vulnerable=self._vulnerable(),
        )

    # Who deals after a passed-out deal: the next player (Chicago: the same one).
    passed_out_moves_deal: ClassVar[bool] = True

    def upcoming(self) -> RubberNext:
        dealer = self._dealer()
        return RubberNext(
            dealer=dealer,
            dealer_after_passed_out=(
                next_player(self.players, dealer) if self.passed_out_moves_deal else dealer
            ),
            vulnerable=self._vulnerable_names(),
            game=self.game_number,
            games=list(self.games),
            part_scores=list(self.below),
            side_names=list(self.side_names),
            sides=[list(s) for s in self.sides],
            **{self.unit_word: len(self.unit_points)},
        )

    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, FIELDS)
        dealer, vulnerable = self._dealer(), self._vulnerable()
        # Where the deal stands, for its details: RubberDeal's own fields.
        where: dict[str, Any] = {
            "vulnerable": self._vulnerable_names(),
            self.unit_word: len(self.unit_points),
            "game": self.game_number,
        }
        if "passed_out" in record:
            checks.get_flag("passed_out")
            checks.only({"passed_out"}, "on a passed-out hand")
            checks.done()
            return self._passed_out(number, dealer, where)

        declarer = checks.get_player("declarer", self.players)
        contract = checks.get_contract("contract")
        tricks = checks.get_int("tricks", 0, 13)
        honours = self._check_honours(checks, contract)
        checks.done()
        assert declarer is not None and contract is not None and tricks is not None

        side = self.side_index(declarer)
        unit = len(self.unit_points) - 1  # the bonuses below may close this unit
        sheet = _Sheet(self.side_names)
        for score in contract_scores(contract, tricks, vulnerable[side], declarer):
            to = side if score.declarer else 1 - side
            sheet.add(to, score.where, score.points, score.what, score.text)
        if honours is not None:
            holder, points = honours
            text = _("honours in %(holder)s's hand: %(points)d above", holder=holder, points=points)
            sheet.add(self.side_index(holder), "above", points, "honours", text)
        won = self._bonuses(sheet, side, vulnerable)
        details = RubberDeal(
            sheet.entries,
            **where,
            declarer_side=side,
            contract=str(contract),
            tricks=tricks,
            **won,
        )
        self.deals += 1
        return self._book(number, dealer, True, sheet, unit, details)

    def end_match(self, number: int) -> HandResult:
        sheet = _Sheet(self.side_names)
        sheet.lines.append(_("The players stopped here."))
        for side in (0, 1):
            if self.games[side] == 1:
                # Only a rubber ends unfinished with a bonus (Chicago has its own end).
                bonus = UNFINISHED_GAME_BONUS
                text = _("one game in the unfinished rubber: %(bonus)d above", bonus=bonus)
                sheet.add(side, "above", UNFINISHED_GAME_BONUS, "unfinished", text)
            if self.below[side]:
                bonus = UNFINISHED_PART_SCORE_BONUS
                text = _(
                    "part score %(points)d in the unfinished game: %(bonus)d above",
                    points=self.below[side],
                    bonus=bonus,
                )
                sheet.add(side, "above", bonus, "unfinished", text)
        unit = len(self.unit_points) - 1
        return self._book(number, None, False, sheet, unit, RubberEnd(sheet.entries))

    def _passed_out(self, number: int, dealer: str, where: dict[str, Any]) -> HandResult:
        self.deals += 1
        line = _("passed out: no score; %(dealer)s deals next", dealer=self._dealer())
        details = RubberDeal([], **where, passed_out=True)
        return HandResult(number, dealer, True, self.zero(), [line], details)

    def _book(
        self,
        number: int,
        dealer: str | None,
        counted: bool,
        sheet: _Sheet,
        unit: int,
        details: RubberDetails,
    ) -> HandResult:
        """Add the sheet's entries to the totals and to the unit they were scored in."""
        side_points = [sheet.points(0), sheet.points(1)]
        for side in (0, 1):
            self.unit_points[unit][side] += side_points[side]
        scores = self.side_scores(side_points)
        self.add(scores)
        return HandResult(number, dealer, counted, scores, sheet.lines, details)

    def _close_unit(self) -> None:
        self.below, self.games, self.game_number = [0, 0], [0, 0], 1
        self.unit_points.append([0, 0])

    def _add_below(self, sheet: _Sheet, side: int) -> bool:
        """Count a made contract towards game; True when it completes one."""
        self.below[side] += sheet.points(side, "below")
        if self.below[side] < GAME_POINTS:
            return False
        sheet.lines.append(
            _(
                "%(side)s: game (%(points)d below the line)",
                side=self.side_names[side],
                points=self.below[side],
            )
        )
        self.games[side] += 1
        self.below = [0, 0]  # part scores no longer count towards the next game
        self.game_number += 1
        return True

    def _check_honours(self, checks: Checks, contract: Contract | None) -> tuple[str, int] | None:
        if "honors" not in checks.record:
            return None
        value = checks.record["honors"]
        shape = _('give {"holder": player, "points": 100 or 150}')
        if not isinstance(value, dict) or set(value) != {"holder", "points"}:
            checks.fail("honors", shape)
            return None
        holder, points = value["holder"], value["points"]
        ok = True
        if not isinstance(holder, str) or holder not in self.players:
            players = ", ".join(self.players)
            message = N_("holder %(typed)s is not one of %(players)s")
            checks.fail("honors", _(message, typed=repr(holder), players=players))
            ok = False
        if not _is_int(points) or points not in HONOURS:
            message = N_("points %(typed)s is not allowed; give 100 or 150")
            checks.fail("honors", _(message, typed=repr(points)))
            ok = False
        elif contract is not None and contract.strain == "NT" and points != NT_HONOURS:
            message = N_("at NT only the four aces count, for %(aces)d, not %(points)d")
            checks.fail("honors", _(message, aces=NT_HONOURS, points=points))
            ok = False
        return (holder, points) if ok else None


def _options(count_name: str, to_play: str, rounding: str) -> tuple[OptionSpec, ...]:
    return (
        OptionSpec(count_name, 1, to_play, low=1, high=100),
        OptionSpec("round_to_hundreds", True, rounding, kind="bool"),
    )


class Rubber(_PartnershipGame):
    id = "rubber"
    name = _("Rubber bridge")
    summary = _("Two partnerships; the first side to win two games takes the rubber.")
    player_counts = (4,)
    option_specs = _options(
        "rubbers",
        _("rubbers to play"),
        _("settle each rubber's difference rounded to the nearest 100"),
    )

    def _vulnerable(self) -> list[bool]:
        return [games > 0 for games in self.games]

    def _units_wanted(self) -> int:
        return self.options["rubbers"]

    def _bonuses(self, sheet: _Sheet, side: int, vulnerable: list[bool]) -> dict[str, Any]:
        facts: dict[str, Any] = {"game_won": None, "rubber_won": None}
        if not self._add_below(sheet, side):
            return facts
        facts["game_won"] = side
        if self.games[side] == GAMES_IN_RUBBER:
            other = self.games[1 - side]
            bonus = RUBBER_BONUS[other]
            text = _(
                "rubber won %(won)d–%(lost)d: %(bonus)d above",
                won=GAMES_IN_RUBBER,
                lost=other,
                bonus=bonus,
            )
            sheet.add(side, "above", bonus, "rubber", text)
            facts["rubber_won"] = side
            self._close_unit()
        return facts


class Honeymoon(Rubber):
    id = "honeymoon"
    name = _("Honeymoon bridge")
    summary = _("Two players, each a side of their own, scored exactly as a rubber.")
    player_counts = (2,)


class Chicago(_PartnershipGame):
    id = "chicago"
    name = _("Chicago")
    summary = _("Rounds of four deals; vulnerability follows the deal, no rubbers.")
    player_counts = (4,)
    unit_word = "round"
    option_specs = (
        *_options(
            "rounds",
            _("rounds to play"),
            _("settle each round's difference rounded to the nearest 100"),
        ),
        OptionSpec(
            "swap_vulnerability",
            False,
            _("on deals 2 and 3 the dealer's opponents are vulnerable, not the dealer's side"),
            kind="bool",
        ),
    )

    def deal_in_round(self) -> int:
        return self.deals % DEALS_IN_ROUND + 1

    def _vulnerable(self) -> list[bool]:
        deal = self.deal_in_round()
        if deal == 1:
            return [False, False]
        if deal == DEALS_IN_ROUND:
            return [True, True]
        side = self.side_index(self._dealer())
        if self.options["swap_vulnerability"]:
            side = 1 - side
        return [s == side for s in (0, 1)]

    def _units_wanted(self) -> int:
        return self.options["rounds"]

    def upcoming(self) -> RubberNext:
        return replace(super().upcoming(), deal=self.deal_in_round())

    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        deal = self.deal_in_round()
        result = super().play_hand(record, number)
        result.details = replace(result.details, deal=deal)
        return result

    passed_out_moves_deal = False

    def _passed_out(self, number: int, dealer: str, where: dict[str, Any]) -> HandResult:
        # Unlike rubber, the same dealer deals again and the deal is not counted.
        line = _("passed out: not counted; %(dealer)s deals again", dealer=dealer)
        details = RubberDeal([], **where, passed_out=True)
        return HandResult(number, dealer, False, self.zero(), [line], details)

    def _bonuses(self, sheet: _Sheet, side: int, vulnerable: list[bool]) -> dict[str, Any]:
        facts: dict[str, Any] = {"game_won": None, "round_over": False}
        made = sheet.points(side, "below") > 0
        if made and self._add_below(sheet, side):
            bonus = CHICAGO_GAME_BONUS[vulnerable[side]]
            state = _("vulnerable") if vulnerable[side] else _("not vulnerable")
            text = _("game bonus, %(state)s: %(bonus)d above", state=state, bonus=bonus)
            sheet.add(side, "above", bonus, "game bonus", text)
            facts["game_won"] = side
        elif made and self.deal_in_round() == DEALS_IN_ROUND:
            bonus = LAST_DEAL_PART_SCORE_BONUS
            text = _("part score on deal 4: %(bonus)d above", bonus=bonus)
            sheet.add(side, "above", bonus, "part score", text)
        if self.deal_in_round() == DEALS_IN_ROUND:
            facts["round_over"] = True
            self._close_unit()  # part scores do not carry into the next round
        return facts

    def end_match(self, number: int) -> HandResult:
        # No bonus for an unfinished round: the marker scores nothing.
        lines = [_("The players stopped here."), _("no bonus for an unfinished round")]
        return HandResult(number, None, False, self.zero(), lines, RubberEnd([]))


def honours_refused(strain: str) -> dict[int, str]:
    """Honours worth the rules refuse in `strain`, with why: at no trumps only the
    four aces count, so 100 is never right there."""
    if strain != "NT":
        return {}
    reason = _("at no trumps only the four aces count, for %(aces)d", aces=NT_HONOURS)
    return {points: reason for points in HONOURS if points != NT_HONOURS}
