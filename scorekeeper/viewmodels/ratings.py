"""What the ratings and head-to-head pages show: the group's matches in the order
played, each member's card (ratings and the season's chart), the games by kind
of partnership, and the ratings as CSV rows. The arithmetic is
scorekeeper/ratings.py."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Callable
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from flask import Response
from flask_babel import gettext as _

from .. import db as store
from .. import groups as g
from ..charts import rating_chart
from ..games.catalog import VARIANTS, variant_for
from ..model import MatchSummary
from ..ratings import Rating, Ratings, played_order, ratings, ratings_rows
from ..summaries import group_summaries
from .downloads import CSV_HEADERS, spreadsheet_safe
from .group_ledger import describe, member_summary


def group_matches(state: g.GroupState) -> list[MatchSummary]:
    """The group's matches that count (readable, not deleted), names mapped to
    members, in the order played: by each match's stored day played, then by
    when it was started (both read with its kept summary)."""
    counted = [
        (member_summary(state, k.match_id, k.summary), k.started)
        for k in group_summaries(store.get_db(), state.id, describe)
        if k.summary is not None and not k.listing.get("deleted")
    ]
    return played_order([s for s, _started in counted], {s.key: started for s, started in counted})


def member_place(state: g.GroupState) -> Callable[[str], tuple[int, str]]:
    """Members in the group's chosen order (a name no longer a member last)."""
    order = {m.name: i for i, m in enumerate(state.members)}
    return lambda name: (order.get(name, len(order)), name)


@dataclass(frozen=True)
class Card:
    """A member's part of the ratings page."""

    member: str
    overall: Rating
    chart: dict[str, Any] | None
    games: list[tuple[str, Rating]]  # (game name, rating)


def _tenths(value: float) -> Decimal:
    return Decimal(repr(value)).quantize(Decimal("0.1"), ROUND_HALF_UP)


def rating_cards(state: g.GroupState, found: Ratings) -> list[Card]:
    """Each member's card, in the group's order: ratings and the season's chart."""
    cards = []
    for index, member in enumerate(sorted(found.overall, key=member_place(state)), 1):
        overall = found.overall[member]
        chart = rating_chart(
            [_tenths(step.ordinal) for step in overall.steps],
            chart_id=f"rating-chart-{index}",
            title=_("%(member)s: rating after each match", member=member),
        )
        games = [  # in the order New match offers the games
            (cls.name, found.games[game][member])
            for game, cls in VARIANTS.items()
            if member in found.games.get(game, {})
        ]
        cards.append(Card(member, overall, chart, games))
    return cards


def game_kinds() -> dict[str, str]:
    """The games whose partners are one side for the whole match, and the others,
    as the page names them (each game's kit says which)."""
    fixed = [cls.name for v, cls in VARIANTS.items() if variant_for(v).partners == "fixed"]
    alone = [cls.name for v, cls in VARIANTS.items() if variant_for(v).partners != "fixed"]
    return {"partnership_games": ", ".join(fixed), "alone_games": ", ".join(alone)}


def ratings_csv(state: g.GroupState) -> Response:
    """The ratings page's figures as a CSV file; a text cell never runs as a formula."""
    names = {v: cls.name for v, cls in VARIANTS.items()}
    rows = ratings_rows(ratings(group_matches(state)), names)
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([spreadsheet_safe(str(CSV_HEADERS.get(c, c))) for c in rows[0]])
    for row in rows[1:]:  # member and game are text; the others are figures
        writer.writerow([spreadsheet_safe(row[0]), spreadsheet_safe(str(row[1])), *row[2:]])
    base = re.sub(r"[^A-Za-z0-9]+", "-", state.name).strip("-").lower() or "group"
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{base}-ratings.csv"'},
    )
