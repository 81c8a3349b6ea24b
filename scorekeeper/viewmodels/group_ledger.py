"""A group's ledger as its page draws it: each member's matches and money per
currency for the chosen period, the fewest payments that settle up, the running
balances a chart draws, and the payments a "Mark as paid" form asks for
(stored through `groups.apply_group`, like every change of a group).

The arithmetic is scorekeeper/ledger.py; each match's summary is read from the
store's kept copy (scorekeeper/summaries.py) or replayed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from decimal import Decimal
from typing import Any

from flask import request
from flask_babel import gettext as _

from .. import db as store
from .. import groups as g
from ..changelog import local_time, played_on
from ..charts import balance_chart
from ..formats import typed_amount
from ..games.common import Outcome
from ..ledger import Ledger, Period, Transfer, ledger, members_only
from ..model import MatchSummary
from ..summaries import Kept, group_summaries
from ..words import signed
from .period import PERIODS, Chosen, chosen_period


def describe(stored: store.StoredMatch, outcome: Outcome | None) -> dict[str, Any]:
    """The group page's line of a match, kept with its summary (pages.match_state's
    words, from the replay already made). Kept for every phone alike, so it keeps
    what happened (`key`, `dealer`, `winners`) and `said_state` says it in the
    reader's language; the English words stay for a copy kept before them."""
    if outcome is None:
        state = {"key": "needs-fix", "state": "needs a fix"}
        state["next"] = "a hand no longer fits the rules"
    elif not outcome.finished:
        dealer = outcome.upcoming.dealer if outcome.upcoming else None
        state = {"key": "in-progress", "state": "in progress", "dealer": dealer or ""}
        state["next"] = f"{dealer} deals next" if dealer else ""
    else:
        records = stored.records
        stopped = bool(records) and records[-1] == {"end": True}
        won = " & ".join(outcome.winners)
        key = "stopped" if stopped else "finished"
        state = {"key": key, "state": key, "winners": won, "next": f"won by {won}" if won else ""}
    return {"title": stored.title, "deleted": stored.deleted, "state": state}


def said_state(kept: dict[str, str]) -> dict[str, str]:
    """A match's state as `describe` kept it, in the reader's language (the same
    words as pages.match_state); a copy kept before `key` is shown as it was."""
    key = kept.get("key")
    if key == "needs-fix":
        return {"state": _("needs a fix"), "next": _("a hand no longer fits the rules")}
    if key == "in-progress":
        dealer = kept.get("dealer")
        return {
            "state": _("in progress"),
            "next": _("%(dealer)s deals next", dealer=dealer) if dealer else "",
        }
    if key in ("stopped", "finished"):
        won = kept.get("winners")
        return {
            "state": _("stopped") if key == "stopped" else _("finished"),
            "next": _("won by %(winners)s", winners=won) if won else "",
        }
    return kept


@dataclass(frozen=True)
class Shown:
    """What _matches.html reads of a match (title, variant, players)."""

    title: str
    variant: str
    players: list[str]


@dataclass(frozen=True)
class MatchLine:
    """One match of the group on its page: what the match list shows, and its part
    for each member when it counts in the ledger."""

    match_id: str
    match: Shown
    members: dict[str, str]  # player -> member name now
    played: date
    state: dict[str, str]
    deleted: bool
    problem: str  # why it cannot be read ("" when it can)
    in_period: bool
    currency: str | None
    parts: list[tuple[str, Decimal, bool]]  # (member, money, won), seating order
    started: str = ""  # the time it was started, "21:05" (server's time)
    guests: tuple[str, ...] = ()  # players who played it without joining the group

    @property
    def counted(self) -> bool:
        return self.in_period and not self.deleted and not self.problem


