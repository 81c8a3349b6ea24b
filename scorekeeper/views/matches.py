"""Matches: the list to resume, starting one, its page, settings, import and export."""

from __future__ import annotations

import csv
import io
import json
import re

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from .. import db as store
from ..entry import entry_for
from ..forms import ConfirmForm, ImportForm, NewMatchForm, SettingsForm, option_field_name
from ..matchfile import dumps, from_document, loads, parse_stake
from ..settle import settle
from ..sheets import build_sheet
from ..variants import VARIANTS, MatchError
from . import load_or_404, split_problems

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


def _attach(form, lines: list[str]) -> list[str]:
    """Put each problem line on its form field; return the lines that fit none."""
    by_field, other = split_problems(lines)
    for name, messages in by_field.items():
        target = MATCH_FIELD_FOR.get(name) or (
            "player1" if name == "players" else option_field_name(name)
        )
        field = getattr(form, target, None)
        if field is None:
            other += [f"{name}: {m}" for m in messages]
        else:
            field.errors = list(field.errors) + messages
    return other


@bp.get("/")
def index():
    return render_template(
        "matches/index.html",
        matches=store.list_matches(store.get_db()),
        variants=VARIANTS,
        import_form=ImportForm(),
    )


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = NewMatchForm()
    problems: list[str] = []
    if form.validate_on_submit():
        try:
            match = from_document(form.document())
        except MatchError as exc:
            problems = _attach(form, exc.lines)
        else:
            match_id = store.create_match(store.get_db(), match)
            return redirect(url_for("hands.new", match_id=match_id))
    return render_template("matches/new.html", form=form, problems=problems, variants=VARIANTS)


@bp.post("/import")
def import_file():
    form = ImportForm()
    if not form.validate_on_submit():
        for message in form.match_file.errors or ["The form expired; try again."]:
            flash(message, "error")
        return redirect(url_for("matches.index"))
    raw = form.match_file.data.read()
    try:
        match = loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        flash("The file is not a UTF-8 text file; choose a match file (.json).", "error")
        return redirect(url_for("matches.index"))
    except MatchError as exc:
        for line in exc.lines:
            flash(line, "error")
        return redirect(url_for("matches.index"))
    match_id = store.create_match(store.get_db(), match)
    flash(f"Imported {len(match.hands)} hands.", "info")
    return redirect(url_for("matches.show", match_id=match_id))


@bp.get("/m/<int:match_id>")
def show(match_id: int):
    loaded = load_or_404(match_id)
    sheet = build_sheet(loaded.stored.match, loaded.outcome) if loaded.outcome else None
    return render_template(
        "matches/show.html",
        loaded=loaded,
        stored=loaded.stored,
        match=loaded.stored.match,
        outcome=loaded.outcome,
        sheet=sheet,
        entry=entry_for(loaded.stored.match.variant),
        variant=VARIANTS[loaded.stored.match.variant],
        confirm=ConfirmForm(),
        open_hand=request.args.get("hand", type=int),
        settlement=settlement_view(loaded.stored.match, loaded.outcome),
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


@bp.get("/m/<int:match_id>/match.json")
def export_json(match_id: int):
    match = load_or_404(match_id).stored.match
    return Response(
        dumps(match),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{_filename(match, "json")}"'},
    )


@bp.get("/m/<int:match_id>/hands.csv")
def export_csv(match_id: int):
    loaded = load_or_404(match_id)
    match, outcome = loaded.stored.match, loaded.outcome
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["hand", "dealer", "counted", "entered", *match.players, "explanation"])
    results = outcome.hands if outcome else []
    for i, record in enumerate(match.hands):
        result = results[i] if i < len(results) else None
        writer.writerow(
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
        writer.writerow(["total", "", "", "", *[outcome.totals[p] for p in match.players], ""])
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{_filename(match, "csv")}"'},
    )


@bp.route("/m/<int:match_id>/settings", methods=["GET", "POST"])
def settings(match_id: int):
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
    if form.validate_on_submit():
        stake, stake_problems = (None, [])
        if form.stake_json() is not None:
            stake, stake_problems = parse_stake(form.stake_json())
        if stake_problems:
            problems = _attach(form, stake_problems)
        else:
            store.update_match(store.get_db(), match_id, title=form.title.data.strip(), stake=stake)
            flash("Saved.", "info")
            return redirect(url_for("matches.show", match_id=match_id))
    return render_template(
        "matches/settings.html",
        form=form,
        match=match,
        stored=loaded.stored,
        problems=problems,
        confirm=ConfirmForm(),
    )


@bp.post("/m/<int:match_id>/delete")
def delete(match_id: int):
    load_or_404(match_id)
    if ConfirmForm().validate_on_submit():
        store.delete_match(store.get_db(), match_id)
        flash("Match deleted.", "info")
    return redirect(url_for("matches.index"))
