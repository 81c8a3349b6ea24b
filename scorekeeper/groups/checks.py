"""What a group's forms are checked for: a member's and the group's name, a
stake, an amount paid; and the few words the group's history says of a
game, a stake and a match (kept in English, said again when shown)."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlite_utils import Database

from ..changelog import played_on
from ..db import load_match
from ..games.catalog import VARIANTS
from ..matchfile import MAX_TITLE, parse_stake
from ..names import alike, name_problem, normal
from ..speech import _, english
from ..variants import MAX_NAME
from .state import EVERY_GAME, GroupRefused


def member_name_problem(name: Any, field: str) -> str | None:
    """Why `name` cannot name a member (None: it can)."""
    if not isinstance(name, str) or not normal(name):
        return _("Write the member's name.")
    name = normal(name)
    if len(name) > MAX_NAME:
        return _(
            "%(name)s… has %(count)d characters; a name has at most %(most)d.",
            name=name[:20],
            count=len(name),
            most=MAX_NAME,
        )
    unusable = name_problem(name)
    return _("This name %(problem)s.", problem=unusable) if unusable else None


def members_refused(members: list[str]) -> list[GroupRefused]:
    """What is wrong with the members of a new group, each on its own input
    ("member2": the second name given): an unusable name, a name twice."""
    found = []
    kept: list[str] = []
    for index, member in enumerate(members, 1):
        problem = member_name_problem(member, f"member{index}")
        if problem:
            found.append(GroupRefused(problem, field=f"member{index}"))
            continue
        name = normal(member)
        twin = next((m for m in kept if alike(m, name)), None)
        if twin:
            found.append(
                GroupRefused(
                    _(
                        "%(name)s reads the same as %(twin)s: give each member a different name.",
                        name=name,
                        twin=twin,
                    ),
                    field=f"member{index}",
                )
            )
        kept.append(name)
    return found


def group_name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return _("Give the group a name, like “Friday trio”.")
    name = name.strip()
    if len(name) > MAX_TITLE:
        return _(
            "The name has %(count)d characters; a group's name has at most %(most)d.",
            count=len(name),
            most=MAX_TITLE,
        )
    turned = name_problem(name)
    return _("The name %(problem)s.", problem=turned) if turned else None


STAKE_FIELDS = {"amount": "stake_amount", "per": "stake_per", "currency": "stake_currency"}


def stake_refusal(stake: Any) -> GroupRefused | None:
    """What is wrong with a stake, on the input to fix (None: nothing)."""
    if stake is None:
        return None
    _parsed, problems = parse_stake(stake)
    if not problems:
        return None
    problem = problems[0]
    field = STAKE_FIELDS.get(problem.field or "", "stake_amount")
    message = problem.message
    if field == "stake_currency" and message.startswith("has "):  # names.text_problem
        return GroupRefused(_("The currency %(problem)s.", problem=message), field=field)
    if field == "stake_amount" and "decimal string" in message:
        said = _(
            "%(typed)s is not an amount: write it like 0.50 or 0,50, with no thousands separator.",
            typed=repr(stake.get("amount")),
        )
        return GroupRefused(said, field=field)
    return GroupRefused(f"{message[:1].upper()}{message[1:]}.", field=field)


def stake_words(stake: dict[str, Any] | None) -> str:
    if not stake:
        return "no stake"
    currency = f" {stake['currency']}" if stake.get("currency") else ""
    per = stake.get("per", 1)
    return f"{stake['amount']}{currency} per {'point' if per == 1 else f'{per} points'}"


def game_name(game: str) -> str:
    if game == EVERY_GAME:
        return "every game"
    return VARIANTS[game].name if game in VARIANTS else game


# An amount as written at the table: ASCII digits with a decimal point (its
# sign and decimals checked below). Decimal() alone takes "٣" (Arabic-Indic
# 3) and "1E+2", which no one at the table means as 3 or 100.
AMOUNT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def amount_problem(text: Any) -> str | None:
    if not isinstance(text, str):
        return _("Write the amount, like 7.50.")
    typed = repr(text)[:40]  # as typed, quoted, cut short
    if not AMOUNT.fullmatch(text):
        return _("%(typed)s is not an amount: write digits 0–9, like 7.50.", typed=typed)
    try:
        amount = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        return _("%(typed)s is not an amount: write it like 7.50.", typed=typed)
    if not amount.is_finite() or amount <= 0 or amount.as_tuple().exponent < -2:
        return _("Write an amount above 0 with at most two decimals, like 7.50.")
    if amount >= 10**9:
        return _("That amount is too large for a card table.")
    return None


def match_words(db: Database, match_id: str) -> str:
    """A match in a few words for the history: "Chicago, 25 Nov (Ann, Bob, Cy, Dan)"."""
    stored = load_match(db, match_id)
    if stored is None:
        return "a match"
    name = english(game_name(stored.variant))  # kept with the change: the history's English
    day = stored.played or played_day(stored.created)
    return f"{stored.title or name}, {day:%-d %b %Y} ({', '.join(stored.players)})"


def played_day(created: str) -> date:
    """The day a match started at `created` counts for (the evening rule), for
    a match that names no day."""
    return played_on(created)
