"""Shared pieces of every rule set: bids, contracts, HCP, hand checks, results.

Nothing here knows about Flask or the database. A variant module builds on
`Game`: it checks one hand record, scores it, and moves its own replay state on.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..speech import N_, _, english

STRAINS = ("C", "D", "H", "S", "NT")
SUITS = ("C", "D", "H", "S")
MAJORS = ("H", "S")
MINORS = ("C", "D")
STRAIN_SYMBOL = {"C": "♣", "D": "♦", "H": "♥", "S": "♠", "NT": "NT"}
STRAIN_NAME = {
    "C": _("clubs"),
    "D": _("diamonds"),
    "H": _("hearts"),
    "S": _("spades"),
    "NT": _("no trumps"),
}
HCP_VALUES = {"A": 4, "K": 3, "Q": 2, "J": 1}
HCP_IN_DECK = 40
DOUBLING_SUFFIX = {0: "", 1: "X", 2: "XX"}

# The lowest level in each strain that is a game contract.
GAME_LEVEL = {"C": 5, "D": 5, "H": 4, "S": 4, "NT": 3}


_PLAIN_KEY = re.compile(r"^[A-Za-z0-9_.-]{1,40}$")


def key_name(key: Any) -> str:
    """A key as typed when it is plain, else quoted, so one problem stays one line."""
    return key if isinstance(key, str) and _PLAIN_KEY.match(key) else repr(key)[:60]


class HandError(Exception):
    """One or more problems with a hand (or the match), each naming its field."""

    def __init__(self, problems: list[tuple[str, str]]):
        self.problems = problems
        super().__init__("; ".join(f"{f}: {m}" for f, m in problems))


@dataclass(frozen=True)
class Problem:
    """One problem of a match file or a form: where it is and what is wrong.

    Its text is the line `scorekeeper score` prints, e.g.
    `hand 3: bid: 5 is not higher than 6` or `stake: amount: '-1' must be zero or more`.
    """

    message: str
    field: str | None = None  # the field at fault, None for the hand or file as a whole
    hand: int | None = None  # the hand's number in `hands`
    within: str | None = None  # the object holding the field: "options" or "stake"
    # The number players read for that hand (a redeal is not a hand), when the
    # replay got that far: the table app names the hand by it (`read`).
    hand_number: int | None = None

    def __str__(self) -> str:
        """The line as the command line prints it (English there; a page asking
        in a request reads it in its own language)."""
        return self._said(self.hand)

    def read(self) -> str:
        """The line as the table app shows it, in the reader's language: the hand
        named by the number players read, not by its place in the match file
        (which the command line names). Field names stay as the file spells them."""
        return self._said(self.hand if self.hand_number is None else self.hand_number)

    def _said(self, hand: int | None) -> str:
        text: str = self.message
        for part in reversed([part for part in (self.within, self.field) if part]):
            text = _("%(field)s: %(problem)s", field=part, problem=text)
        if hand is None:
            return text
        return _("hand %(number)d: %(problem)s", number=hand, problem=text)


# --- bids and contracts ----------------------------------------------------

_BID_RE = re.compile(r"^([1-9][0-9]*)(C|D|H|S|NT)$")
_CONTRACT_RE = re.compile(r"^([1-9][0-9]*)(C|D|H|S|NT)(XX|X)?$")


@dataclass(frozen=True, order=True)
class Bid:
    """A level and a strain, ranked 1C < 1D < 1H < 1S < 1NT < 2C …"""

    level: int
    strain: str

    @property
    def rank(self) -> int:
        return (self.level - 1) * len(STRAINS) + STRAINS.index(self.strain)

    def outranks(self, other: Bid | None) -> bool:
        return other is None or self.rank > other.rank

    def __str__(self) -> str:
        return f"{self.level}{self.strain}"


def parse_bid(text: Any, max_level: int = 7) -> Bid:
    """Parse `"3NT"` into a Bid; raise ValueError with a player-facing message."""
    if not isinstance(text, str) or not _BID_RE.match(text.strip().upper()):
        raise ValueError(_("%(typed)s is not a bid like 1C, 3NT or 7S", typed=repr(text)))
    match = _BID_RE.match(text.strip().upper())
    assert match is not None
    level = int(match.group(1))
    if not 1 <= level <= max_level:
        raise ValueError(_level_refused(level, max_level))
    return Bid(level, match.group(2))


@dataclass(frozen=True)
class Contract:
    level: int
    strain: str
    doubled: int = 0  # 0 undoubled, 1 doubled, 2 redoubled

    @property
    def needed(self) -> int:
        """Tricks needed: level + 6."""
        return self.level + 6

    @property
    def is_game(self) -> bool:
        return self.level >= GAME_LEVEL[self.strain]

    @property
    def bid(self) -> Bid:
        return Bid(self.level, self.strain)

    def __str__(self) -> str:
        return f"{self.level}{self.strain}{DOUBLING_SUFFIX[self.doubled]}"


def parse_contract(text: Any, max_level: int | None = 7) -> Contract:
    """Parse `"4SX"`; `max_level=None` allows any level (the Top Game)."""
    if not isinstance(text, str) or not _CONTRACT_RE.match(text.strip().upper()):
        raise ValueError(_("%(typed)s is not a contract like 4S, 3NTX or 6HXX", typed=repr(text)))
    match = _CONTRACT_RE.match(text.strip().upper())
    assert match is not None
    level = int(match.group(1))
    if max_level is not None and not 1 <= level <= max_level:
        raise ValueError(_level_refused(level, max_level))
    doubled = {None: 0, "X": 1, "XX": 2}[match.group(3)]
    return Contract(level, match.group(2), doubled)


def _level_refused(level: int, most: int) -> str:
    return _("level %(level)d is not allowed, use 1–%(most)d", level=level, most=most)


def refusal(error: ValueError) -> str:
    """What a parse refused, as a problem to show: the sentence itself (said in
    the reader's language when shown), not `str(error)` (said now)."""
    return error.args[0] if error.args and isinstance(error.args[0], str) else str(error)


def contract_text(contract: str) -> str:
    """`4SX` as players write it: 4♠X (any level, for the Top Game)."""
    parsed = parse_contract(contract, max_level=None)
    return f"{parsed.level}{STRAIN_SYMBOL[parsed.strain]}{DOUBLING_SUFFIX[parsed.doubled]}"


def overtricks(contract: Contract, tricks: int) -> int:
    return max(0, tricks - contract.needed)


def undertricks(contract: Contract, tricks: int) -> int:
    return max(0, contract.needed - tricks)


def together(players: list[str]) -> str:
    """Players named together in a sentence: "Ann and Bob" (three: "Ann and Bob
    and Cy", as the rules always wrote it), said in the reader's language."""
    if len(players) == 1:
        return players[0]
    return _("%(first)s and %(second)s", first=together(players[:-1]), second=players[-1])


def next_player(players: list[str], player: str, steps: int = 1) -> str:
    return players[(players.index(player) + steps) % len(players)]


# --- checking one hand record -----------------------------------------------


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Checks:
    """Collects every problem of one hand record instead of stopping at the first.

    `get_*` helpers return the checked value, or None when the field is missing
    or wrong (the problem is then recorded), so a variant can go on checking the
    other fields and report everything at once.
    """

    def __init__(self, record: dict[str, Any], allowed: frozenset[str] | set[str]):
        self.record = record
        self.problems: list[tuple[str, str]] = []
        for key in record:
            if key not in allowed:
                allowed_text = ", ".join(sorted(allowed))
                self.fail(
                    key_name(key),
                    _("unknown field; allowed here: %(allowed)s", allowed=allowed_text),
                )

    def fail(self, field_name: str, message: str) -> None:
        if (field_name, message) not in self.problems:
            self.problems.append((field_name, message))

    @property
    def ok(self) -> bool:
        return not self.problems

    def has(self, name: str) -> bool:
        return name in self.record and self.record[name] is not None

    def done(self) -> None:
        if self.problems:
            raise HandError(self.problems)

    def absent(self, name: str, why: str) -> None:
        if name in self.record:
            self.fail(name, _("must be left out %(why)s", why=why))

    def only(self, allowed: set[str], why: str) -> None:
        """Every field outside `allowed` must be absent (e.g. on a passed-out hand)."""
        for key in self.record:
            if key not in allowed:
                self.absent(key, why)

    def get_int(self, name: str, low: int, high: int, required: bool = True) -> int | None:
        if name not in self.record:
            if required:
                self.fail(
                    name, _("missing; give a whole number %(low)d–%(high)d", low=low, high=high)
                )
            return None
        value = self.record[name]
        if not _is_int(value):
            message = N_("%(typed)s is not a whole number; allowed %(low)d–%(high)d")
            self.fail(name, _(message, typed=repr(value), low=low, high=high))
            return None
        if not low <= value <= high:
            message = N_("%(value)d is out of range; allowed %(low)d–%(high)d")
            self.fail(name, _(message, value=value, low=low, high=high))
            return None
        return value

    def get_bool(self, name: str, required: bool = False) -> bool | None:
        if name not in self.record:
            if required:
                self.fail(name, _("missing; give true or false"))
            return None
        value = self.record[name]
        if not isinstance(value, bool):
            self.fail(name, _("%(typed)s is not true or false", typed=repr(value)))
            return None
        return value

    def get_flag(self, name: str) -> bool:
        """An optional field that, when present, must be `true`."""
        if name not in self.record:
            return False
        if self.record[name] is not True:
            typed = repr(self.record[name])
            self.fail(name, _("%(typed)s is not allowed; give true or leave it out", typed=typed))
            return False
        return True

    def get_player(
        self, name: str, among: list[str], required: bool = True, what: str | None = None
    ) -> str | None:
        """`what` names the players allowed, before their list: "one of" by default."""
        what = what if what is not None else _("one of")
        players = ", ".join(among)
        if name not in self.record:
            if required:
                self.fail(name, _("missing; give %(what)s %(players)s", what=what, players=players))
            return None
        value = self.record[name]
        if not isinstance(value, str) or value not in among:
            message = N_("%(typed)s is not %(what)s %(players)s")
            self.fail(name, _(message, typed=repr(value), what=what, players=players))
            return None
        return value

    def get_contract(self, name: str, max_level: int | None = 7) -> Contract | None:
        if name not in self.record:
            self.fail(name, _("missing; give a contract like 4S, 3NTX or 6HXX"))
            return None
        try:
            return parse_contract(self.record[name], max_level)
        except ValueError as exc:
            self.fail(name, refusal(exc))
            return None

    def get_strain(self, name: str) -> str | None:
        if name not in self.record:
            self.fail(name, _("missing; give C, D, H, S or NT"))
            return None
        value = self.record[name]
        if not isinstance(value, str) or value.upper() not in STRAINS:
            self.fail(
                name, _("%(typed)s is not a strain; allowed C, D, H, S, NT", typed=repr(value))
            )
            return None
        return value.upper()


# --- results ---------------------------------------------------------------


@dataclass(frozen=True)
class LogFacts:
    """What the rules restate of one hand for the hand log (sheets/hand_log.py):
    a fact left None (or False) is read from the hand as entered."""

    declarer: str | None = None
    contract: str | None = None
    tricks: int | None = None
    passed_out: bool = False
    redeal: bool = False  # the same dealer deals again (Mini Bridge's 20–20)
    scrapped: bool = False


@dataclass(frozen=True)
class Details:
    """What one hand did besides its scores, for the sheets: each game's rules
    extend it with their own typed facts (vulnerability, pegs, notes…), one
    frozen dataclass per kind of hand, as `upcoming` and `summary` are typed."""

    def log_facts(self) -> LogFacts:
        """The facts the hand log reads here rather than in the hand as entered."""
        return LogFacts()


class PlayedContract:
    """Details that keep the contract as played (`declarer`, `contract`, `tricks`,
    `passed_out` fields): the hand log reads all four from them."""

    declarer: str | None
    contract: str | None
    tricks: int | None
    passed_out: bool

    def log_facts(self) -> LogFacts:
        return LogFacts(
            declarer=self.declarer,
            contract=self.contract,
            tricks=self.tricks,
            passed_out=self.passed_out,
        )


@dataclass
class HandResult:
    """What one entry of `hands` did: scores added to each player, and why."""

    number: int
    dealer: str | None
    counted: bool
    scores: dict[str, int]
    explanation: list[str]
    # The game's own facts for the score sheet; None on a hand that has none
    # (the end marker, a hand whose checks failed).
    details: Details | None = None
    # The number players give the hand this entry is about (`Game.number_entry`):
    # a counted hand's own number; for an entry that is not a hand (a redeal, a
    # scrapped deal) the number of the hand dealt again; None for the end marker.
    # `number` is the entry's place in the match file, for edits and problems.
    hand: int | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "dealer": self.dealer,
            "counted": self.counted,
            "scores": dict(self.scores),
            "explanation": [english(line) for line in self.explanation],
        }