@dataclass(frozen=True)
class GroupLedger:
    chosen: Chosen
    lines: list[MatchLine]  # every match of the group, oldest played first (day, start)
    book: Ledger
    standings: list[tuple[str, int, int]]  # member, played, won; in the group's order
    balances: list[tuple[str, list[tuple[str, Decimal]]]]  # currency, (member, net)
    settle: list[dict[str, Any]]  # the settle-up payments, with member ids
    paid: list[dict[str, Any]]  # the recorded payments in the period
    currencies: list[str]  # every currency the group's ledger knows
    running: dict[str, list[tuple[str, dict[str, Decimal]]]]  # for a balance chart
    # Members with money to pay or receive, in the period shown or over all time:
    # a retired member among them is still offered by "Record a payment".
    owing: frozenset[str] = frozenset()

    @property
    def counted(self) -> list[MatchLine]:
        return [line for line in self.lines if line.counted]

    @property
    def unreadable(self) -> list[MatchLine]:
        return [line for line in self.lines if line.problem and line.in_period]

    def settle_json(self) -> str:
        return json.dumps(self.settle and [_pay_asked(p) for p in self.settle], sort_keys=True)


def _pay_asked(pay: dict[str, Any]) -> dict[str, Any]:
    return {k: pay[k] for k in ("payer", "payee", "amount", "currency")}


def currency_words(currency: str) -> str:
    """A currency as a heading says it: "EUR", or for a stake without one, "no currency"."""
    return currency or _("no currency")


def group_ledger(state: g.GroupState, chosen: Chosen) -> GroupLedger:
    """The group's ledger for the chosen period, from each match's kept summary."""
    db = store.get_db()
    kept = group_summaries(db, state.id, describe)
    order = {m.name: i for i, m in enumerate(state.members)}
    ids = {m.name: m.id for m in state.members}
    lines, counted = _lines(state, kept, chosen.period)
    paid = _transfers(state)
    book = ledger(counted, period=chosen.period, paid=paid)
    place = lambda name: (order.get(name, len(order)), name)  # noqa: E731
    played = {s.member: (s.played, s.won) for s in book.standings}
    # A retired member is listed for a period they played in.
    standings = [
        (m.name, *played.get(m.name, (0, 0)))
        for m in state.members
        if not m.retired or m.name in played
    ]
    balances = [
        (currency, sorted(purse.items(), key=lambda item: place(item[0])))
        for currency, purse in book.balances.items()
    ]
    settle = _settle_up(book, ids)
    paid_lines = _paid_in(state, chosen.period)
    currencies = sorted(
        {k.summary.currency for k in kept if k.summary and k.summary.currency is not None}
        | {p.currency or "" for p in state.payments}
    )
    return GroupLedger(
        chosen,
        lines,
        book,
        standings,
        balances,
        settle,
        paid_lines,
        currencies,
        running_balances(book, place),
        _owing(book) | _owing(_all_time(state, kept, book, chosen.period, paid)),
    )


def _all_time(
    state: g.GroupState, kept: list[Kept], book: Ledger, period: Period, paid: list[Transfer]
) -> Ledger:
    """The group's ledger over all time (`book` itself when that is the period shown)."""
    if period.all_time:
        return book
    return ledger(
        [
            member_summary(state, k.match_id, k.summary)
            for k in kept
            if k.summary is not None and not k.problem and not k.listing.get("deleted")
        ],
        paid=paid,
    )


def _owing(book: Ledger) -> frozenset[str]:
    """The members whose balance is not nil in some currency."""
    return frozenset(m for purse in book.balances.values() for m, net in purse.items() if net)


def _transfers(state: g.GroupState) -> list[Transfer]:
    """The group's recorded payments, as the ledger counts them."""
    return [
        Transfer(
            state.member(p.payer).name,
            state.member(p.payee).name,
            Decimal(p.amount),
            p.currency or "",
            date.fromisoformat(p.date),
        )
        for p in state.payments
    ]


def settled_on(state: g.GroupState) -> date | None:
    """The day of the group's last settle-up: the newest day a payment was
    recorded after which every balance, counting every match played and every
    payment made up to that day, is zero (None: it never settled)."""
    paid = _transfers(state)
    if not paid:
        return None
    played = [
        (k.played, member_summary(state, k.match_id, k.summary))
        for k in group_summaries(store.get_db(), state.id, describe)
        if k.summary is not None and not k.listing.get("deleted")
    ]
    for day in sorted({t.day for t in paid}, reverse=True):
        until = Period(None, day)
        book = ledger([s for d, s in played if d <= day], period=until, paid=paid)
        if all(amount == 0 for purse in book.balances.values() for amount in purse.values()):
            return day
    return None


