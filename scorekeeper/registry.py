"""The games as the app serves them: each variant's hand entry, attached to
the one list of the games (scorekeeper/games/catalog.py), and the check that
every game is complete.

Each game family is a package, scorekeeper/games/<family>/, whose `GAME` (a
`GameKit`, scorekeeper/games/kit.py) names its pieces: the rules of each of
its variants, their settlement, its sheet, and the name of each variant's hand
entry (a HandEntry class in the family's entry.py, imported here by that name:
the entries use WTForms, which the replay, the change log and the match file
never import), its statistics (stats.py). Its pages live in its templates/
folder, its script and styles in its static/ folder, both served from there
under the names games/<family>/… (`template_loader`, `static_folders`).
Besides those, a variant needs its document docs/variants/<id>.md (with our
decisions), a realistic evening examples/<id>.json (the tests score it) and a
row of the variants table in README.md (docs/adding-a-game.md).

`missing()` lists what is absent, piece by piece, and the app refuses to start
without it, so a forgotten piece is a test failure and not a 500 at the table.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, FileSystemLoader, PrefixLoader

from .docs import DECISIONS, has_section
from .entry import HandEntry
from .folders import StaticFolders
from .games.catalog import (
    GAMES,
    kits_by_variant,
)
from .games.common import Game
from .games.facts import PARTNER_KINDS, GameStats
from .games.kit import GameKit, Variant
from .games.settlement import Settlement

ROOT = Path(__file__).resolve().parent.parent


def entry_class(game: GameKit, variant: Variant) -> type[HandEntry] | None:
    """The HandEntry class the kit names for `variant` in its family's entry
    module; None when there is no such module or no such class."""
    if not isinstance(variant.entry, str) or not variant.entry:
        return None
    try:
        module = importlib.import_module(game.entry_module)
    except ModuleNotFoundError as exc:
        # The family's package or its entry.py is missing; a module the entry
        # itself imports is another matter, not ours to hide.
        if not exc.name or not f"{game.entry_module}.".startswith(f"{exc.name}."):
            raise
        return None
    found = getattr(module, variant.entry, None)
    return found if isinstance(found, type) and issubclass(found, HandEntry) else None


def _entries(games: list[GameKit]) -> dict[str, HandEntry]:
    """One hand entry per variant that has one (`missing()` names any that has not)."""
    entries = {}
    for variant_id, (game, variant) in kits_by_variant(games).items():
        cls = entry_class(game, variant)
        if cls is not None:
            entries[variant_id] = cls(variant_id, game.hand_template, game.noun, family=game.family)
    return entries


_ENTRIES = _entries(GAMES)


def entry_for(variant_id: str) -> HandEntry:
    """How a variant's hand is entered (one instance per variant)."""
    return _ENTRIES[variant_id]


def template_loader(games: list[GameKit] | None = None) -> BaseLoader:
    """Each game's pages by the name games/<family>/<page>, from its templates/ folder."""
    games = GAMES if games is None else games
    by_family = {game.family: FileSystemLoader(game.templates_folder) for game in games}
    return PrefixLoader({"games": PrefixLoader(by_family)})


def static_folders(shared: str, games: list[GameKit] | None = None) -> StaticFolders:
    """The shared static folder and each game's (served as /static/games/<family>/…)."""
    games = GAMES if games is None else games
    return StaticFolders(shared, tuple((game.family, str(game.static_folder)) for game in games))


def _where(obj: Any) -> str:
    return getattr(obj, "__module__", "") or ""


def _page(game: GameKit, name: str) -> Path:
    """A game's page games/<family>/<page> on disk: its templates/<page>."""
    return game.templates_folder / name.removeprefix(f"games/{game.family}/")


def _stats_missing(game: GameKit, telling: dict[str, str]) -> list[str]:
    """What the statistics need of a game and cannot find; `telling` collects
    each telling count's family, as one key names one count on every page."""
    name, where = game.family, f"scorekeeper/games/{game.family}"
    if not isinstance(game.stats, GameStats):
        return [f"{name}: no statistics (STATS, a GameStats in {where}/stats.py)"]
    problems = []
    if _where(game.stats.read_hand) != f"scorekeeper.games.{name}.stats":
        problems.append(f"{name}: its statistics are not in {where}/stats.py")
    for key in game.stats.telling:
        other = telling.setdefault(key, name)
        if other != name:
            problems.append(f"{name}: its telling count {key!r} is already {other}'s")
    return problems


def missing(
    games: list[GameKit] | None = None,
    examples: Path | None = None,
    readme: Path | None = None,
    docs: Path | None = None,
    *,
    documentation: bool = True,
) -> list[str]:
    """Every piece of every game that cannot be found, one line each.
    `documentation=False` checks only what the running app needs."""
    games = GAMES if games is None else games
    examples = examples or ROOT / "examples"
    docs = docs or ROOT / "docs"
    readme_text = (
        (readme or ROOT / "README.md").read_text(encoding="utf-8") if documentation else ""
    )
    problems: list[str] = []
    seen: set[str] = set()
    telling: dict[str, str] = {}  # telling count -> the family that declared it
    for game in games:
        name = game.family
        package = f"scorekeeper.games.{name}"
        where = f"scorekeeper/games/{name}"
        if not callable(game.sheet):
            problems.append(f"{name}: no sheet builder (build in {where}/sheet.py)")
        elif _where(game.sheet) != f"{package}.sheet":
            problems.append(f"{name}: its sheet builder is not in {where}/sheet.py")
        problems += _stats_missing(game, telling)
        for page in (game.hand_template, game.sheet_template):
            if not _page(game, page).is_file():
                problems.append(f"{name}: no file {where}/templates/{_page(game, page).name}")
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
            entry = entry_class(game, variant)
            if entry is None:
                named = f" named {variant.entry}" if isinstance(variant.entry, str) else ""
                problems.append(
                    f"{variant_id}: no hand entry (a HandEntry{named} in {where}/entry.py)"
                )
            elif _where(entry) != game.entry_module:
                problems.append(f"{variant_id}: its hand entry is not in {where}/entry.py")
            if not isinstance(variant.settlement, Settlement):
                problems.append(f"{variant_id}: no settlement (scorekeeper/games/settlement.py)")
            if variant.partners not in PARTNER_KINDS:
                kinds = ", ".join(f'"{kind}"' for kind in PARTNER_KINDS)
                problems.append(f"{variant_id}: no partner kind (partners= one of {kinds})")
            page = _page(game, game.rules_template(variant_id))
            if not page.is_file():
                problems.append(f"{variant_id}: no file {where}/templates/{page.name}")
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