@dataclass(frozen=True)
class OptionSpec:
    """One entry of a variant's `options`, with its default and allowed values."""

    name: str
    default: Any
    help: str
    kind: str = "int"  # "int" or "bool"
    low: int = 1
    high: int = 1000
    multiple_of: int = 1


def partnerships(players: list[str]) -> tuple[list[str], list[str]]:
    """The two sides at a table: seats 1 & 3 against 2 & 4; two players, one each."""
    return list(players[0::2]), list(players[1::2])


@dataclass(frozen=True)
class Summary:
    """What a page, a sheet or the settlement needs from a replay besides the
    scores: each rule set extends it with its own typed facts."""


@dataclass(frozen=True)
class NextHand:
    """What the rules know about the next hand before anything is typed; each
    game's rules extend it with their own facts (bidding order, vulnerability…).
    `number`: the hand's number as players count hands (`Game.next_number`)."""

    dealer: str
    number: int = field(default=1, kw_only=True)


@dataclass
class Outcome:
    """The result of replaying a whole match."""

    variant: str
    players: list[str]
    options: dict[str, Any]
    hands: list[HandResult]
    totals: dict[str, int]
    finished: bool
    winners: list[str]
    upcoming: NextHand | None
    summary: Summary = field(default_factory=Summary)

    @property
    def hands_played(self) -> int:
        """The hands as the rules count them: a redeal and the end marker are
        entries of the match file, not hands."""
        return sum(1 for result in self.hands if result.counted and result.hand is not None)