def period_for(state: g.GroupState) -> Chosen:
    """The period a group's page or file was asked for (`request.args`); without
    one, since the group's last settle-up."""
    return chosen_period(request.args, settled=settled_on(state))


def _lines(
    state: g.GroupState, kept: list[Kept], period: Period
) -> tuple[list[MatchLine], list[MatchSummary]]:
    """Each match's line, and the summaries the ledger counts. A line shows the
    match's own settlement, its guests' parts too; the ledger counts what the
    members owe each other (member_summary)."""
    lines: list[MatchLine] = []
    counted: list[MatchSummary] = []
    for k in kept:
        names = state.names_in(k.match_id)
        guests = state.guests_in(k.match_id)
        shown = {**names, **{guest: _("%(player)s (guest)", player=guest) for guest in guests}}
        summary = k.summary.renamed(shown) if k.summary else None
        line = _line(k, names, summary, period, tuple(guests))
        lines.append(line)
        if line.counted and k.summary is not None:
            counted.append(member_summary(state, k.match_id, k.summary))
    return lines, counted


def member_summary(state: g.GroupState, match_id: str, summary: MatchSummary) -> MatchSummary:
    """A match's summary as the group counts it: its guests left out (their money
    settled at the table), each player named by their member."""
    return members_only(summary, state.guests_in(match_id)).renamed(state.names_in(match_id))


def _settle_up(book: Ledger, ids: dict[str, int]) -> list[dict[str, Any]]:
    """The settle-up payments, each with its members' ids (what "Mark as paid" sends)."""
    return [
        {
            "payer": ids[t.payer],
            "payee": ids[t.payee],
            "payer_name": t.payer,
            "payee_name": t.payee,
            "amount": f"{t.amount:.2f}",
            "currency": t.currency,
        }
        for t in book.settle_up
    ]


def _paid_in(state: g.GroupState, period: Period) -> list[dict[str, Any]]:
    """The payments recorded in the period, with their members' names now."""
    in_period = [p for p in state.payments if period.holds(date.fromisoformat(p.date))]
    return [
        {
            "payer": state.member(p.payer).name,
            "payee": state.member(p.payee).name,
            "amount": Decimal(p.amount),
            "currency": p.currency or "",
            "date": date.fromisoformat(p.date),
            "device": p.device,
        }
        for p in in_period
    ]


def _line(
    k: Kept,
    names: dict[str, str],
    summary: MatchSummary | None,
    period: Period,
    guests: tuple[str, ...] = (),
) -> MatchLine:
    parts = []
    if summary is not None:
        parts = [(seat.player, seat.money, seat.won) for seat in summary.seats]
    return MatchLine(
        k.match_id,
        Shown(k.listing.get("title") or "", k.variant, k.players),
        names,
        k.played,
        said_state(k.listing.get("state") or {}),
        bool(k.listing.get("deleted")),
        k.problem,
        period.holds(k.played),
        summary.currency if summary else None,
        parts,
        _start_time(k.started, k.played),
        guests,
    )


def _start_time(stamp: str, played: date) -> str:
    """ "21:05": when a match was started, in the server's time; "" when it was
    not started on the evening it counts for (a match imported from a file, or
    whose day was set by hand: its stamp is not a start at that table)."""
    try:
        if not stamp or played_on(stamp) != played:
            return ""
        return f"{local_time(stamp):%H:%M}"
    except ValueError:
        return ""


