"""A match's history: every change in plain words, with who made it and when, and
any earlier version of a hand (or of the title and stake) brought back as a new
change, checked like any other."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, abort, flash, redirect, render_template, request, url_for
from flask_babel import gettext as _

from ..changelog import (
    APPEND,
    CREATE,
    DEFAULT_DEVICE,
    DELETE,
    EDIT,
    RESTORE,
    SETTINGS,
    Command,
    Entry,
    MatchState,
    Refused,
    describe,
)
from ..forms import ConfirmForm
from ..games.catalog import VARIANTS
from ..registry import entry_for
from .commands import NoRevision, command, submit
from .messages import change_lines, changed_words, cut, flash_problems, flash_undo
from .pages import load_or_404

bp = Blueprint("history", __name__, url_prefix="/m/<match:match_id>/history")


def bring_back(state: MatchState, entry: Entry, version: str) -> Command | None:
    """The command that brings back what `entry` made ("this") or replaced
    ("before"); None when that is what the match already has."""
    change = entry.change
    if version == "before":
        if change.kind not in (EDIT, DELETE) or entry.previous is None:
            return None
        record = entry.previous.record_for(change.hand)
    elif change.kind in (APPEND, EDIT, RESTORE):
        record = change.record
    elif change.kind == SETTINGS:
        settings = change.settings or {}
        current = state.settings_by.settings if state.settings_by else {}
        return None if settings == current else Command(SETTINGS, settings=settings)
    else:
        return None
    key = change.hand
    if key in state.live:
        return None if state.live[key] == record else Command(EDIT, hand=key, record=record)
    if key in state.removed:
        return Command(RESTORE, hand=key, record=record)
    return None


def _offers(state: MatchState, entry: Entry, noun: str) -> list[tuple[str, str]]:
    """The buttons of one history row: (version, label)."""
    offers = []
    change = entry.change
    if change.kind == DELETE:
        if bring_back(state, entry, "before") is not None:
            offers.append(
                ("before", _("Bring back the game") if noun == "Game" else _("Bring back the hand"))
            )
    elif change.kind == EDIT:
        if bring_back(state, entry, "before") is not None:
            offers.append(("before", _("Bring back the earlier version")))
        if bring_back(state, entry, "this") is not None:
            offers.append(("this", _("Bring back this version")))
    elif change.kind in (APPEND, RESTORE, SETTINGS) and bring_back(state, entry, "this"):
        offers.append(("this", _("Bring back this version")))
    return offers


PAGE = 100  # changes on one history page, newest first


def _upto(latest: int) -> int:
    """The newest revision the page shows (`upto`, the latest when not given):
    an address that stays the same page however many changes come after."""
    text = request.args.get("upto")
    if text is None:
        return latest
    if not (text.isascii() and text.isdigit() and len(text) <= 12) or int(text) < 1:
        abort(400)
    return min(int(text), latest)


@bp.get("")
def show(match_id: str):
    loaded = load_or_404(match_id)
    state = loaded.stored
    noun = entry_for(state.variant).noun
    upto = _upto(state.revision)
    oldest = max(upto - PAGE + 1, 1)
    shown = [e for e in (state.entry(r) for r in range(upto, oldest - 1, -1)) if e is not None]
    rows: list[dict[str, Any]] = []
    for entry in shown:
        change = entry.change
        rows.append(
            {
                "revision": change.revision,
                "text": describe(entry, noun),
                # A phone without a name is stored as "a phone": said in the reader's words.
                "who": change.device if change.device not in ("", DEFAULT_DEVICE) else _("a phone"),
                "when": changed_words(change.created),
                "stamp": change.created,
                "undone_by": entry.undone_by,
                "offers": [] if change.kind == CREATE else _offers(state, entry, noun),
            }
        )
    return render_template(
        "matches/history.html",
        stored=state,
        match=state.match,
        variant=VARIANTS[state.variant],
        rows=rows,
        confirm=ConfirmForm(),
        older=oldest - 1 if oldest > 1 else None,
        newer=None if upto >= state.revision else min(upto + PAGE, state.revision),
        latest=state.revision,
    )


@bp.post("/<key:revision>/restore")
def restore(match_id: str, revision: int):
    loaded = load_or_404(match_id)
    state = loaded.stored
    entry = state.entry(revision)
    version = request.form.get("version", "this")
    if entry is None or version not in ("this", "before"):
        abort(404)
    wanted = bring_back(state, entry, version)
    back = redirect(url_for("history.show", match_id=match_id))
    if wanted is None:
        flash(_("The match already has that version; nothing to bring back."), "info")
        return back
    cmd = command(wanted.kind, hand=wanted.hand, record=wanted.record, settings=wanted.settings)
    noun = entry_for(state.variant).noun
    try:
        applied = submit(match_id, cmd)
    except NoRevision:
        flash(_("This page is out of date: reload it and try again."), "error")
    except Refused as refusal:
        if refusal.stale:
            flash(_("Not brought back: the match changed since this page was drawn."), "error")
            flash_problems(change_lines(refusal.stale, noun), noun="change")
        else:
            why = "; ".join(refusal.lines) or refusal.message
            flash(cut(_("Not brought back: %(why)s", why=why)), "error")
    else:
        last = applied.state.log[-1]
        flash_undo(_("Brought back. %(change)s.", change=describe(last, noun)), last.change)
        return redirect(url_for("matches.show", match_id=match_id) + "#sheet")
    return back
