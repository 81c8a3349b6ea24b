"""The match, its stake and its summary: the types every layer names, pure
Python below all of them (the games, the match file, the ledger, the
statistics, storage and the views import them; this module imports nothing of
Scorekeeper).

A `Match` is what a match file says (docs/match-file.md): its variant, players,
options, hands as entered, title, stake and day. Replaying it by the rules of
its variant is `scorekeeper.variants.replay_match`; reading and checking a
file is `scorekeeper.matchfile`. A `MatchSummary` is what the ledger and the
statistics keep of one replayed match (`scorekeeper.ledger.summarize` makes
it), so that a store can keep it per match revision.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

# The match file's format (docs/match-file.md), written first in every file.
MATCH_FORMAT = "scorekeeper-match/1"
# The shape of a stored summary: a store drops (and rebuilds by replaying) every
# summary of another shape, e.g. one kept before the statistics counted more.
# /2: the day is the match's day played (the evening rule, or set in its settings).
SUMMARY_FORMAT = "scorekeeper-summary/2"


# --- a match ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Stake:
    """Money per point: `amount` for every `per` points."""

    amount: Decimal
    per: int = 1
    currency: str = ""

    @property
    def rate(self) -> Decimal:
        return self.amount / self.per

    def as_json(self) -> dict[str, Any]:
        return {"amount": format_amount(self.amount), "per": self.per, "currency": self.currency}

    @property
    def money(self) -> str:
        """The amount and its currency as written: "0.50 EUR" (or "0.50")."""
        return " ".join(filter(None, [format_amount(self.amount), self.currency]))

    @property
    def words(self) -> str:
        """The stake in words, the one wording of it: "0.50 EUR per point",
        "1.00 EUR per 3 points"."""
        return f"{self.money} per {'point' if self.per == 1 else f'{self.per} points'}"


@dataclass
class Match:
    """A match as its file gives it: the hands as entered, in the order played."""

    variant: str
    players: list[str]
    options: dict[str, Any] = field(default_factory=dict)
    hands: list[dict[str, Any]] = field(default_factory=list)
    title: str | None = None
    stake: Stake | None = None
    # The day the match was played (optional; the ledger's periods go by it).
    played: date | None = None

    def as_json(self) -> dict[str, Any]:
        doc: dict[str, Any] = {"format": MATCH_FORMAT, "variant": self.variant}
        if self.title:
            doc["title"] = self.title
        if self.played is not None:
            doc["played"] = self.played.isoformat()
        doc["players"] = list(self.players)
        if self.options:
            doc["options"] = dict(self.options)
        if self.stake is not None:
            doc["stake"] = self.stake.as_json()
        doc["hands"] = list(self.hands)
        return doc


def format_amount(amount: Decimal) -> str:
    """Keep the digits as entered but always at least two decimals: 0.5 -> "0.50"."""
    text = format(amount.normalize(), "f")
    whole, _, cents = text.partition(".")
    return f"{whole}.{cents.ljust(2, '0')}"


def played_key(played: date | None, started: str = "") -> tuple[date, str]:
    """Where a match comes in the order played, the one order every list of
    matches as played sorts by (a group's matches, its ledger and ratings, the
    group file, the ratings of match files): by the day played (a match without
    one first), then by when it was started (the store's ISO 8601 stamp in UTC;
    "" when unknown). Sort with `reverse=True` for the newest first."""
    return (played or date.min, started)


# --- what the ledger and the statistics keep of one match ------------------------------


@dataclass(frozen=True)
class PartnerTally:
    """Hands played with one partner where partners change hand by hand (Need a Fourth?)."""

    partner: str
    hands: int
    made: int


@dataclass(frozen=True)
class PlayerTally:
    """What one player did in one match, counted hand by hand."""

    hands: int = 0  # counted hands this player was dealt in (Calypso: games of four deals)
    declared: int = 0
    made: int = 0
    doubled: int = 0
    redoubled: int = 0
    partner: str | None = None  # the partner for the whole match (fixed partnerships)
    counts: tuple[tuple[str, int], ...] = ()  # the game's own telling counts, by key
    partners: tuple[PartnerTally, ...] = ()  # partners by hand, by name

    def as_json(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "declared": self.declared,
            "made": self.made,
            "doubled": self.doubled,
            "redoubled": self.redoubled,
            "partner": self.partner,
            "counts": dict(self.counts),
            "partners": [[p.partner, p.hands, p.made] for p in self.partners],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> PlayerTally:
        return cls(
            doc["hands"],
            doc["declared"],
            doc["made"],
            doc["doubled"],
            doc["redoubled"],
            doc["partner"],
            tuple(doc["counts"].items()),
            tuple(PartnerTally(*p) for p in doc["partners"]),
        )

    def renamed(self, same: Mapping[str, str]) -> PlayerTally:
        partners: dict[str, list[int]] = {}
        for p in self.partners:
            mine = partners.setdefault(same.get(p.partner, p.partner), [0, 0])
            mine[0] += p.hands
            mine[1] += p.made
        return PlayerTally(
            self.hands,
            self.declared,
            self.made,
            self.doubled,
            self.redoubled,
            same.get(self.partner, self.partner) if self.partner else None,
            self.counts,
            tuple(PartnerTally(n, h, m) for n, (h, m) in sorted(partners.items())),
        )

    def __add__(self, other: PlayerTally) -> PlayerTally:
        """Two tallies of one member in one match (two names mapped to one member)."""
        counts = dict(self.counts)
        for key, n in other.counts:
            counts[key] = counts.get(key, 0) + n
        return PlayerTally(
            self.hands + other.hands,
            self.declared + other.declared,
            self.made + other.made,
            self.doubled + other.doubled,
            self.redoubled + other.redoubled,
            self.partner or other.partner,
            tuple(sorted(counts.items())),
            self.partners + other.partners,
        )


@dataclass(frozen=True)
class Seat:
    """One player's part in one match."""

    player: str
    won: bool
    points: int  # the match's final total for this player (Bridge for Three: the peg)
    margin: Fraction  # what the game's settlement gives at one unit per point (best/worst)
    money: Decimal  # received minus paid in the match's settlement payments
    tally: PlayerTally  # hand by hand counts for the statistics

    def as_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "won": self.won,
            "points": self.points,
            "margin": str(self.margin),
            "money": str(self.money),
            "tally": self.tally.as_json(),
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> Seat:
        return cls(
            doc["player"],
            doc["won"],
            doc["points"],
            Fraction(doc["margin"]),
            Decimal(doc["money"]),
            PlayerTally.from_json(doc["tally"]),
        )


