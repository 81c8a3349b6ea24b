"""Printable sheet (PDF) and the settle-up page of one match."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from flask import Blueprint, Response, abort, current_app, render_template, request

from .. import pdf
from ..assets import static_folders
from ..changelog import played_on
from ..db import StoredMatch
from ..games.catalog import VARIANTS, build_sheet, settlement_for
from ..games.common import Outcome
from ..games.settlement import round_to_hundreds
from ..matchfile import MAX_ENTRIES
from ..model import Match
from ..settle import exact_balances
from ..words import signed
from .pages import Loaded, filename, load_or_404, settlement_view, stake_text

bp = Blueprint("sheets", __name__, url_prefix="/m/<match:match_id>")


def match_date(stored: StoredMatch) -> str:
    """The day the match was played (its day played; else the evening it was
    started on): "21 November 2026"."""
    day = stored.played or played_on(stored.created)
    return f"{day.day} {day:%B %Y}"


def _points(n: int) -> str:
    return f"{signed(n)} point{'' if abs(n) == 1 else 's'}"


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
                    "label": f"{summary.unit_word.capitalize()} {number}",
                    "points": signed(diff),
                    "rounded": signed(round_to_hundreds(diff)),
                }
                for number, diff in enumerate(summary.unit_differences, 1)
            ]
    # The settlement writes balances for machines ("-8.00"); the page prints "−8.00".
    rows = [{"player": p, "basis": basis[p], "balance": signed(balances[p])} for p in match.players]
    return {"kind": kind, "rows": rows, "units": units, "sides": names}


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
        printing=True,  # a sheet leaves out what only the screen needs (the Top Game's key)
    )


@bp.get("/sheet.pdf")
def sheet_pdf(match_id: str):
    paper = request.args.get("paper", "a4").lower()
    if paper not in pdf.PAPER_SIZES:
        abort(400, f"paper: choose {' or '.join(pdf.PAPER_SIZES)}")
    loaded = load_or_404(match_id)
    if len(loaded.stored.records) > MAX_ENTRIES:
        return _no_pdf(
            f"No PDF: this match has {len(loaded.stored.records)} entries, and a score sheet"
            f" is printed for at most {MAX_ENTRIES}. Export the match file or the CSV instead.",
            413,
        )
    appendix = request.args.get("appendix") in ("1", "yes", "on")
    html = match_html(loaded, appendix=appendix)
    try:
        key, body = pdf.cached_pdf(html, static_folders(), paper)
    except pdf.PdfUnavailable as exc:
        return Response(str(exc), status=503, mimetype="text/plain")
    except pdf.PdfBusy:
        return _no_pdf(
            "No PDF yet: another table's score sheet is being printed. Try again in a moment.",
            503,
        )
    except pdf.PdfTooCostly:
        instead = "Try the PDF without explanations, or print" if appendix else "Print"
        return _no_pdf(
            "No PDF: this score sheet is too large to make here without holding up the other"
            f" tables' sheets. {instead} the match page from the browser"
            " (Print, then Save as PDF), or export the hand log (CSV).",
            413,
        )
    except pdf.PdfFailed as exc:
        current_app.logger.error("PDF of match %s failed: %s", match_id, exc)
        return _no_pdf("No PDF: making it failed. Try again, or print the match page.", 503)
    # Each link of the match page saves under its own name, so the sheet, the
    # explained sheet and the Letter one never overwrite each other in Downloads.
    name = filename(loaded.stored.match, "pdf")
    suffix = ("-explained" if appendix else "") + ("-letter" if paper == "letter" else "")
    name = name.removesuffix(".pdf") + suffix + ".pdf"
    response = Response(
        body,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="{name}"',
            "Cache-Control": "no-cache",  # revalidate: the ETag changes with every hand
        },
    )
    response.set_etag(key)
    return response.make_conditional(request)


def _no_pdf(message: str, status: int):
    return Response(message, status=status, mimetype="text/plain", headers={"Retry-After": "5"})


@bp.get("/settle")
def settle(match_id: str):
    loaded = load_or_404(match_id)
    return render_template("matches/settle.html", **_page_context(loaded))
