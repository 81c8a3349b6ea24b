"""Statistics of players across matches, from the replayed hands (pure Python).

Two steps, so that a store can keep the first per match revision:

1. `tally_match(variant, players, records, outcome)` reads every replayed hand
   of one match once and counts, per player, what the statistics need: a
   `PlayerTally` (hands played and declared, contracts made, doubled…, the
   game's own counts, partners by hand). The ledger keeps it in each match's
   `MatchSummary` (scorekeeper/model.py).
2. `statistics(summaries)` adds the tallies of many matches up per member,
   overall and per game, as `Figure`s that each say what they count.

Every fact about a hand is read in ONE place, the `_facts_*` accessors below
(`HAND_FACTS`, through `_get`): they are the only code here that knows the
shape of a hand's `details` (a dict of facts, or the typed dataclass of the
game's rules: `_get` reads both) or of its record.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .games.common import Contract, HandResult, Outcome, parse_contract, partnerships
from .model import MatchSummary, PartnerTally, PlayerTally

# --- what one hand tells --------------------------------------------------------------


@dataclass(frozen=True)
class HandFacts:
    """What the statistics read from one replayed hand."""

    at_table: tuple[str, ...]  # the players dealt in (Bridge for Three: not those sitting out)
    played: bool = True  # False: not counted (a redeal, a scrapped deal, wrong dummy information)
    declarer: str | None = None  # whose contract it was (Need a Fourth?: the Chooser's)
    contract: Contract | None = None  # None where the game has no bid contract (Mini Bridge)
    made: bool | None = None  # None when nobody declared
    partner: str | None = None  # the declarer's partner, where partners change hand by hand
    counts: tuple[tuple[str, str], ...] = ()  # (player, telling count) to add one to


def _get(details: Any, name: str) -> Any:
    """One fact of a hand's `details`, a dict of facts or a typed dataclass of the
    game's rules (None when that kind of hand has no such fact)."""
    if isinstance(details, Mapping):
        return details.get(name)
    return getattr(details, name, None)


def _contract(text: Any) -> Contract | None:
    return parse_contract(text, max_level=None) if isinstance(text, str) else None


def _made(contract: Contract | None, tricks: Any) -> bool | None:
    if contract is None or not isinstance(tricks, int):
        return None
    return tricks >= contract.needed


