"""Recording and editing a hand, and the one-tap changes of the match page
(delete, stop here, undo the last change).

Each POST becomes one command for the write path, which checks it against the
match as stored at that moment: a form drawn before another phone's change is
refused (nothing stored, the change named, the entries kept), a form sent twice
is stored once, and every change is checked by replaying the whole match.

A new hand sent by the page's script (static/save.js) is answered with the next
hand's form itself instead of a redirect to it: one request per save.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from flask import (
    Blueprint,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    session,
    url_for,
)
from flask_babel import gettext as _
from markupsafe import Markup

from ..changelog import APPEND, DELETE, EDIT, UNDO, Refused, conflicts, describe, who
from ..db import Applied
from ..drawn import kept_at
from ..entry import HandEntry
from ..games.catalog import score_line
from ..games.common import NextHand, Outcome
from ..registry import entry_for
from ..variants import MatchError, replay, replay_match
from ..words import hand_title
from .commands import (
    NO_REVISION,
    NOT_SAVED_SESSION_LOST,
    SESSION_LOST,
    NoRevision,
    change_title,
    command,
    form_key,
    form_revision,
    form_undoes,
    sent_by_script,
    submit,
)
from .hand_problems import show_problems
from .messages import change_lines, cut, flash_problems, flash_undo
from .pages import (
    KEY_MARK_HTML,
    Loaded,
    in_a_sentence,
    kept_page,
    load_or_404,
)
from .phone import phone_name, remember
from .same_deal import Replayed, SameDeal, in_a_line, same_deal

bp = Blueprint("hands", __name__, url_prefix="/m/<match:match_id>")


def _state_before(match, position: int) -> Outcome:
    """Replay the hands before `position` (0-based): what the rules derive for it."""
    return replay(match.variant, match.players, match.options, match.hands[:position])


def _before(loaded: Loaded, position: int) -> Outcome:
    """What the rules derive for the hand at `position`; for the next hand that is
    the replay `load_or_404` already made, so it is not replayed again."""
    if position == len(loaded.stored.hands) and loaded.outcome is not None:
        return loaded.outcome
    return _state_before(loaded.stored.match, position)


def _to_sheet(match_id: str, **args):
    """The match page from its top, where the answer and its Undo are shown."""
    return redirect(url_for("matches.show", match_id=match_id, **args))


def _after_save(match_id: str, applied: Applied, kind: str, outcome: Outcome | None):
    """A new hand saved: the next hand's form comes to the phone (the sheet is one
    tap away), unless the match is over. An edit goes back to the sheet."""
    if kind == APPEND and outcome is not None and not outcome.finished:
        return redirect(url_for("hands.new", match_id=match_id))
    return _to_sheet(match_id, hand=applied.change.hand)


def _replayed(match) -> Outcome | None:
    try:
        return replay_match(match)
    except MatchError:
        return None


def _position(loaded: Loaded, hand_key: int | None) -> int | None:
    """Where the form's hand stands: the next one, or the edited hand's place."""
    if hand_key is None:
        return len(loaded.stored.hands)
    return next((h.position - 1 for h in loaded.stored.hands if h.id == hand_key), None)


def _record_from(entry: HandEntry, form, upcoming: NextHand | None) -> dict[str, Any]:
    if form.quick.data:
        try:
            return entry.quick_record(form.quick.data, form, upcoming)
        except KeyError:
            abort(400)
    return entry.to_record(form, upcoming)


@dataclass
class _Answer:
    """The hand form being answered: the match as loaded, the form, and what the
    page says back."""

    match_id: str
    hand_key: int | None  # None: the next hand
    loaded: Loaded
    entry: HandEntry
    form: Any  # None until drawn from the stored hand
    problems: list[str] = field(default_factory=list)
    changed: list[str] = field(
        default_factory=list
    )  # what other phones changed since this form was drawn
    two_versions: SameDeal | None = None  # another phone saved this hand first
    rejected: bool = False
    before: Outcome | None = None  # what the rules derive for the form's hand


def _hand_page(match_id: str, hand_key: int | None, session_lost: bool = False):
    """The hand form, and its submission. `session_lost`: a submission whose CSRF
    check failed (no session cookie): nothing is saved, the entries are drawn
    again with a fresh token, and what other phones changed meanwhile is named."""
    loaded = load_or_404(match_id)
    remember(match_id)
    entry = entry_for(loaded.stored.variant)
    if loaded.stored.deleted:
        flash(_("This match was deleted; bring it back to enter hands."), "error")
        return _to_sheet(match_id)
    form = entry.form() if request.method == "POST" else None
    page = _Answer(match_id, hand_key, loaded, entry, form)

    if hand_key is not None and hand_key not in {*loaded.stored.live, *loaded.stored.removed}:
        abort(404)
    if request.method == "POST":
        answer = _posted(page, session_lost)
        if answer is not None:
            return answer
    return _drawn(page, session_lost)


def _posted(page: _Answer, session_lost: bool):
    """A hand form sent: saved, or `page` told what to say back (None), or the
    answer when it is not the form's page."""
    loaded, entry, hand_key = page.loaded, page.entry, page.hand_key
    position = _position(loaded, hand_key)
    if position is None:
        flash(
            _gone(
                entry.noun,
                _("That hand was deleted, so nothing was saved."),
                _("That game was deleted, so nothing was saved."),
            ),
            "error",
        )
        return _to_sheet(page.match_id)
    page.before = _before(loaded, position)
    upcoming = page.before.upcoming
    entry.prepare(page.form, loaded.stored.players, upcoming)
    if session_lost:
        _without_session(page)
    elif page.form.validate_on_submit():
        return _save(page, position, upcoming)
    else:
        page.problems = [
            _("%(field)s: %(problems)s", field=name, problems=", ".join(map(str, errs)))
            for name, errs in page.form.errors.items()
        ]
        page.rejected = True
    return None


