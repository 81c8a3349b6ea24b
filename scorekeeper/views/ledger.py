"""A group's ledger and statistics: the statistics page, and both as CSV and PDF
for the period asked (the ledger itself is drawn on the group page, and "Mark as
paid" is a change of the group: views/groups.py).

What these pages show is scorekeeper/viewmodels/: the period, the group's
ledger, the statistics' tables, the CSV rows and the PDF answer.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from typing import Any

from flask import Blueprint, abort, render_template
from flask_babel import lazy_gettext

from .. import paper
from ..games.catalog import VARIANTS
from ..viewmodels.downloads import (
    NoPdf,
    csv_response,
    file_name,
    ledger_rows,
    pdf_response,
    stats_rows,
)
from ..viewmodels.group_ledger import balance_charts, currency_words, group_ledger, period_for
from ..viewmodels.period import PERIODS
from ..viewmodels.statistics import figure_key, figure_rows, member_stats, shown
from .pages import load_group_or_404

bp = Blueprint("ledger", __name__)

# What a group's PDF link says when no PDF can be made this time.
NO_PDF = NoPdf(
    busy=lazy_gettext("No PDF yet: another sheet is being printed. Try again in a moment."),
    too_costly=lazy_gettext("No PDF: this is too large to print here. Take the CSV instead."),
    failed=lazy_gettext("No PDF: making it failed. Try again, or take the CSV."),
)


@bp.get("/g/<match:group_id>/statistics")
def stats_page(group_id: str):
    state = load_group_or_404(group_id)
    book = group_ledger(state, period_for(state))
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


@bp.get("/g/<match:group_id>/ledger.csv")
def ledger_csv(group_id: str):
    state = load_group_or_404(group_id)
    chosen = period_for(state)
    if chosen.errors:
        abort(400, " ".join(chosen.errors.values()))
    book = group_ledger(state, chosen)
    return csv_response(ledger_rows(state, book), file_name(state, chosen, "ledger", "csv"))


@bp.get("/g/<match:group_id>/statistics.csv")
def stats_csv(group_id: str):
    state = load_group_or_404(group_id)
    chosen = period_for(state)
    if chosen.errors:
        abort(400, " ".join(chosen.errors.values()))
    book = group_ledger(state, chosen)
    rows = stats_rows(member_stats(state, book.book))
    return csv_response(rows, file_name(state, chosen, "statistics", "csv"))


def _period_pdf(group_id: str, kind: str, context: Callable[[Any, Any], dict[str, Any]]):
    """The group's `kind` ("ledger", "statistics") for the asked period as a PDF,
    drawn from templates/pdf/<kind>.html with `context(state, book)` besides."""
    state = load_group_or_404(group_id)
    chosen = period_for(state)
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
    return pdf_response(html, file_name(state, chosen, kind, "pdf"), NO_PDF)


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