def running_balances(book: Ledger, place: Any) -> dict[str, list[tuple[str, dict[str, Decimal]]]]:
    """Each currency's running balance per member over the period, one point per
    match day and payment day: the points a balance chart draws ((label, {member:
    balance}), the label the day)."""
    events: dict[str, dict[date, dict[str, Decimal]]] = {}
    for summary in book.matches:
        if summary.currency is None or summary.played is None:
            continue
        day = events.setdefault(summary.currency, {}).setdefault(summary.played, {})
        for seat in summary.seats:
            day[seat.player] = day.get(seat.player, Decimal(0)) + seat.money
    for pay in book.paid:
        if pay.day is None:
            continue
        day = events.setdefault(pay.currency, {}).setdefault(pay.day, {})
        day[pay.payer] = day.get(pay.payer, Decimal(0)) + pay.amount
        day[pay.payee] = day.get(pay.payee, Decimal(0)) - pay.amount
    found = {}
    for currency, days in sorted(events.items()):
        members = sorted({m for d in days.values() for m in d}, key=place)
        total = dict.fromkeys(members, Decimal("0.00"))
        points = []
        for day in sorted(days):
            for member, amount in days[day].items():
                total[member] += amount
            points.append(
                (f"{day:%-d %b}", {m: total[m].quantize(Decimal("0.01")) for m in members})
            )
        found[currency] = points
    return found


def balance_charts(book: GroupLedger) -> list[dict[str, Any]]:
    """One chart per currency of each member's running balance over the period
    (scorekeeper/charts.py), in the order of the balance tables."""
    found = []
    for index, (currency, points) in enumerate(book.running.items(), 1):
        words = currency_words(currency)
        chart = balance_chart(
            points,
            chart_id=f"balance-chart-{index}",
            title=_("Running balance · %(currency)s", currency=words),
            unit=currency or _("Balance"),
            x_title=_("Day"),
        )
        if chart is not None:
            found.append(chart)
    return found


def ledger_context(state: g.GroupState) -> dict[str, Any]:
    """What the group page's ledger section draws (views/groups.py `_page`)."""
    chosen = period_for(state)
    book = group_ledger(state, chosen)
    return {
        "ledger": book,
        "balance_charts": balance_charts(book),
        "periods": PERIODS,
        "today": date.today().isoformat(),
        "currency_words": currency_words,
    }


def _member_id(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _typed_payment() -> tuple[dict[str, Any], dict[str, str]]:
    form = request.form
    amount = typed_amount(form.get("amount", ""))  # 7,50 as many phones write it
    pay = {
        "payer": _member_id(form.get("payer", "")),
        "payee": _member_id(form.get("payee", "")),
        "amount": amount,
        "currency": form.get("currency", "").strip(),
        "date": form.get("date", "").strip() or date.today().isoformat(),
    }
    typed = {f"pay_{k}": form.get(k, "") for k in ("payer", "payee", "amount", "currency", "date")}
    return pay, typed


def payments_asked(state: g.GroupState, chosen: Chosen) -> tuple[list[dict], dict, str | None]:
    """The payments a "Mark as paid" form asks for, the inputs as typed, and why
    nothing can be stored (None: it can): every settle-up payment of the period
    shown (`all`, as the page listed them), refused when the balances moved since
    the page was drawn; or the one typed. A form sent again is still known by the
    payments it asks (groups.repeated) when it can no longer be stored."""
    if request.form.get("all"):
        suggested = request.form.get("suggested", "")
        today = date.today().isoformat()
        asked = [{**p, "date": today} for p in _suggested(suggested)]
        now = group_ledger(state, chosen)
        if suggested != now.settle_json():
            said = _(
                "Not saved: the balances changed since this page was drawn. Nothing was"
                " stored; check the payments below and tap again."
            )
            return asked, {}, said
        if not now.settle:
            return asked, {}, _("There is nothing to settle.")
        return asked, {}, None
    one, typed = _typed_payment()
    return [one], typed, None


def _suggested(text: str) -> list[dict[str, Any]]:
    """The settle-up payments a page listed (GroupLedger.settle_json), or none."""
    try:
        listed = json.loads(text)
    except ValueError:
        return []
    keys = {"payer", "payee", "amount", "currency"}
    if not isinstance(listed, list) or not all(
        isinstance(p, dict) and set(p) == keys for p in listed
    ):
        return []
    return listed


def money(amount: Decimal) -> str:
    """Money as a person reads it: two decimals, a real minus sign (+8.00, −8.00, 0.00)."""
    return signed(Decimal(amount).quantize(Decimal("0.01")))
