"""The night's report: for one day, every match the group played that day (by the
evening rule, `model.played_key`), who won each, each player's total for the
night per currency, and who pays whom tonight; the same as text for the group
chat and on paper (docs/group-ledger.md, "The night's report").

Who pays whom is the members' settle-up of the night's matches (ledger.py
`ledger`, each match as the group counts it: `member_summary`), the payments
recorded in the ledger left aside (the report says what the night moved), and
besides it what each guest pays or receives: a guest settles at the table, so
their part is the match's own payments (settle.py `payments`, the ones its
settlement lists) to and from the guest, added up per pair of players and
currency over the night.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date
from decimal import Decimal

from flask import render_template
from flask_babel import gettext as _

from .. import groups as g
from ..games.catalog import VARIANTS
from ..ledger import Period, Transfer, ledger
from ..settle import payments as table_payments
from .group_ledger import MatchLine, group_ledger
from .period import Chosen

ALL_TIME = Chosen("all", Period(), "All time", "all-time")


@dataclass(frozen=True)
class Night:
    """One night of a group: its matches, totals and payments (`day` None: the
    group never played, or the day typed cannot be read: `error` says why)."""

    day: date | None
    typed: str  # the day as asked ("" for the last night played)
    error: str
    days: list[date]  # every day the group played, oldest first
    matches: list[MatchLine]  # the night's, in the order played
    totals: list[tuple[str, list[tuple[str, Decimal]]]]  # currency, (player, net tonight)
    payments: list[Transfer]  # the members' settle-up and the guests' payments
    playing: frozenset[str] = frozenset()  # the night's matches not over yet (ids)

    @property
    def earlier(self) -> date | None:
        return max((d for d in self.days if self.day and d < self.day), default=None)

    @property
    def later(self) -> date | None:
        return min((d for d in self.days if self.day and d > self.day), default=None)

    @property
    def chosen(self) -> Chosen:
        """The night as a period (its file names say the day)."""
        slug = self.day.isoformat() if self.day else "no-day"
        return Chosen("night", Period(self.day, self.day), slug, slug)


def asked_day(typed: str, example: date) -> tuple[date | None, str]:
    """The day of `?day=2026-11-13` and what is wrong with it ("" when nothing;
    `example`: the day the message shows how to write)."""
    try:
        if re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", typed):
            return date.fromisoformat(typed), ""
    except ValueError:
        pass
    return None, _(
        "Day: choose a day in the calendar, or write it like %(example)s.",
        example=example.isoformat(),
    )


def night_report(state: g.GroupState, typed: str) -> Night:
    """The night of day `typed` (without one: the last day the group played)."""
    typed = typed.strip()[:40]
    book = group_ledger(state, ALL_TIME)
    shown = [line for line in book.lines if not line.deleted]
    days = sorted({line.played for line in shown})
    last = days[-1] if days else None
    day, error = asked_day(typed, last or date.today()) if typed else (last, "")
    if day is None:
        return Night(None, typed, error, days, [], [], [])
    lines = [line for line in shown if line.played == day]
    ids = {line.match_id for line in lines if line.counted}
    tonight = [s for s in book.book.matches if s.key in ids]
    members = ledger(tonight)
    order = {m.name: i for i, m in enumerate(state.members)}
    counted = [line for line in lines if line.counted]
    payments = sorted(
        [*members.settle_up, *guest_payments(counted)],
        key=lambda pay: (pay.currency, pay.payer.casefold(), pay.payee.casefold()),
    )
    playing = frozenset(s.key for s in tonight if not s.finished)
    return Night(day, typed, "", days, lines, _totals(counted, order), payments, playing)


def _totals(
    lines: list[MatchLine], order: dict[str, int]
) -> list[tuple[str, list[tuple[str, Decimal]]]]:
    """Each player's net for the night per currency, guests included: members in
    the group's order, then guests by name."""
    found: dict[str, dict[str, Decimal]] = {}
    for line in lines:
        if line.currency is None:
            continue
        purse = found.setdefault(line.currency, {})
        for player, amount, _won in line.parts:
            purse[player] = purse.get(player, Decimal("0.00")) + amount
    place = lambda item: (order.get(item[0], len(order)), item[0].casefold())  # noqa: E731
    return [(currency, sorted(found[currency].items(), key=place)) for currency in sorted(found)]


def guest_payments(lines: list[MatchLine]) -> list[Transfer]:
    """What the night's guests pay and receive at the table: each match's own
    payments (settle.payments, its settlement's list) with a guest on either
    side, added up per pair of players and currency, one payment per pair."""
    owed: dict[tuple[str, str, str], Decimal] = {}
    for line in lines:
        if line.currency is None or not line.guests:
            continue
        members = {line.members[p] for p in line.match.players if p not in line.guests}
        balances = {player: amount for player, amount, _won in line.parts}
        for pay in table_payments(balances):
            if pay.payer in members and pay.payee in members:
                continue  # between members: the ledger's settle-up carries it
            first, second = sorted((pay.payer, pay.payee))
            sign = 1 if pay.payer == first else -1  # positive: first pays second
            key = (line.currency, first, second)
            owed[key] = owed.get(key, Decimal(0)) + sign * pay.amount
    return [
        Transfer(first, second, amount, currency)
        if amount > 0
        else Transfer(second, first, -amount, currency)
        for (currency, first, second), amount in owed.items()
        if amount
    ]


def match_name(line: MatchLine) -> str:
    """A match as the report names it: its title, else its game."""
    game = VARIANTS[line.match.variant].name if line.match.variant in VARIANTS else ""
    return line.match.title or game or line.match.variant


def winners(line: MatchLine) -> list[str]:
    """The night's winners of a match, in seating order (guests marked)."""
    return [player for player, _amount, won in line.parts if won]


def chat_text(state: g.GroupState, night: Night) -> str:
    """The plain text "Copy for the group chat" copies (templates/night/chat.txt)."""
    return render_template(
        "night/chat.txt", group=state, night=night, match_name=match_name, winners=winners
    )
