"""Groups: starting one, its page (members, matches, the ledger's place), its
read-only watch page and live poll, and every change of it through
`groups.apply_group` (one transaction, revision, one-time key, undo)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale, ngettext
from flask_babel import gettext as _

from .. import db as store
from .. import groups as g
from ..extensions import csrf
from ..forms import ConfirmForm, GroupStakeForm, ImportForm, NewGroupForm
from ..games.catalog import VARIANTS
from ..games.common import Outcome, Problem
from ..matchfile import LIMITS_TEXT, MAX_ENTRIES, MAX_FILE_BYTES, loads
from ..model import Match
from ..names import normal as normalised
from ..summaries import matches_mark
from ..undo import newest_standing
from ..variants import MatchError, replay_match
from ..viewmodels.group_ledger import ledger_context, payments_asked, period_for
from .commands import NO_REVISION, form_key, form_revision
from .messages import (
    already,
    cut,
    flash_problems,
    group_change_lines,
    look_alike_note,
)
from .pages import base_url, load_group_or_404, match_state, qr_svg
from .phone import my_groups, my_matches, phone_name, remember, remember_group
from .routing import MATCH_ID

bp = Blueprint("groups", __name__)


# --- what the ledger reads ----------------------------------------------------------


@dataclass(frozen=True)
class PlayedMatch:
    """A match of the group as the ledger reads it: replayed (`outcome` None
    when it no longer replays), each player name with its member's name now,
    and the day it was played (the day it was started)."""

    match_id: str
    match: Match
    outcome: Outcome | None
    members: dict[str, str]  # player name in the match -> member name
    played: date
    state: dict  # pages.match_state: in progress, finished, stopped…
    deleted: bool


def played_matches(state: g.GroupState) -> list[PlayedMatch]:
    """The group's matches, replayed, oldest played first: what the ledger and
    statistics consume (a deleted match is listed, marked `deleted`)."""
    db = store.get_db()
    found = []
    for match_id in state.matches:
        stored = store.load_match(db, match_id)
        if stored is None:
            continue
        try:
            outcome = replay_match(stored.match)
        except MatchError:
            outcome = None
        found.append(
            PlayedMatch(
                match_id=match_id,
                match=stored.match,
                outcome=outcome,
                members=state.names_in(match_id),
                played=stored.played or g.played_day(stored.created),
                state=match_state(stored),
                deleted=stored.deleted,
            )
        )
    return sorted(found, key=lambda m: (m.played, m.match_id))


# --- reading a group ----------------------------------------------------------------


def _share(state: g.GroupState) -> dict:
    base = base_url()
    play = base + url_for("groups.show", group_id=state.id).lstrip("/")
    watch = base + url_for("groups.watch", token=state.watch).lstrip("/")
    return {"play": play, "play_qr": qr_svg(play), "watch": watch, "watch_qr": qr_svg(watch)}


def _stakes(state: g.GroupState) -> list[tuple[str, str]]:
    """(game, stake in words) for each stake the group has, every game first, in
    the page's language (the history keeps groups/checks.py's stake_words' English)."""
    order = [g.EVERY_GAME, *VARIANTS]
    return [
        (_("every game") if game == g.EVERY_GAME else g.game_name(game), _stake(state.stakes[game]))
        for game in order
        if game in state.stakes
    ]


def _stake(stake: dict | None) -> str:
    """A stake as the page says it: "0.50 EUR per point", "1 per 100 points"."""
    if not stake:
        return _("no stake")
    amount = f"{stake['amount']} {stake['currency']}" if stake.get("currency") else stake["amount"]
    per = stake.get("per", 1)
    return ngettext("%(amount)s per point", "%(amount)s per %(num)d points", per, amount=amount)


def _page(
    state: g.GroupState,
    *,
    errors: dict[str, str] | None = None,
    typed: dict[str, str] | None = None,
    changed: list[str] | None = None,
    status: int = 200,
):
    """The group page; a refused form is drawn again with what was typed."""
    changes = g.recent_changes(store.get_db(), state.id)
    last = newest_standing(changes)
    return render_template(
        "groups/show.html",
        group=state,
        **_ledger(state),
        variants=VARIANTS,
        stakes=_stakes(state),
        last=last,
        last_said=g.said_line(last.summary) if last else "",
        recent=group_change_lines(list(reversed(changes[-8:]))),
        errors=errors or {},
        typed=typed or {},
        changed=changed or [],
        confirm=ConfirmForm(),
        import_form=ImportForm(),
        share=_share(state),
        watching=False,
    ), status


