"""What this phone keeps in its cookies: its name, its text size, and the matches it
started or opened."""

from __future__ import annotations

from flask import Response, after_this_request, current_app, request
from flask_babel import gettext as _

from ..changelog import DEFAULT_DEVICE, MAX_DEVICE
from ..names import name_problem, normal
from .routing import MATCH_ID

PHONE_COOKIE = "phone"
MINE_COOKIE = "matches"  # the matches this browser started or opened
GROUPS_COOKIE = "groups"  # the groups this browser started or opened
MAX_MINE = 60  # about 1 kB of cookie; a phone keeps a season of evenings
TEXT_SIZE_COOKIE = "text_size"  # large print: percent of the phone's own text size
TEXT_SIZES = (100, 125, 150)


def keep_cookie(response: Response, cookie: str, value: str, days: int) -> Response:
    """What this phone keeps (its name, language, text size, matches): never read
    by a script, sent only to this app, over https only when served so."""
    response.set_cookie(
        cookie,
        value,
        max_age=days * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["SESSION_COOKIE_SECURE"],  # SCOREKEEPER_SECURE_COOKIES
    )
    return response


def my_matches() -> list[str]:
    """The ids of the matches this browser started or opened, most recent first,
    each once (a cookie naming one match sixty times costs one load, not sixty)."""
    ids = request.cookies.get(MINE_COOKIE, "").split(".")
    return list(dict.fromkeys(i for i in ids if MATCH_ID.fullmatch(i)))[:MAX_MINE]


def my_groups() -> list[str]:
    """The ids of the groups this browser started or opened, most recent first."""
    ids = request.cookies.get(GROUPS_COOKIE, "").split(".")
    return list(dict.fromkeys(i for i in ids if MATCH_ID.fullmatch(i)))[:MAX_MINE]


def text_size() -> int:
    """The text size this phone chose, in percent of its own (100 unless it chose)."""
    chosen = request.cookies.get(TEXT_SIZE_COOKIE, "")
    return int(chosen) if chosen in {str(size) for size in TEXT_SIZES} else 100


def remember(match_id: str) -> None:
    """Put the match first in this browser's list (the home page shows only those)."""
    _keep_first(MINE_COOKIE, match_id, my_matches())


def remember_group(group_id: str) -> None:
    """Put the group first in this browser's list of groups."""
    _keep_first(GROUPS_COOKIE, group_id, my_groups())


def _keep_first(cookie: str, first: str, known: list[str]) -> None:
    mine = [first, *(i for i in known if i != first)][:MAX_MINE]
    if mine == known:
        return

    @after_this_request
    def _set(response):
        return keep_cookie(response, cookie, ".".join(mine), days=400)


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
        return _("is not valid text")
    return name_problem(text, brief=True)
