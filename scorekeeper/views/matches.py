"""Matches: the list to resume, starting one, its page, settings, import and export."""

from __future__ import annotations

import csv
import io
import json
import re

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from .. import db as store
from ..changelog import DELETE_MATCH, RESTORE_MATCH, SETTINGS, Refused, describe
from ..entry import entry_for
from ..forms import ConfirmForm, ImportForm, NewMatchForm, SettingsForm, option_field_name
from ..matchfile import (
    LIMITS_TEXT,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    dumps,
    from_document,
    loads,
    parse_stake,
)
from ..settle import settle
from ..sheets import build_sheet
from ..variants import VARIANTS, MatchError, Problem
from . import (
    Loaded,
    NoRevision,
    change_lines,
    command,
    flash_problems,
    form_key,
    load_or_404,
    my_matches,
    phone_name,
    place_problems,
    remember,
    submit,
)
from .hands import NO_REVISION
from .live import share_links

bp = Blueprint("matches", __name__)

# Which form field shows a problem found in the match document.
MATCH_FIELD_FOR = {
    "variant": "variant",
    "title": "title",
    "amount": "stake_amount",
    "per": "stake_per",
    "currency": "stake_currency",
    "stake": "stake_amount",
}


def _attach(form, problems: list[Problem]) -> list[Problem]:
    """Put each problem line on its form field; return the lines that fit none."""

    def field_for(name: str):
        target = MATCH_FIELD_FOR.get(name) or (
            "player1" if name == "players" else option_field_name(name)
        )
        return getattr(form, target, None)

    return place_problems(problems, field_for)


@bp.get("/")
def index():
    matches = store.list_matches(store.get_db(), my_matches())
    return render_template(
        "matches/index.html",
        matches=[m for m in matches if not m.deleted],
        deleted=[m for m in matches if m.deleted],
        variants=VARIANTS,
        import_form=ImportForm(),
        confirm=ConfirmForm(),
    )


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = NewMatchForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            match = from_document(form.document())
        except MatchError as exc:
            problems = _attach(form, exc.problems)
        else:
            created = store.create_match(
                store.get_db(), match, device=phone_name(), submission=form_key()
            )
            remember(created.match_id)
            return redirect(url_for("hands.new", match_id=created.match_id))
    return render_template("matches/new.html", form=form, problems=problems, variants=VARIANTS)


@bp.post("/import")
def import_file():
    form = ImportForm()
    if not form.validate_on_submit():
        for message in form.match_file.errors or ["The form expired; try again."]:
            flash(message, "error")
        return redirect(url_for("matches.index"))
    raw = form.match_file.data.read(MAX_FILE_BYTES + 1)
    try:
        if len(raw) > MAX_FILE_BYTES:
            raise MatchError([Problem(f"larger than 1 MB; {LIMITS_TEXT}", "file")])
        match = loads(raw.decode("utf-8"), max_entries=MAX_ENTRIES)
    except UnicodeDecodeError:
        flash("The file is not a UTF-8 text file; choose a match file (.json).", "error")
        return redirect(url_for("matches.index"))
    except MatchError as exc:
        count = len(exc.lines)
        heading = f"Not imported: {count} problem{'' if count == 1 else 's'} in this file."
        flash_problems([heading, *exc.lines])
        return redirect(url_for("matches.index"))
    created = store.create_match(store.get_db(), match, device=phone_name(), submission=form_key())
    remember(created.match_id)
    flash(f"Imported {len(match.hands)} hands.", "info")
    return redirect(url_for("matches.show", match_id=created.match_id))


def sheet_context(loaded: Loaded) -> dict:
    """What the match page and the watch page both draw: sheet, totals, settlement."""
    stored = loaded.stored
    return {
        "loaded": loaded,
        "stored": stored,
        "match": stored.match,
        "outcome": loaded.outcome,
        "sheet": build_sheet(stored.match, loaded.outcome) if loaded.outcome else None,
        "entry": entry_for(stored.variant),
        "variant": VARIANTS[stored.variant],
        "settlement": settlement_view(stored.match, loaded.outcome),
    }


@bp.get("/m/<match:match_id>")
def show(match_id: str):
    loaded = load_or_404(match_id)
    remember(match_id)
    noun = entry_for(loaded.stored.variant).noun
    last = loaded.stored.undoable()
    return render_template(
        "matches/show.html",
        **sheet_context(loaded),
        confirm=ConfirmForm(),
        open_hand=request.args.get("hand", type=int),
        undo_text=describe(last, noun) if last else None,
        share=share_links(loaded.stored),
    )