def _facts_top_game(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    informer = _get(details, "informer")
    if informer:
        return HandFacts(tuple(players), False, counts=((informer, "misinformed"),))
    declarer = _get(details, "declarer")
    tops, bid = record.get("declarer_tops"), record.get("bid")
    raised = isinstance(tops, int) and isinstance(bid, int) and tops > bid
    # The penalty is due whatever the play, also when the playnumber passes the hand out.
    counts = ((declarer, "raise_penalty"),) if declarer and raised else ()
    written = _get(details, "contract")
    contract = _contract(written) if written != "passed" else None
    if declarer is None or contract is None:  # passed out, or a playnumber of 4 or less
        return HandFacts(tuple(players), counts=counts)
    made = _made(contract, record.get("tricks"))  # the details keep no tricks
    return HandFacts(tuple(players), True, declarer, contract, made, counts=counts)


def _facts_need_a_fourth(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    if _get(details, "passed_out"):
        return HandFacts(tuple(players))
    chooser = _get(details, "auction_winner")  # who bid it, also when the Partner redoubled
    pair = (_get(details, "chooser"), _get(details, "partner"))
    partner = next(p for p in pair if p != chooser)
    made = _get(details, "made")
    counts = tuple((liar, "lied") for liar in _get(details, "liars") or ())
    if made is False:
        counts += ((_get(details, "declarer"), "set_alone"),)
    contract = _contract(_get(details, "contract"))
    return HandFacts(tuple(players), True, chooser, contract, made, partner, counts)


def _facts_bridge_for_three(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    at_table = tuple(_get(details, "players") or players)
    declarer = _get(details, "declarer")
    if not declarer:
        return HandFacts(at_table)
    contract = _contract(_get(details, "contract"))
    made = _made(contract, _get(details, "tricks"))
    return HandFacts(at_table, True, declarer, contract, made)


def _facts_mini_bridge(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    declarer = _get(details, "declarer")
    if not result.counted:  # 20–20, dealt again; or (three players) a weak deal scrapped
        counts = ((declarer, "scrapped"),) if declarer else ()
        return HandFacts(tuple(players), False, counts=counts)
    made = _get(details, "made")
    counts = ((declarer, "game_made"),) if _get(details, "game") and made else ()
    return HandFacts(tuple(players), True, declarer, None, made, counts=counts)


def _facts_rubber(players: list[str], record: dict, result: HandResult) -> HandFacts:
    details = result.details
    if not result.counted:  # Chicago's passed-out deal, dealt again
        return HandFacts(tuple(players), False)
    counts: tuple[tuple[str, str], ...] = ()
    won = _get(details, "rubber_won")
    if won is not None:
        counts += tuple((p, "rubber_won") for p in partnerships(players)[won])
    if _get(details, "passed_out"):
        return HandFacts(tuple(players), counts=counts)
    declarer = record.get("declarer")  # the details name only the declaring side
    contract = _contract(_get(details, "contract"))
    made = _made(contract, _get(details, "tricks"))
    if made and contract is not None and contract.level >= 6:
        counts += ((declarer, "slam_made"),)
    return HandFacts(tuple(players), True, declarer, contract, made, counts=counts)


def _facts_calypso(players: list[str], record: dict, result: HandResult) -> HandFacts:
    # Each player's tally: `tallies` in the typed details, `players` in the dict.
    tallies = _get(result.details, "tallies") or _get(result.details, "players") or {}
    counts = tuple(
        (p, "calypsos") for p in players for _ in range(tallies.get(p, {}).get("calypsos", 0))
    )
    return HandFacts(tuple(players), counts=counts)


# Variant id -> its accessor: the one place that reads a hand's details and record.
HAND_FACTS: dict[str, Callable[[list[str], dict, HandResult], HandFacts]] = {
    "top-game": _facts_top_game,
    "need-a-fourth": _facts_need_a_fourth,
    "bridge-for-three": _facts_bridge_for_three,
    "mini-bridge": _facts_mini_bridge,
    "mini-bridge-3": _facts_mini_bridge,
    "rubber": _facts_rubber,
    "honeymoon": _facts_rubber,
    "chicago": _facts_rubber,
    "calypso": _facts_calypso,
}

# Each game's own telling counts: key -> (label, what it counts).
TELLING: dict[str, tuple[str, str]] = {
    "misinformed": (
        "Wrong dummy information",
        "Top Game hands where this player misdescribed dummy",
    ),
    "raise_penalty": (
        "Raise penalties",
        "Top Game contracts where this player held more tops than the bid and did not raise",
    ),
    "lied": ("Lies caught", "Need a Fourth? hands where this player was found to have lied"),
    "set_alone": (
        "Sets as Declarer",
        "Need a Fourth? contracts this player, alone as Declarer, held below their tricks",
    ),
    "pegged_out": (
        "Pegged out first",
        "Bridge for Three games this player won by reaching hole 11 first",
    ),
    "game_made": ("GAME made", "Mini Bridge hands this player declared GAME and made it"),
    "scrapped": ("Deals scrapped", "Mini Bridge for three deals this player scrapped as declarer"),
    "rubber_won": ("Rubbers won", "rubbers this player's side won"),
    "slam_made": ("Slams made", "small and grand slams this player declared and made"),
    "calypsos": ("Calypsos", "calypsos this player completed"),
}

# Games whose partnerships are fixed for a match (seats 1 & 3 against 2 & 4): a
# partner record counts the matches two members played together, as partnerships
# change from match to match. Need a Fourth? changes partners hand by hand (the
# Chooser picks one), so its records count hands; Bridge for Three, the Top Game,
# Mini Bridge for three and Honeymoon have no partners.
FIXED_PARTNERS = {"mini-bridge", "rubber", "chicago", "calypso"}


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
    facts_of = HAND_FACTS[variant]
    counting = {p: _Counting() for p in players}
    for record, result in zip(records, outcome.hands, strict=False):
        if "end" in record:  # the end marker: the players stopped, no hand was dealt
            continue
        facts = facts_of(players, record, result)
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
    if variant == "bridge-for-three" and outcome.finished:
        for p in outcome.winners:
            counting[p].counts["pegged_out"] = 1
    fixed = {}
    if variant in FIXED_PARTNERS:
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


def _count(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}es" if word.endswith("ch") else f"{n} {word}s"


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
            return f"{_count(self.together, 'hand')} as Chooser and Partner, {self.won} made"
        return f"{_count(self.together, 'match')} as partners, {self.won} won"


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
        Figure("matches", "Matches", total.matches, "matches played"),
        Figure("won", "Won", total.won, "matches won, alone or with others", of=total.matches),
        Figure("hands", "Hands", t.hands, "hands dealt in and counted (Calypso: games)"),
        Figure("declared", "Declared", t.declared, "hands this player's contract was played"),
        Figure(
            "made", "Made", t.made, "contracts made of those this player declared", of=t.declared
        ),
        Figure("doubled", "Doubled", t.doubled, "contracts this player declared that were doubled"),
        Figure("redoubled", "Redoubled", t.redoubled, "contracts this player declared, redoubled"),
    ]


def _game_figures(total: _Sum) -> list[Figure]:
    t = total.tally
    average = _decimal(Fraction(total.points, t.hands), Decimal("0.1")) if t.hands else None
    figures = _common_figures(total) + [
        Figure("average", "Average", average, "points a match ends with, per hand played"),
    ]
    for key, label, pick in (("best", "Best match", total.best), ("worst", "Worst", total.worst)):
        value, match = pick if pick else (None, None)
        where = "furthest ahead" if key == "best" else "furthest behind"
        says = f"the match this player came out {where}, in points as the game settles them"
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
