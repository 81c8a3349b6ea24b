"""Blueprints: thin views that turn a form into a command, and its outcome into a page.

Every change of a match goes through `submit`, which calls the one write path
(`db.apply`); the view never checks a change against what it read itself.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from flask import abort, after_this_request, current_app, flash, request, session
from werkzeug.routing import BaseConverter, IntegerConverter

from ..changelog import DEFAULT_DEVICE, MAX_DEVICE, Change, Command, Entry, describe, who
from ..db import Applied, StoredMatch, apply, get_db, load_match
from ..names import name_problem, normal
from ..variants import MatchError, Outcome, Problem

_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
PHONE_COOKIE = "phone"
MINE_COOKIE = "matches"  # the matches this browser started or opened
MAX_MINE = 60  # about 1 kB of cookie; a phone keeps a season of evenings
MAX_KEY = 10**9  # hand keys and revisions: far beyond any match, far inside 64 bits


class MatchIdConverter(BaseConverter):
    """A match's address part (db.new_match_id); anything else is no match: 404."""

    regex = r"[A-Za-z0-9_-]{16}"


class KeyConverter(IntegerConverter):
    """A hand's key or a revision: digits that fit; a longer number is a 404."""

    def __init__(self, map, *args, **kwargs):
        super().__init__(map, min=1, max=MAX_KEY)


CONVERTERS = {"match": MatchIdConverter, "key": KeyConverter}
_MATCH_ID = re.compile(MatchIdConverter.regex)


@dataclass
class Loaded:
    stored: StoredMatch
    outcome: Outcome | None
    problems: list[str]


def load_or_404(match_id: str) -> Loaded:
    """The stored match and its replay (problems listed if it no longer replays)."""
    stored = load_match(get_db(), match_id)
    if stored is None:
        abort(404)
    try:
        return Loaded(stored, stored.match.replay(), [])
    except MatchError as exc:
        return Loaded(stored, None, exc.lines)


def place_problems(
    problems: list[Problem],
    field_for: Callable[[str], Any],
    number: int | None = None,
    words: Callable[[Problem, Any], str | None] | None = None,
) -> list[Problem]:
    """Put each problem of hand `number` (of the match itself when None) on its
    form field, `field_for(name)`; return the others (shown as their lines, and a
    template may still place one by its field, as Calypso's tallies do).
    `words(problem, field)` may say it in the words of the screen instead (the
    rules speak the match file's language: "give a contract like 4S" where the
    form has buttons).

    A problem of another hand, or of a field the form does not show, stays a
    whole line (it names that hand and field), so a refused edit says which
    later hand it would break.
    """
    other: list[Problem] = []
    for problem in problems:
        field = field_for(problem.field) if problem.field and problem.hand == number else None
        if field is None:
            other.append(problem)
            continue
        said = (words(problem, field) if words else None) or problem.message
        if said not in field.errors:
            field.errors = [*field.errors, said]
    return other


def blank(field) -> bool:
    """Nothing chosen or typed in this form field."""
    data = field.data
    return data is None or (isinstance(data, str) and not data.strip())


# --- who is asking, and from which form ---------------------------------------------


def my_matches() -> list[str]:
    """The ids of the matches this browser started or opened, most recent first,
    each once (a cookie naming one match sixty times costs one load, not sixty)."""
    ids = request.cookies.get(MINE_COOKIE, "").split(".")
    return list(dict.fromkeys(i for i in ids if _MATCH_ID.fullmatch(i)))[:MAX_MINE]


def remember(match_id: str) -> None:
    """Put the match first in this browser's list (the home page shows only those)."""
    known = my_matches()
    mine = [match_id, *(i for i in known if i != match_id)][:MAX_MINE]
    if mine == known:
        return

    @after_this_request
    def _set(response):
        response.set_cookie(
            MINE_COOKIE,
            ".".join(mine),
            max_age=400 * 24 * 3600,
            httponly=True,
            samesite="Lax",
            secure=current_app.config["SESSION_COOKIE_SECURE"],  # SCOREKEEPER_SECURE_COOKIES
        )
        return response


def phone_name() -> str:
    """The name this phone gave itself (a cookie), or "a phone"."""
    name = clean_phone_name(request.cookies.get(PHONE_COOKIE, ""))
    return name or DEFAULT_DEVICE


def clean_phone_name(text: str) -> str:
    """The phone's name as kept (composed, one space between words, at most
    MAX_DEVICE characters); "" when it cannot name a phone (names.name_problem)."""
    text = " ".join(normal(text).split())[:MAX_DEVICE]
    if not text or phone_name_problem(text):
        return ""
    return text


def phone_name_problem(text: str) -> str | None:
    """Why `text` cannot name this phone, in a few words (None: it can). Line
    breaks count as spaces here (a pasted name); "" is no name, not a problem."""
    text = " ".join(normal(text).split())
    if not text:
        return None
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in text):
        return "is not valid text"
    return name_problem(text, brief=True)


