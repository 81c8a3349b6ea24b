"""Saying things to the phone: what changed and when, the flashed messages (kept
short and few: they wait in the session cookie), and Undo offered after a change."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import flash, request, session
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import formats
from ..changelog import Change, Entry, describe, local_time, who
from ..groups.said import said_line
from ..groups.state import GroupChange
from ..names import look_alike
from .commands import N_
from .language import reading
from .phone import phone_name

MAX_SHOWN = 10  # problems flashed at once: the session cookie must stay small
MAX_LINE = 200  # characters of one problem; a pasted megabyte is not repeated back
MAX_LINE_BYTES = 210  # and bytes of it as the cookie stores it (JSON, \uXXXX escapes)


# --- saying what changed ----------------------------------------------------------


def changed_words(stamp: str, now: datetime | None = None) -> str:
    """When something changed, as the home list and the history say it: "a moment
    ago", "5 minutes ago", "today at 21:40", "yesterday at 23:05", "Saturday at
    20:15", "3 October 2026" ("" for a stamp that is not a time), in the page's
    language."""
    try:
        then = datetime.fromisoformat(stamp)
    except ValueError:
        return ""
    now = now or datetime.now(UTC)
    seconds = (now - then).total_seconds()
    if seconds < 60:
        return _("a moment ago")
    if seconds < 3600:
        minutes = int(seconds // 60)
        return ngettext("%(num)d minute ago", "%(num)d minutes ago", minutes)
    locale = reading().formats
    local, today = local_time(stamp), now.astimezone().date()
    days = (today - local.date()).days
    time = formats.clock(local, locale)
    if days == 0:
        return _("today at %(time)s", time=time)
    if days == 1:
        return _("yesterday at %(time)s", time=time)
    if days < 7:
        return _("%(weekday)s at %(time)s", weekday=formats.weekday(local, locale), time=time)
    return formats.long_day(local, locale)


def said_by(what: str, device: str, created: str, asking: str | None) -> str:
    """One change in words with who made it and when, for a match's change and
    a group's alike: "… — from Ann's phone, a moment ago"."""
    return _(
        "%(change)s — from %(phone)s, %(when)s",
        change=what,
        phone=who(device, asking),
        when=changed_words(created),
    )


def change_lines(entries: list[Entry], noun: str = "Hand") -> list[str]:
    """Each change of a match in plain words with who made it and when:
    "Hand 3 saved: 4♠ by Bob, made · … — from Ann's phone, a moment ago"."""
    asking = phone_name()
    return [said_by(describe(e, noun), e.change.device, e.change.created, asking) for e in entries]


def group_change_lines(changes: list[GroupChange]) -> list[str]:
    """Each change of a group the same way: its line (said in the phone's
    language), who made it and when."""
    asking = phone_name()
    return [said_by(said_line(c.summary), c.device, c.created, asking) for c in changes]


# A form stored once already, sent again (a double tap, Back and the same again).
# (str.format's {}: the summary of what was stored; `_(ALREADY)` where it is shown.)
ALREADY = N_("Already recorded, stored once: {}.")


def already(change: GroupChange) -> str:
    """What a group's form sent again is told: what it stored once, in the
    phone's language."""
    return _(ALREADY).format(said_line(change.summary))


def look_alike_note(names: list[str], noun: str, among: list[str] = ()) -> str | None:
    """One sentence, said once after the save, for names of one script that look
    alike on a small screen ("Arnie and Amie look alike on a small screen: check
    that each is the right player."); they are two people, so nothing is refused.
    `names` pairs with each other and with `among` (names already there)."""
    pairs = []
    for place, name in enumerate(names):
        for other in [*names[:place], *among]:
            if look_alike(other, name):
                pairs.append(_("%(one)s and %(other)s", one=other, other=name))
    if not pairs:
        return None
    also = "".join(_(", and so do %(pair)s", pair=pair) for pair in pairs[1:])
    if noun == "member":
        said = _(
            "%(pair)s look alike on a small screen%(also)s: check that each is the right member.",
            pair=pairs[0],
            also=also,
        )
    else:
        said = _(
            "%(pair)s look alike on a small screen%(also)s: check that each is the right player.",
            pair=pairs[0],
            also=also,
        )
    return cut(said)


# --- saying what went wrong, briefly ---------------------------------------------


def cut(line: str, limit: int = MAX_LINE) -> str:
    """At most `limit` characters, and at most MAX_LINE_BYTES as stored in the cookie;
    a pure module's sentence (scorekeeper/speech.py) said in the page's language first."""
    line = str(line)
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
        if noun == "change":
            said = ngettext("… and %(num)d more change.", "… and %(num)d more changes.", more)
        else:
            said = ngettext("… and %(num)d more problem.", "… and %(num)d more problems.", more)
        flash(said, category)


def flash_undo(message: str, change: Change | None) -> None:
    """Answer a change with an Undo that carries the change's revision, so the
    button takes back that change or is refused, never a newer one another phone
    made meanwhile (base.html draws it). No change: no Undo."""
    flash(message, f"undo:{change.revision}" if change is not None else "info")


def keep_flashes_small(response):
    """Messages wait in the session cookie until a page shows them: however many
    requests pile them up, keep the newest few, each short (a browser drops a
    cookie over 4 kB, and then every message with it)."""
    if request.endpoint == "static":  # never flashes; reading the session adds Vary: Cookie
        return response
    waiting = session.get("_flashes")
    if waiting and (
        len(waiting) > MAX_SHOWN + 1
        or any(type(message) is not str or cut(message) != message for _, message in waiting)
    ):
        # A form's message may be a lazy translation: the cookie keeps its words.
        session["_flashes"] = [(kind, cut(str(message))) for kind, message in waiting][
            -MAX_SHOWN - 1 :
        ]
    return response
