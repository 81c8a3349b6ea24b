"""Recording, editing, deleting (with undo) and ending: one hand at a time.

Every change is checked by replaying the whole match with the change in place;
if any hand (this one or a later one) becomes invalid, nothing is stored and
the form says which hand and field.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from werkzeug.datastructures import MultiDict

from .. import db as store
from ..entry import HandEntry, entry_for
from ..forms import ConfirmForm
from ..variants import MatchError, Outcome, replay
from . import load_or_404, split_problems

bp = Blueprint("hands", __name__, url_prefix="/m/<int:match_id>")


def _state_before(match, position: int) -> Outcome:
    """Replay the hands before `position` (0-based): what the rules derive for it."""
    return replay(match.variant, match.players, match.options, match.hands[:position])


def _check(match, hands: list[dict[str, Any]]) -> None:
    replay(match.variant, match.players, match.options, hands)


def _show_problems(entry: HandEntry, form, lines: list[str], number: int) -> list[str]:
    by_field, other = split_problems(lines, number)
    for name, messages in by_field.items():
        field = getattr(form, entry.form_field(name), None)
        if field is None or field.name == "quick":
            other += [f"{name}: {m}" for m in messages]
        else:
            field.errors = list(field.errors) + messages
    return other


def _hand_page(match_id: int, hand_id: int | None):
    loaded = load_or_404(match_id)
    stored, match = loaded.stored, loaded.stored.match
    entry = entry_for(match.variant)
    if hand_id is None:
        position = len(stored.hands)
        if loaded.outcome is not None and loaded.outcome.finished:
            flash(
                "The match is finished: no hand may follow. Edit a hand or start a new match.",
                "info",
            )
            return redirect(url_for("matches.show", match_id=match_id))
    else:
        position = next((i for i, h in enumerate(stored.hands) if h.id == hand_id), None)
        if position is None:
            abort(404)
    number = position + 1
    try:
        before = _state_before(match, position)
    except MatchError as exc:
        for line in exc.lines:
            flash(line, "error")
        return redirect(url_for("matches.show", match_id=match_id))
    upcoming = before.upcoming or {}

    if request.method == "POST":
        form = entry.form()
    elif hand_id is not None:
        form = entry.form(formdata=None, data=entry.from_record(stored.hands[position].record))
    else:
        form = entry.form(formdata=None)
    entry.prepare(form, match.players, upcoming)

    problems: list[str] = []
    rejected = False
    if request.method == "POST" and form.validate_on_submit():
        if form.quick.data:
            try:
                record = entry.quick_record(form.quick.data, form, upcoming)
            except KeyError:
                abort(400)
        else:
            record = entry.to_record(form, upcoming)
        hands = [h.record for h in stored.hands]
        if hand_id is None:
            hands.append(record)
        else:
            hands[position] = record
        try:
            _check(match, hands)
        except MatchError as exc:
            problems = _show_problems(entry, form, exc.lines, number)
            rejected = True
        else:
            action = ("append", None) if hand_id is None else ("replace", hand_id)
            saved_id = store.change_hands(
                store.get_db(), match_id, lambda _s: (action[0], action[1], record)
            )
            flash(f"{entry.noun} {number} saved.", "info")
            return redirect(url_for("matches.show", match_id=match_id, hand=saved_id) + "#sheet")
    elif request.method == "POST":
        problems = [f"{name}: {', '.join(errs)}" for name, errs in form.errors.items()]
        rejected = True

    return render_template(
        entry.template,
        form=form,
        entry=entry,
        match=match,
        stored=stored,
        number=number,
        upcoming=upcoming,
        before=before,
        editing=hand_id is not None,
        problems=problems,
        rejected=rejected,
        extra=entry.context(before, upcoming),
    )


@bp.route("/hand/new", methods=["GET", "POST"])
def new(match_id: int):
    return _hand_page(match_id, None)


@bp.route("/hand/<int:hand_id>", methods=["GET", "POST"])
def edit(match_id: int, hand_id: int):
    return _hand_page(match_id, hand_id)


def _change(
    match_id: int, action: str, hand_id: int | None, record: dict | None, hands_after
) -> str | None:
    """Store one change if the match still replays; return the refusal otherwise."""
    refusal: list[str] = []

    def change(stored):
        try:
            _check(stored.match, hands_after(stored))
        except MatchError as exc:
            refusal.extend(exc.lines)
            raise
        return action, hand_id, record

    try:
        store.change_hands(store.get_db(), match_id, change)
    except MatchError:
        return "; ".join(refusal)
    return None


@bp.post("/hand/<int:hand_id>/delete")
def delete(match_id: int, hand_id: int):
    loaded = load_or_404(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    if hand_id not in {h.id for h in loaded.stored.hands}:
        abort(404)
    number = [h.id for h in loaded.stored.hands].index(hand_id) + 1
    noun = entry_for(loaded.stored.match.variant).noun
    refusal = _change(
        match_id,
        "delete",
        hand_id,
        None,
        lambda s: [h.record for h in s.hands if h.id != hand_id],
    )
    if refusal:
        flash(f"{noun} {number} was not deleted: without it, {refusal}", "error")
    else:
        flash(f"{noun} {number} deleted.", "undo")
    return redirect(url_for("matches.show", match_id=match_id) + "#sheet")


@bp.post("/undo")
def undo(match_id: int):
    loaded = load_or_404(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    deleted = loaded.stored.deleted
    if deleted is None:
        flash("There is nothing to undo.", "info")
        return redirect(url_for("matches.show", match_id=match_id))

    def hands_after(stored):
        rows = sorted([*stored.hands, deleted], key=lambda h: h.position)
        return [h.record for h in rows]

    refusal = _change(match_id, "restore", deleted.id, None, hands_after)
    if refusal:
        flash(f"The deleted hand cannot come back: {refusal}", "error")
    else:
        flash("The deleted hand is back.", "info")
    return redirect(url_for("matches.show", match_id=match_id) + "#sheet")


@bp.post("/end")
def end(match_id: int):
    """The players stop early: append the end marker."""
    load_or_404(match_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    refusal = _change(
        match_id,
        "append",
        None,
        {"end": True},
        lambda s: [*[h.record for h in s.hands], {"end": True}],
    )
    if refusal:
        flash(f"The match cannot end here: {refusal}", "error")
    return redirect(url_for("matches.show", match_id=match_id) + "#sheet")


def formdata_for(record: dict[str, Any]) -> MultiDict:
    return MultiDict({k: str(v) for k, v in record.items()})