def _without_session(page: _Answer) -> None:
    page.rejected = True
    stored, entry = page.loaded.stored, page.entry
    stale = conflicts(stored, command(APPEND if page.hand_key is None else EDIT))
    if stale:  # as for any stale form: drawn again on the match as it is now
        flash(_(NOT_SAVED_SESSION_LOST), "error")
        page.changed, page.before = change_lines(stale, entry.noun), None
        page.two_versions = same_deal(
            entry, stored, stale, page.hand_key, page.form, phone_name(), _known(page)
        )
    else:
        page.problems = [_(SESSION_LOST)]


def _save(page: _Answer, position: int, upcoming: NextHand | None):
    match_id, entry, hand_key, loaded = page.match_id, page.entry, page.hand_key, page.loaded
    record = _record_from(entry, page.form, upcoming)
    kind = APPEND if hand_key is None else EDIT
    try:
        applied = submit(match_id, command(kind, hand=hand_key, record=record), loaded.stored)
    except NoRevision:
        page.problems, page.rejected = [_(NO_REVISION)], True
        return None
    except Refused as refusal:
        return _refused(page, refusal, position, upcoming)
    flash_undo(_("%(hand)s saved.", hand=change_title(applied, entry.noun)), applied.change)
    outcome = applied.outcome
    if outcome is None:  # the same form again: the first answer stands
        same = applied.state is loaded.stored
        outcome = loaded.outcome if same else _replayed(applied.state.match)
    if kind != APPEND or not sent_by_script() or outcome is None or outcome.finished:
        return _after_save(match_id, applied, kind, outcome)
    # The page's script shows this answer in place: the next hand's form
    # comes in it, drawn from the match the write path just stored and
    # replayed (no second load, no replay, no second request).
    page.loaded = Loaded(applied.state, outcome, [])
    page.form, page.before = None, outcome
    return None


def _known(page: _Answer) -> list[Replayed]:
    """The replays at hand of the match: as `page` loaded it, and as the refused
    form was drawn from it (every phone at the table drew it: kept)."""
    known: list[Replayed] = [(page.loaded.stored, page.loaded.outcome)]
    revision = form_revision()
    drawing = kept_at(page.match_id, revision) if revision is not None else None
    if drawing is not None:
        known.append((drawing.stored, drawing.outcome))
    return known


