"""The one explicit list of the games, and what replaying and scoring ask of it.

Each game family is a package, scorekeeper/games/<family>/, whose `GAME` (a
`GameKit`, games/kit.py) names its pieces: the rules of each of its variants,
their settlement and stake basis, its sheet, and the name of each variant's
hand entry. Nothing here reaches Flask or WTForms: the replay, the change log,
the match file and `scorekeeper score` stand on this list, and the hand entry
is attached above it, by the name the kit declares, in scorekeeper/registry.py
(which also checks that every game is complete).
"""

from __future__ import annotations

from typing import Any

from ..model import Match
from . import bridge_for_three, calypso, mini_bridge, need_a_fourth, rubber, top_game
from .common import Game, Outcome
from .kit import GameKit, Variant
from .settlement import Settlement

# The games, in the order New match offers them.
GAMES: list[GameKit] = [
    top_game.GAME,
    need_a_fourth.GAME,
    bridge_for_three.GAME,
    mini_bridge.GAME,
    rubber.GAME,
    calypso.GAME,
]


def kits_by_variant(games: list[GameKit]) -> dict[str, tuple[GameKit, Variant]]:
    """Variant id -> (its family's kit, the variant), in the order of `games`."""
    return {variant.id: (game, variant) for game in games for variant in game.variants}


_KITS = kits_by_variant(GAMES)

# Variant id -> its rules class: what replaying a match asks for.
VARIANTS: dict[str, type[Game]] = {
    variant_id: variant.rules for variant_id, (_, variant) in _KITS.items()
}


def game_for(variant_id: str) -> GameKit:
    """The family a variant belongs to, with every piece of it."""
    return _KITS[variant_id][0]


def variant_for(variant_id: str) -> Variant:
    """A variant's rules, settlement, stake basis and the name of its hand entry."""
    return _KITS[variant_id][1]


def settlement_for(variant_id: str) -> Settlement:
    return variant_for(variant_id).settlement


def build_sheet(match: Match, outcome: Outcome) -> dict[str, Any]:
    """The match's sheet, built by its game (scorekeeper/games/<family>/templates/sheet.html)."""
    return game_for(match.variant).build_sheet(match, outcome)


def score_line(match: Match, outcome: Outcome) -> list[str]:
    """The running score of the match for the top of the next hand's form, one
    item per side or player, as the game's settlement counts it: the sides'
    points in a partnership game, pegs in Bridge for Three, each player's total
    otherwise. The rubber or round in progress has its own table."""
    return settlement_for(match.variant).score_line(match.players, outcome.totals)
