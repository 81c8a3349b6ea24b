"""Matches: the list to resume, starting one, its page, settings, import and export."""

from __future__ import annotations

import csv
import io
import re
from datetime import UTC, datetime

from flask import Blueprint, Response, flash, redirect, render_template, request, url_for

from .. import db as store
from .. import pdf
from ..backup import zip_matches
from ..changelog import DELETE_MATCH, RESTORE_MATCH, SETTINGS, Refused, describe
from ..forms import ConfirmForm, ImportForm, NewMatchForm, SettingsForm, option_field_name
from ..matchfile import (
    LIMITS_TEXT,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    Match,
    dumps,
    from_document,
    loads,
    parse_stake,
)
from ..names import alike, name_problem, normal
from ..registry import build_sheet, entry_for, settlement_for
from ..settle import settle, usual_per
from ..sheets.hand_log import log_table
from ..variants import VARIANTS, MatchError, Problem
from . import (
    Loaded,
    NoRevision,
    blank,
    change_lines,
    command,
    flash_problems,
    flash_undo,
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


def _seating_refused(form) -> bool:
    """Check the players as the form shows them, each problem on the input to fix:
    a name given twice on the later one, a missing player on the first empty
    input, one too many on the input to clear."""
    cls = VARIANTS.get(form.variant.data)
    inputs = form.player_fields()
    seen: list[tuple[int, str]] = []
    for seat, field in enumerate(inputs, 1):
        if blank(field):
            continue
        name = normal(field.data)
        unusable = name_problem(name)
        if unusable:
            field.errors = [*field.errors, f"This name {unusable}."]
            continue
        twin = next(((s, other) for s, other in seen if alike(other, name)), None)
        if twin and twin[1].casefold() == name.casefold():
            field.errors = [
                *field.errors,
                f"{name} is already Player {twin[0]}: give each player"
                " a different name (capitals do not count).",
            ]
        elif twin:
            field.errors = [
                *field.errors,
                f"{name} looks the same as Player {twin[0]} ({twin[1]}): give each player"
                " a name that reads differently.",
            ]
        else:
            seen.append((seat, name))
    filled = [field for field in inputs if not blank(field)]
    if cls is not None and len(filled) not in cls.player_counts:
        wanted = " or ".join(str(n) for n in cls.player_counts)
        fewest, most = min(cls.player_counts), max(cls.player_counts)
        if len(filled) < fewest:
            empty = [f for f in inputs if blank(f)][: fewest - len(filled)]
            names = " and ".join(f.label.text.split(" (")[0] for f in empty)
            empty[0].errors = [
                *empty[0].errors,
                f"{cls.name} needs {wanted} players: fill in {names}.",
            ]
        else:
            extra = filled[most]
            extra.errors = [
                *extra.errors,
                f"{cls.name} is for {wanted} players: leave {extra.label.text} empty.",
            ]
    return any(field.errors for field in inputs)


def _attach(form, problems: list[Problem]) -> list[Problem]:
    """Put each problem line on its form field; return the lines that fit none."""

    def field_for(name: str):
        target = MATCH_FIELD_FOR.get(name) or (
            "player1" if name == "players" else option_field_name(name)
        )
        return getattr(form, target, None)

    def words(problem: Problem, field) -> str | None:
        if field.name == "stake_amount" and "decimal string" in problem.message:
            typed = (field.data or "").strip()
            if not typed:
                return "write the amount, like 0.50 or 0,50."
            return (
                f"{typed!r} is not an amount: write it like 0.50 or 0,50,"
                " with no thousands separator."
            )
        return None

    return place_problems(problems, field_for, words=words)


def changed_words(stamp: str, now: datetime | None = None) -> str:
    """When a match last changed, as the home list says it: "5 minutes ago",
    "today at 21:40", "yesterday at 23:05", "Saturday at 20:15", "3 October 2026"."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    now = now or datetime.now(UTC)
    seconds = (now - then).total_seconds()
    if seconds < 60:
        return "a moment ago"
    if seconds < 3600:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'' if minutes == 1 else 's'} ago"
    local, today = then.astimezone(), now.astimezone().date()
    days = (today - local.date()).days
    day = {0: "today", 1: "yesterday"}.get(days, f"{local:%A}" if days < 7 else None)
    return f"{day} at {local:%H:%M}" if day else f"{local.day} {local:%B %Y}"


def match_state(stored) -> dict:
    """What the home list says of a match: in progress (and who deals next, from
    the replay), finished (and who won), stopped early, or no longer replaying."""
    try:
        outcome = stored.match.replay()
    except MatchError:
        return {"state": "needs a fix", "next": "a hand no longer fits the rules"}
    if not outcome.finished:
        dealer = (outcome.upcoming or {}).get("dealer")
        return {"state": "in progress", "next": f"{dealer} deals next" if dealer else ""}
    records = stored.records
    stopped = bool(records) and records[-1] == {"end": True}
    won = " & ".join(outcome.winners)
    return {"state": "stopped" if stopped else "finished", "next": f"won by {won}" if won else ""}


@bp.get("/")
def index():
    matches = store.list_matches(store.get_db(), my_matches())
    return render_template(
        "matches/index.html",
        matches=[
            {"stored": m, **match_state(m), "changed": changed_words(m.updated)}
            for m in matches
            if not m.deleted
        ],
        deleted=[m for m in matches if m.deleted],
        variants=VARIANTS,
        import_form=ImportForm(),
        confirm=ConfirmForm(),
    )


@bp.route("/new", methods=["GET", "POST"])
def new():
    form = NewMatchForm()
    problems: list[str] = []
    # Every check at once: a refused Start lists all that is wrong, not the first.
    valid = form.validate_on_submit()
    seated = request.method != "POST" or not _seating_refused(form)
    if valid:
        try:
            match = from_document(form.document())
        except MatchError as exc:
            # The players were already checked above, in the words of the form.
            said = [p for p in exc.problems if seated or p.field != "players"]
            problems = _attach(form, said)
        else:
            if seated:
                created = store.create_match(
                    store.get_db(), match, device=phone_name(), submission=form_key()
                )
                remember(created.match_id)
                return redirect(url_for("hands.new", match_id=created.match_id))
    return render_template(
        "matches/new.html", form=form, problems=problems, variants=VARIANTS, usual_per=usual_per
    )


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
    count, noun = len(match.hands), entry_for(match.variant).noun.lower()
    flash(f"Imported {count} {noun}{'' if count == 1 else 's'}.", "info")
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
        "kind": settlement_for(stored.variant),  # how its totals are settled
        "settlement": settlement_view(stored.match, loaded.outcome),
        "stake_text": stake_text(stored.match),
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
        undo_revision=last.change.revision if last else None,
        share=share_links(loaded.stored),
        pdf_missing=pdf.unavailable(),  # said on the page, instead of links that would fail
    )


def stake_text(match: Match) -> str:
    """The stake in words: 0.50 EUR per point, 1.00 EUR per 3 points, or per game."""
    if match.stake is None:
        return ""
    stake = match.stake
    money = " ".join(filter(None, [stake.as_json()["amount"], stake.currency]))
    return settlement_for(match.variant).stake_words(money, stake.per)


def settlement_view(match, outcome) -> dict | None:
    """Balances and payments for the page and the PDF (None without a stake)."""
    if match.stake is None or outcome is None:
        return None
    balances, pays = settle(outcome, match.stake.amount, match.stake.per)
    return {
        "balances": [(p, balances[p]) for p in match.players],
        "payments": pays,
        "currency": match.stake.currency,
        "empty_note": settlement_for(match.variant).empty_note(outcome),
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
    match = loaded.stored.match
    rows = log_table(match, loaded.outcome)
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
                applied = submit(match_id, command(SETTINGS, settings=settings))
            except NoRevision:
                problems = [NO_REVISION]
            except Refused as refusal:
                if not refusal.stale:
                    problems = _attach(form, refusal.problems) or [refusal.message]
                else:
                    changed = change_lines(refusal.stale)
                    loaded = load_or_404(match_id)
            else:
                flash_undo("Title and stake saved.", applied.change)
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


def _match_command(match_id: str, kind: str, done: str, answer_here: bool = False):
    """Delete or bring back a whole match. `answer_here`: answer on the match page,
    where the flash offers Undo, instead of the match list."""
    load_or_404(match_id)
    try:
        applied = submit(match_id, command(kind))
    except NoRevision:
        flash(NO_REVISION, "error")
    except Refused as refusal:
        flash("Not done: the match changed since this page was drawn.", "error")
        flash_problems(change_lines(refusal.stale) or [refusal.message], noun="change")
        return redirect(url_for("matches.show", match_id=match_id))
    else:
        flash_undo(done, applied.change if answer_here else None)
        if answer_here:
            return redirect(url_for("matches.show", match_id=match_id))
    return redirect(url_for("matches.index"))


@bp.post("/m/<match:match_id>/delete")
def delete(match_id: str):
    """Delete a match: it leaves the list but stays in the history, to bring back."""
    return _match_command(
        match_id,
        DELETE_MATCH,
        "Match deleted: it left the match list (Deleted matches keeps it).",
        answer_here=True,
    )


@bp.post("/m/<match:match_id>/restore")
def restore(match_id: str):
    return _match_command(match_id, RESTORE_MATCH, "The match is back.")


@bp.get("/matches.zip")
def download_all():
    """The match files of every match this browser knows (the home page's list,
    deleted ones in deleted/) in one zip, named as `scorekeeper export` names them."""
    found = store.list_matches(store.get_db(), my_matches())
    return Response(
        zip_matches(found),
        mimetype="application/zip",
        headers={
            "Content-Disposition": 'attachment; filename="scorekeeper-matches.zip"',
            "Cache-Control": "no-store",  # what it holds depends on this browser's cookie
        },
    )
