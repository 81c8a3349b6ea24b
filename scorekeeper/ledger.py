"""The ledger of a group of players across matches: who won how much in each
currency, what was paid since, and the fewest payments that settle up (pure Python).

The arithmetic works on one small record per match, a `MatchSummary`
(scorekeeper/model.py): frozen, serialisable (`as_json` /
`MatchSummary.from_json`), so a store can keep it per match revision instead
of replaying every match for every page. It is made by `summarize` from a
replayed match and that match's own settlement payments (scorekeeper/report.py
`match_summary` does both), so each match's part in the ledger is exactly what
its settlement moves, never a second truth.

    summaries = [match_summary(m) for m in matches]            # or from a cache
    book = ledger(summaries, same={"Annie": "Ann"}, period=Period(start, end),
                  paid=[Transfer("Bob", "Ann", Decimal("7.50"), "EUR", day)])
    book.balances   # {"EUR": {"Ann": Decimal("5.00"), …}, …}
    book.settle_up  # (Transfer("Bob", "Ann", Decimal("2.50"), "EUR"), …)
    statistics(book.matches)  # scorekeeper/stats.py

A group whose matches map names differently renames each summary first
(`summary.renamed({"Annie": "Ann"})`, its own mapping) and passes those; `same`
applies one mapping to every match. A stored match's summary takes the day it
was started (`match_summary(…, played=day)`) when its file names none.

Decisions (docs/ledger.md):
- A period holds the matches played on a day from `start` to `end`, both
  included. A match without a day counts only when the period is all time
  (neither end given); so does a recorded payment without a day.
- A match without a stake counts as played and won but moves no money.
- Currencies never mix: each has its own balances and its own payments; a
  stake's currency is taken as written ("" when none is given).
- Names are taken as written; `same` maps a name to a member's name.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date
from decimal import Decimal
from fractions import Fraction
from typing import Any

from .games.common import Outcome
from .model import Match, MatchSummary, PlayerTally, Seat
from .settle import payments as table_payments
from .stats import tally_match

CENT = Decimal("0.01")


def _name_key(name: str) -> tuple[str, str]:
    """Members in a stable order: by name, case aside, then exactly."""
    return (name.casefold(), name)


# --- one match ------------------------------------------------------------------------


def summarize(
    match: Match,
    outcome: Outcome,
    payments: Iterable[Any],
    margins: Mapping[str, Fraction],
    *,
    key: str = "",
) -> MatchSummary:
    """One match's summary from its replay (`outcome`), its own settlement
    `payments` (scorekeeper/settle.py `Payment`s: payer, payee, amount; none
    without a stake) and `margins`, each player's balance by the game's
    settlement at one unit per point (`Settlement.balances(outcome, 1, 1)`)."""
    money = {p: Decimal("0.00") for p in match.players}
    for pay in payments:
        money[pay.payer] -= pay.amount
        money[pay.payee] += pay.amount
    tallies = tally_match(match.variant, match.players, match.hands, outcome)
    seats = tuple(
        Seat(
            p,
            outcome.finished and p in outcome.winners,
            outcome.totals[p],
            Fraction(margins[p]),
            money[p],
            tallies[p],
        )
        for p in match.players
    )
    currency = match.stake.currency if match.stake is not None else None
    return MatchSummary(key, match.variant, match.played, outcome.finished, currency, seats)


def members_only(summary: MatchSummary, guests: Iterable[str]) -> MatchSummary:
    """The summary without the seats of `guests`, players who played the match
    without joining the group: a guest's money is settled at the table that
    night, so each member keeps only their part of the match's own settlement
    payments (settle.py `payments`, the ones the match lists) made with other
    members. The members' parts still sum to zero."""
    guests = set(guests) & set(summary.players)
    if not guests:
        return summary
    table = table_payments({seat.player: seat.money for seat in summary.seats})
    money = {p: Decimal("0.00") for p in summary.players if p not in guests}
    for pay in table:
        if pay.payer in money and pay.payee in money:
            money[pay.payer] -= pay.amount
            money[pay.payee] += pay.amount
    seats = tuple(
        replace(seat, money=money[seat.player], tally=_without(seat.tally, guests))
        for seat in summary.seats
        if seat.player in money
    )
    return replace(summary, seats=seats)


def _without(tally: PlayerTally, guests: set[str]) -> PlayerTally:
    """A member's tally with no guest as a partner: a member whose partner was a
    guest is a side alone in the ratings and has no partner record with them."""
    partner = None if tally.partner in guests else tally.partner
    partners = tuple(p for p in tally.partners if p.partner not in guests)
    return replace(tally, partner=partner, partners=partners)


# --- many matches ---------------------------------------------------------------------


@dataclass(frozen=True)
class Period:
    """The days from `start` to `end`, both included; None leaves that end open.
    With neither, all time: only then do matches and payments without a day count."""

    start: date | None = None
    end: date | None = None

    @property
    def all_time(self) -> bool:
        return self.start is None and self.end is None

    def holds(self, day: date | None) -> bool:
        if self.all_time:
            return True
        if day is None:
            return False
        return (self.start is None or self.start <= day) and (self.end is None or day <= self.end)