def _ledger(state: g.GroupState) -> dict:
    """The ledger section's context (viewmodels/group_ledger.py): the period's matches
    listed, each with its part; balances, settle-up, payments."""
    found = ledger_context(state)
    found["live_mark"] = matches_mark(store.get_db(), state.id)
    in_period = [line for line in found["ledger"].lines if line.in_period]
    # A match deleted at its table counts nowhere: it leaves the list (a note counts them).
    found["played"] = [line for line in in_period if not line.deleted]
    found["deleted_matches"] = len(in_period) - len(found["played"])
    return found


@bp.get("/g/<match:group_id>")
def show(group_id: str):
    state = load_group_or_404(group_id)
    remember_group(group_id)
    return _page(state)


@bp.get("/gw/<token>")
def watch(token: str):
    """The group read-only: its members and matches, each linked to the match's
    own watch page; no form, nothing that changes anything."""
    group_id = _watched(token)
    if group_id is None:
        abort(404)
    state = load_group_or_404(group_id)
    db = store.get_db()
    watches = {}
    for match_id in state.matches:
        stored = store.load_match(db, match_id)
        watches[match_id] = stored.watch if stored else None
    return render_template(
        "groups/watch.html",
        group=state,
        **_ledger(state),
        variants=VARIANTS,
        stakes=_stakes(state),
        watches=watches,
        token=token,
        watching=True,
    )


def _watched(token: str) -> str | None:
    if not 8 <= len(token) <= 64:
        return None
    return g.group_for_watch(store.get_db(), token)


@csrf.exempt  # refused whatever it carries
@bp.route("/gw/<token>", methods=["POST", "PUT", "PATCH", "DELETE"])
@bp.route("/gw/<token>/<path:rest>", methods=["POST", "PUT", "PATCH", "DELETE"])
def watch_write(token: str, rest: str = ""):
    return render_template("forbidden.html"), 403


def _live_answer(group_id: str | None):
    """The group's revision and what changed since `since`; 304 when unchanged."""
    text = request.args.get("since", "0")
    if not (text.isascii() and text.isdigit() and len(text) <= 12):
        response = jsonify(error="since must be the revision this page shows: since=12")
        response.status_code = 400
        return response
    since = int(text)
    db = store.get_db()
    revision = g.group_revision(db, group_id) if group_id else None
    if revision is None:
        abort(404)
    mark = matches_mark(db, group_id)  # a hand saved in one of its matches: the ledger moved
    # The changes are said in the page's language: another language, another answer.
    etag = f"g{revision}-{since}-{mark}-{get_locale()}"
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        changes = g.group_changes(db, group_id, since) if since < revision else []
        response = jsonify(revision=revision, mark=mark, changes=group_change_lines(changes[-20:]))
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


@bp.get("/g/<match:group_id>/live")
def live(group_id: str):
    return _live_answer(group_id)


@bp.get("/gw/<token>/live")
def watch_live(token: str):
    return _live_answer(_watched(token))


# --- starting a group -----------------------------------------------------------------


@bp.route("/groups/new", methods=["GET", "POST"])
def new():
    form = NewGroupForm()
    problems: list[str] = []
    valid = form.validate_on_submit()
    if request.method == "POST" and not valid:
        # Every problem at once: the members too, when the name is missing.
        marked = {f.name for f in form.member_fields() if f.errors}
        for refused in g.members_refused(form.members()):
            if refused.field not in marked:
                _place(form, refused, problems)
    elif valid:
        stake = form.stake_json()
        stakes = {form.stake_game.data: stake} if stake else None
        try:
            made = g.create_group(
                store.get_db(),
                form.name.data,
                form.members(),
                stakes,
                device=phone_name(),
                submission=form_key(),
            )
        except g.GroupRefused as refused:
            _place(form, refused, problems)
        else:
            remember_group(made.group_id)
            if made.repeated:
                flash(cut(already(made.change)), "info")
            else:
                flash(_("Group started: %(group)s.", group=made.state.name), "info")
                note = look_alike_note([m.name for m in made.state.members], "member")
                if note:
                    flash(note, "info")
            return redirect(url_for("groups.show", group_id=made.group_id))
    return render_template("groups/new.html", form=form, problems=problems), (
        400 if request.method == "POST" else 200
    )


