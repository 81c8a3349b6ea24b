"""Read, validate and write the match file (`scorekeeper-match/1`).

The match file is a public interface (docs/match-file.md): other tools read
it, so every key keeps exactly the meaning written there. Validation replays the
hands, so a file that loads is a file that scores. What it reads into, `Match`
and `Stake`, lives below it in scorekeeper/model.py.
"""

from __future__ import annotations

import json
import re
from datetime import date
from decimal import Decimal, InvalidOperation
from typing import Any

from .games.common import Problem, key_name
from .model import MATCH_FORMAT, Match, Stake
from .names import text_problem
from .variants import (
    MAX_NAME,
    MatchError,
    check_players,
    get_variant,
    replay_match,
    resolve_options,
)

TOP_LEVEL_KEYS = ("format", "variant", "title", "played", "players", "options", "stake", "hands")
STAKE_KEYS = ("amount", "per", "currency")
MAX_TITLE = 100
MAX_CURRENCY = 12
# Limits of the table app, far beyond a real evening (a long one is under 100
# entries). The command-line scorer takes a match of any length.
MAX_ENTRIES = 500
MAX_FILE_BYTES = 1024 * 1024
# Lists and objects inside each other: a valid match file goes 4 deep (the
# file, its hands, a hand, a Mini Bridge `hcp` object). Anything deeper is
# refused before it is read further, since reading a value nested near
# Python's recursion limit (about 1000) would crash instead of answering.
MAX_DEPTH = 20
LIMITS_TEXT = (
    f"a match holds at most {MAX_ENTRIES} entries, names of at most {MAX_NAME} characters,"
    f" a title of at most {MAX_TITLE}, in a file of at most 1 MB"
)
# A money amount as people type it: ASCII digits, at most one decimal point.
# (A minus passes here so that the check below can say "must be zero or more".)
_AMOUNT = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)")
# The day a match was played, exactly as ISO 8601 writes a calendar date.
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def parse_played(value: Any) -> tuple[date | None, list[Problem]]:
    """Check a `played` day, "YYYY-MM-DD"; returns (day, problems)."""
    if isinstance(value, str) and _DAY.fullmatch(value):
        try:
            return date.fromisoformat(value), []
        except ValueError:
            pass
    return None, [Problem(f'{value!r:.60} is not a day written like "2026-11-20"', "played")]


def parse_stake(value: Any) -> tuple[Stake | None, list[Problem]]:
    """Check a `stake` object; returns (stake, problems)."""
    if not isinstance(value, dict):
        return None, [
            Problem('give an object like {"amount": "0.50", "per": 1, "currency": "EUR"}', "stake")
        ]
    problems = [
        Problem("unknown key; allowed: amount, per, currency", key_name(key), within="stake")
        for key in value
        if key not in STAKE_KEYS
    ]
    amount = parse_amount(value.get("amount"), problems)
    per = value.get("per", 1)
    if not isinstance(per, int) or isinstance(per, bool) or per < 1:
        problems.append(
            Problem(f"{per!r:.60} is not a positive whole number of points", "per", within="stake")
        )
    currency = value.get("currency", "")
    if not isinstance(currency, str) or len(currency) > MAX_CURRENCY:
        problems.append(
            Problem(f"give text of at most {MAX_CURRENCY} characters", "currency", within="stake")
        )
    elif text_problem(currency):
        problems.append(Problem(text_problem(currency), "currency", within="stake"))
    if problems or amount is None:
        return None, problems
    return Stake(amount, per, currency.strip()), []


def parse_amount(value: Any, problems: list[Problem]) -> Decimal | None:
    if value is None:
        problems.append(
            Problem('missing; give a decimal string like "0.50"', "amount", within="stake")
        )
        return None
    if not isinstance(value, str):
        problems.append(
            Problem(f'{value!r} is not a decimal string like "0.50"', "amount", within="stake")
        )
        return None
    if not _AMOUNT.fullmatch(value.strip()):
        problems.append(
            Problem(f'{value!r:.60} is not a decimal string like "0.50"', "amount", within="stake")
        )
        return None
    try:
        amount = Decimal(value.strip())
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        problems.append(
            Problem(f'{value!r:.60} is not a decimal string like "0.50"', "amount", within="stake")
        )
        return None
    if amount == 0:
        amount = abs(amount)  # "-0" is nothing at stake, not a negative stake
    if not amount.is_finite() or amount < 0:
        problems.append(Problem(f"{value!r} must be zero or more", "amount", within="stake"))
        return None
    if amount.as_tuple().exponent < -6 or amount >= Decimal("1000000"):
        problems.append(
            Problem(
                f"{value!r} must be below 1000000 with at most 6 decimals", "amount", within="stake"
            )
        )
        return None
    return amount


def _not_text(value: Any) -> bool:
    """A string holding a lone surrogate (JSON "\\ud800") is not valid Unicode:
    it cannot be stored, printed or drawn."""
    return isinstance(value, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)


