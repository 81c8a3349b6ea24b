"""A group's ledger and statistics as a paper ledger keeps them, for their PDFs
(templates/pdf/ledger.html, statistics.html; docs/group-ledger.md says what is
printed).

A season of a large group (500 matches, 40 members, 2000 payments: all a group
holds) would otherwise be thousands of table rows, and laying out a table cell
costs WeasyPrint about half a millisecond: the PDF then took longer than
scorekeeper/pdf.py lets one render take. On paper the matches are a line each
under the month's heading, which counts them and what changed hands; the
payments are listed one by one while there are few, and beyond that added up
per payer and payee; the statistics print each member's per-game columns while
they fit a few pages, and beyond that each member's figures over all games.

Pure: the ledger's own objects in, plain values out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

PAYMENTS_LISTED = 40  # a page of payments, each on its line; beyond, per payer and payee
# The most figure cells the statistics print per game (members x figures x
# games); beyond, each member's figures over all games only.
STATS_CELLS = 2500


@dataclass(frozen=True)
class Month:
    """One month of the ledger's matches: its heading and its matches' lines."""

    first: date  # the month's first day
    lines: list[Any]  # the matches played in it, in the ledger's order
    changed_hands: list[tuple[str | None, Decimal]]  # per currency, what the winners won

    @property
    def counted(self) -> int:
        return sum(1 for line in self.lines if line.counted)


def months(lines: Iterable[Any]) -> list[Month]:
    """The period's match lines (views/ledger.py MatchLine: `played`, `in_period`,
    `counted`, `currency`, `parts`) by the month they were played in, oldest first."""
    found: dict[date, list[Any]] = {}
    for line in lines:
        if line.in_period:
            found.setdefault(line.played.replace(day=1), []).append(line)
    return [Month(first, grouped, _changed_hands(grouped)) for first, grouped in found.items()]


def _changed_hands(lines: Sequence[Any]) -> list[tuple[str | None, Decimal]]:
    won: dict[str | None, Decimal] = {}
    for line in lines:
        if line.counted and line.currency is not None:
            gained = sum((amount for _, amount, _ in line.parts if amount > 0), Decimal(0))
            won[line.currency] = won.get(line.currency, Decimal(0)) + gained
    return [(currency, amount) for currency, amount in won.items() if amount]


@dataclass(frozen=True)
class PaidTogether:
    """What one payer paid one payee in one currency over the period."""

    payer: str
    payee: str
    currency: str | None
    amount: Decimal
    payments: int


def paid_together(paid: Iterable[dict[str, Any]]) -> list[PaidTogether]:
    """The period's payments (`payer`, `payee`, `amount`, `currency`) added up per
    payer, payee and currency, in the order each first appears."""
    totals: dict[tuple[str, str, str | None], list[Any]] = {}
    for payment in paid:
        key = (payment["payer"], payment["payee"], payment["currency"])
        total = totals.setdefault(key, [Decimal(0), 0])
        total[0] += payment["amount"]
        total[1] += 1
    return [
        PaidTogether(payer, payee, currency, amount, count)
        for (payer, payee, currency), (amount, count) in totals.items()
    ]


def per_game_columns(stats: Sequence[Any], rows: Callable[[Any], Sequence[Any]]) -> bool:
    """Whether the statistics print a column per game besides "All games": while
    their cells stay within STATS_CELLS. `stats` are the members' figures
    (stats.MemberStats, `games`), `rows(member)` the rows of a member's table."""
    cells = sum(len(rows(member)) * (1 + len(member.games)) for member in stats)
    return cells <= STATS_CELLS
