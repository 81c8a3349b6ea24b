"""A group's statistics as its page and PDF show them: each member's figures in
the group's order, as rows of one table, and the key of what each counts. The
figures themselves are scorekeeper/stats.py's."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .. import groups as g
from ..ledger import Ledger
from ..stats import MemberStats, statistics
from ..words import minus_signs


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
