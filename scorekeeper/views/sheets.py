"""Printable sheet (PDF) and the settle-up page of one match."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, render_template, request
from flask_babel import gettext as _

from .. import pdf
from ..games.catalog import VARIANTS, build_sheet, settlement_for
from ..matchfile import MAX_ENTRIES
from ..viewmodels.downloads import NoPdf, no_pdf, pdf_response
from ..viewmodels.match_sheet import match_date, worked_out
from .pages import Loaded, filename, load_or_404, settlement_view, stake_text

bp = Blueprint("sheets", __name__, url_prefix="/m/<match:match_id>")


def _page_context(loaded: Loaded) -> dict[str, Any]:
    match, outcome = loaded.stored.match, loaded.outcome
    variant = VARIANTS[match.variant]
    settlement = settlement_view(match, outcome)
    return {
        "loaded": loaded,
        "stored": loaded.stored,
        "match": match,
        "outcome": outcome,
        "variant": variant,
        "kind": settlement_for(match.variant),  # how its totals are settled
        "title": match.title or variant.name,
        "date": match_date(loaded.stored),
        "stake_text": stake_text(match),
        "settlement": settlement,
        "worked": worked_out(match, outcome, settlement) if settlement else None,
        "problems": loaded.problems,
        "pdf_missing": pdf.unavailable(),
    }


def match_html(loaded: Loaded, *, appendix: bool = False) -> str:
    """The PDF's HTML: header, the variant's own sheet, totals, settlement, appendix."""
    match, outcome = loaded.stored.match, loaded.outcome
    return render_template(
        "pdf/match.html",
        **_page_context(loaded),
        sheet=build_sheet(match, outcome) if outcome else None,
        appendix=appendix,
        printing=True,  # a sheet leaves out what only the screen needs (the Top Game's key, links)
    )


@bp.get("/sheet.pdf")
def sheet_pdf(match_id: str):
    paper = request.args.get("paper", "a4").lower()
    if paper not in pdf.PAPER_SIZES:
        abort(400, _("paper: choose %(sizes)s", sizes=" or ".join(pdf.PAPER_SIZES)))
    loaded = load_or_404(match_id)
    if len(loaded.stored.records) > MAX_ENTRIES:
        return no_pdf(
            _(
                "No PDF: this match has %(entries)s entries, and a score sheet is printed"
                " for at most %(most)s. Export the match file or the CSV instead.",
                entries=len(loaded.stored.records),
                most=MAX_ENTRIES,
            ),
            413,
        )
    appendix = request.args.get("appendix") in ("1", "yes", "on")
    html = match_html(loaded, appendix=appendix)
    too_costly = (
        _(
            "No PDF: this score sheet is too large to make here without holding up the other"
            " tables' sheets. Try the PDF without explanations, or print the match page from"
            " the browser (Print, then Save as PDF), or export the hand log (CSV)."
        )
        if appendix
        else _(
            "No PDF: this score sheet is too large to make here without holding up the other"
            " tables' sheets. Print the match page from the browser (Print, then Save as PDF),"
            " or export the hand log (CSV)."
        )
    )
    said = NoPdf(
        busy=_("No PDF yet: another table's score sheet is being printed. Try again in a moment."),
        too_costly=too_costly,
        failed=_("No PDF: making it failed. Try again, or print the match page."),
    )
    # Each link of the match page saves under its own name, so the sheet, the
    # explained sheet and the Letter one never overwrite each other in Downloads.
    name = filename(loaded.stored.match, "pdf")
    suffix = ("-explained" if appendix else "") + ("-letter" if paper == "letter" else "")
    name = name.removesuffix(".pdf") + suffix + ".pdf"
    return pdf_response(html, name, said, paper=paper, about=f"of match {match_id}")


@bp.get("/settle")
def settle(match_id: str):
    loaded = load_or_404(match_id)
    return render_template("matches/settle.html", **_page_context(loaded))
