"""Saying things to the phone: what changed and when, the flashed messages (kept
short and few: they wait in the session cookie), and Undo offered after a change."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import flash, request, session

from ..changelog import Change, Entry, describe, local_time, who
from .phone import phone_name

MAX_SHOWN = 10  # problems flashed at once: the session cookie must stay small
MAX_LINE = 200  # characters of one problem; a pasted megabyte is not repeated back
MAX_LINE_BYTES = 210  # and bytes of it as the cookie stores it (JSON, \uXXXX escapes)


# --- saying what changed ----------------------------------------------------------


def changed_words(stamp: str, now: datetime | None = None) -> str:
    """When something changed, as the home list and the history say it: "a moment
    ago", "5 minutes ago", "today at 21:40", "yesterday at 23:05", "Saturday at
    20:15", "3 October 2026" ("" for a stamp that is not a time)."""
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
    local, today = local_time(stamp), now.astimezone().date()
    days = (today - local.date()).days
    day = {0: "today", 1: "yesterday"}.get(days, f"{local:%A}" if days < 7 else None)
    return f"{day} at {local:%H:%M}" if day else f"{local.day} {local:%B %Y}"


def change_lines(entries: list[Entry], noun: str = "Hand") -> list[str]:
    """Each change in plain words with who made it and when:
    "Hand 3 saved: 4♠ by Bob, made · … — from Ann's phone, a moment ago"."""
    asking = phone_name()
    return [
        f"{describe(e, noun)} — from {who(e.change.device, asking)},"
        f" {changed_words(e.change.created)}"
        for e in entries
    ]


# A form stored once already, sent again (a double tap, Back and the same again).
ALREADY = "Already recorded, stored once: {}."


# --- saying what went wrong, briefly ---------------------------------------------


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
        len(waiting) > MAX_SHOWN + 1 or any(cut(message) != message for _, message in waiting)
    ):
        session["_flashes"] = [(kind, cut(message)) for kind, message in waiting][-MAX_SHOWN - 1 :]
    return response
