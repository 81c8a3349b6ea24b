"""How a match's balances come about, as its settle-up page and printed sheet
show them: the day it was played, what each player settles on, and in rubber
scoring each rubber's difference before and after rounding."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask_babel import get_locale, ngettext

from .. import formats
from ..changelog import played_on
from ..db import StoredMatch
from ..games.catalog import settlement_for
from ..games.common import Outcome
from ..games.settlement import round_to_hundreds
from ..languages import DEFAULT, language
from ..model import Match
from ..settle import exact_balances
from ..speech import said
from ..words import signed


def match_date(stored: StoredMatch) -> str:
    """The day the match was played (its day played; else the evening it was
    started on), as the page's language writes it: "21 November 2026",
    "21 novembre 2026"."""
    reader = language(str(get_locale())) or DEFAULT
    return formats.long_day(stored.played or played_on(stored.created), reader.formats)


def _points(n: int) -> str:
    return ngettext("%(points)s point", "%(points)s points", abs(n), points=signed(n))


def worked_out(match: Match, outcome: Outcome, settlement: dict[str, Any]) -> dict[str, Any]:
    """How each balance comes about: what each player settles on (points, or won
    and lost for pegging) beside the balance and, in rubber scoring, each rubber's
    (round's) difference before and after rounding to the nearest 100."""
    kind = settlement_for(match.variant)
    balances = dict(settlement["balances"])
    units: list[dict[str, str]] = []
    names = None
    basis = kind.basis(outcome)
    if basis is None:
        # At 1 per point the exact balances are the points each player settles on.
        points = exact_balances(outcome, Decimal(1), 1)
        basis = {p: _points(int(points[p])) for p in match.players}
        summary = kind.rounded_units(outcome)
        if summary is not None:
            partners = [" & ".join(side) for side in summary.sides]
            names = [
                name if name == together else f"{name} ({together})"
                for name, together in zip(summary.side_names, partners, strict=True)
            ]
            units = [
                {
                    "label": said(summary.unit_label(number)),
                    "points": signed(diff),
                    "rounded": signed(round_to_hundreds(diff)),
                }
                for number, diff in enumerate(summary.unit_differences, 1)
            ]
    # The settlement writes balances for machines ("-8.00"); the page prints them
    # as its reader writes money ("−8.00", "−8,00").
    rows = [{"player": p, "basis": basis[p], "balance": balances[p]} for p in match.players]
    return {"kind": kind, "rows": rows, "units": units, "sides": names}
