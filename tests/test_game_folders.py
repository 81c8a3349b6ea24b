"""A game is one folder: nothing outside scorekeeper/games/<family>/ names a
game or branches on one, and what the shared code asks of a game (its
statistics, its partner kind) is in its kit, checked before the app starts."""

from __future__ import annotations

import ast
import re
from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper import registry
from scorekeeper.app import create_app
from scorekeeper.games.catalog import GAMES, variant_for
from scorekeeper.games.common import Outcome
from scorekeeper.games.facts import GameStats, HandFacts
from scorekeeper.stats import TELLING
from tests.games import FAMILIES as FAMILY_LIST
from tests.games import VARIANT_IDS, own_tests, pinned

ROOT = Path(__file__).resolve().parent.parent
FAMILIES = {game.family for game in GAMES}
NAMES = {variant.id for game in GAMES for variant in game.variants} | FAMILIES
# A game's id or family as a word of its own: "calypso", "games/top_game/x",
# not "rubbers" nor the player's word "Calypso".
NAMED = re.compile(
    r"(?<![\w-])(" + "|".join(sorted(map(re.escape, NAMES), key=len, reverse=True)) + r")(?![\w-])"
)


def _in_a_games_folder(path: Path) -> bool:
    parts = path.relative_to(ROOT / "scorekeeper").parts
    return len(parts) > 2 and parts[0] == "games" and parts[1] in FAMILIES


SHARED_MODULES = sorted(
    path for path in (ROOT / "scorekeeper").rglob("*.py") if not _in_a_games_folder(path)
)


def names_a_game(source: str) -> list[str]:
    """Where Python source names a game: a string (docstrings aside) holding a
    game id or family, or an import of a game's package."""
    tree = ast.parse(source)
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings and NAMED.search(node.value):
                found.append((node.lineno, repr(node.value)))
            continue
        if isinstance(node, ast.ImportFrom):
            modules = [node.module or "", *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        else:
            continue
        if any(set(module.split(".")) & FAMILIES for module in modules):
            found.append((node.lineno, "import of a game's package"))
    return [f"{line}: {what}" for line, what in sorted(found)]


def test_the_check_sees_a_game_named_or_branched_on():
    code = (
        '"""Docstrings may tell of top-game."""\n'
        "from .games import rubber\n"
        "import scorekeeper.games.calypso.rules\n"
        "if variant == 'bridge-for-three':\n"
        "    x = {'mini-bridge-3': 1}\n"
        "y = f'games/{x}/top_game/hand.html'\n"
        "z = 'rubbers won, the Calypso'\n"
    )
    assert names_a_game(code) == [
        "2: import of a game's package",
        "3: import of a game's package",
        "4: 'bridge-for-three'",
        "5: 'mini-bridge-3'",
        "6: '/top_game/hand.html'",
    ]


@pytest.mark.parametrize(
    "path", SHARED_MODULES, ids=[str(p.relative_to(ROOT)) for p in SHARED_MODULES]
)
def test_no_module_outside_a_games_folder_names_a_game(path):
    """Shared code asks the game's kit; only the catalog lists the games."""
    if path == ROOT / "scorekeeper" / "games" / "catalog.py":
        found = [line for line in names_a_game(path.read_text()) if "import" not in line]
    elif path == ROOT / "scorekeeper" / "migrations.py":
        # A frozen migration carries the games' ids and names as the store knew
        # them then (tests/test_migration.py proves it never asks today's catalog):
        # history, not a branch on a game.
        found = [line for line in names_a_game(path.read_text()) if "import" in line]
    else:
        found = names_a_game(path.read_text(encoding="utf-8"))
    assert found == []


# --- the statistics are the game's ----------------------------------------------------


def test_every_game_brings_its_statistics():
    assert {game.family: type(game.stats) for game in GAMES} == dict.fromkeys(FAMILIES, GameStats)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_every_variant_declares_its_partner_kind(variant_id):
    """The kind the game's own tests pin (KIT in tests/test_<family>.py)."""
    assert variant_for(variant_id).partners == pinned(variant_id, "KIT").partners


def test_the_telling_counts_are_gathered_from_the_kits():
    """Each game's counts, in the catalog's order, as its own tests pin them
    (TELLING in tests/test_<family>.py)."""
    assert list(TELLING) == [key for family in FAMILY_LIST for key in own_tests(family).TELLING]
    assert TELLING["pegged_out"] == (
        "Pegged out first",
        "Bridge for Three games this player won by reaching hole 11 first",
    )


def _no_facts(players, record, result):
    return HandFacts(tuple(players))


def test_a_game_without_statistics_or_partner_kind_is_reported():
    top = GAMES[0]
    bare = replace(top, stats=None, variants=tuple(replace(v, partners=None) for v in top.variants))
    stray = replace(top, stats=GameStats(_no_facts))  # read here, not in its stats.py
    clash = replace(GAMES[1], stats=replace(GAMES[1].stats, telling={"misinformed": ("a", "b")}))
    assert registry.missing([bare], documentation=False) == [
        "top_game: no statistics (STATS, a GameStats in scorekeeper/games/top_game/stats.py)",
        'top-game: no partner kind (partners= one of "fixed", "by hand", "none")',
    ]
    assert registry.missing([stray], documentation=False) == [
        "top_game: its statistics are not in scorekeeper/games/top_game/stats.py"
    ]
    assert registry.missing([top, clash], documentation=False) == [
        "need_a_fourth: its telling count 'misinformed' is already top_game's"
    ]


def test_the_app_refuses_to_start_without_a_games_statistics(monkeypatch, tmp_path):
    bare = replace(GAMES[0], stats=None)
    monkeypatch.setattr(registry, "GAMES", [bare, *GAMES[1:]])
    with pytest.raises(RuntimeError) as refused:
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "s.db")}, instance=tmp_path)
    assert str(refused.value) == (
        "games incomplete: top_game: no statistics"
        " (STATS, a GameStats in scorekeeper/games/top_game/stats.py)"
    )


