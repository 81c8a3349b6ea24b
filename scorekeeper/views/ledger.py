"""A group's ledger and statistics: the period chosen (a GET parameter, so a
ledger is linkable and works without JavaScript), each member's matches and
money per currency, the fewest payments that settle up, "Mark as paid"
(through `groups.apply_group`, like every change of a group), the statistics
page, and both as CSV and PDF.

The arithmetic is scorekeeper/ledger.py and stats.py; each match's summary is
read from the store's kept copy (scorekeeper/summaries.py) or replayed.
"""

from __future__ import annotations

import csv
import io
import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import Decimal
from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    current_app,
    render_template,
    request,
)

from .. import db as store
from .. import groups as g
from .. import paper, pdf
from ..assets import static_folders
from ..charts import balance_chart
from ..games.catalog import VARIANTS
from ..games.common import Outcome
from ..ledger import Ledger, Period, Transfer, ledger
from ..model import MatchSummary
from ..stats import MemberStats, statistics
from ..summaries import Kept, group_summaries
from ..words import minus_signs, signed
from .matches import spreadsheet_safe

bp = Blueprint("ledger", __name__)

# --- the period ---------------------------------------------------------------------

PERIODS = {
    "all": "All time",
    "this-month": "This month",
    "last-month": "Last month",
    "this-year": "This year",
    "between": "Between two days",
}


@dataclass(frozen=True)
class Chosen:
    """The period a page was asked for: the ledger's Period, its words, the
    query that links to it, and what was wrong with the days typed."""

    key: str
    period: Period
    words: str
    slug: str  # in file names: "2026-11", "all-time"
    start: str = ""  # as typed (between)
    end: str = ""
    errors: dict[str, str] = field(default_factory=dict)

    @property
    def args(self) -> dict[str, str]:
        if self.key == "between":
            return {"period": "between", "from": self.start, "to": self.end}
        return {} if self.key == "all" else {"period": self.key}


def _day(text: str) -> date | None:
    return date.fromisoformat(text) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) else None


def chosen_period(args: Any, today: date | None = None) -> Chosen:
    """The period of `?period=this-month` (all time when none is given); bad days
    are said on their field and the page shows all time."""
    today = today or date.today()
    key = args.get("period", "all")
    if key == "this-month":
        start = today.replace(day=1)
        return Chosen(key, Period(start, today), f"This month ({start:%B %Y})", f"{start:%Y-%m}")
    if key == "last-month":
        end = today.replace(day=1) - timedelta(days=1)
        start = end.replace(day=1)
        return Chosen(key, Period(start, end), f"Last month ({start:%B %Y})", f"{start:%Y-%m}")
    if key == "this-year":
        start = today.replace(month=1, day=1)
        return Chosen(key, Period(start, today), f"This year ({today:%Y})", f"{today:%Y}")
    if key == "between":
        typed = {"from": args.get("from", "")[:20], "to": args.get("to", "")[:20]}
        errors = {}
        days: dict[str, date | None] = {}
        for name, text in typed.items():
            try:
                days[name] = _day(text) if text else None
                if text and days[name] is None:
                    raise ValueError
            except ValueError:
                label = "From" if name == "from" else "To"
                errors[name] = f"{label}: write a day like {today:%Y-%m-01}, or leave it empty."
        if not errors and days["from"] and days["to"] and days["from"] > days["to"]:
            errors["to"] = "To: the last day comes on or after the first day."
        if not errors and (days["from"] or days["to"]):
            start, end = days["from"], days["to"]
            words = " – ".join(
                [
                    f"{start:%-d %b %Y}" if start else "the start",
                    f"{end:%-d %b %Y}" if end else "now",
                ]
            )
            slug = f"{start or 'start'}-to-{end or 'now'}"
            return Chosen(key, Period(start, end), words, slug, typed["from"], typed["to"])
        if not errors:
            errors["from"] = "From: give the first day, the last day, or both."
        return Chosen(
            "between", Period(), "All time", "all-time", typed["from"], typed["to"], errors
        )
    return Chosen("all", Period(), "All time", "all-time")


# --- the ledger of a group ------------------------------------------------------------


def describe(stored: store.StoredMatch, outcome: Outcome | None) -> dict[str, Any]:
    """The group page's line of a match, kept with its summary (pages.match_state's
    words, from the replay already made)."""
    if outcome is None:
        state = {"state": "needs a fix", "next": "a hand no longer fits the rules"}
    elif not outcome.finished:
        dealer = outcome.upcoming.dealer if outcome.upcoming else None
        state = {"state": "in progress", "next": f"{dealer} deals next" if dealer else ""}
    else:
        records = stored.records
        stopped = bool(records) and records[-1] == {"end": True}
        won = " & ".join(outcome.winners)
        state = {
            "state": "stopped" if stopped else "finished",
            "next": f"won by {won}" if won else "",
        }
    return {"title": stored.title, "deleted": stored.deleted, "state": state}


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

    @property
    def counted(self) -> bool:
        return self.in_period and not self.deleted and not self.problem


