"""Imports point down only: no import cycle among scorekeeper's modules (an
import inside a function counts), and the rules never reach Flask, WTForms,
sqlite-utils or WeasyPrint, directly or through another module.

Every module is parsed with `ast`; relative imports are resolved, and
importing `a.b.c` also counts as importing the packages `a.b` and `a` (their
`__init__.py` runs first) unless the importer lives inside them. Imports under
`if TYPE_CHECKING:` are left out: they are read by type checkers only and
never run.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.games.catalog import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
FORBIDDEN_IN_RULES = {"flask", "flask_wtf", "wtforms", "sqlite_utils", "weasyprint"}


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.AST):
    """Every Import/ImportFrom node, at any depth (functions included), except
    those only type checkers see."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for other in node.orelse:
                yield from _imports(ast.Module(body=[other], type_ignores=[]))
            continue
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        yield from _imports(node)


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def imports_of(name: str) -> tuple[set[str], set[str]]:
    """(scorekeeper modules, outside top-level packages) that module `name` imports."""
    path = MODULES[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    inside: set[str] = set()
    outside: set[str] = set()
    targets: list[str] = []
    for node in _imports(tree):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
            continue
        if node.level:
            base_parts = package.split(".")
            base_parts = base_parts[: len(base_parts) - (node.level - 1)]
            base = ".".join(base_parts + ([node.module] if node.module else []))
        else:
            base = node.module or ""
        for alias in node.names:
            child = f"{base}.{alias.name}"
            targets.append(child if child in MODULES else base)
    ancestors = set(_parents(name))
    for target in targets:
        if target.split(".")[0] != "scorekeeper":
            outside.add(target.split(".")[0])
            continue
        assert target in MODULES, f"{name} imports {target}, which is not a module"
        inside.add(target)
        # Importing a.b.c runs a/__init__ and a/b/__init__ first.
        inside.update(p for p in _parents(target) if p not in ancestors)
    inside.discard(name)
    return inside, outside


GRAPH: dict[str, set[str]] = {}
OUTSIDE: dict[str, set[str]] = {}
for _name in MODULES:
    GRAPH[_name], OUTSIDE[_name] = imports_of(_name)

# registry.py imports each game's hand entry by the name its kit declares
# (importlib, not an import statement): those edges count like any other.
ENTRY_MODULES = {game.entry_module for game in GAMES}
GRAPH["scorekeeper.registry"] |= ENTRY_MODULES


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph[node]):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in graph[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def test_the_graph_sees_imports_inside_functions_and_relative_imports():
    # cli.py imports the app factory inside a function; games/kit.py imports
    # ..sheets (relative, up the tree); games/catalog.py names each game;
    # registry.py imports each game's entry by the name its kit gives.
    assert "scorekeeper" in GRAPH["scorekeeper.cli"]
    assert "scorekeeper.sheets" in GRAPH["scorekeeper.games.kit"]
    assert "scorekeeper.games.rubber" in GRAPH["scorekeeper.games.catalog"]
    assert "scorekeeper.games.rubber.entry" in GRAPH["scorekeeper.registry"]
    assert len(ENTRY_MODULES) == len(GAMES)
    assert ENTRY_MODULES.issubset(MODULES)
    assert "flask_wtf" in OUTSIDE["scorekeeper.entry"]


def test_the_cycle_finder_finds_a_cycle_through_a_function_import():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_no_import_cycle():
    assert cycles(GRAPH) == []


RULES = sorted(
    name
    for name in MODULES
    if name.startswith("scorekeeper.games.")
    and (name.endswith(".rules") or name == "scorekeeper.games.common")
)


def test_every_game_has_a_rules_module():
    assert (
        sorted(
            [
                "scorekeeper.games.common",
                *(f"scorekeeper.games.{game.family}.rules" for game in GAMES),
            ]
        )
        == RULES
    )


# The ledger and the statistics are pure too: a store keeps their summaries and
# the command line runs them without the app.
PURE = [*RULES, "scorekeeper.ledger", "scorekeeper.stats"]


@pytest.mark.parametrize("name", PURE)
def test_rules_never_reach_flask_wtforms_sqlite_utils_or_weasyprint(name):
    reached = reachable(GRAPH, name)
    used = set().union(*(OUTSIDE[module] for module in reached))
    assert used & FORBIDDEN_IN_RULES == set(), sorted(reached)


def test_the_change_log_takes_its_words_from_the_words_module_not_the_sheets():
    assert "scorekeeper.words" in GRAPH["scorekeeper.changelog"]
    assert not {name for name in GRAPH["scorekeeper.changelog"] if ".sheets" in name}


@pytest.mark.parametrize("name", ["scorekeeper.changelog", "scorekeeper.matchfile"])
def test_the_change_log_and_the_match_file_never_reach_storage_views_or_pdf(name):
    reached = reachable(GRAPH, name)
    above = {"scorekeeper", "scorekeeper.db", "scorekeeper.pdf", "scorekeeper.cli"}
    assert {m for m in reached if m in above or m.startswith("scorekeeper.views")} == set()
    used = set().union(*(OUTSIDE[module] for module in reached))
    assert used & {"sqlite_utils", "weasyprint"} == set()


# --- what scores a match stands below the forms, the store and the PDF ----------------

# The replay, the change log, the match file, the sheets and `scorekeeper score`
# (cli.py's cmd_score: the report) need none of these.
HEAVY = ("flask", "flask_wtf", "wtforms", "sqlite_utils", "weasyprint")
LIGHT = [
    "scorekeeper.variants",
    "scorekeeper.changelog",
    "scorekeeper.matchfile",
    "scorekeeper.sheets",
    "scorekeeper.sheets.hand_log",
    "scorekeeper.report",
    "scorekeeper.settle",
    "scorekeeper.games.catalog",
    "scorekeeper.ledger",
    "scorekeeper.stats",
]


@pytest.mark.parametrize("name", LIGHT)
def test_scoring_a_match_never_reaches_flask_wtforms_sqlite_utils_or_weasyprint(name):
    reached = reachable(GRAPH, name)
    used = set().union(*(OUTSIDE[module] for module in reached))
    assert sorted(used & set(HEAVY)) == [], sorted(reached)
    assert not ENTRY_MODULES & reached


def heavy_modules_loaded(code: str) -> list[str]:
    """The top-level packages of HEAVY that running `code` in a fresh Python
    leaves in sys.modules: what really ran, importlib lookups included."""
    loaded = "sorted({m.split('.')[0] for m in sys.modules} & " + repr(set(HEAVY)) + ")"
    probe = f"{code}\nimport sys\nprint({loaded})"
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("name", LIGHT)
def test_importing_a_scoring_module_loads_none_of_them(name):
    assert heavy_modules_loaded(f"import {name}") == []


def test_the_score_command_loads_none_of_them():
    code = (
        "import contextlib, io\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        "    assert main(['score', 'examples/rubber.json']) == 0\n"
        'assert \'"variant": "rubber"\' in out.getvalue()'
    )
    assert heavy_modules_loaded(code) == []


def test_the_probe_sees_what_the_app_layers_load():
    """The same probe on the registry (which attaches the hand entries) finds
    WTForms and Flask-WTF: an empty answer above is not a probe that sees nothing."""
    assert heavy_modules_loaded("import scorekeeper.registry") == ["flask", "flask_wtf", "wtforms"]


# --- the views and the package: the app's top layer ---------------------------------


def _in_the_app_layer(name: str) -> bool:
    return name in ("scorekeeper", "scorekeeper.views") or name.startswith("scorekeeper.views.")


def test_the_graph_sees_the_app_layer_imports():
    assert {"scorekeeper.views.pages", "scorekeeper.db"} <= GRAPH["scorekeeper.views.live"]
    assert "scorekeeper.extensions" in GRAPH["scorekeeper.views.live"]
    assert "scorekeeper.views.hands" in GRAPH["scorekeeper.app"]
    # A function-level import counts too (cli opens the app only when asked).
    assert "scorekeeper.app" in GRAPH["scorekeeper.cli"]
    assert "scorekeeper" not in GRAPH["scorekeeper.db"]  # from .changelog import …


def test_no_blueprint_imports_another():
    blueprints = {
        f"scorekeeper.views.{n}" for n in ("matches", "hands", "history", "live", "sheets", "rules")
    }
    assert {b: sorted(GRAPH[b] & blueprints) for b in blueprints} == {b: [] for b in blueprints}


def test_no_import_inside_a_function_in_the_views_or_the_package():
    found = []
    for name, path in MODULES.items():
        if not _in_the_app_layer(name):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                found += [
                    f"{name}:{inner.lineno}"
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import | ast.ImportFrom)
                ]
    assert found == []


def test_the_package_itself_stays_light():
    """The command line and the PDF worker import `scorekeeper` first: it imports
    none of the app's layers (the factory is scorekeeper.app)."""
    assert GRAPH["scorekeeper"] == set()