def _place(form, refused: g.GroupRefused, problems: list[str]) -> None:
    """Put the refusal on the form field it names (member 2 is the second
    member typed, whichever input it was typed in)."""
    name = refused.field or ""
    if name.startswith("member") and name[6:].isdigit():
        filled = [f for f in form.member_fields() if f.data and f.data.strip()]
        index = int(name[6:]) - 1
        target = filled[index] if index < len(filled) else None
    else:
        target = getattr(form, name, None)
    if target is None:
        problems.append(refused.message)
    else:
        target.errors = [*target.errors, refused.message]


# --- changing a group: every form goes through `_submit` -------------------------------


class _Answer(Exception):
    """A refused or incomplete form: the page to answer with."""

    def __init__(self, response):
        self.response = response


def _submit(
    group_id: str, kind: str, asked: dict, typed: dict | None = None, where: str = "form"
) -> g.GroupApplied:
    """One command through the group's write path, from the submitted form's
    revision and one-time key and this phone's name; a refusal is answered
    with the group page, what was typed kept and the problem on the input
    `where` (or at the top of the page when it is not that input's)."""
    state = load_group_or_404(group_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    revision = form_revision()
    if revision is None:
        raise _Answer(_page(state, errors={"form": NO_REVISION}, typed=typed, status=400))
    cmd = g.GroupCommand(kind, asked, revision, form_key(), phone_name())
    try:
        return g.apply_group(store.get_db(), group_id, cmd)
    except LookupError:
        abort(404)
    except g.GroupRefused as refused:
        state = load_group_or_404(group_id)
        if refused.stale:
            changed = group_change_lines(refused.stale)
            errors = {
                "form": _(
                    "Not saved: the group changed since this page was drawn. Nothing was"
                    " stored; check and save again."
                )
            }
            answer = _page(state, errors=errors, typed=typed, changed=changed, status=409)
            raise _Answer(answer) from None
        errors = {where if refused.field == "name" else "form": refused.message}
        raise _Answer(_page(state, errors=errors, typed=typed, status=400)) from None


def _done(
    group_id: str,
    applied: g.GroupApplied,
    message: str = "",
    anchor: str = "",
    note: str | None = None,
):
    """The group page after a change, saying what was stored (or that this form
    was stored once already: a double tap, Back and the same again), and a note
    on names that look alike when there is one."""
    summary = g.said_line(applied.change.summary)
    said = f"{summary}. {message}" if message else f"{summary}."  # two sentences
    said = already(applied.change) if applied.repeated else said
    flash(cut(said), "info")
    if note:
        flash(note, "info")
    return redirect(url_for("groups.show", group_id=group_id) + anchor)


def _changed(
    group_id: str,
    kind: str,
    asked: dict,
    typed: dict | None = None,
    where: str = "form",
    *,
    message: str = "",
    anchor: str = "",
    note: Callable[[g.GroupApplied], str | None] | None = None,
):
    """A form's one command (`_submit`) answered with the group page: the refused
    form drawn again, or the page after the change (`_done`, with `note(applied)`)."""
    try:
        applied = _submit(group_id, kind, asked, typed, where)
    except _Answer as answer:
        return answer.response
    return _done(group_id, applied, message, anchor, note(applied) if note else None)


@bp.post("/g/<match:group_id>/rename")
def rename(group_id: str):
    name = request.form.get("name", "")
    return _changed(group_id, g.RENAME, {"name": name}, {"group_name": name}, "group_name")


@bp.post("/g/<match:group_id>/members")
def add_member(group_id: str):
    name = request.form.get("name", "")
    return _changed(
        group_id,
        g.ADD_MEMBER,
        {"name": name},
        {"new_member": name},
        "new_member",
        anchor="#members",
        note=lambda applied: _member_note(applied, name),
    )


def _member_note(applied: g.GroupApplied, typed: str) -> str | None:
    """The note for a member added or renamed whose name looks like another's."""
    if applied.repeated:
        return None
    name = normalised(typed)
    return look_alike_note(
        [name], "member", [m.name for m in applied.state.members if m.name != name]
    )


@bp.post("/g/<match:group_id>/members/<key:member_id>")
def rename_member(group_id: str, member_id: int):
    name = request.form.get("name", "")
    where = f"member-{member_id}"
    asked = {"member": member_id, "name": name}
    return _changed(
        group_id,
        g.RENAME_MEMBER,
        asked,
        {where: name},
        where,
        anchor="#members",
        note=lambda applied: _member_note(applied, name),
    )


@bp.post("/g/<match:group_id>/members/<key:member_id>/retire")
def retire(group_id: str, member_id: int):
    """Retire a member: off the member list and New match, kept in past matches."""
    return _changed(group_id, g.RETIRE, {"member": member_id}, anchor="#members")


@bp.post("/g/<match:group_id>/members/<key:member_id>/back")
def bring_back(group_id: str, member_id: int):
    return _changed(group_id, g.BRING_BACK, {"member": member_id}, anchor="#members")


@bp.post("/g/<match:group_id>/order")
def order(group_id: str):
    ids = request.form.getlist("order")
    if not all(i.isascii() and i.isdigit() and len(i) <= 9 for i in ids):
        abort(400)
    return _changed(group_id, g.ORDER, {"order": [int(i) for i in ids]}, anchor="#members")


@bp.route("/g/<match:group_id>/stake", methods=["GET", "POST"])
def stake(group_id: str):
    """A game's default stake (blank amount: none), as the new-match form has it."""
    state = load_group_or_404(group_id)
    form = GroupStakeForm()
    problems: list[str] = []
    if request.method == "GET":
        game = request.args.get("game", g.EVERY_GAME)
        form.stake_game.data = game if game in state.stakes else g.EVERY_GAME
        current = state.stakes.get(form.stake_game.data)
        if current:
            form.stake_amount.data = current["amount"]
            form.stake_per.data = str(current["per"])
            form.stake_currency.data = current.get("currency", "")
    elif form.validate_on_submit():
        asked = {"game": form.stake_game.data, "stake": form.stake_json()}
        cmd = g.GroupCommand(g.STAKE, asked, form_revision(), form_key(), phone_name())
        try:
            if cmd.revision is None:
                raise g.GroupRefused(NO_REVISION)
            applied = g.apply_group(store.get_db(), group_id, cmd)
        except g.GroupRefused as refused:
            if refused.stale:
                problems = [_("The group changed since this form was drawn; nothing was stored:")]
                problems += group_change_lines(refused.stale)
                state = load_group_or_404(group_id)
            else:
                _place(form, refused, problems)
        else:
            return _done(group_id, applied)
    return render_template(
        "groups/stake.html", form=form, group=state, problems=problems, stakes=_stakes(state)
    ), (400 if problems or form.errors else 200)


@bp.post("/g/<match:group_id>/undo")
def undo(group_id: str):
    text = request.form.get("undoes", "")
    undoes = int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None
    return _changed(group_id, g.UNDO, {"undoes": undoes})


@bp.post("/g/<match:group_id>/remove/<match:match_id>")
def remove_match(group_id: str, match_id: str):
    kept = _("The match itself is kept.")
    return _changed(group_id, g.REMOVE_MATCH, {"match": match_id}, message=kept, anchor="#ledger")


@bp.post("/g/<match:group_id>/pay")
def pay(group_id: str):
    """Mark as paid (viewmodels/group_ledger.py `payments_asked`): every settle-up payment of
    the period shown, or the one typed; dated, signed by this phone, stored once."""
    state = load_group_or_404(group_id)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    chosen = period_for(state)
    back_to = url_for("groups.show", group_id=group_id, **chosen.args) + "#ledger"
    payments, typed, problem = payments_asked(state, chosen)
    cmd = g.GroupCommand(g.PAY, {"payments": payments}, form_revision(), form_key(), phone_name())
    # The same form again (a double tap, Back and the same again) is answered as
    # stored once, before the balances it moved are compared with the page's; its
    # key with other content is a payment of its own, checked like any other.
    first = g.repeated(store.get_db(), group_id, cmd) if payments else None
    if first is not None:
        flash(cut(already(first)), "info")
        return redirect(back_to)
    if problem:
        return _page(state, errors={"form": problem}, status=409)
    if cmd.revision is None:
        return _page(state, errors={"form": NO_REVISION}, typed=typed, status=400)
    try:
        applied = g.apply_group(store.get_db(), group_id, cmd)
    except LookupError:
        abort(404)
    except g.GroupRefused as refused:
        state = load_group_or_404(group_id)
        if refused.stale:
            errors = {
                "form": _(
                    "Not saved: the group changed since this page was drawn (another"
                    " phone may have marked it paid). Nothing was stored; check and save again."
                )
            }
            changed = group_change_lines(refused.stale)
            return _page(state, errors=errors, typed=typed, changed=changed, status=409)
        where = f"pay_{refused.field}" if refused.field and typed else "form"
        return _page(state, errors={where: refused.message}, typed=typed, status=400)
    summary = g.said_line(applied.change.summary)
    flash(cut(already(applied.change) if applied.repeated else f"{summary}."), "info")
    return redirect(back_to)


@bp.get("/g/<match:group_id>/pay")
@bp.get("/g/<match:group_id>/rename")
@bp.get("/g/<match:group_id>/members")
@bp.get("/g/<match:group_id>/members/<key:member_id>")
@bp.get("/g/<match:group_id>/order")
@bp.get("/g/<match:group_id>/members/<key:member_id>/retire")
@bp.get("/g/<match:group_id>/members/<key:member_id>/back")
@bp.get("/g/<match:group_id>/undo")
@bp.get("/g/<match:group_id>/remove/<match:match_id>")
@bp.get("/g/<match:group_id>/import")
def back(group_id: str, **_):
    """The address a refused form was answered at, opened again (reloaded, or
    shown in place by save.js): the group page."""
    load_group_or_404(group_id)
    return redirect(url_for("groups.show", group_id=group_id))


# --- adding a match: choose it, then map its players to members ---------------------------


ADDRESS_ID = re.compile(r"(?:/m/)?([A-Za-z0-9_-]{16})(?:[/?#].*)?$")


def match_from_address(text: str) -> str | None:
    """The match id in a pasted address ("http://…/m/<id>/…") or id."""
    found = ADDRESS_ID.search(text.strip())
    return found.group(1) if found and MATCH_ID.fullmatch(found.group(1)) else None


@bp.route("/g/<match:group_id>/add", methods=["GET", "POST"])
def add_match(group_id: str):
    """Step one (GET): which match, pasted or from this phone's list. Step two:
    each of its players mapped to a member, the same name by default."""
    state = load_group_or_404(group_id)
    db = store.get_db()
    pasted = request.values.get("match", "")
    match_id = match_from_address(pasted) if pasted else None
    if request.method == "POST":
        stored = store.load_match(db, match_id) if match_id else None
        mapping = _mapping_typed(stored)
        cmd = g.GroupCommand(
            g.ADD_MATCH,
            {"match": match_id, "mapping": mapping},
            form_revision(),
            form_key(),
            phone_name(),
        )
        try:
            if not ConfirmForm().validate_on_submit():
                abort(400)
            if cmd.revision is None:
                raise g.GroupRefused(NO_REVISION)
            if stored is None:
                raise g.GroupRefused(_("There is no match at that address."), field="match")
            applied = g.apply_group(db, group_id, cmd)
        except g.GroupRefused as refused:
            state = load_group_or_404(group_id)
            lines = group_change_lines(refused.stale) if refused.stale else []
            message = (
                _("Not added: the group changed since this form was drawn. Nothing was stored.")
                if refused.stale
                else refused.message
            )
            return _mapping_page(state, stored, pasted, message, refused.field, lines, mapping)
        remember(match_id)
        return _done(group_id, applied, anchor="#ledger")
    stored = store.load_match(db, match_id) if match_id else None
    problem = None
    if pasted and stored is None:
        problem = _("There is no match at that address: paste the address of its match page.")
    elif stored is not None and match_id in state.matches:
        problem = _("This match is already in the group.")
    return _mapping_page(state, stored if not problem else None, pasted, problem, "match")


def _mapping_typed(stored) -> dict:
    """The mapping form's choices: player -> member id, NEW or GUEST (a choice
    that is none of them is left out: the player keeps the default)."""
    mapping: dict = {}
    if stored is None:
        return mapping
    for index, player in enumerate(stored.players, 1):
        pick = request.form.get(f"map{index}", "")
        if pick in (g.NEW, g.GUEST):
            mapping[player] = pick
        elif pick.isascii() and pick.isdigit() and len(pick) <= 9:
            mapping[player] = int(pick)
    return mapping


@bp.route("/g/<match:group_id>/mapping/<match:match_id>", methods=["GET", "POST"])
def remap(group_id: str, match_id: str):
    """Change who each player of a match of the group is, in place: the match is
    counted again everywhere with the new mapping."""
    state = load_group_or_404(group_id)
    db = store.get_db()
    stored = store.load_match(db, match_id)
    if stored is None or match_id not in state.matches:
        abort(404)
    if request.method == "GET":
        return _mapping_page(state, stored, "", None, None, editing=True)
    if not ConfirmForm().validate_on_submit():
        abort(400)
    mapping = _mapping_typed(stored)
    asked = {"match": match_id, "mapping": mapping}
    cmd = g.GroupCommand(g.REMAP, asked, form_revision(), form_key(), phone_name())
    try:
        if cmd.revision is None:
            raise g.GroupRefused(NO_REVISION)
        applied = g.apply_group(db, group_id, cmd)
    except g.GroupRefused as refused:
        state = load_group_or_404(group_id)
        if match_id not in state.matches:
            flash(cut(refused.message), "error")
            return redirect(url_for("groups.show", group_id=group_id) + "#ledger")
        lines = group_change_lines(refused.stale) if refused.stale else []
        message = (
            _(
                "Not saved: the group changed since this form was drawn. Nothing was stored;"
                " your choices are below: check them and save again."
            )
            if refused.stale
            else refused.message
        )
        return _mapping_page(
            state, stored, "", message, refused.field, lines, mapping, editing=True
        )
    return _done(group_id, applied, anchor="#ledger")


def _mapping_page(
    state: g.GroupState,
    stored,
    pasted: str,
    problem: str | None,
    field: str | None,
    changed: list[str] = (),
    chosen: dict | None = None,
    *,
    editing: bool = False,
):
    db = store.get_db()
    mine = [
        m
        for m in store.list_matches(db, my_matches())
        if m.id not in state.matches and not m.deleted
    ]
    rows = []
    current = state.matches[stored.id].mapping if editing else {}
    if stored is not None:
        for index, player in enumerate(stored.players, 1):
            pick = (chosen or {}).get(player)
            if pick is None and player in current:
                pick = g.GUEST if current[player] is None else current[player]
            if pick is None:
                same = state.member_named(player)
                pick = same.id if same else g.NEW
            rows.append({"index": index, "player": player, "pick": pick})
    status = 200 if not problem else (409 if changed else 400)
    return render_template(
        "groups/add.html",
        group=state,
        stored=stored,
        variants=VARIANTS,
        pasted=pasted,
        mine=mine,
        rows=rows,
        problem=problem,
        field=field,
        changed=list(changed),
        confirm=ConfirmForm(),
        import_form=ImportForm(),
        editing=editing,
        guest=g.GUEST,
    ), status


@bp.post("/g/<match:group_id>/import")
def import_file(group_id: str):
    """A match file imported for the group: stored as a match (on this phone's
    list), then its players mapped to members on the mapping form."""
    load_group_or_404(group_id)
    form = ImportForm()
    back = redirect(url_for("groups.add_match", group_id=group_id))
    if not form.validate_on_submit():
        for message in form.match_file.errors or [_("The form expired; try again.")]:
            flash(message, "error")
        return back
    raw = form.match_file.data.read(MAX_FILE_BYTES + 1)
    try:
        if len(raw) > MAX_FILE_BYTES:
            raise MatchError([Problem(f"larger than 1 MB; {LIMITS_TEXT}", "file")])
        match = loads(raw.decode("utf-8"), max_entries=MAX_ENTRIES)
    except UnicodeDecodeError:
        flash(_("The file is not a UTF-8 text file; choose a match file (.json)."), "error")
        return back
    except MatchError as exc:
        heading = ngettext(
            "Not imported: %(num)d problem in this file.",
            "Not imported: %(num)d problems in this file.",
            len(exc.lines),
        )
        flash_problems([heading, *exc.lines])
        return back
    created = store.create_match(store.get_db(), match, device=phone_name(), submission=form_key())
    remember(created.match_id)
    flash(_("Imported. Now say who each player is in the group, then Add."), "info")
    return redirect(url_for("groups.add_match", group_id=group_id, match=created.match_id))


def my_group_list() -> list[g.GroupState]:
    """The groups this phone started or opened (the home page lists them)."""
    return g.list_groups(store.get_db(), my_groups())
