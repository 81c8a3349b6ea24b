"""Ratings across matches, and head to head (pure Python).

Ratings are openskill's Weng-Lin ratings with the library's default model
(Plackett-Luce) and its default parameters, so that anyone can work the same
figures out again from the match files:

- one rating event per finished match, in the order played (`played_order`,
  the one place that order is decided);
- the sides of a match are its partnerships where the game's kit says partners
  are fixed for the whole match, and each player alone otherwise (games where
  partners change hand by hand, or everyone plays for themselves);
- the sides are ranked by the match's result: the winners first, then by the
  points each side ends with (higher is better, as the rules rank players);
  sides with equal results share a rank;
- every member has one rating over all games and one per game (variant).

A match that is not finished (or where a member would sit on two sides, two
names mapped to one member) is not rated; `rated` says why in words.

Head to head reads the same finished matches: for every two members, the
matches they played on opposite sides and which of them came out ahead, and,
where partners are fixed, the matches they played as partners and won.
Nothing here names a game: the kit says how partners come about.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date

from openskill.models import PlackettLuce

from .games.catalog import variant_for
from .model import MatchSummary, played_key
from .speech import _, ngettext

# The library's default model with its default parameters (mu 25, sigma 25/3, …).
MODEL = PlackettLuce()
# How settled a rating is, by its uncertainty (sigma): every rating starts at
# 25/3 ≈ 8.3 and it falls by a little with each match (below 6 after some 25
# matches of four players, below 4 after some 80).
SETTLING_DOWN_BELOW = 6.0
FAIRLY_SETTLED_BELOW = 4.0

# The sentences a page reads, whole, with named placeholders.

# --- the order matches are rated in ---------------------------------------------------


def played_order(
    summaries: Iterable[MatchSummary], started: Mapping[str, str] | None = None
) -> list[MatchSummary]:
    """The matches in the order played (`model.played_key`): by the day played
    (a match without one first), then by when it was started (`started`: match
    key -> its start stamp, ISO 8601 in UTC as the store keeps it), then in the
    order given."""
    started = started or {}
    return sorted(summaries, key=lambda s: played_key(s.played, started.get(s.key, "")))


# --- one match ------------------------------------------------------------------------


@dataclass(frozen=True)
class Side:
    """One side of a match: its members (partners, or a player alone), where it
    finished (1 is first; equal results share a rank) and whether it won."""

    members: tuple[str, ...]
    rank: int
    won: bool
    points: int


def sides(summary: MatchSummary) -> list[Side] | None:
    """The sides of a finished match, best first; None when it cannot be rated
    (not finished, fewer than two sides, or a member on two sides)."""
    if not summary.finished:
        return None
    fixed = variant_for(summary.variant).partners == "fixed"
    found: dict[tuple[str, ...], tuple[bool, int]] = {}
    for seat in summary.seats:
        if fixed and seat.tally.partner and seat.tally.partner != seat.player:
            members = tuple(sorted((seat.player, seat.tally.partner)))
        else:
            members = (seat.player,)
        found.setdefault(members, (seat.won, seat.points))
    everyone = [m for members in found for m in members]
    if len(found) < 2 or len(everyone) != len(set(everyone)):
        return None
    order = sorted(found.items(), key=lambda item: (not item[1][0], -item[1][1]))
    result: list[Side] = []
    for members, (won, points) in order:
        previous = result[-1] if result else None
        same = previous is not None and (previous.won, previous.points) == (won, points)
        rank = previous.rank if same else len(result) + 1
        result.append(Side(members, rank, won, points))
    return result


# --- ratings --------------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """A member's rating after one rated match (`match`: its key)."""

    match: str
    played: date | None
    mu: float
    sigma: float
    ordinal: float  # the library's ordinal: mu − 3 sigma, the figure shown


