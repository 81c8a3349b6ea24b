"""The replay of a whole match, by the rules of its variant (games/catalog.py's
VARIANTS: variant id -> Game class).

Every score, dealer, vulnerability and peg position comes from replaying the
list of hands from the start; nothing here is stored between calls.
"""

from __future__ import annotations

import unicodedata
from dataclasses import replace
from typing import Any

from .games.catalog import VARIANTS
from .games.common import Game, HandError, Outcome, Problem, _is_int, key_name
from .model import Match
from .names import alike, name_problem
from .speech import N_, _

MAX_NAME = 40


class MatchError(Exception):
    """Invalid match: its problems, each printed as one line,
    e.g. `hand 3: bid: 5 is not higher …`."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(self.lines))

    @property
    def lines(self) -> list[str]:
        return [str(problem) for problem in self.problems]


def get_variant(variant_id: Any) -> type[Game]:
    if not isinstance(variant_id, str) or variant_id not in VARIANTS:
        allowed = ", ".join(VARIANTS)
        message = _(
            "%(typed)s is unknown; allowed: %(allowed)s", typed=repr(variant_id), allowed=allowed
        )
        raise MatchError([Problem(message, "variant")])
    return VARIANTS[variant_id]


# Control characters (C0, DEL and C1: "\x85" is a line break too) and the Unicode
# line and paragraph separators: a name holding one breaks a line of the sheet.
_NOT_IN_A_NAME = ("Cc", "Zl", "Zp")


def breaks_a_line(name: str) -> bool:
    """True when `name` holds a line break or a control character."""
    return any(unicodedata.category(ch) in _NOT_IN_A_NAME for ch in name)


def _counts(counts: tuple[int, ...]) -> str:
    """ "4", "3 or 4", "3 or 4 or 5": how many players a game takes."""
    if len(counts) == 1:
        return str(counts[0])
    return _("%(fewer)s or %(more)d", fewer=_counts(counts[:-1]), more=counts[-1])


def check_players(cls: type[Game], players: Any) -> list[Problem]:
    """Problems with the list of player names for this variant (empty when fine)."""
    counts = _counts(cls.player_counts)
    if not isinstance(players, list):
        message = _("give a list of %(counts)s names in seating order", counts=counts)
        return [Problem(message, "players")]
    problems = []
    if len(players) not in cls.player_counts:
        message = N_("%(variant)s needs %(counts)s players, not %(given)d")
        named = {"variant": cls.id, "counts": counts, "given": len(players)}
        problems.append(Problem(_(message, **named), "players"))
    seen: list[tuple[int, str]] = []
    for i, name in enumerate(players, 1):
        if not isinstance(name, str) or not name.strip():
            message = _(
                "player %(number)d needs a name of 1–%(most)d characters", number=i, most=MAX_NAME
            )
            problems.append(Problem(message, "players"))
            continue
        if len(name.strip()) > MAX_NAME:  # measured first: a long name is not read further
            message = N_("player %(number)d has %(length)d characters, at most %(most)d")
            named = {"number": i, "length": len(name.strip()), "most": MAX_NAME}
            problems.append(Problem(_(message, **named), "players"))
            continue
        unusable = name_problem(name)
        if unusable:
            message = N_("player %(number)d %(name)s %(problem)s")
            problems.append(
                Problem(_(message, number=i, name=repr(name), problem=unusable), "players")
            )
            continue
        if name != name.strip():
            message = N_("player %(number)d %(name)s has spaces around the name")
            problems.append(Problem(_(message, number=i, name=repr(name)), "players"))
        twin = next((j for j, other in seen if alike(other, name)), None)
        if twin is not None and players[twin - 1].strip().casefold() == name.strip().casefold():
            message = N_("%(name)s appears twice (case does not count)")
            problems.append(Problem(_(message, name=repr(name.strip())), "players"))
        elif twin is not None:
            message = N_(
                "player %(number)d %(name)s looks the same as player %(twin)d %(twin_name)s: "
                "give each player a name that reads differently"
            )
            named = {"number": i, "name": repr(name.strip()), "twin": twin}
            named["twin_name"] = repr(players[twin - 1].strip())
            problems.append(Problem(_(message, **named), "players"))
        seen.append((i, name))
    return problems


def resolve_options(cls: type[Game], options: Any) -> tuple[dict[str, Any], list[Problem]]:
    """Fill in defaults and check every option; returns (options, problems)."""
    if options is None:
        options = {}
    if not isinstance(options, dict):
        return {}, [Problem(_("give an object of option names and values"), "options")]
    specs = {spec.name: spec for spec in cls.option_specs}
    problems: list[Problem] = []
    resolved: dict[str, Any] = {}
    for key in options:
        if key not in specs:
            allowed = ", ".join(specs) or _("none")
            message = _(
                "unknown option; allowed for %(variant)s: %(allowed)s",
                variant=cls.id,
                allowed=allowed,
            )
            problems.append(Problem(message, key_name(key), within="options"))
    for name, spec in specs.items():
        if name not in options or options[name] is None:
            resolved[name] = spec.default
            continue
        value = options[name]
        if spec.kind == "bool":
            if not isinstance(value, bool):
                message = _("%(typed)s is not true or false", typed=repr(value))
                problems.append(Problem(message, name, within="options"))
                continue
        else:
            if not _is_int(value) or not spec.low <= value <= spec.high:
                message = N_("%(typed)s is not allowed; give a whole number %(low)d–%(high)d")
                named = {"typed": repr(value), "low": spec.low, "high": spec.high}
                problems.append(Problem(_(message, **named), name, within="options"))
                continue
            if value % spec.multiple_of:
                message = N_("%(value)d is not a multiple of %(step)d")
                named = {"value": value, "step": spec.multiple_of}
                problems.append(Problem(_(message, **named), name, within="options"))
                continue
        resolved[name] = value
    if not problems:
        problems.extend(Problem(p, "options") for p in cls.check_option_combination(options))
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
        problems.append(Problem(_("give a list of hands in the order played"), "hands"))
    if problems:
        raise MatchError(problems)

    game = cls(players, resolved)
    results = []
    ended = False
    for number, record in enumerate(hands, 1):
        if not isinstance(record, dict):
            kind = type(record).__name__
            message = _("give an object of fields, not %(kind)s", kind=kind)
            problems.append(Problem(message, hand=number))
            break
        if game.is_finished():
            if "end" in record:
                message = N_(
                    "the match is already finished after hand %(hand)d; no end marker may follow"
                )
            else:
                message = N_(
                    "the match is already finished after hand %(hand)d; no hand may follow"
                )
            problems.append(Problem(_(message, hand=number - 1), hand=number))
            break
        if "end" in record:
            if record != {"end": True}:
                message = _('the end marker is exactly {"end": true}')
                problems.append(Problem(message, "end", number))
                break
            if number != len(hands):
                problems.append(
                    Problem(_("the end marker must be the last entry of hands"), "end", number)
                )
                break
            results.append(game.end_match(number))
            ended = True
            break
        try:
            result = game.play_hand(record, number)
        except HandError as exc:
            shown = game.next_number()
            problems.extend(Problem(m, f, number, hand_number=shown) for f, m in exc.problems)
            break
        game.number_entry(result)
        results.append(result)
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
        upcoming=None if finished else replace(game.upcoming(), number=game.next_number()),
        summary=game.summarize(),
    )


def replay_match(match: Match) -> Outcome:
    """Replay `match` from its first hand (see `replay`)."""
    return replay(match.variant, match.players, match.options, match.hands)