@dataclass(frozen=True)
class GroupLedger:
    chosen: Chosen
    lines: list[MatchLine]  # every match of the group, oldest played first
    book: Ledger
    standings: list[tuple[str, int, int]]  # member, played, won; in the group's order
    balances: list[tuple[str, list[tuple[str, Decimal]]]]  # currency, (member, net)
    settle: list[dict[str, Any]]  # the settle-up payments, with member ids
    paid: list[dict[str, Any]]  # the recorded payments in the period
    currencies: list[str]  # every currency the group's ledger knows
    running: dict[str, list[tuple[str, dict[str, Decimal]]]]  # for a balance chart

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
    return currency or "no currency"


def group_ledger(state: g.GroupState, chosen: Chosen) -> GroupLedger:
    """The group's ledger for the chosen period, from each match's kept summary."""
    db = store.get_db()
    kept = group_summaries(db, state.id, describe)
    order = {m.name: i for i, m in enumerate(state.members)}
    ids = {m.name: m.id for m in state.members}
    lines: list[MatchLine] = []
    counted: list[MatchSummary] = []
    for k in kept:
        names = state.names_in(k.match_id)
        summary = k.summary.renamed(names) if k.summary else None
        line = _line(k, names, summary, chosen.period)
        lines.append(line)
        if line.counted and summary is not None:
            counted.append(summary)
    paid = [
        Transfer(
            state.member(p.payer).name,
            state.member(p.payee).name,
            Decimal(p.amount),
            p.currency or "",
            date.fromisoformat(p.date),
        )
        for p in state.payments
    ]
    book = ledger(counted, period=chosen.period, paid=paid)
    place = lambda name: (order.get(name, len(order)), name)  # noqa: E731
    played = {s.member: (s.played, s.won) for s in book.standings}
    standings = [(m.name, *played.get(m.name, (0, 0))) for m in state.members]
    balances = [
        (currency, sorted(purse.items(), key=lambda item: place(item[0])))
        for currency, purse in book.balances.items()
    ]
    settle = [
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
    in_period = [p for p in state.payments if chosen.period.holds(date.fromisoformat(p.date))]
    paid_lines = [
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
    )


def _line(
    k: Kept, names: dict[str, str], summary: MatchSummary | None, period: Period
) -> MatchLine:
    parts = []
    if summary is not None:
        parts = [(seat.player, seat.money, seat.won) for seat in summary.seats]
    return MatchLine(
        k.match_id,
        Shown(k.listing.get("title") or "", k.variant, k.players),
        names,
        k.played,
        k.listing.get("state") or {},
        bool(k.listing.get("deleted")),
        k.problem,
        period.holds(k.played),
        summary.currency if summary else None,
        parts,
    )


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
            title=f"Running balance · {words}",
            unit=currency or "Balance",
            x_title="Day",
        )
        if chart is not None:
            found.append(chart)
    return found


def ledger_context(state: g.GroupState) -> dict[str, Any]:
    """What the group page's ledger section draws (views/groups.py `_page`)."""
    chosen = chosen_period(request.args)
    book = group_ledger(state, chosen)
    return {
        "ledger": book,
        "balance_charts": balance_charts(book),
        "periods": PERIODS,
        "today": date.today().isoformat(),
        "currency_words": currency_words,
    }


# --- marking as paid ------------------------------------------------------------------


def _member_id(text: str) -> int | None:
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _typed_payment() -> tuple[dict[str, Any], dict[str, str]]:
    form = request.form
    amount = form.get("amount", "").strip()
    if re.fullmatch(r"\d+,\d{1,2}", amount):  # 7,50 as many phones write it
        amount = amount.replace(",", ".")
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
            return (
                asked,
                {},
                "Not saved: the balances changed since this page was drawn."
                + (" Nothing was stored; check the payments below and tap again."),
            )
        if not now.settle:
            return asked, {}, "There is nothing to settle."
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


def _group_or_404(group_id: str) -> g.GroupState:
    state = g.load_group(store.get_db(), group_id)
    if state is None:
        abort(404)
    return state


# --- statistics -----------------------------------------------------------------------