@dataclass(frozen=True)
class Rating:
    """A member's rating over all games (`game` None) or in one game (a variant
    id): every step, oldest first."""

    member: str
    game: str | None
    steps: tuple[Step, ...]

    @property
    def matches(self) -> int:
        return len(self.steps)

    @property
    def mu(self) -> float:
        return self.steps[-1].mu

    @property
    def sigma(self) -> float:
        return self.steps[-1].sigma

    @property
    def ordinal(self) -> float:
        return self.steps[-1].ordinal

    @property
    def settling(self) -> str:
        """How sure the figure is, in words."""
        if self.sigma < FAIRLY_SETTLED_BELOW:
            return _("fairly settled")
        if self.sigma < SETTLING_DOWN_BELOW:
            return _("settling down")
        return _("still settling")

    @property
    def words(self) -> str:
        """The figure with its uncertainty: "about 27, still settling after 4 matches"."""
        return ngettext(
            "about %(figure)s, %(settling)s after %(num)d match",
            "about %(figure)s, %(settling)s after %(num)d matches",
            self.matches,
            figure=shown_figure(self.ordinal),
            settling=self.settling,
        )

    def as_json(self) -> dict[str, float | int]:
        return {
            "matches": self.matches,
            "mu": self.mu,
            "sigma": self.sigma,
            "ordinal": self.ordinal,
        }


def shown_figure(value: float) -> str:
    """A rating as the page prints it: whole, a real minus sign below zero."""
    whole = round(value)
    return f"−{-whole}" if whole < 0 else str(whole)


@dataclass(frozen=True)
class Ratings:
    """Every member's ratings: over all games, per game, the matches rated and
    those left out (match key -> why)."""

    overall: dict[str, Rating]  # member -> rating, by name
    games: dict[str, dict[str, Rating]]  # variant id -> member -> rating
    rated: tuple[str, ...]  # match keys, in the order rated
    left_out: dict[str, str] = field(default_factory=dict)

    def as_json(self) -> dict[str, object]:
        """The `ratings` of `scorekeeper ledger` (docs/ledger.md)."""
        return {
            "model": "openskill PlackettLuce, default parameters",
            "matches": len(self.rated),
            "overall": {m: r.as_json() for m, r in self.overall.items()},
            "games": {
                game: {m: r.as_json() for m, r in members.items()}
                for game, members in self.games.items()
            },
        }


def _name_key(name: str) -> tuple[str, str]:
    return (name.casefold(), name)


class _Table:
    """The current ratings of one stream (all games, or one game) and their steps."""

    def __init__(self) -> None:
        self.now: dict[str, object] = {}
        self.steps: dict[str, list[Step]] = {}

    def rate(self, summary: MatchSummary, found: Sequence[Side]) -> None:
        teams = [[self.now.get(m) or MODEL.rating(name=m) for m in side.members] for side in found]
        rated = MODEL.rate(teams, ranks=[side.rank for side in found])
        for side, team in zip(found, rated, strict=True):
            for member, rating in zip(side.members, team, strict=True):
                self.now[member] = rating
                self.steps.setdefault(member, []).append(
                    Step(summary.key, summary.played, rating.mu, rating.sigma, rating.ordinal())
                )

    def ratings(self, game: str | None) -> dict[str, Rating]:
        return {m: Rating(m, game, tuple(self.steps[m])) for m in sorted(self.steps, key=_name_key)}


def ratings(summaries: Iterable[MatchSummary]) -> Ratings:
    """Each member's ratings after `summaries` (names mapped to members), rated in
    the order given: pass them through `played_order` first."""
    overall = _Table()
    per_game: dict[str, _Table] = {}
    rated: list[str] = []
    left_out: dict[str, str] = {}
    for summary in summaries:
        found = sides(summary)
        if found is None:
            left_out[summary.key] = (
                _("not finished") if not summary.finished else _("a member sits on two sides")
            )
            continue
        overall.rate(summary, found)
        per_game.setdefault(summary.variant, _Table()).rate(summary, found)
        rated.append(summary.key)
    return Ratings(
        overall.ratings(None),
        {game: table.ratings(game) for game, table in sorted(per_game.items())},
        tuple(rated),
        left_out,
    )


# --- head to head -------------------------------------------------------------------


@dataclass
class Meeting:
    """Two members across the finished matches: `first` before `second` by name.
    Against each other: matches, and how often each came out ahead or they were
    level. As partners (where partners are fixed): matches together and won."""

    first: str
    second: str
    against: int = 0
    first_ahead: int = 0
    second_ahead: int = 0
    level: int = 0
    together: int = 0
    won_together: int = 0

    def ahead(self, member: str) -> int:
        return self.first_ahead if member == self.first else self.second_ahead

    def other(self, member: str) -> str:
        return self.second if member == self.first else self.first

    @property
    def against_words(self) -> str:
        """ "5 matches against each other: Ann ahead in 3, Bob in 1, level in 1"."""
        return ngettext(
            "%(num)d match against each other: %(first)s ahead in %(first_ahead)d,"
            " %(second)s in %(second_ahead)d, level in %(level)d",
            "%(num)d matches against each other: %(first)s ahead in %(first_ahead)d,"
            " %(second)s in %(second_ahead)d, level in %(level)d",
            self.against,
            first=self.first,
            first_ahead=self.first_ahead,
            second=self.second,
            second_ahead=self.second_ahead,
            level=self.level,
        )

    @property
    def together_words(self) -> str:
        """ "4 matches as partners, 3 won"."""
        return ngettext(
            "%(num)d match as partners, %(won)d won",
            "%(num)d matches as partners, %(won)d won",
            self.together,
            won=self.won_together,
        )