def _refused(page: _Answer, refusal: Refused, position: int, upcoming: NextHand | None):
    page.rejected = True
    entry = page.entry
    if refusal.stale:
        page.changed = change_lines(refusal.stale, entry.noun)
        known = _known(page)
        page.loaded = load_or_404(page.match_id)  # draw the form again on the match as it is now
        page.before = None
        page.two_versions = same_deal(
            entry,
            page.loaded.stored,
            refusal.stale,
            page.hand_key,
            page.form,
            phone_name(),
            [*_known(page), *known],
        )
    elif refusal.problems:
        number = position + 1
        page.problems = show_problems(entry, page.form, refusal.problems, number, upcoming)
    else:
        flash(refusal.message, "error")
        return _to_sheet(page.match_id)
    return None


def _drawn(page: _Answer, session_lost: bool):
    """The form's page, or the match page when no form can follow."""
    loaded, entry, hand_key, match_id = page.loaded, page.entry, page.hand_key, page.match_id
    if hand_key is None and loaded.outcome is not None and loaded.outcome.finished:
        flash_problems(page.changed, noun="change")
        if page.two_versions is not None:  # no form follows: the comparison in a line
            flash(cut(in_a_line(page.two_versions, entry.noun)), "info")
        flash(
            _("The match is finished: no hand may follow. Edit a hand or start a new match."),
            "info",
        )
        return redirect(url_for("matches.show", match_id=match_id))
    position = _position(loaded, hand_key)
    if position is None:
        flash_problems(page.changed, noun="change")
        flash(
            _gone(
                entry.noun,
                _("That hand was deleted; nothing was saved."),
                _("That game was deleted; nothing was saved."),
            ),
            "error",
        )
        return _to_sheet(match_id)
    if page.before is None:  # not drawn yet, or the match changed under a stale form
        try:
            page.before = _before(loaded, position)
        except MatchError as exc:
            flash_problems([problem.read() for problem in exc.problems])
            return _to_sheet(match_id)
    if _a_form_with_nothing_of_its_own(page, session_lost):
        return _kept_form(page, position), 200
    _prepared(page, position)
    return _rendered(page, position, session_lost)


def _a_form_with_nothing_of_its_own(page: _Answer, session_lost: bool) -> bool:
    """A form as every phone at the table is drawn it after a change: nothing
    typed, refused or changed under it, no message waiting to be shown."""
    return (
        request.method == "GET"
        and not session_lost
        and page.loaded.drawing is not None
        and page.form is None
        and not (page.problems or page.changed or page.rejected or page.two_versions)
        and not session.get("_flashes")
    )


def _kept_form(page: _Answer, position: int) -> Markup:
    """The form's page drawn once for its revision (drawn.py), then given this
    phone's CSRF token and fresh one-time keys."""

    def render() -> str:
        _prepared(page, position)
        return _render(page, position, key_mark=KEY_MARK_HTML)

    # A whole page: its foot's switches come back to the address it was asked at.
    return kept_page(page.loaded, "hand form", page.hand_key, render)


def _prepared(page: _Answer, position: int) -> None:
    """The form of `page` (drawn from the stored hand for an edit), with the
    choices the rules leave for its hand."""
    entry, stored = page.entry, page.loaded.stored
    if page.form is None:
        data = None if page.hand_key is None else entry.from_record(stored.hands[position].record)
        page.form = entry.form(formdata=None, data=data)
    entry.prepare(page.form, stored.players, page.before.upcoming)


def _rendered(page: _Answer, position: int, session_lost: bool):
    return _render(page, position), (409 if page.changed else 400 if session_lost else 200)


def _render(page: _Answer, position: int, key_mark: Markup | None = None) -> str:
    """The form's page; with `key_mark`, that mark where each one-time key goes."""
    entry, stored, before, hand_key = page.entry, page.loaded.stored, page.before, page.hand_key
    upcoming = before.upcoming
    return render_template(
        entry.template,
        form=page.form,
        entry=entry,
        match=stored.match,
        stored=stored,
        number=position + 1,
        title=_form_title(entry, page.loaded, position, hand_key, upcoming),
        upcoming=upcoming,
        before=before,
        editing=hand_key is not None,
        problems=page.problems,
        changed=page.changed,
        same_deal=page.two_versions,
        refused_key=form_key() if page.two_versions else None,
        rejected=page.rejected,
        extra=entry.context(before, upcoming),
        score=None
        if hand_key is not None or not before.hands
        else score_line(stored.match, before),
        key_mark=key_mark,
    )


