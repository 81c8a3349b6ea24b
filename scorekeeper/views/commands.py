"""The write path of the views: a submitted form becomes one command for `db.apply`
(its revision, its one-time key, this phone's name), and what the rules refuse
is put on the form's fields.

Every change of a match goes through `submit`; the view never checks a change
against what it read itself.
"""

from __future__ import annotations

import base64
import os
import re
import threading
from collections.abc import Callable
from typing import Any

from flask import abort, request

from ..changelog import Command
from ..db import Applied, StoredMatch, apply, get_db
from ..drawn import keep_replayed
from ..games.common import Problem
from .phone import phone_name

_KEY = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
SENT_BY_SCRIPT = "X-Requested-With"  # static/save.js sends its forms with this header


def N_(message: str) -> str:
    """Mark a message for the catalogs where it is defined, as English; `_()`
    translates it where it is shown (a module constant has no reader yet)."""
    return message


NO_REVISION = N_(
    "This form is incomplete (it does not say which state of the match it was drawn from):"
    " reload the page and enter it again."
)
SESSION_LOST = N_(
    "This phone's session was lost (its cookies were cleared, or Scorekeeper was given"
    " a new key), so the form could not be checked. Your entries are below: check them"
    " and tap Save again."
)
NOT_SAVED_SESSION_LOST = N_(
    "Not saved: this phone's session was lost (its cookies were cleared, or Scorekeeper"
    " was given a new key), so the form could not be checked. Your entries are below:"
    " check them and tap Save again."
)


KEY_BYTES = 16


class _Randomness(threading.local):
    """Random bytes for one-time keys, read from the system a few kB at a time (per
    thread; emptied in a forked process, which must not repeat its parent's). Each
    read lets go of Python's lock, and in a busy server getting it back waits for
    another thread's turn: a form page drawing forty keys one read each waited
    forty turns."""

    SIZE = 4096

    def __init__(self) -> None:
        self.bytes, self.used = b"", 0

    def take(self, count: int) -> bytes:
        if self.used + count > len(self.bytes):
            self.bytes, self.used = os.urandom(max(count, self.SIZE)), 0
        self.used += count
        return self.bytes[self.used - count : self.used]


_RANDOM = _Randomness()
if hasattr(os, "register_at_fork"):  # no fork on Windows
    os.register_at_fork(after_in_child=_RANDOM.__init__)


def new_key() -> str:
    """A one-time key for a form that changes a match (a double tap sends it twice)."""
    return base64.urlsafe_b64encode(_RANDOM.take(KEY_BYTES)).rstrip(b"=").decode("ascii")


def new_keys(count: int) -> list[str]:
    """`count` one-time keys (as many random bits as `new_key`'s, in hex)."""
    random = _RANDOM.take(KEY_BYTES * count).hex()
    width = 2 * KEY_BYTES
    return [random[i : i + width] for i in range(0, len(random), width)]


def form_revision() -> int | None:
    """The revision the submitted form was drawn from (None when missing or garbled)."""
    text = request.form.get("revision", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def form_undoes() -> int | None:
    """The revision of the change an Undo button was drawn for (None: an older page's)."""
    text = request.form.get("undoes", "")
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 12 else None


def form_key() -> str | None:
    text = request.form.get("key", "")
    return text if _KEY.match(text) else None


def command(kind: str, **fields) -> Command:
    """A command from the submitted form's revision, key and this phone's name."""
    return Command(
        kind, revision=form_revision(), submission=form_key(), device=phone_name(), **fields
    )


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
        applied = apply(get_db(), match_id, cmd, known)
    except LookupError:
        abort(404)
    if applied.outcome is not None:  # replayed to check it: the pages after it need not
        keep_replayed(applied.state, applied.outcome)
    return applied


def change_title(applied: Applied, noun: str = "Hand") -> str:
    """The changed hand as players read it when the change was made: "Hand 6",
    or "Redeal of hand 6" (an entry the rules do not count)."""
    entry = applied.state.entry(applied.change.revision)
    return entry.hand_title(noun) if entry is not None else noun


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
