"""The night's report of a group: one day's matches, winners, totals and who pays
whom, with the text for the group chat (static/night.js copies it), and the
same on paper. What it shows is scorekeeper/viewmodels/night.py."""

from __future__ import annotations

from datetime import date

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from ..games.catalog import VARIANTS
from ..viewmodels.downloads import NoPdf, file_name, pdf_response
from ..viewmodels.night import chat_text, match_name, night_report, winners
from .pages import load_group_or_404

bp = Blueprint("night", __name__)


@bp.get("/g/<match:group_id>/night")
def report(group_id: str):
    state = load_group_or_404(group_id)
    night = night_report(state, request.args.get("day", ""))
    return render_template(
        "night/report.html",
        group=state,
        night=night,
        chat=chat_text(state, night) if night.matches else "",
        match_name=match_name,
        winners=winners,
        variants=VARIANTS,
    ), (400 if night.error else 200)


@bp.get("/g/<match:group_id>/night.pdf")
def report_pdf(group_id: str):
    state = load_group_or_404(group_id)
    night = night_report(state, request.args.get("day", ""))
    if night.error or night.day is None:
        abort(400, night.error or _("This group has not played a match yet."))
    html = render_template(
        "pdf/night.html",
        group=state,
        night=night,
        match_name=match_name,
        winners=winners,
        variants=VARIANTS,
        printed=date.today(),
    )
    return pdf_response(html, file_name(state, night.chosen, "night", "pdf"), _no_pdf())


def _no_pdf() -> NoPdf:
    """What the PDF link answers when no PDF can be made this time."""
    return NoPdf(
        busy=_("No PDF yet: another sheet is being printed. Try again in a moment."),
        too_costly=_("No PDF: this night is too large to print here."),
        failed=_("No PDF: making it failed. Try again in a moment."),
    )
