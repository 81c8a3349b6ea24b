"""Statistics of players across matches, from the replayed hands (pure Python).

Two steps, so that a store can keep the first per match revision:

1. `tally_match(variant, players, records, outcome)` reads every replayed hand
   of one match once and counts, per player, what the statistics need: a
   `PlayerTally` (hands played and declared, contracts made, doubled…, the
   game's own counts, partners by hand). The ledger keeps it in each match's
   `MatchSummary` (scorekeeper/model.py).
2. `statistics(summaries)` adds the tallies of many matches up per member,
   overall and per game, as `Figure`s that each say what they count.

Every fact about a hand is read by its game, in ONE place: the `read_hand` of
its kit's `GameStats` (scorekeeper/games/<family>/stats.py) is the only code
that knows the shape of a hand's `details` or of its record. Nothing here
names a game: the game's kit says what it counts and how partners come about.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .games.catalog import GAMES, game_for, variant_for
from .games.common import Outcome, partnerships
from .model import MatchSummary, PartnerTally, PlayerTally
from .speech import _, ngettext

# Each game's own telling counts: key -> (label, what it counts).
TELLING: dict[str, tuple[str, str]] = {
    key: words for game in GAMES if game.stats for key, words in game.stats.telling.items()
}

# --- one match, per player -------------------------------------------------------------


@dataclass
class _Counting:
    hands: int = 0
    declared: int = 0
    made: int = 0
    doubled: int = 0
    redoubled: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    partners: dict[str, list[int]] = field(default_factory=dict)


def tally_match(
    variant: str, players: list[str], records: list[dict[str, Any]], outcome: Outcome
) -> dict[str, PlayerTally]:
    """Each player's tally of one replayed match (`records`: its hands as entered)."""
    game = game_for(variant).stats
    if game is None:  # registry.missing() names it, and the app refuses to start without it
        raise LookupError(f"{variant}: no statistics in its kit (games/<family>/stats.py)")
    counting = {p: _Counting() for p in players}
    for record, result in zip(records, outcome.hands, strict=False):
        if "end" in record:  # the end marker: the players stopped, no hand was dealt
            continue
        facts = game.read_hand(players, record, result)
        if facts.played and result.counted:
            for p in facts.at_table:
                counting[p].hands += 1
        for p, key in facts.counts:
            counting[p].counts[key] = counting[p].counts.get(key, 0) + 1
        if facts.declarer is None:
            continue
        mine = counting[facts.declarer]
        mine.declared += 1
        mine.made += bool(facts.made)
        if facts.contract is not None:
            mine.doubled += facts.contract.doubled == 1
            mine.redoubled += facts.contract.doubled == 2
        if facts.partner is not None:
            for a, b in ((facts.declarer, facts.partner), (facts.partner, facts.declarer)):
                pair = counting[a].partners.setdefault(b, [0, 0])
                pair[0] += 1
                pair[1] += bool(facts.made)
    if game.finished is not None and outcome.finished:
        for p, key in game.finished(outcome):
            counting[p].counts[key] = counting[p].counts.get(key, 0) + 1
    # Fixed partnerships (seats 1 & 3 against 2 & 4): a partner record counts the
    # matches two members played together, as partnerships change from match to
    # match. Partners chosen hand by hand come with each hand's facts (records
    # count hands); where everyone plays for themselves there are none.
    fixed = {}
    if variant_for(variant).partners == "fixed":
        for side in partnerships(players):
            fixed |= {side[0]: side[1], side[1]: side[0]}
    return {
        p: PlayerTally(
            c.hands,
            c.declared,
            c.made,
            c.doubled,
            c.redoubled,
            fixed.get(p),
            tuple(sorted(c.counts.items())),
            tuple(PartnerTally(n, h, m) for n, (h, m) in sorted(c.partners.items())),
        )
        for p, c in counting.items()
    }


# --- many matches, per member ------------------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """One statistic: its label, its value and what it counts. `of` is the number a
    share is taken of; `match` the key of the match a best or worst figure names."""

    key: str
    label: str
    value: int | Decimal | None
    says: str
    of: int | None = None
    match: str | None = None

    @property
    def shown(self) -> str:
        """The value as a page prints it: "3 of 5 (60%)", "+12.5", "–" when there is none."""
        if self.value is None:
            return "–"
        if self.of == 0:  # nothing declared: no share to take (0 / 0)
            return f"{self.value} of 0"
        if self.of is not None:
            share = (Decimal(100 * self.value) / self.of).quantize(Decimal(1), ROUND_HALF_UP)
            return f"{self.value} of {self.of} ({share}%)"
        if self.key in ("average", "best", "worst"):
            # Points as on paper: +12.5, −4, and a plain 0 (no sign on nothing).
            return f"{self.value:+}" if self.value else "0"
        return str(self.value)


@dataclass(frozen=True)
class PartnerRecord:
    """A member's record with one partner: matches (fixed partnerships) or hands
    (Need a Fourth?, where the Chooser picks a Partner each hand) together and won."""

    partner: str
    unit: str  # "matches" or "hands"
    together: int
    won: int

    @property
    def says(self) -> str:
        if self.unit == "hands":
            return ngettext(
                "%(num)d hand as Chooser and Partner, %(made)d made",
                "%(num)d hands as Chooser and Partner, %(made)d made",
                self.together,
                made=self.won,
            )
        return ngettext(
            "%(num)d match as partners, %(won)d won",
            "%(num)d matches as partners, %(won)d won",
            self.together,
            won=self.won,
        )


@dataclass(frozen=True)
class MemberStats:
    """A member's statistics: overall, per game (variant id), and partner records."""

    member: str
    overall: tuple[Figure, ...]
    games: dict[str, tuple[Figure, ...]]
    partners: tuple[PartnerRecord, ...]

    def figure(self, key: str, game: str | None = None) -> Figure:
        """One figure by its key, overall or in one game."""
        return next(f for f in (self.games[game] if game else self.overall) if f.key == key)


