"""The rule sets: variant id -> Game class, and the replay of a whole match.

Every score, dealer, vulnerability and peg position comes from replaying the
list of hands from the start; nothing here is stored between calls.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .bridge_for_three import BridgeForThree
from .calypso import Calypso
from .common import Game, HandError, Outcome, _is_int, key_name
from .mini_bridge import MiniBridge, MiniBridgeThree
from .need_a_fourth import NeedAFourth
from .rubber import Chicago, Honeymoon, Rubber
from .top_game import TopGame

VARIANTS: dict[str, type[Game]] = {
    cls.id: cls
    for cls in (
        TopGame,
        NeedAFourth,
        BridgeForThree,
        MiniBridge,
        MiniBridgeThree,
        Rubber,
        Honeymoon,
        Chicago,
        Calypso,
    )
}

MAX_NAME = 40


class MatchError(Exception):
    """Invalid match: one line per problem, e.g. `hand 3: bid: 5 is not higher …`."""

    def __init__(self, lines: list[str]):
        self.lines = lines
        super().__init__("\n".join(lines))


def get_variant(variant_id: Any) -> type[Game]:
    if not isinstance(variant_id, str) or variant_id not in VARIANTS:
        raise MatchError([f"variant: {variant_id!r} is unknown; allowed: {', '.join(VARIANTS)}"])
    return VARIANTS[variant_id]


# Control characters (C0, DEL and C1: "\x85" is a line break too) and the Unicode
# line and paragraph separators: a name holding one breaks a line of the sheet.
_NOT_IN_A_NAME = ("Cc", "Zl", "Zp")


def breaks_a_line(name: str) -> bool:
    """True when `name` holds a line break or a control character."""
    return any(unicodedata.category(ch) in _NOT_IN_A_NAME for ch in name)


def check_players(cls: type[Game], players: Any) -> list[str]:
    """Problems with the list of player names for this variant (empty when fine)."""
    counts = " or ".join(str(n) for n in cls.player_counts)
    if not isinstance(players, list):
        return [f"players: give a list of {counts} names in seating order"]
    problems = []
    if len(players) not in cls.player_counts:
        problems.append(f"players: {cls.id} needs {counts} players, not {len(players)}")
    seen: set[str] = set()
    for i, name in enumerate(players, 1):
        if not isinstance(name, str) or not name.strip():
            problems.append(f"players: player {i} needs a name of 1–{MAX_NAME} characters")
            continue
        if breaks_a_line(name):
            problems.append(f"players: player {i} {name!r} has a line break or control character")
            continue
        if name != name.strip():
            problems.append(f"players: player {i} {name!r} has spaces around the name")
        if len(name.strip()) > MAX_NAME:
            problems.append(
                f"players: player {i} has {len(name.strip())} characters, at most {MAX_NAME}"
            )
        key = name.strip().casefold()
        if key in seen:
            problems.append(f"players: {name.strip()!r} appears twice (case does not count)")
        seen.add(key)
    return problems


def resolve_options(cls: type[Game], options: Any) -> tuple[dict[str, Any], list[str]]:
    """Fill in defaults and check every option; returns (options, problems)."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        return {}, ["options: give an object of option names and values"]
    specs = {spec.name: spec for spec in cls.option_specs}
    problems = []
    resolved: dict[str, Any] = {}
    for key in options:
        if key not in specs:
            allowed = ", ".join(specs) or "none"
            problems.append(
                f"options: {key_name(key)}: unknown option; allowed for {cls.id}: {allowed}"
            )
    for name, spec in specs.items():
        if name not in options or options[name] is None:
            resolved[name] = spec.default
            continue
        value = options[name]
        if spec.kind == "bool":
            if not isinstance(value, bool):
                problems.append(f"options: {name}: {value!r} is not true or false")
                continue
        else:
            if not _is_int(value) or not spec.low <= value <= spec.high:
                problems.append(
                    f"options: {name}: {value!r} is not allowed; give a whole number "
                    f"{spec.low}–{spec.high}"
                )
                continue
            if value % spec.multiple_of:
                problems.append(f"options: {name}: {value} is not a multiple of {spec.multiple_of}")
                continue
        resolved[name] = value
    if not problems:
        problems.extend(f"options: {p}" for p in cls.check_option_combination(options))
    return resolved, problems


def replay(variant_id: str, players: list[str], options: Any, hands: Any) -> Outcome:
    """Replay every hand from the start. Raises MatchError listing every problem.

    Problems in one hand are all reported; replay stops at the first invalid
    hand, since every later hand depends on the ones before it.
    """
    cls = get_variant(variant_id)
    problems = check_players(cls, players)
    resolved, option_problems = resolve_options(cls, options)
    problems += option_problems
    if not isinstance(hands, list):
        problems.append("hands: give a list of hands in the order played")
    if problems:
        raise MatchError(problems)

    game = cls(players, resolved)
    results = []
    ended = False
    for number, record in enumerate(hands, 1):
        where = f"hand {number}"
        if not isinstance(record, dict):
            problems.append(f"{where}: give an object of fields, not {type(record).__name__}")
            break
        if game.is_finished():
            what = "no end marker" if "end" in record else "no hand"
            problems.append(
                f"{where}: the match is already finished after hand {number - 1}; {what} may follow"
            )
            break
        if "end" in record:
            if record != {"end": True}:
                problems.append(f'{where}: end: the end marker is exactly {{"end": true}}')
                break
            if number != len(hands):
                problems.append(f"{where}: end: the end marker must be the last entry of hands")
                break
            results.append(game.end_match(number))
            ended = True
            break
        try:
            results.append(game.play_hand(record, number))
        except HandError as exc:
            problems.extend(f"{where}: {f}: {m}" for f, m in exc.problems)
            break
        game.entries = number
    if problems:
        raise MatchError(problems)

    finished = ended or game.is_finished()
    return Outcome(
        variant=cls.id,
        players=list(players),
        options=resolved,
        hands=results,
        totals=dict(game.totals),
        finished=finished,
        winners=game.winners() if finished else [],
        upcoming=None if finished else game.upcoming(),
        summary=game.summarize(),
    )


__all__ = [
    "VARIANTS",
    "MatchError",
    "Outcome",
    "check_players",
    "get_variant",
    "replay",
    "resolve_options",
]