class Game:
    """Base of every variant: replay state for one match, moved on hand by hand.

    Subclasses set the class attributes and implement `play_hand` (check one
    record, score it, move the state on), `upcoming` (what the rules derive for
    the next hand before anything is typed) and `is_finished`.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    summary: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    hand_fields: ClassVar[frozenset[str]]
    higher_is_better: ClassVar[bool] = True

    def __init__(self, players: list[str], options: dict[str, Any]):
        self.players = list(players)
        self.options = options
        self.totals: dict[str, int] = {p: 0 for p in players}
        self.entries = 0  # every entry of `hands` so far, counted or not
        self.hands_played = 0  # the entries that were hands (`number_entry`)

    # -- to implement --------------------------------------------------------
    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        raise NotImplementedError

    def summarize(self) -> Summary:
        """The facts of this rule set that pages show (none beyond the scores here)."""
        return Summary()

    def upcoming(self) -> NextHand:
        raise NotImplementedError

    def is_finished(self) -> bool:
        raise NotImplementedError

    @classmethod
    def check_option_combination(cls, options: dict[str, Any]) -> list[str]:
        """Problems with options that are fine alone but not together."""
        return []

    # -- the hands' numbers ------------------------------------------------------
    def number_entry(self, result: HandResult) -> None:
        """Give a played entry the number players call its hand. A counted entry
        is the next hand; one the rules do not count (a redeal after wrong
        information about dummy, Mini Bridge's 20–20, a scrapped deal, a passed-out
        Chicago deal) is not a hand: the same hand is dealt again, so it bears that
        hand's number. A game numbering its hands otherwise overrides this."""
        if result.counted:
            self.hands_played += 1
            result.hand = self.hands_played
        else:
            result.hand = self.hands_played + 1

    def next_number(self) -> int:
        """The number of the hand to be played next."""
        return self.hands_played + 1

    # -- shared behaviour ----------------------------------------------------
    def end_match(self, number: int) -> HandResult:
        """The `{"end": true}` marker: the players stopped early."""
        return HandResult(number, None, False, self.zero(), [_("The players stopped here.")])

    def zero(self) -> dict[str, int]:
        return {p: 0 for p in self.players}

    def add(self, scores: dict[str, int]) -> None:
        for player, points in scores.items():
            self.totals[player] += points

    def winners(self) -> list[str]:
        pick = max if self.higher_is_better else min
        best = pick(self.totals.values())
        return [p for p in self.players if self.totals[p] == best]

    def side_of(self, player: str) -> tuple[str, str]:
        """Partnership variants: players 1 & 3 are one side, 2 & 4 the other."""
        first, second = partnerships(self.players)
        return tuple(first if player in first else second)

    def side_winners(self) -> list[str]:
        we, they = self.side_of(self.players[0]), self.side_of(self.players[1])
        ours, theirs = self.totals[we[0]], self.totals[they[0]]
        if ours == theirs:
            return list(self.players)
        return [p for p in self.players if p in (we if ours > theirs else they)]