@dataclass(frozen=True)
class HeadToHead:
    """Every two members who met, and for each member their rival (the member
    they played most matches against) and best partner (most matches won
    together), each with the meeting behind it."""

    matches: int  # the finished matches read
    meetings: tuple[Meeting, ...]  # by the two names
    rivals: dict[str, Meeting]  # member -> the meeting with their rival
    partners: dict[str, Meeting]  # member -> the meeting with their best partner
    best_partnership: Meeting | None  # of the whole group


def head_to_head(summaries: Iterable[MatchSummary]) -> HeadToHead:
    """Head to head over the finished matches of `summaries` (names mapped to members)."""
    pairs: dict[tuple[str, str], Meeting] = {}
    read = 0

    def meeting(a: str, b: str) -> Meeting:
        first, second = sorted((a, b), key=_name_key)
        return pairs.setdefault((first, second), Meeting(first, second))

    for summary in summaries:
        found = sides(summary)
        if found is None:
            continue
        read += 1
        for i, side in enumerate(found):
            for a in side.members:
                for b in side.members:
                    if _name_key(a) < _name_key(b):
                        pair = meeting(a, b)
                        pair.together += 1
                        pair.won_together += side.won
            for other in found[i + 1 :]:
                for a in side.members:
                    for b in other.members:
                        pair = meeting(a, b)
                        pair.against += 1
                        if side.rank == other.rank:
                            pair.level += 1
                        elif (side.rank < other.rank) == (a == pair.first):
                            pair.first_ahead += 1
                        else:
                            pair.second_ahead += 1
    meetings = tuple(
        pairs[k] for k in sorted(pairs, key=lambda k: (_name_key(k[0]), _name_key(k[1])))
    )
    members = sorted({m for p in meetings for m in (p.first, p.second)}, key=_name_key)
    rivals: dict[str, Meeting] = {}
    partners: dict[str, Meeting] = {}
    for member in members:
        mine = [p for p in meetings if member in (p.first, p.second)]
        # Most matches against; on a tie, the other member first by name.
        opposed = [p for p in mine if p.against]
        if opposed:
            rivals[member] = min(opposed, key=lambda p: (-p.against, _name_key(p.other(member))))
        teamed = [p for p in mine if p.together]
        if teamed:
            partners[member] = min(teamed, key=lambda p: _partnership_key(p, member))
    teamed = [p for p in meetings if p.together]
    best = min(teamed, key=lambda p: _partnership_key(p, p.first)) if teamed else None
    return HeadToHead(read, meetings, rivals, partners, best)


def _partnership_key(p: Meeting, member: str) -> tuple:
    """Best partnership first: most matches won together, then the larger share
    of matches won, then the partner first by name."""
    return (-p.won_together, -p.won_together / p.together, _name_key(p.other(member)))


# --- as a table -------------------------------------------------------------------------

RATINGS_CSV_HEAD = ["member", "game", "matches", "mu", "sigma", "ordinal", "shown"]


def ratings_rows(found: Ratings, game_names: Mapping[str, str]) -> list[list[str]]:
    """Each member's ratings as CSV rows, all games first then each game (named by
    `game_names`, variant id -> name): the library's figures in full, and the
    figure a page shows."""
    rows = [RATINGS_CSV_HEAD]
    streams = [(_("all games"), found.overall)] + [
        (game_names.get(game, game), members) for game, members in found.games.items()
    ]
    for game, members in streams:
        for rating in members.values():
            rows.append(
                [rating.member, game, str(rating.matches), repr(rating.mu), repr(rating.sigma),
                 repr(rating.ordinal), shown_figure(rating.ordinal).replace("−", "-")]
            )  # fmt: skip
    return rows