@dataclass
class _Sum:
    matches: int = 0
    won: int = 0
    tally: PlayerTally = field(default_factory=PlayerTally)
    points: int = 0
    best: tuple[Fraction, str] | None = None
    worst: tuple[Fraction, str] | None = None


CENT = Decimal("0.01")


def _decimal(value: Fraction, places: Decimal) -> Decimal:
    """A whole number as it is (+2450), else rounded to `places` (+12.5, +0.67)."""
    if value.denominator == 1:
        return Decimal(value.numerator)
    return (Decimal(value.numerator) / Decimal(value.denominator)).quantize(places, ROUND_HALF_UP)


def _common_figures(total: _Sum) -> list[Figure]:
    t = total.tally
    return [
        Figure("matches", _("Matches"), total.matches, _("matches played")),
        Figure(
            "won", _("Won"), total.won, _("matches won, alone or with others"), of=total.matches
        ),
        Figure("hands", _("Hands"), t.hands, _("hands dealt in and counted (Calypso: games)")),
        Figure("declared", _("Declared"), t.declared, _("hands this player's contract was played")),
        Figure(
            "made",
            _("Made"),
            t.made,
            _("contracts made of those this player declared"),
            of=t.declared,
        ),
        Figure(
            "doubled",
            _("Doubled"),
            t.doubled,
            _("contracts this player declared that were doubled"),
        ),
        Figure(
            "redoubled",
            _("Redoubled"),
            t.redoubled,
            _("contracts this player declared, redoubled"),
        ),
    ]


def _game_figures(total: _Sum) -> list[Figure]:
    t = total.tally
    average = _decimal(Fraction(total.points, t.hands), Decimal("0.1")) if t.hands else None
    figures = _common_figures(total) + [
        Figure("average", _("Average"), average, _("points a match ends with, per hand played")),
    ]
    best, worst = _("Best match"), _("Worst")
    for key, label, pick in (("best", best, total.best), ("worst", worst, total.worst)):
        value, match = pick if pick else (None, None)
        if key == "best":
            says = _(
                "the match this player came out furthest ahead, in points as the game settles them"
            )
        else:
            says = _(
                "the match this player came out furthest behind, in points as the game settles them"
            )
        figures.append(
            Figure(key, label, None if value is None else _decimal(value, CENT), says, match=match)
        )
    for key, n in t.counts:
        label, says = TELLING[key]
        figures.append(Figure(key, label, n, says))
    return figures


def statistics(summaries: Iterable[MatchSummary]) -> dict[str, MemberStats]:
    """Each member's statistics over `summaries` (already renamed to members and
    filtered to a period; see `ledger.select`), members by name. Averages and
    best and worst matches are per game only: points of different games do not add up."""
    overall: dict[str, _Sum] = {}
    per_game: dict[str, dict[str, _Sum]] = {}
    fixed: dict[str, dict[str, list[int]]] = {}
    by_hand: dict[str, dict[str, list[int]]] = {}
    for summary in summaries:
        for seat in summary.seats:
            name = seat.player
            for total in (
                overall.setdefault(name, _Sum()),
                per_game.setdefault(name, {}).setdefault(summary.variant, _Sum()),
            ):
                total.matches += 1
                total.won += seat.won
                total.tally = total.tally + seat.tally
            game = per_game[name][summary.variant]
            game.points += seat.points
            mark = (seat.margin, summary.key)
            # Ties go to the earlier match in the order given.
            if game.best is None or seat.margin > game.best[0]:
                game.best = mark
            if game.worst is None or seat.margin < game.worst[0]:
                game.worst = mark
            if seat.tally.partner:
                pair = fixed.setdefault(name, {}).setdefault(seat.tally.partner, [0, 0])
                pair[0] += 1
                pair[1] += seat.won
            for p in seat.tally.partners:
                pair = by_hand.setdefault(name, {}).setdefault(p.partner, [0, 0])
                pair[0] += p.hands
                pair[1] += p.made
    found = {}
    for name in sorted(overall, key=lambda n: (n.casefold(), n)):
        partners = [
            PartnerRecord(p, "matches", *fixed[name][p]) for p in sorted(fixed.get(name, {}))
        ] + [PartnerRecord(p, "hands", *by_hand[name][p]) for p in sorted(by_hand.get(name, {}))]
        found[name] = MemberStats(
            name,
            tuple(_common_figures(overall[name])),
            {game: tuple(_game_figures(s)) for game, s in sorted(per_game[name].items())},
            tuple(partners),
        )
    return found