def member_stats(state: g.GroupState, book: Ledger) -> list[MemberStats]:
    found = statistics(book.matches)  # the period's, names mapped
    order = {m.name: i for i, m in enumerate(state.members)}
    return sorted(found.values(), key=lambda s: (order.get(s.member, len(order)), s.member))


@dataclass(frozen=True)
class FigureRow:
    """One figure of a member across games: all games, then each game (None:
    that game has no such figure)."""

    key: str
    label: str
    cells: list[Any]


def figure_rows(member: MemberStats) -> list[FigureRow]:
    """A member's figures as rows of one table (the statistics PDF)."""
    columns = [{f.key: f for f in member.overall}] + [
        {f.key: f for f in figures} for figures in member.games.values()
    ]
    keys: dict[str, str] = {}
    for figures in [member.overall, *member.games.values()]:
        for f in figures:
            keys.setdefault(f.key, f.label)
    return [FigureRow(k, label, [c.get(k) for c in columns]) for k, label in keys.items()]


def figure_key(stats: list[MemberStats]) -> list[tuple[str, str]]:
    """Each figure's label and what it counts, once (the statistics PDF's key)."""
    found: dict[str, tuple[str, str]] = {}
    for member in stats:
        for figures in [member.overall, *member.games.values()]:
            for f in figures:
                found.setdefault(f.key, (f.label, f.says))
    return list(found.values())


def shown(figure: Any) -> str:
    """A figure as a person reads it: a real minus sign."""
    return minus_signs(figure.shown)


@bp.get("/g/<match:group_id>/statistics")
def stats_page(group_id: str):
    state = _group_or_404(group_id)
    book = group_ledger(state, chosen_period(request.args))
    return render_template(
        "groups/statistics.html",
        group=state,
        ledger=book,
        stats=member_stats(state, book.book),
        periods=PERIODS,
        variants=VARIANTS,
        shown=shown,
    ), (400 if book.chosen.errors else 200)


# --- files ------------------------------------------------------------------------------


def file_name(state: g.GroupState, chosen: Chosen, kind: str, ext: str) -> str:
    """ "friday-trio-2026-11-ledger.csv": group, period and kind, never overwritten."""
    base = re.sub(r"[^A-Za-z0-9]+", "-", state.name).strip("-").lower() or "group"
    return f"{base}-{chosen.slug}-{kind}.{ext}"


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"  # ASCII minus: for spreadsheets and scripts


LEDGER_CSV_HEAD = [
    "kind",
    "member",
    "to",
    "currency",
    "matches",
    "won",
    "amount",
    "day",
    "game",
    "match",
]


def ledger_rows(state: g.GroupState, book: GroupLedger) -> list[list[str]]:
    """The ledger as CSV rows: a balance row per member per currency, a row per
    match per member (its part), the recorded payments and the settle-up."""
    played = {name: (p, w) for name, p, w in book.standings}
    rows = [LEDGER_CSV_HEAD]
    for currency, members in book.balances:
        for member, amount in members:
            p, w = played.get(member, (0, 0))
            rows.append(
                ["balance", member, "", currency, str(p), str(w), _money(amount), "", "", ""]
            )
    for name, p, w in book.standings:
        if not any(name in dict(m) for _, m in book.balances):
            rows.append(["balance", name, "", "", str(p), str(w), "", "", "", ""])
    for line in book.counted:
        title = line.match.title or VARIANTS[line.match.variant].name
        game = VARIANTS[line.match.variant].name
        for member, money, won in line.parts:
            amount = _money(money) if line.currency is not None else ""
            rows.append(
                [
                    "match",
                    member,
                    "",
                    line.currency or "",
                    "1",
                    "1" if won else "0",
                    amount,
                    line.played.isoformat(),
                    game,
                    title,
                ]
            )
    for paid in book.paid:
        rows.append(
            ["paid", paid["payer"], paid["payee"], paid["currency"], "", "", _money(paid["amount"]),
             paid["date"].isoformat(), "", ""]
        )  # fmt: skip
    for pay in book.settle:
        rows.append(
            ["settle", pay["payer_name"], pay["payee_name"], pay["currency"], "", "", pay["amount"],
             "", "", ""]
        )  # fmt: skip
    return rows


STATS_CSV_HEAD = ["member", "game", "figure", "label", "value", "of", "counts", "match"]