def settlement_view(match, outcome) -> dict | None:
    """Balances and payments for the page and the PDF (None without a stake)."""
    if match.stake is None or outcome is None:
        return None
    balances, pays = settle(outcome, match.stake.amount, match.stake.per)
    pegging = VARIANTS[match.variant].settlement == "pegging"
    return {
        "balances": [(p, f"{balances[p]:+.2f}") for p in match.players],
        "payments": pays,
        "currency": match.stake.currency,
        "empty_note": "Settled when the game is won."
        if pegging and not outcome.finished
        else "Nobody owes anything.",
    }


def _filename(match, ext: str) -> str:
    base = re.sub(r"[^A-Za-z0-9]+", "-", match.title or match.variant).strip("-") or "match"
    return f"{base.lower()}.{ext}"


@bp.get("/m/<match:match_id>/match.json")
def export_json(match_id: str):
    match = load_or_404(match_id).stored.match
    return Response(
        dumps(match),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{_filename(match, "json")}"'},
    )


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell):
    """A text cell a spreadsheet would run as a formula gets a leading ' (shown
    as text); numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


@bp.get("/m/<match:match_id>/hands.csv")
def export_csv(match_id: str):
    loaded = load_or_404(match_id)
    match, outcome = loaded.stored.match, loaded.outcome
    rows = [["hand", "dealer", "counted", "entered", *match.players, "explanation"]]
    results = outcome.hands if outcome else []
    for i, record in enumerate(match.hands):
        result = results[i] if i < len(results) else None
        rows.append(
            [
                i + 1,
                result.dealer if result else "",
                ("yes" if result.counted else "no") if result else "",
                json.dumps(record, ensure_ascii=False, separators=(",", ":")),
                *[(result.scores[p] if result else "") for p in match.players],
                " | ".join(result.explanation) if result else "",
            ]
        )
    if outcome:
        rows.append(["total", "", "", "", *[outcome.totals[p] for p in match.players], ""])
    out = io.StringIO()
    csv.writer(out).writerows([spreadsheet_safe(cell) for cell in row] for row in rows)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{_filename(match, "csv")}"'},
    )


@bp.route("/m/<match:match_id>/settings", methods=["GET", "POST"])
def settings(match_id: str):
    loaded = load_or_404(match_id)
    match = loaded.stored.match
    form = SettingsForm()
    if request.method == "GET":
        form.title.data = match.title or ""
        if match.stake:
            form.stake_amount.data = match.stake.as_json()["amount"]
            form.stake_per.data = str(match.stake.per)
            form.stake_currency.data = match.stake.currency
    problems: list[str] = []
    changed: list[str] = []
    if form.validate_on_submit():
        stake, stake_problems = (None, [])
        if form.stake_json() is not None:
            stake, stake_problems = parse_stake(form.stake_json())
        if stake_problems:
            problems = _attach(form, stake_problems)
        else:
            settings = {
                "title": (form.title.data or "").strip(),
                "stake": stake.as_json() if stake else None,
            }
            try:
                submit(match_id, command(SETTINGS, settings=settings))
            except NoRevision:
                problems = [NO_REVISION]
            except Refused as refusal:
                if not refusal.stale:
                    problems = _attach(form, refusal.problems) or [refusal.message]
                else:
                    changed = change_lines(refusal.stale)
                    loaded = load_or_404(match_id)
            else:
                flash("Title and stake saved.", "undo")
                return redirect(url_for("matches.show", match_id=match_id))
    return render_template(
        "matches/settings.html",
        form=form,
        match=loaded.stored.match,
        stored=loaded.stored,
        problems=problems,
        changed=changed,
        confirm=ConfirmForm(),
    ), (409 if changed else 200)


def _match_command(match_id: str, kind: str, done: str):
    load_or_404(match_id)
    try:
        submit(match_id, command(kind))
    except NoRevision:
        flash(NO_REVISION, "error")
    except Refused as refusal:
        flash("Not done: the match changed since this page was drawn.", "error")
        flash_problems(change_lines(refusal.stale) or [refusal.message], noun="change")
        return redirect(url_for("matches.show", match_id=match_id))
    else:
        flash(done, "info")
    return redirect(url_for("matches.index"))


@bp.post("/m/<match:match_id>/delete")
def delete(match_id: str):
    """Delete a match: it leaves the list but stays in the history, to bring back."""
    return _match_command(match_id, DELETE_MATCH, "Match deleted. It can be brought back below.")


@bp.post("/m/<match:match_id>/restore")
def restore(match_id: str):
    return _match_command(match_id, RESTORE_MATCH, "The match is back.")
