"""The one explicit list of the games, and the check that each is complete.

Each game family is a package, scorekeeper/games/<family>/, whose `GAME` (a
`GameKit`, scorekeeper/games/kit.py) names its pieces: the rules of each of
its variants, their hand entry and settlement, its sheet. Its pages live in
templates/games/<family>/, its script and styles in static/games/<family>/.
Besides those, a variant needs its document docs/variants/<id>.md (with our
decisions), a realistic evening examples/<id>.json (the tests score it) and a
row of the variants table in README.md.

`missing()` lists what is absent, piece by piece, and the app refuses to start
without it, so a forgotten piece is a test failure and not a 500 at the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from .docs import DECISIONS, has_section
from .entry import HandEntry
from .games import bridge_for_three, calypso, mini_bridge, need_a_fourth, rubber, top_game
from .games.common import Game, Outcome
from .games.kit import GameKit, Variant
from .games.settlement import Settlement

if TYPE_CHECKING:  # only for type hints: the match file module sits above the registry
    from .matchfile import Match

# The games, in the order New match offers them.
GAMES: list[GameKit] = [
    top_game.GAME,
    need_a_fourth.GAME,
    bridge_for_three.GAME,
    mini_bridge.GAME,
    rubber.GAME,
    calypso.GAME,
]

ROOT = Path(__file__).resolve().parent.parent


def _variants(games: list[GameKit]) -> dict[str, tuple[GameKit, Variant]]:
    return {variant.id: (game, variant) for game in games for variant in game.variants}


# Variant id -> its rules class: what replaying a match asks for.
VARIANTS: dict[str, type[Game]] = {
    variant_id: variant.rules for variant_id, (_, variant) in _variants(GAMES).items()
}
_KITS = _variants(GAMES)
_ENTRIES = {
    variant_id: variant.entry(variant_id, game.hand_template)
    for variant_id, (game, variant) in _KITS.items()
}


def game_for(variant_id: str) -> GameKit:
    """The family a variant belongs to, with every piece of it."""
    return _KITS[variant_id][0]


def variant_for(variant_id: str) -> Variant:
    """A variant's rules, hand entry, settlement and stake basis."""
    return _KITS[variant_id][1]


def entry_for(variant_id: str) -> HandEntry:
    """How a variant's hand is entered (one instance per variant)."""
    return _ENTRIES[variant_id]


def settlement_for(variant_id: str) -> Settlement:
    return variant_for(variant_id).settlement


def build_sheet(match: Match, outcome: Outcome) -> dict[str, Any]:
    """The match's sheet, built by its game (templates/games/<family>/sheet.html)."""
    return game_for(match.variant).build_sheet(match, outcome)


def score_line(match: Match, outcome: Outcome) -> list[str]:
    """The running score of the match for the top of the next hand's form, one
    item per side or player, as the game's settlement counts it: the sides'
    points in a partnership game, pegs in Bridge for Three, each player's total
    otherwise. The rubber or round in progress has its own table."""
    return settlement_for(match.variant).score_line(match.players, outcome.totals)


def _where(obj: Any) -> str:
    return getattr(obj, "__module__", "") or ""


def missing(
    games: list[GameKit] | None = None,
    templates: Path | None = None,
    examples: Path | None = None,
    readme: Path | None = None,
    docs: Path | None = None,
    *,
    static: Path | None = None,
    documentation: bool = True,
) -> list[str]:
    """Every piece of every game that cannot be found, one line each.
    `documentation=False` checks only what the running app needs."""
    games = GAMES if games is None else games
    templates = templates or ROOT / "templates"
    static = static or ROOT / "static"
    examples = examples or ROOT / "examples"
    docs = docs or ROOT / "docs"
    readme_text = (
        (readme or ROOT / "README.md").read_text(encoding="utf-8") if documentation else ""
    )
    problems: list[str] = []
    seen: set[str] = set()
    for game in games:
        name = game.family
        package = f"scorekeeper.games.{name}"
        where = f"scorekeeper/games/{name}"
        if not callable(game.sheet):
            problems.append(f"{name}: no sheet builder (build in {where}/sheet.py)")
        elif _where(game.sheet) != f"{package}.sheet":
            problems.append(f"{name}: its sheet builder is not in {where}/sheet.py")
        for page in (game.hand_template, game.sheet_template):
            if not (templates / page).is_file():
                problems.append(f"{name}: no file templates/{page}")
        if not (static / "games" / name).is_dir():
            problems.append(f"{name}: no folder static/games/{name}/")
        if not game.variants:
            problems.append(f"{name}: no variant")
        for variant in game.variants:
            rules = variant.rules
            if not (isinstance(rules, type) and issubclass(rules, Game)):
                problems.append(f"{name}: a variant without rules (a Game in {where}/rules.py)")
                continue
            variant_id = rules.id
            if variant_id in seen:
                problems.append(f"{variant_id}: declared twice")
            seen.add(variant_id)
            if _where(rules) != f"{package}.rules":
                problems.append(f"{variant_id}: its rules are not in {where}/rules.py")
            entry = variant.entry
            if not (isinstance(entry, type) and issubclass(entry, HandEntry)):
                problems.append(f"{variant_id}: no hand entry (a HandEntry in {where}/entry.py)")
            elif _where(entry) != f"{package}.entry":
                problems.append(f"{variant_id}: its hand entry is not in {where}/entry.py")
            if not isinstance(variant.settlement, Settlement):
                problems.append(f"{variant_id}: no settlement (scorekeeper/games/settlement.py)")
            page = game.rules_template(variant_id)
            if not (templates / page).is_file():
                problems.append(f"{variant_id}: no file templates/{page}")
            if documentation and not (examples / f"{variant_id}.json").is_file():
                problems.append(f"{variant_id}: no file examples/{variant_id}.json")
            # The rules page shows the document's decisions (scorekeeper/docs.py).
            document = docs / "variants" / f"{variant_id}.md"
            if not document.is_file():
                problems.append(f"{variant_id}: no file docs/variants/{variant_id}.md")
            elif not has_section(document.read_text(encoding="utf-8"), DECISIONS):
                problems.append(
                    f"{variant_id}: docs/variants/{variant_id}.md has no '## {DECISIONS}'"
                )
            if documentation and f"| `{variant_id}` |" not in readme_text:
                problems.append(f"{variant_id}: no row in the variants table of README.md")
    return problems
