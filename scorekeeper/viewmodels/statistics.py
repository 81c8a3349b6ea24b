"""A group's statistics as its page and PDF show them: each member's figures in
the group's order, as rows of one table, and the key of what each counts. The
figures themselves are scorekeeper/stats.py's."""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from babel.numbers import format_decimal
from flask_babel import gettext as _

from .. import formats
from .. import groups as g
from ..ledger import Ledger
from ..stats import Figure, MemberStats, statistics
from ..words import minus_signs
from .period import reader_locale


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


def shown(figure: Figure) -> str:
    """A figure as a person reads it, in the page's language: "3 of 5 (60%)",
    "+12.5" with a real minus sign, "–" when there is none. English keeps its
    figures as they always read (no grouping: "1234 of 1500")."""
    locale = reader_locale()
    english = locale == formats.ENGLISH

    def count(n: int | Decimal) -> str:
        return str(n) if english else formats.number(n, locale)

    value = figure.value
    if value is None:
        return "–"
    if figure.of is not None:
        if figure.of == 0:  # nothing declared: no share to take (0 / 0)
            return _("%(value)s of %(of)s", value=count(value), of=count(0))
        share = (Decimal(100 * value) / figure.of).quantize(Decimal(1), ROUND_HALF_UP)
        return _(
            "%(value)s of %(of)s (%(share)s%%)",
            value=count(value),
            of=count(figure.of),
            share=count(int(share)),
        )
    if figure.key in ("average", "best", "worst"):
        if not value:
            return "0"
        if english:
            return minus_signs(f"{value:+}")  # +12.5, −4
        places = max(0, -Decimal(value).as_tuple().exponent)
        pattern = "0." + "0" * places if places else "0"
        text = format_decimal(abs(value), format=pattern, locale=locale)
        return ("+" if value > 0 else formats.MINUS) + text
    return count(value)
