"""Blueprints: thin views that parse a form, replay the rules, store and redirect."""

from __future__ import annotations

import re
from dataclasses import dataclass

from flask import abort

from ..db import StoredMatch, get_db, load_match
from ..variants import MatchError, Outcome

_HAND_LINE = re.compile(r"^hand (\d+): ([a-z_]+): (.*)$")
_MATCH_LINE = re.compile(r"^(?:options: |stake: )?([a-z_]+): (.*)$")


@dataclass
class Loaded:
    stored: StoredMatch
    outcome: Outcome | None
    problems: list[str]


def load_or_404(match_id: int) -> Loaded:
    """The stored match and its replay (problems listed if it no longer replays)."""
    stored = load_match(get_db(), match_id)
    if stored is None:
        abort(404)
    try:
        return Loaded(stored, stored.match.replay(), [])
    except MatchError as exc:
        return Loaded(stored, None, exc.lines)


def split_problems(
    lines: list[str], number: int | None = None
) -> tuple[dict[str, list[str]], list[str]]:
    """Sort MatchError lines into {field: [messages]} for hand `number`, and the rest.

    Lines about another hand stay whole (they name that hand), so a refused edit
    says which later hand it would break.
    """
    by_field: dict[str, list[str]] = {}
    other: list[str] = []
    for line in lines:
        hand = _HAND_LINE.match(line)
        if hand and number is not None and hand.group(1) == str(number):
            by_field.setdefault(hand.group(2), []).append(hand.group(3))
            continue
        match = None if hand or number is not None else _MATCH_LINE.match(line)
        if match:
            by_field.setdefault(match.group(1), []).append(match.group(2))
        else:
            other.append(line)
    return by_field, other