@dataclass(frozen=True)
class MatchSummary:
    """What the ledger and the statistics need of one match, replayed once."""

    key: str  # the match's id, or its file name on the command line
    variant: str
    played: date | None  # the day it was played; None when unknown
    finished: bool
    currency: str | None  # the stake's currency ("" when none was written); None: no stake
    seats: tuple[Seat, ...]  # in seating order

    @property
    def players(self) -> list[str]:
        return [seat.player for seat in self.seats]

    def renamed(self, same: Mapping[str, str]) -> MatchSummary:
        """The summary with each player's name mapped to a member's (`{"Annie": "Ann"}`);
        two names mapped to one member become one seat holding both parts."""
        if not same:
            return self
        seats: dict[str, Seat] = {}
        for seat in self.seats:
            name = same.get(seat.player, seat.player)
            mine = replace(seat, player=name, tally=seat.tally.renamed(same))
            if name in seats:
                was = seats[name]
                mine = Seat(
                    name,
                    was.won or mine.won,
                    was.points + mine.points,
                    was.margin + mine.margin,
                    was.money + mine.money,
                    was.tally + mine.tally,
                )
            seats[name] = mine
        return replace(self, seats=tuple(seats.values()))

    def as_json(self) -> dict[str, Any]:
        return {
            "format": SUMMARY_FORMAT,
            "key": self.key,
            "variant": self.variant,
            "played": self.played.isoformat() if self.played else None,
            "finished": self.finished,
            "currency": self.currency,
            "seats": [seat.as_json() for seat in self.seats],
        }

    @classmethod
    def from_json(cls, doc: Mapping[str, Any]) -> MatchSummary:
        """The summary `as_json` wrote (e.g. kept in a store per match revision).
        Raises ValueError for a summary of another shape (SUMMARY_FORMAT): replay
        the match and keep its new summary instead."""
        if doc.get("format") != SUMMARY_FORMAT:
            raise ValueError(f"not a {SUMMARY_FORMAT} summary: {doc.get('format')!r:.40}")
        played = doc["played"]
        return cls(
            doc["key"],
            doc["variant"],
            date.fromisoformat(played) if played else None,
            doc["finished"],
            doc["currency"],
            tuple(Seat.from_json(seat) for seat in doc["seats"]),
        )
