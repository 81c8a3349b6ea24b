"""Recording and editing a hand, and the one-tap changes of the match page
(delete, stop here, undo the last change).

Each POST becomes one command for the write path, which checks it against the
match as stored at that moment: a form drawn before another phone's change is
refused (nothing stored, the change named, the entries kept), a form sent twice
is stored once, and every change is checked by replaying the whole match.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for

from ..changelog import APPEND, DELETE, EDIT, Refused, describe, undo_command
from ..entry import HandEntry, entry_for
from ..variants import MatchError, Outcome, Problem, replay
from . import (
    Loaded,
    NoRevision,
    change_lines,
    change_number,
    command,
    cut,
    flash_problems,
    load_or_404,
    place_problems,
    remember,
    submit,
)

bp = Blueprint("hands", __name__, url_prefix="/m/<match:match_id>")

NO_REVISION = (
    "This form is incomplete (it does not say which state of the match it was drawn from):"
    " reload the page and enter it again."
)


def _state_before(match, position: int) -> Outcome:
    """Replay the hands before `position` (0-based): what the rules derive for it."""
    return replay(match.variant, match.players, match.options, match.hands[:position])


def _show_problems(entry: HandEntry, form, problems: list[Problem], number: int) -> list[Problem]:
    def field_for(name: str):
        field = getattr(form, entry.form_field(name), None)
        return None if field is None or field.name == "quick" else field

    return place_problems(problems, field_for, number)


def _to_sheet(match_id: str, **args):
    return redirect(url_for("matches.show", match_id=match_id, **args) + "#sheet")


def _position(loaded: Loaded, hand_key: int | None) -> int | None:
    """Where the form's hand stands: the next one, or the edited hand's place."""
    if hand_key is None:
        return len(loaded.stored.hands)
    return next((h.position - 1 for h in loaded.stored.hands if h.id == hand_key), None)


def _record_from(entry: HandEntry, form, upcoming: dict[str, Any]) -> dict[str, Any]:
    if form.quick.data:
        try:
            return entry.quick_record(form.quick.data, form, upcoming)
        except KeyError:
            abort(400)
    return entry.to_record(form, upcoming)


def _hand_page(match_id: str, hand_key: int | None):
    loaded = load_or_404(match_id)
    remember(match_id)
    entry = entry_for(loaded.stored.variant)
    if loaded.stored.deleted:
        flash("This match was deleted; bring it back to enter hands.", "error")
        return _to_sheet(match_id)
    form = entry.form() if request.method == "POST" else None
    problems: list[str] = []
    changed: list[str] = []  # what other phones changed since this form was drawn
    rejected = False
    before: Outcome | None = None  # what the rules derive for the form's hand

    if hand_key is not None and hand_key not in {*loaded.stored.live, *loaded.stored.removed}:
        abort(404)
    if request.method == "POST":
        position = _position(loaded, hand_key)
        if position is None:
            flash(f"That {entry.noun.lower()} was deleted, so nothing was saved.", "error")
            return _to_sheet(match_id)
        before = _state_before(loaded.stored.match, position)
        upcoming = before.upcoming or {}
        entry.prepare(form, loaded.stored.players, upcoming)
        if form.validate_on_submit():
            record = _record_from(entry, form, upcoming)
            kind = APPEND if hand_key is None else EDIT
            try:
                applied = submit(match_id, command(kind, hand=hand_key, record=record))
            except NoRevision:
                problems, rejected = [NO_REVISION], True
            except Refused as refusal:
                rejected = True
                if refusal.stale:
                    changed = change_lines(refusal.stale, entry.noun)
                    loaded = load_or_404(match_id)  # draw the form again on the match as it is now
                    before = None
                elif refusal.problems:
                    number = position + 1
                    problems = _show_problems(entry, form, refusal.problems, number)
                else:
                    flash(refusal.message, "error")
                    return _to_sheet(match_id)
            else:
                flash(f"{entry.noun} {change_number(applied)} saved.", "undo")
                return _to_sheet(match_id, hand=applied.change.hand)
        else:
            problems = [f"{name}: {', '.join(errs)}" for name, errs in form.errors.items()]
            rejected = True

    stored = loaded.stored
    if hand_key is None and loaded.outcome is not None and loaded.outcome.finished:
        flash_problems(changed, noun="change")
        flash(
            "The match is finished: no hand may follow. Edit a hand or start a new match.", "info"
        )
        return redirect(url_for("matches.show", match_id=match_id))
    position = _position(loaded, hand_key)
    if position is None:
        flash_problems(changed, noun="change")
        flash(f"That {entry.noun.lower()} was deleted; nothing was saved.", "error")
        return _to_sheet(match_id)
    number = position + 1
    if before is None:  # not drawn yet, or the match changed under a stale form
        try:
            before = _state_before(stored.match, position)
        except MatchError as exc:
            flash_problems(exc.lines)
            return _to_sheet(match_id)
    upcoming = before.upcoming or {}
    if form is None:
        data = None if hand_key is None else entry.from_record(stored.hands[position].record)
        form = entry.form(formdata=None, data=data)
    entry.prepare(form, stored.players, upcoming)
    return render_template(
        entry.template,
        form=form,
        entry=entry,
        match=stored.match,
        stored=stored,
        number=number,
        upcoming=upcoming,
        before=before,
        editing=hand_key is not None,
        problems=problems,
        changed=changed,
        rejected=rejected,
        extra=entry.context(before, upcoming),
    ), (409 if changed else 200)


@bp.route("/hand/new", methods=["GET", "POST"])
def new(match_id: str):
    return _hand_page(match_id, None)


@bp.route("/hand/<key:hand_id>", methods=["GET", "POST"])
def edit(match_id: str, hand_id: int):
    return _hand_page(match_id, hand_id)


def _one_tap(
    match_id: str, cmd_kind: str, done: Callable[[int | None], str], refused: str, **fields
):
    """A button of the match page: one command, then back to the sheet.
    `done(number)` words the answer from the number of the hand changed."""
    loaded = load_or_404(match_id)
    noun = entry_for(loaded.stored.variant).noun
    try:
        applied = submit(match_id, command(cmd_kind, **fields))
    except NoRevision:
        flash(NO_REVISION, "error")
    except Refused as refusal:
        if refusal.stale:
            flash(f"Not done: the match changed since this page was drawn. {refused}", "error")
            flash_problems(change_lines(refusal.stale, noun), noun="change")
        else:
            flash(cut(f"{refused} {'; '.join(refusal.lines) or refusal.message}"), "error")
    else:
        flash(done(change_number(applied)), "undo")
    return _to_sheet(match_id)


@bp.post("/hand/<key:hand_id>/delete")
def delete(match_id: str, hand_id: int):
    stored = load_or_404(match_id).stored
    if hand_id not in stored.live and hand_id not in stored.removed:
        abort(404)
    noun = entry_for(stored.variant).noun
    number = stored.number_of(hand_id)
    return _one_tap(
        match_id,
        DELETE,
        lambda number: f"{noun} {number} deleted.",
        f"{noun} {number} was not deleted: without it,",
        hand=hand_id,
    )


@bp.post("/end")
def end(match_id: str):
    """The players stop early: append the end marker."""
    return _one_tap(
        match_id,
        APPEND,
        lambda number: "The match is stopped here.",
        "The match cannot end here:",
        record={"end": True},
    )


@bp.post("/undo")
def undo(match_id: str):
    """Take back the last change of any kind (each Undo goes one step further back)."""
    loaded = load_or_404(match_id)
    target = loaded.stored.undoable()
    if target is None:
        flash("There is nothing to undo.", "info")
        return _to_sheet(match_id)
    cmd = undo_command(loaded.stored, target)
    fields = {
        "hand": cmd.hand,
        "record": cmd.record,
        "settings": cmd.settings,
        "undoes": cmd.undoes,
    }
    what = describe(target, entry_for(loaded.stored.variant).noun)
    return _one_tap(
        match_id, cmd.kind, lambda number: f"Undone: {what}.", "That cannot be undone:", **fields
    )