def test_a_finished_bridge_for_three_match_counts_its_winner_pegging_out():
    stats = next(game.stats for game in GAMES if game.family == "bridge_for_three")
    players = ["Ann", "Bob", "Cy"]
    totals = {"Ann": 11, "Bob": 4, "Cy": 2}
    outcome = Outcome("bridge-for-three", players, {}, [], totals, True, ["Ann"], None)
    assert stats.finished(outcome) == (("Ann", "pegged_out"),)


SHARED_FILES = sorted(
    path
    for folder in ("templates", "static")
    for path in (ROOT / folder).rglob("*")
    if path.suffix in (".html", ".css", ".js")
)


@pytest.mark.parametrize("path", SHARED_FILES, ids=[str(p.relative_to(ROOT)) for p in SHARED_FILES])
def test_no_shared_page_script_or_stylesheet_names_a_game(path):
    """A game's classes and rules sit in its own stylesheet (the Top Game's key,
    Calypso's tallies), not in app.css, print.css or browser-print.css."""
    text = path.read_text(encoding="utf-8")
    assert NAMED.findall(text) == []


def test_a_games_stylesheet_keeps_its_paper_rules():
    top = (ROOT / "scorekeeper/games/top_game/static/top_game.css").read_text()
    calypso = (ROOT / "scorekeeper/games/calypso/static/calypso.css").read_text()
    assert "@media print {\n  .top-game-key { display: none !important; }\n" in top
    assert "  .half-sheet { break-inside: avoid; }" in top
    assert "@media print {\n  .calypso-game { break-inside: avoid; }\n" in calypso


# --- a game's classes are styled in its own stylesheet -----------------------------

SHARED_SHEETS = sorted((ROOT / "static").glob("*.css"))
CLASS_ATTRIBUTE = re.compile(r'class="([^"]*)"')
JINJA = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.S)
QUOTED = re.compile(r"""['"]([^'"]*)['"]""")
CLASS_NAME = re.compile(r"-?[A-Za-z_][\w-]*")
SELECTOR_CLASS = re.compile(r"\.(-?[A-Za-z_][\w-]*)")


def classes_of(html: str) -> set[str]:
    """Every class a page's class attributes may give, the words of the quoted
    strings inside their Jinja expressions included ({{ ' dealer' if … }})."""
    found: set[str] = set()
    for attribute in CLASS_ATTRIBUTE.findall(html):
        words = JINJA.sub(" ", attribute).split()
        for expression in re.findall(r"\{\{.*?\}\}|\{%.*?%\}", attribute, re.S):
            words += " ".join(QUOTED.findall(expression)).split()
        found |= {word for word in words if CLASS_NAME.fullmatch(word)}
    return found


def selector_classes(css: str) -> set[str]:
    """The classes a stylesheet's selectors name (its declarations and comments aside)."""
    css = re.sub(r"/\*.*?\*/", "", css, flags=re.S)
    # What comes before each "{": a rule's selectors, or an at-rule's prelude.
    return {
        name
        for prelude in re.findall(r"([^{};]*)\{", css)
        for name in SELECTOR_CLASS.findall(prelude)
    }


def _shared_classes() -> set[str]:
    """The classes shared pages, shared scripts and shared Python can give."""
    found: set[str] = set()
    for path in (ROOT / "templates").rglob("*.html"):
        found |= classes_of(path.read_text(encoding="utf-8"))
    for path in SHARED_MODULES:
        found |= classes_of(path.read_text(encoding="utf-8"))
    for path in (ROOT / "static").glob("*.js"):
        for line in path.read_text(encoding="utf-8").splitlines():
            strings = QUOTED.findall(line)
            if "classList" in line or "className" in line:  # classList.add("flash")
                found |= {word for text in strings for word in CLASS_NAME.findall(text)}
            found |= {name for text in strings for name in SELECTOR_CLASS.findall(text)}
    return found


def one_games_classes_in_shared_sheets() -> list[str]:
    """Each class only one game's pages give, yet styled in a shared stylesheet."""
    used_by: dict[str, set[str]] = {}
    for game in GAMES:
        for path in game.templates_folder.rglob("*.html"):
            for name in classes_of(path.read_text(encoding="utf-8")):
                used_by.setdefault(name, set()).add(game.family)
    shared = _shared_classes()
    return [
        f"{sheet.relative_to(ROOT)}: .{name} ({next(iter(used_by[name]))})"
        for sheet in SHARED_SHEETS
        for name in sorted(selector_classes(sheet.read_text(encoding="utf-8")))
        if len(used_by.get(name, ())) == 1 and name not in shared
    ]


def test_the_check_finds_a_class_of_one_game_in_a_shared_stylesheet():
    assert classes_of(
        '<td class="num{{ \' dealer\' if x }}"><p class="a b-c {% if y %}d{% endif %}">'
    ) == {"num", "dealer", "a", "b-c", "d"}
    assert selector_classes(
        "/* .gone */ @media print {\n  tr, tbody.hand, .pad a { x: 1; }\n}\n.a>.b:hover{y:2}"
    ) == {"hand", "pad", "a", "b"}


def test_no_shared_stylesheet_styles_a_class_of_one_game_only():
    """A class only one game's templates use (the Top Game's .half-sheet, the
    rubber's .pad, Bridge for Three's .peg-board) is styled in that game's own
    stylesheet, its paper rules under @media print there."""
    assert one_games_classes_in_shared_sheets() == []