def _form_title(
    entry: HandEntry,
    loaded: Loaded,
    position: int,
    hand_key: int | None,
    upcoming: NextHand | None,
) -> str:
    """The hand as the form names it, with the number players read ("Hand 6"):
    the rules' number of the next hand, or the edited entry's ("Redeal of hand 6")."""
    if hand_key is not None and loaded.outcome is not None:
        title = hand_title(loaded.outcome.hands[position], entry.noun)
        if title:
            return title
    if upcoming is None:
        return _("Game") if entry.noun == "Game" else _("Hand")
    if entry.noun == "Game":
        return _("Game %(number)s", number=upcoming.number)
    return _("Hand %(number)s", number=upcoming.number)


def _gone(noun: str, hand: str, game: str) -> str:
    """The sentence for the game's noun: a hand's, or Calypso's game's."""
    return game if noun == "Game" else hand


def session_lost(match_id: str, hand_id: int | None = None):
    """A hand form that came without its session (see `_hand_page`)."""
    return _hand_page(match_id, hand_id, session_lost=True)


@bp.route("/hand/new", methods=["GET", "POST"])
def new(match_id: str):
    return _hand_page(match_id, None)


@bp.route("/hand/<key:hand_id>", methods=["GET", "POST"])
def edit(match_id: str, hand_id: int):
    return _hand_page(match_id, hand_id)


@bp.post("/hand/keep-theirs")
def keep_theirs(match_id: str):
    """Same deal — keep theirs: another phone saved the hand this phone's form
    was for, and the players say it is the same deal. Nothing is stored (the
    page's script forgets the copy it kept); the phone goes on to the next
    hand's form, or for an edit back to that hand on the sheet."""
    loaded = load_or_404(match_id)
    stored = loaded.stored
    noun = entry_for(stored.variant).noun
    made = stored.entry(request.form.get("theirs", type=int) or 0)
    key = made.change.hand if made is not None else None
    if key in stored.live:
        whose = who(made.change.device, phone_name())
        position = stored.keys.index(key)
        outcome = loaded.outcome
        title = hand_title(outcome.hands[position], noun) if outcome is not None else ""
        # "hand 6" inside the sentence
        name = in_a_sentence(title) if title else _gone(noun, _("their hand"), _("their game"))
        flash(
            _("Kept %(hand)s as %(phone)s saved it; yours was not saved.", hand=name, phone=whose),
            "info",
        )
    else:
        flash(_("Your entries were not saved."), "info")
    hand = request.form.get("hand", type=int)
    if hand is not None:
        return _to_sheet(match_id, hand=hand) if hand in stored.live else _to_sheet(match_id)
    if loaded.outcome is None or loaded.outcome.finished:
        return _to_sheet(match_id)
    return redirect(url_for("hands.new", match_id=match_id))


@bp.get("/hand/preview")
def preview(match_id: str):
    """What the rules say about a half-typed hand (Mini Bridge's HCP: who declares,
    dummy, a redeal, the result): the page's script asks as the numbers are typed,
    so the rules are applied here only and the page never works them out itself."""
    loaded = load_or_404(match_id)
    entry = entry_for(loaded.stored.variant)
    position = _position(loaded, request.args.get("hand", type=int))
    if entry.preview_template is None or position is None:
        abort(404)
    try:
        before = _state_before(loaded.stored.match, position)
    except MatchError:
        abort(409)
    upcoming = before.upcoming
    form = entry.form(formdata=request.args, meta={"csrf": False})
    entry.prepare(form, loaded.stored.players, upcoming)
    extra = entry.context(before, upcoming)
    derived = extra["derive"](form)
    live = render_template(
        entry.preview_template, d=derived, match=loaded.stored.match, extra=extra, upcoming=upcoming
    )
    return jsonify(live=live, derived=derived)


