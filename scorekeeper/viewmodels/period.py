"""The period a group's ledger, statistics and their files are asked for: a GET
parameter (`?period=this-month`, or between two days), so a ledger is linkable
and works without JavaScript."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import date, timedelta
from typing import Any

from ..ledger import Period

PERIODS = {
    "since-settled": "Since the last settle-up",
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
    if key == "since-settled":
        if settled is None:
            return Chosen(key, Period(), "Since the start (no settle-up yet)", "all-time")
        # The settle-up day's matches and payments are behind it: they were settled.
        start = settled + timedelta(days=1)
        words = f"Since the last settle-up ({settled:%-d %b %Y})"
        return Chosen(key, Period(start, None), words, f"since-{start}")
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
