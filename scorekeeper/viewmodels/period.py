"""The period a group's ledger, statistics and their files are asked for: a GET
parameter (`?period=this-month`, or between two days), so a ledger is linkable
and works without JavaScript."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from flask_babel import get_locale, lazy_gettext
from flask_babel import gettext as _

from .. import formats
from ..languages import DEFAULT, language
from ..ledger import Period

PERIODS = {
    "since-settled": lazy_gettext("Since the last settle-up"),
    "all": lazy_gettext("All time"),
    "this-month": lazy_gettext("This month"),
    "last-month": lazy_gettext("Last month"),
    "this-year": lazy_gettext("This year"),
    "between": lazy_gettext("Between two days"),
}


def reader_locale() -> str:
    """The numbers' and dates' locale of the page being drawn (as views/language.py
    `reading` says it; English outside a request)."""
    chosen = get_locale()
    found = language(str(chosen)) if chosen is not None else None
    return (found or DEFAULT).formats


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
    default: str = "all"  # the period a page without one shows

    @property
    def args(self) -> dict[str, str]:
        if self.key == "between":
            return {"period": "between", "from": self.start, "to": self.end}
        return {} if self.key == self.default else {"period": self.key}


def _day(text: str) -> date | None:
    return date.fromisoformat(text) if re.fullmatch(r"\d{4}-\d{2}-\d{2}", text) else None


def chosen_period(args: Any, today: date | None = None, settled: date | None = None) -> Chosen:
    """The period of `?period=this-month`; bad days are said on their field and
    the page shows all time. Without one: since the last settle-up (`settled`,
    the day of the group's last settle-up), or all time when it never settled."""
    today = today or date.today()
    default = "since-settled" if settled else "all"
    return replace(_period_of(args, today, settled), default=default)


def _period_of(args: Any, today: date, settled: date | None) -> Chosen:
    key = args.get("period") or ("since-settled" if settled else "all")
    locale = reader_locale()
    if key == "since-settled":
        if settled is None:
            return Chosen(key, Period(), _("Since the start (no settle-up yet)"), "all-time")
        # The settle-up day's matches and payments are behind it: they were settled.
        start = settled + timedelta(days=1)
        words = _("Since the last settle-up (%(day)s)", day=formats.day(settled, locale))
        return Chosen(key, Period(start, None), words, f"since-{start}")
    if key == "this-month":
        start = today.replace(day=1)
        words = _("This month (%(month)s)", month=formats.month(start, locale))
        return Chosen(key, Period(start, today), words, f"{start:%Y-%m}")
    if key == "last-month":
        end = today.replace(day=1) - timedelta(days=1)
        start = end.replace(day=1)
        words = _("Last month (%(month)s)", month=formats.month(start, locale))
        return Chosen(key, Period(start, end), words, f"{start:%Y-%m}")
    if key == "this-year":
        start = today.replace(month=1, day=1)
        year = f"{today:%Y}"
        return Chosen(key, Period(start, today), _("This year (%(year)s)", year=year), year)
    if key == "between":
        return _between(args, today, locale)
    return Chosen("all", Period(), _("All time"), "all-time")


def _between(args: Any, today: date, locale: str) -> Chosen:
    """The period between two days typed (either may be left empty)."""
    typed = {"from": args.get("from", "")[:20], "to": args.get("to", "")[:20]}
    errors = {}
    days: dict[str, date | None] = {}
    for name, text in typed.items():
        try:
            days[name] = _day(text) if text else None
            if text and days[name] is None:
                raise ValueError
        except ValueError:
            example = f"{today:%Y-%m-01}"
            if name == "from":
                said = _("From: write a day like %(day)s, or leave it empty.", day=example)
            else:
                said = _("To: write a day like %(day)s, or leave it empty.", day=example)
            errors[name] = said
    if not errors and days["from"] and days["to"] and days["from"] > days["to"]:
        errors["to"] = _("To: the last day comes on or after the first day.")
    if not errors and (days["from"] or days["to"]):
        start, end = days["from"], days["to"]
        words = _(
            "%(start)s – %(end)s",
            start=formats.day(start, locale) if start else _("the start"),
            end=formats.day(end, locale) if end else _("now"),
        )
        slug = f"{start or 'start'}-to-{end or 'now'}"
        return Chosen("between", Period(start, end), words, slug, typed["from"], typed["to"])
    if not errors:
        errors["from"] = _("From: give the first day, the last day, or both.")
    return Chosen(
        "between", Period(), _("All time"), "all-time", typed["from"], typed["to"], errors
    )