def invalid_text(doc: dict[str, Any]) -> list[Problem]:
    """One problem per place where the document holds text that is not valid Unicode."""
    problems: list[Problem] = []

    def walk(value: Any, path: list[str], hand: int | None) -> None:
        if isinstance(value, dict):
            for key, item in value.items():
                if _not_text(key):
                    problems.append(_at(path, "a key is not valid text (a lone surrogate)", hand))
                else:
                    walk(item, [*path, key_name(key)], hand)
        elif isinstance(value, list):
            for item in value:
                walk(item, path, hand)
        elif _not_text(value):
            message = "not valid text (it holds a lone surrogate); retype it"
            problems.append(_at(path, message, hand))

    for key, value in doc.items():
        if key == "hands" and isinstance(value, list):
            for number, hand in enumerate(value, 1):
                walk(hand, [], number)
        elif key == "players" and isinstance(value, list):
            for number, name in enumerate(value, 1):
                if _not_text(name):
                    message = f"player {number} is not valid text; retype it"
                    problems.append(Problem(message, "players"))
        elif _not_text(key):
            problems.append(Problem("a key is not valid text (a lone surrogate)", "file"))
        else:
            walk(value, [key_name(key)], None)
    return problems


def _at(path: list[str], message: str, hand: int | None) -> Problem:
    """A problem at a nested place: the first key is the field, the rest leads the message."""
    field, *inner = path or [None]
    return Problem(": ".join([*inner, message]), field, hand)


def title_problems(title: Any) -> list[Problem]:
    """A title is text of at most MAX_TITLE characters (a file's, or the settings
    form's) that holds what any short text may (names.text_problem)."""
    if not isinstance(title, str) or len(title) > MAX_TITLE:
        return [Problem(f"give text of at most {MAX_TITLE} characters", "title")]
    turned = text_problem(title)
    return [Problem(turned, "title")] if turned else []


def nested_deeper(doc: Any, limit: int = MAX_DEPTH) -> bool:
    """True when lists and objects nest more than `limit` levels in `doc`
    (counted without recursion, so any depth is counted safely)."""
    waiting = [(doc, 1)]
    while waiting:
        value, depth = waiting.pop()
        if isinstance(value, dict):
            inner = value.values()
        elif isinstance(value, list):
            inner = value
        else:
            continue
        if depth > limit:
            return True
        waiting.extend((item, depth + 1) for item in inner)
    return False


def from_document(doc: Any, *, max_entries: int | None = None) -> Match:
    """Check a parsed match document and replay it. Raises MatchError listing every problem.
    `max_entries`: the table app's limit, checked before anything is replayed."""
    if not isinstance(doc, dict):
        raise MatchError([Problem("the match file must be a JSON object", "file")])
    if nested_deeper(doc):
        raise MatchError([_nested_too_deeply()])
    broken = invalid_text(doc)
    if broken:
        raise MatchError(broken)
    problems = [
        Problem(f"unknown key; allowed: {', '.join(TOP_LEVEL_KEYS)}", key_name(key))
        for key in doc
        if key not in TOP_LEVEL_KEYS
    ]
    if doc.get("format") != MATCH_FORMAT:
        problems.append(Problem(f"{doc.get('format')!r} is not {MATCH_FORMAT!r}", "format"))
    try:
        cls = get_variant(doc.get("variant"))
    except MatchError as exc:
        raise MatchError(problems + exc.problems) from None
    title = doc.get("title")
    if title is not None:
        problems += title_problems(title)
    played = None
    if "played" in doc:
        played, played_problems = parse_played(doc["played"])
        problems += played_problems
    players = doc.get("players")
    problems += check_players(cls, players)
    options = doc.get("options", {})
    problems += resolve_options(cls, options)[1]
    stake = None
    if "stake" in doc:
        stake, stake_problems = parse_stake(doc["stake"])
        problems += stake_problems
    hands = doc.get("hands")
    if not isinstance(hands, list):
        problems.append(Problem("give a list of hands in the order played", "hands"))
    elif max_entries is not None and len(hands) > max_entries:
        problems.append(
            Problem(
                f"{len(hands)} entries; a match holds at most {max_entries}"
                " (start a new match for the rest of the evening)",
                "hands",
            )
        )
    if problems:
        raise MatchError(problems)
    match = Match(cls.id, list(players), dict(options or {}), list(hands), title, stake, played)
    replay_match(match)  # raises MatchError naming the first invalid hand
    return match


def _not_json(message: str) -> MatchError:
    return MatchError([Problem(f"not valid JSON: {message}", "file")])


def _nested_too_deeply() -> Problem:
    return Problem(
        f"nested too deeply: a match file nests lists and objects at most {MAX_DEPTH} levels",
        "file",
    )


def loads(text: str, *, max_entries: int | None = None) -> Match:
    """Parse and validate match-file text."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _not_json(f"{exc.msg} at line {exc.lineno} column {exc.colno}") from None
    except RecursionError:
        raise _not_json("nested too deeply") from None
    except ValueError as exc:  # e.g. an integer longer than Python will convert
        raise _not_json(str(exc)) from None
    return from_document(doc, max_entries=max_entries)


def dumps(match: Match) -> str:
    return json.dumps(match.as_json(), indent=2, ensure_ascii=False) + "\n"