def _one_tap(match_id: str, cmd_kind: str, done: Callable[[str], str], refused: str, **fields):
    """A button of the match page: one command, then back to the match page.
    `done(title)` words the answer from the hand changed ("Hand 6")."""
    loaded = load_or_404(match_id)
    noun = entry_for(loaded.stored.variant).noun
    try:
        applied = submit(match_id, command(cmd_kind, **fields))
    except NoRevision:
        flash(_(NO_REVISION), "error")
    except Refused as refusal:
        if refusal.stale:
            flash(
                _(
                    "Not done: the match changed since this page was drawn. %(refused)s",
                    refused=refused,
                ),
                "error",
            )
            flash_problems(change_lines(refusal.stale, noun), noun="change")
        else:
            flash(cut(f"{refused} {'; '.join(refusal.lines) or refusal.message}"), "error")
    else:
        flash_undo(done(change_title(applied, noun)), applied.change)
    if request.form.get("back") == "hand":  # the Undo of a hand form: back to entering hands
        return redirect(url_for("hands.new", match_id=match_id))
    return _to_sheet(match_id)


@bp.post("/hand/<key:hand_id>/delete")
def delete(match_id: str, hand_id: int):
    loaded = load_or_404(match_id)
    stored = loaded.stored
    if hand_id not in stored.live and hand_id not in stored.removed:
        abort(404)
    noun = entry_for(stored.variant).noun
    number = stored.number_of(hand_id)
    result = (
        loaded.outcome.hands[number - 1]
        if loaded.outcome is not None and number is not None
        else None
    )
    title = hand_title(result, noun) or _gone(noun, _("That hand"), _("That game"))
    resumed = stored.live.get(hand_id) == {"end": True}
    goes_on = _("The match goes on: the stop was taken back.")
    return _one_tap(
        match_id,
        DELETE,
        lambda done: goes_on if resumed else _("%(hand)s deleted.", hand=done),
        _("%(hand)s was not deleted: without it,", hand=title),
        hand=hand_id,
    )


@bp.post("/end")
def end(match_id: str):
    """The players stop early: append the end marker."""
    return _one_tap(
        match_id,
        APPEND,
        lambda number: _("The match is stopped here."),
        _("The match cannot end here:"),
        record={"end": True},
    )


@bp.post("/undo")
def undo(match_id: str):
    """Take back the change the button was drawn for (its revision, `undoes`): the
    write path refuses when that change is no longer the newest one not undone,
    so one phone's Undo never takes back another phone's newer change."""
    noun = entry_for(load_or_404(match_id).stored.variant).noun
    try:
        applied = submit(match_id, command(UNDO, undoes=form_undoes()))
    except NoRevision:
        flash(_(NO_REVISION), "error")
    except Refused as refusal:
        _say_not_undone(refusal, noun)
    else:
        undone = applied.state.entry(applied.change.undoes)
        further = applied.state.undoable()  # the answer's Undo goes one step further back
        flash_undo(
            _("Undone: %(change)s.", change=describe(undone, noun)),
            further.change if further else None,
        )
    if request.form.get("back") == "hand":  # the Undo of a hand form: back to entering hands
        return redirect(url_for("hands.new", match_id=match_id))
    return _to_sheet(match_id)


def _say_not_undone(refusal: Refused, noun: str) -> None:
    """Why nothing was undone, naming the changes in the way."""
    lines = change_lines(refusal.stale, noun)
    if refusal.target is not None:
        what = describe(refusal.target, noun)
        if refusal.message == "undone":
            flash(cut(_("Not undone: “%(change)s” was already undone.", change=what)), "error")
        else:
            flash(
                cut(
                    _(
                        "Not undone: “%(change)s” is no longer the last change. Undo the newer"
                        " change first, or change it on the sheet or in the history.",
                        change=what,
                    )
                ),
                "error",
            )
        flash_problems(lines, noun="change")
    elif refusal.stale:
        flash(
            _("Not done: the match changed since this page was drawn. Nothing was undone."),
            "error",
        )
        flash_problems(lines, noun="change")
    else:
        info = refusal.message == "There is nothing to undo."
        flash(cut(refusal.message), "info" if info else "error")