@dataclass(frozen=True)
class Transfer:
    """A payment from one member to another in one currency: one that settles up,
    or one recorded as made ("Bob paid Ann 7.50 EUR", `day` when it was paid)."""

    payer: str
    payee: str
    amount: Decimal
    currency: str
    day: date | None = None

    def as_json(self) -> dict[str, str]:
        return {
            "from": self.payer,
            "to": self.payee,
            "amount": f"{self.amount:.2f}",
            "currency": self.currency,
        }


@dataclass(frozen=True)
class Standing:
    """A member's line of the ledger: matches played and won, net money per currency
    (positive: to receive), recorded payments counted."""

    member: str
    played: int
    won: int
    money: dict[str, Decimal] = field(default_factory=dict)


@dataclass(frozen=True)
class Ledger:
    """The ledger of a period: its matches, each member's standing, the balances
    per currency after the recorded payments, and the payments that settle up."""

    matches: tuple[MatchSummary, ...]  # in the period, names mapped to members
    standings: tuple[Standing, ...]  # by member name
    balances: dict[str, dict[str, Decimal]]  # currency -> member -> net, by name
    paid: tuple[Transfer, ...]  # the recorded payments counted
    settle_up: tuple[Transfer, ...]

    def as_json(self) -> dict[str, Any]:
        """The document `scorekeeper ledger` prints (docs/ledger.md)."""
        return {
            "matches": len(self.matches),
            "balances": {
                currency: {member: f"{amount:.2f}" for member, amount in members.items()}
                for currency, members in self.balances.items()
            },
            "payments": [pay.as_json() for pay in self.settle_up],
        }


def select(
    summaries: Iterable[MatchSummary],
    *,
    same: Mapping[str, str] | None = None,
    period: Period = Period(),
) -> list[MatchSummary]:
    """The summaries of the matches played in `period`, names mapped by `same`, in
    the order given."""
    return [s.renamed(same or {}) for s in summaries if period.holds(s.played)]


def ledger(
    summaries: Iterable[MatchSummary],
    *,
    same: Mapping[str, str] | None = None,
    period: Period = Period(),
    paid: Iterable[Transfer] = (),
) -> Ledger:
    """The ledger of the matches played in `period`, less the payments recorded in
    it (`paid`, member names), with the fewest payments that settle the rest up."""
    matches = select(summaries, same=same, period=period)
    played: dict[str, list[int]] = {}
    balances: dict[str, dict[str, Decimal]] = {}
    for summary in matches:
        for seat in summary.seats:
            mine = played.setdefault(seat.player, [0, 0])
            mine[0] += 1
            mine[1] += seat.won
            if summary.currency is not None:
                purse = balances.setdefault(summary.currency, {})
                purse[seat.player] = purse.get(seat.player, Decimal("0.00")) + seat.money
    counted = tuple(pay for pay in paid if period.holds(pay.day))
    for pay in counted:
        purse = balances.setdefault(pay.currency, {})
        # The payer owed less from then on, the payee is owed less.
        purse[pay.payer] = purse.get(pay.payer, Decimal("0.00")) + pay.amount
        purse[pay.payee] = purse.get(pay.payee, Decimal("0.00")) - pay.amount
    balances = {
        currency: {
            m: balances[currency][m].quantize(CENT)
            for m in sorted(balances[currency], key=_name_key)
        }
        for currency in sorted(balances)
    }
    members = sorted(set(played) | {m for purse in balances.values() for m in purse}, key=_name_key)
    standings = tuple(
        Standing(
            m,
            *played.get(m, [0, 0]),
            {c: purse[m] for c, purse in balances.items() if m in purse},
        )
        for m in members
    )
    return Ledger(tuple(matches), standings, balances, counted, tuple(settle_up(balances)))


def settle_up(balances: Mapping[str, Mapping[str, Decimal]]) -> list[Transfer]:
    """The payments that bring every balance to zero, currency by currency
    (`balances`: currency -> member -> net, positive to receive; each currency's
    balances add up to zero), sorted by currency, payer and payee.

    Before each payment, a debtor who owes exactly what a creditor is owed pays
    them (one payment clears two members; the first debtor and creditor by name).
    Otherwise the largest debtor pays the largest creditor the smaller of the two
    amounts, ties by name. Each payment clears at least one member and the last
    clears two, so k members with a balance need at most k − 1 payments; a
    debtor's balance only rises towards zero and a creditor's only falls, so each
    member only pays or only receives.
    """
    found: list[Transfer] = []
    for currency in sorted(balances):
        left = {m: Decimal(v) for m, v in balances[currency].items() if v}
        while True:
            debtors = sorted((m for m in left if left[m] < 0), key=_name_key)
            creditors = sorted((m for m in left if left[m] > 0), key=_name_key)
            if not debtors or not creditors:
                break
            pair = next(((d, c) for d in debtors for c in creditors if left[c] == -left[d]), None)
            if pair is None:
                pair = (
                    min(debtors, key=lambda m: left[m]),  # min/max keep the first on a tie
                    max(creditors, key=lambda m: left[m]),
                )
            payer, payee = pair
            amount = min(-left[payer], left[payee])
            found.append(Transfer(payer, payee, amount, currency))
            left[payer] += amount
            left[payee] -= amount
    return sorted(
        (replace(pay, amount=pay.amount.quantize(CENT)) for pay in found),
        key=lambda pay: (pay.currency, _name_key(pay.payer), _name_key(pay.payee)),
    )