def new_key() -> str:
    """A one-time key for a form that changes a match (a double tap sends it twice)."""
    return secrets.token_urlsafe(16)


def form_revision() -> int | None:
    """The revision the submitted form was drawn from (None when missing or garbled)."""
    text = request.form.get("revision", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def form_undoes() -> int | None:
    """The revision of the change an Undo button was drawn for (None: an older page's)."""
    text = request.form.get("undoes", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def flash_undo(message: str, change: Change | None) -> None:
    """Answer a change with an Undo that carries the change's revision, so the
    button takes back that change or is refused, never a newer one another phone
    made meanwhile (base.html draws it). No change: no Undo."""
    flash(message, f"undo:{change.revision}" if change is not None else "info")


def form_key() -> str | None:
    text = request.form.get("key", "")
    return text if _KEY.match(text) else None


def command(kind: str, **fields) -> Command:
    """A command from the submitted form's revision, key and this phone's name."""
    return Command(
        kind, revision=form_revision(), submission=form_key(), device=phone_name(), **fields
    )


SENT_BY_SCRIPT = "X-Requested-With"  # static/save.js sends its forms with this header


def sent_by_script() -> bool:
    """The form came from the page's script (fetch), which shows the answer in
    place: it may get the next page itself instead of a redirect to it."""
    return request.headers.get(SENT_BY_SCRIPT) == "fetch"


class NoRevision(Exception):
    """A form that changes a match came without the revision it was drawn from."""


def submit(match_id: str, cmd: Command, known: StoredMatch | None = None) -> Applied:
    """Run one command through the write path (Refused and StoreBusy pass through).
    `known`: the match as this request loaded it (`db.apply` checks it is current)."""
    if cmd.revision is None:
        raise NoRevision
    try:
        return apply(get_db(), match_id, cmd, known)
    except LookupError:
        abort(404)


def change_number(applied: Applied) -> int | None:
    """The number the changed hand had when the change was made."""
    wanted = applied.change.revision
    return next((e.number for e in applied.state.log if e.change.revision == wanted), None)


# --- saying what went wrong, briefly ---------------------------------------------

MAX_SHOWN = 10  # problems flashed at once: the session cookie must stay small
MAX_LINE = 200  # characters of one problem; a pasted megabyte is not repeated back
MAX_LINE_BYTES = 210  # and bytes of it as the cookie stores it (JSON, \uXXXX escapes)


def cut(line: str, limit: int = MAX_LINE) -> str:
    """At most `limit` characters, and at most MAX_LINE_BYTES as stored in the cookie."""
    if len(line) > limit:
        line = line[: limit - 1] + "…"
    while len(json.dumps(line)) > MAX_LINE_BYTES:
        line = line[: len(line) * 4 // 5 - 1] + "…"
    return line


def flash_problems(lines: list[str], category: str = "error", noun: str = "problem") -> None:
    """Flash the first few lines, each cut short, and say how many more there were;
    messages already waiting (a heading) count towards the few."""
    room = max(MAX_SHOWN - len(session.get("_flashes", [])), 1)
    for line in lines[:room]:
        flash(cut(line), category)
    if len(lines) > room:
        more = len(lines) - room
        flash(f"… and {more} more {noun}{'' if more == 1 else 's'}.", category)


def keep_flashes_small(response):
    """Messages wait in the session cookie until a page shows them: however many
    requests pile them up, keep the newest few, each short (a browser drops a
    cookie over 4 kB, and then every message with it)."""
    if request.endpoint == "static":  # never flashes; reading the session adds Vary: Cookie
        return response
    waiting = session.get("_flashes")
    if waiting and (
        len(waiting) > MAX_SHOWN + 1 or any(cut(message) != message for _, message in waiting)
    ):
        session["_flashes"] = [(kind, cut(message)) for kind, message in waiting][-MAX_SHOWN - 1 :]
    return response


# --- saying what changed ----------------------------------------------------------


def ago(stamp: str) -> str:
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    seconds = (datetime.now(UTC) - then).total_seconds()
    if seconds < 60:
        return "a moment ago"
    if seconds < 3600:
        minutes = int(seconds // 60)
        return f"{minutes} minute{'' if minutes == 1 else 's'} ago"
    return f"at {then.astimezone():%H:%M}"


def change_lines(entries: list[Entry], noun: str = "Hand") -> list[str]:
    """Each change in plain words with who made it and when:
    "Hand 3 saved: 4♠ by Bob, made · … — from Ann's phone, a moment ago"."""
    asking = phone_name()
    return [
        f"{describe(e, noun)} — from {who(e.change.device, asking)}, {ago(e.change.created)}"
        for e in entries
    ]