def stats_rows(stats: list[MemberStats]) -> list[list[str]]:
    """One row per member per figure, overall ("all games") then per game, then
    partner records."""
    rows = [STATS_CSV_HEAD]

    def value(v: Any) -> str:
        return "" if v is None else str(v)

    for member in stats:
        for game, figures in [("all games", member.overall)] + [
            (VARIANTS[v].name if v in VARIANTS else v, f) for v, f in member.games.items()
        ]:
            for f in figures:
                rows.append(
                    [member.member, game, f.key, f.label, value(f.value), value(f.of), f.says,
                     f.match or ""]
                )  # fmt: skip
        for record in member.partners:
            rows.append(
                [member.member, "partners", f"partner:{record.unit}", record.partner,
                 str(record.together), str(record.won), record.says, ""]
            )  # fmt: skip
    return rows


# The columns that hold figures: a number there stays a number ("-5.00"). Any
# other cell is text, kept as text: a member named "-2" or "=HYPERLINK(…)"
# is not read by a spreadsheet as a number or run as a formula.
CSV_NUMBERS = frozenset({"matches", "won", "amount", "value", "of"})


def _csv(rows: list[list[str]], name: str) -> Response:
    out = io.StringIO()
    writer = csv.writer(out)
    figures = [column in CSV_NUMBERS for column in rows[0]]
    for row in rows:
        writer.writerow(
            [
                c if figure and _number(c) else spreadsheet_safe(c)
                for c, figure in zip(row, figures, strict=True)
            ]
        )
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _number(cell: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", cell))


@bp.get("/g/<match:group_id>/ledger.csv")
def ledger_csv(group_id: str):
    state = _group_or_404(group_id)
    chosen = chosen_period(request.args)
    if chosen.errors:
        abort(400, " ".join(chosen.errors.values()))
    book = group_ledger(state, chosen)
    return _csv(ledger_rows(state, book), file_name(state, chosen, "ledger", "csv"))


@bp.get("/g/<match:group_id>/statistics.csv")
def stats_csv(group_id: str):
    state = _group_or_404(group_id)
    chosen = chosen_period(request.args)
    if chosen.errors:
        abort(400, " ".join(chosen.errors.values()))
    book = group_ledger(state, chosen)
    rows = stats_rows(member_stats(state, book.book))
    return _csv(rows, file_name(state, chosen, "statistics", "csv"))


def _pdf(html: str, name: str) -> Response:
    def no(message: str, status: int) -> Response:
        return Response(message, status=status, mimetype="text/plain", headers={"Retry-After": "5"})

    try:
        key, body = pdf.cached_pdf(html, static_folders(), "a4")
    except pdf.PdfUnavailable as exc:
        return Response(str(exc), status=503, mimetype="text/plain")
    except pdf.PdfBusy:
        return no("No PDF yet: another sheet is being printed. Try again in a moment.", 503)
    except pdf.PdfTooCostly:
        return no("No PDF: this is too large to print here. Take the CSV instead.", 413)
    except pdf.PdfFailed as exc:
        current_app.logger.error("PDF %s failed: %s", name, exc)
        return no("No PDF: making it failed. Try again, or take the CSV.", 503)
    response = Response(
        body,
        mimetype="application/pdf",
        headers={"Content-Disposition": f'inline; filename="{name}"', "Cache-Control": "no-cache"},
    )
    response.set_etag(key)
    return response.make_conditional(request)


def _period_pdf(group_id: str, kind: str, context: Callable[[Any, Any], dict[str, Any]]):
    """The group's `kind` ("ledger", "statistics") for the asked period as a PDF,
    drawn from templates/pdf/<kind>.html with `context(state, book)` besides."""
    state = _group_or_404(group_id)
    chosen = chosen_period(request.args)
    if chosen.errors:
        abort(400, " ".join(chosen.errors.values()))
    book = group_ledger(state, chosen)
    html = render_template(
        f"pdf/{kind}.html",
        group=state,
        ledger=book,
        variants=VARIANTS,
        printed=date.today(),
        paper=paper,  # a season as a paper ledger keeps it
        **context(state, book),
    )
    return _pdf(html, file_name(state, chosen, kind, "pdf"))


@bp.get("/g/<match:group_id>/ledger.pdf")
def ledger_pdf(group_id: str):
    return _period_pdf(
        group_id,
        "ledger",
        lambda state, book: {
            "currency_words": currency_words,
            "balance_charts": balance_charts(book),
        },
    )


@bp.get("/g/<match:group_id>/statistics.pdf")
def stats_pdf(group_id: str):
    return _period_pdf(
        group_id,
        "statistics",
        lambda state, book: {
            "stats": member_stats(state, book.book),
            "shown": shown,
            "figure_rows": figure_rows,
            "figure_key": figure_key,
        },
    )


def money(amount: Decimal) -> str:
    """Money as a person reads it: two decimals, a real minus sign (+8.00, −8.00, 0.00)."""
    return signed(Decimal(amount).quantize(Decimal("0.01")))
