"""Imports point down only: no import cycle among scorekeeper's modules, not
even through an import inside a function or one only type checkers read
(`if TYPE_CHECKING:`); every name is imported from the module that defines it
(one front door for each); the model sits at the bottom; and the rules never
reach Flask, WTForms, sqlite-utils or WeasyPrint, directly or through another
module.

Every module is parsed with `ast`; relative imports are resolved, and
importing `a.b.c` also counts as importing the packages `a.b` and `a` (their
`__init__.py` runs first) unless the importer lives inside them. Every import
statement counts, wherever it stands: at the top, inside a function, or under
`if TYPE_CHECKING:` (never run, but a cycle type checkers must untie is a
layer out of place all the same).
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.games.catalog import GAMES

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "scorekeeper"
FORBIDDEN_IN_RULES = {"flask", "flask_wtf", "wtforms", "sqlite_utils", "weasyprint"}


def module_name(path: Path, root: Path = ROOT) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def package_modules(root: Path, package: str) -> dict[str, Path]:
    """Module name -> file, for every module of `package` (a folder under `root`)."""
    return {module_name(path, root): path for path in sorted((root / package).rglob("*.py"))}


MODULES = package_modules(ROOT, "scorekeeper")


def _parents(name: str) -> list[str]:
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def _source(name: str, path: Path, node: ast.ImportFrom) -> str:
    """The module a `from … import` statement reads from, relative ones resolved."""
    if not node.level:
        return node.module or ""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    base_parts = package.split(".")
    base_parts = base_parts[: len(base_parts) - (node.level - 1)]
    return ".".join(base_parts + ([node.module] if node.module else []))


def imports_of(
    name: str, modules: dict[str, Path], top: str = "scorekeeper"
) -> tuple[set[str], set[str]]:
    """(modules of `top`, outside top-level packages) that module `name` imports,
    by every import statement in it (inside functions and under TYPE_CHECKING too)."""
    path = modules[name]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    inside: set[str] = set()
    outside: set[str] = set()
    targets: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _source(name, path, node)
            for alias in node.names:
                child = f"{base}.{alias.name}"
                targets.append(child if child in modules else base)
    ancestors = set(_parents(name))
    for target in targets:
        if target.split(".")[0] != top:
            outside.add(target.split(".")[0])
            continue
        assert target in modules, f"{name} imports {target}, which is not a module"
        inside.add(target)
        # Importing a.b.c runs a/__init__ and a/b/__init__ first.
        inside.update(p for p in _parents(target) if p not in ancestors)
    inside.discard(name)
    return inside, outside


def import_graph(
    modules: dict[str, Path], top: str = "scorekeeper"
) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(module -> the package's modules it imports, module -> outside packages)."""
    graph: dict[str, set[str]] = {}
    outside: dict[str, set[str]] = {}
    for name in modules:
        graph[name], outside[name] = imports_of(name, modules, top)
    return graph, outside


GRAPH, OUTSIDE = import_graph(MODULES)

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
    assert "scorekeeper.app" in GRAPH["scorekeeper.cli"]
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


def _plant(root: Path, files: dict[str, str]) -> dict[str, Path]:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return package_modules(root, "planted")


PLANTED_CYCLE = {
    "planted/__init__.py": "",
    # The model names the match file's type for type checkers only...
    "planted/model.py": (
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .matchfile import Match\n"
    ),
    # ...which imports the replay inside a function...
    "planted/matchfile.py": "def load():\n    from planted.games import replay\n",
    # ...whose games name the model, the typing way of spelling the guard.
    "planted/games/__init__.py": (
        "import typing\nif typing.TYPE_CHECKING:\n    from .. import model\n"
    ),
    "planted/games/rules.py": "from ..model import Stake\n",
    "planted/below.py": "import json\n",
}


def test_a_cycle_through_type_checking_and_function_imports_is_found(tmp_path):
    graph, outside = import_graph(_plant(tmp_path, PLANTED_CYCLE), top="planted")
    assert graph["planted.model"] == {"planted.matchfile"}
    assert graph["planted.matchfile"] == {"planted.games"}
    assert graph["planted.games"] == {"planted.model"}
    assert outside["planted.below"] == {"json"}
    assert cycles(graph) == [["planted.games", "planted.matchfile", "planted.model"]]


def test_the_planted_package_without_its_guarded_import_has_no_cycle(tmp_path):
    files = {**PLANTED_CYCLE, "planted/model.py": "from typing import TYPE_CHECKING\n"}
    graph, _ = import_graph(_plant(tmp_path, files), top="planted")
    assert cycles(graph) == []


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


def heavy_modules_loaded(code: str, heavy: tuple[str, ...] = HEAVY) -> list[str]:
    """The top-level packages of `heavy` that running `code` in a fresh Python
    leaves in sys.modules: what really ran, importlib lookups included."""
    loaded = "sorted({m.split('.')[0] for m in sys.modules} & " + repr(set(heavy)) + ")"
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


def _cli_code(argv: list[str], expected: str) -> str:
    return (
        "import contextlib, io\n"
        "from scorekeeper.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out:\n"
        f"    assert main({argv!r}) == 0\n"
        f"assert {expected!r} in out.getvalue()"
    )


def test_the_score_command_loads_no_ratings_library():
    """openskill is only for the ledger's ratings: `scorekeeper score` starts without it."""
    code = _cli_code(["score", "examples/rubber.json"], '"variant": "rubber"')
    assert heavy_modules_loaded(code, ("openskill",)) == []


def test_the_ledger_command_loads_the_ratings_library():
    """The same probe on `scorekeeper ledger`, which rates the matches, finds it."""
    code = _cli_code(["ledger", "examples/rubber.json"], '"ratings"')
    assert heavy_modules_loaded(code, ("openskill",)) == ["openskill"]


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
    """Save one: the package's `__getattr__` imports the app factory when asked
    for `scorekeeper.create_app` (flask --app scorekeeper), so that importing
    the package, as the command line does, loads no Flask."""
    found = []
    for name, path in MODULES.items():
        if not _in_the_app_layer(name):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                found += [
                    (name, getattr(node, "name", "lambda"), _source(name, path, inner))
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.ImportFrom)
                ]
                found += [
                    (name, getattr(node, "name", "lambda"), alias.name)
                    for inner in ast.walk(node)
                    if isinstance(inner, ast.Import)
                    for alias in inner.names
                ]
    assert found == [("scorekeeper", "__getattr__", "scorekeeper.app")]


# --- the package's front door: create_app, found by Flask, opened only when asked ----


def test_the_package_imports_the_app_factory_only():
    """`scorekeeper` imports nothing but the factory (inside `__getattr__`), and
    no module imports `scorekeeper` itself: the instance folder, the secret key
    and the shared folders are scorekeeper/instance.py's."""
    assert GRAPH["scorekeeper"] == {"scorekeeper.app"}
    assert sorted(name for name, imported in GRAPH.items() if "scorekeeper" in imported) == []
    assert "scorekeeper.instance" in GRAPH["scorekeeper.app"]


def test_the_package_hands_out_the_factory_and_nothing_else():
    import scorekeeper
    import scorekeeper.app

    assert scorekeeper.create_app is scorekeeper.app.create_app
    with pytest.raises(AttributeError, match="module 'scorekeeper' has no attribute 'instance_"):
        scorekeeper.instance_folder  # noqa: B018 - the attribute is the test


def test_importing_the_package_and_the_command_line_loads_none_of_them():
    assert heavy_modules_loaded("import scorekeeper, scorekeeper.cli") == []


def test_asking_the_package_for_the_factory_loads_the_app():
    """The probe's control: the factory, once asked for, loads Flask and the forms."""
    loaded = heavy_modules_loaded("import scorekeeper\nscorekeeper.create_app")
    assert loaded == ["flask", "flask_wtf", "sqlite_utils", "weasyprint", "wtforms"]


def test_flask_finds_the_factory_in_the_package(tmp_path):
    """`flask --app scorekeeper routes` (and so `flask --app scorekeeper run`)
    finds create_app in the package and lists every route of the app."""
    done = subprocess.run(
        [sys.executable, "-m", "flask", "--app", "scorekeeper", "routes", "--sort", "rule"],
        cwd=tmp_path,
        env={
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "SCOREKEEPER_INSTANCE": str(tmp_path / "instance"),
        },
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (done.returncode, done.stderr) == (0, "")
    header, ruler, *rows = done.stdout.splitlines()
    assert header.split() == ["Endpoint", "Methods", "Rule"]
    listed = {(row.split()[0], row.split()[-1]) for row in rows}
    import scorekeeper.app

    app = scorekeeper.app.create_app({"TESTING": True, "DATABASE": str(tmp_path / "t.db")})
    assert listed == {(rule.endpoint, rule.rule) for rule in app.url_map.iter_rules()}
    assert ("sheets.sheet_pdf", "/m/<match:match_id>/sheet.pdf") in listed
    assert (tmp_path / "instance" / "scorekeeper.db").is_file()


# --- one front door for every name ----------------------------------------------------


def defined_names(path: Path) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments,
    also under a top-level `if` or `try`); never the names it imports."""
    names: set[str] = set()
    body = list(ast.parse(path.read_text(encoding="utf-8")).body)
    while body:
        node = body.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        elif isinstance(node, ast.If | ast.Try):
            body += [*node.body, *node.orelse, *getattr(node, "finalbody", [])]
            body += [item for handler in getattr(node, "handlers", []) for item in handler.body]
    return names


def _exported(path: Path) -> list[str]:
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
        ):
            return [ast.literal_eval(item) for item in node.value.elts]
    return []


def imported_elsewhere(
    modules: dict[str, Path], files: list[Path], root: Path, top: str
) -> list[str]:
    """Every `from <a module of top> import name` in `files` whose module does not
    define `name` (a second front door), and every `__all__` entry a module of
    `top` does not define, one line each."""
    defined = {name: defined_names(path) for name, path in modules.items()}
    found = []
    for path in files:
        inside = path.is_relative_to(root / top)
        name = module_name(path, root) if inside else ""
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            source = _source(name, path, node) if inside else node.module or ""
            if source not in modules:
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" not in modules and alias.name not in defined[source]:
                    where = path.relative_to(root)
                    found.append(f"{where}:{node.lineno} imports {alias.name} from {source}")
        if inside:
            found += [
                f"{path.relative_to(root)}: __all__ names {n}, which it only imports"
                for n in _exported(path)
                if n not in defined[name]
            ]
    return found


CODE = sorted(
    path
    for folder in ("scorekeeper", "tests", "benchmarks", "scripts")
    for path in (ROOT / folder).rglob("*.py")
)


def test_every_name_is_imported_from_the_module_that_defines_it():
    """One front door each: the games from games/catalog.py, the outcome and
    problem types from games/common.py, the match types from model.py …,
    in the package, its tests, benchmarks and scripts."""
    assert imported_elsewhere(MODULES, CODE, ROOT, "scorekeeper") == []


def test_a_second_front_door_is_found(tmp_path):
    files = {
        "planted/__init__.py": "",
        "planted/catalog.py": "GAMES = []\nVARIANTS = {}\n",
        "planted/variants.py": (
            "from .catalog import VARIANTS\n__all__ = ['VARIANTS', 'replay']\ndef replay(): ...\n"
        ),
        "planted/views.py": (
            "from planted.catalog import GAMES\nfrom .variants import VARIANTS, replay\n"
        ),
    }
    modules = _plant(tmp_path, files)
    assert imported_elsewhere(modules, sorted(modules.values()), tmp_path, "planted") == [
        "planted/variants.py: __all__ names VARIANTS, which it only imports",
        "planted/views.py:2 imports VARIANTS from planted.variants",
    ]


# --- the model at the bottom ----------------------------------------------------------


def test_the_model_imports_nothing_of_scorekeeper():
    assert GRAPH["scorekeeper.model"] == set()
    assert OUTSIDE["scorekeeper.model"] == {
        "__future__",
        "collections",
        "dataclasses",
        "datetime",
        "decimal",
        "fractions",
        "typing",
    }


@pytest.mark.parametrize(
    "name", ["scorekeeper.matchfile", "scorekeeper.ledger", "scorekeeper.stats"]
)
def test_the_parser_the_ledger_and_the_statistics_import_the_model(name):
    assert "scorekeeper.model" in GRAPH[name]


BELOW_THE_PARSER = sorted(
    name
    for name in MODULES
    if name.startswith(("scorekeeper.games", "scorekeeper.sheets")) and not name.endswith(".entry")
) + ["scorekeeper.ledger", "scorekeeper.stats"]


@pytest.mark.parametrize("name", BELOW_THE_PARSER)
def test_the_games_sheets_ledger_and_statistics_never_reach_the_parser(name):
    """They name a match by the model's type, never by importing the match file."""
    assert "scorekeeper.matchfile" not in reachable(GRAPH, name)


def test_the_match_stake_and_summary_types_live_in_the_model():
    import scorekeeper.model

    kept = ("Match", "Stake", "MatchSummary", "Seat", "PlayerTally", "PartnerTally")
    assert {n: getattr(scorekeeper.model, n).__module__ for n in kept} == {
        n: "scorekeeper.model" for n in kept
    }


# --- SQL in the storage layer only ------------------------------------------------------

# The storage layer: the connection, the one write path and the matches (db.py),
# the store's frozen history (migrations.py), and the groups' and summaries'
# rows (store/). No other module holds a statement or a sqlite-utils call.
STORAGE = {"scorekeeper.db", "scorekeeper.migrations"}
STORAGE_PACKAGE = "scorekeeper.store"

# Methods that only a database answers (sqlite3's and sqlite-utils'), and those
# that are SQL when called on a table (`db["groups"].insert(…)`, never a list's).
DATABASE_METHODS = {
    "execute",
    "executemany",
    "executescript",
    "query",
    "table",
    "insert_all",
    "upsert",
    "upsert_all",
    "rows_where",
    "delete_where",
    "create_table",
    "create_index",
    "enable_fts",
}
TABLE_METHODS = {"insert", "update", "delete", "create", "lookup", "get", "transform", "drop"}
TABLE_ATTRIBUTES = {"rows", "count", "pks", "columns", "columns_dict"}
# A statement written out: its first words, as SQL (not English) starts it.
STATEMENT = re.compile(
    r"\s*(select\s+(\*|distinct\s|\(|\w+\(|[\w.]+\s*(,|as\s|from\s))"
    r"|insert\s+(or\s+\w+\s+)?into\s|update\s+\w+\s+set\s|delete\s+from\s+\w+\s*(where\b|$)|create\s+(unique\s+)?(table|index|view|trigger)\s|pragma\s"
    r"|alter\s+table\s|drop\s+(table|index)\s|begin(\s+immediate)?\s*$|commit\s*$|rollback\s*$"
    r"|with\s+\w+\s+as\s*\()",
    re.IGNORECASE | re.DOTALL,
)


def _table(node: ast.expr) -> bool:
    """`db["groups"]`, `db[name]` or `db.table("groups")`: a table of sqlite-utils."""
    if isinstance(node, ast.Subscript):
        named = isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str)
        base = node.value.attr if isinstance(node.value, ast.Attribute) else node.value
        return named or getattr(base, "id", base) in ("db", "database")
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "table"
    )


def sql_in(path: Path) -> list[str]:
    """Each place in the file at `path` that holds SQL: a database method called,
    a table's method or rows read, `sqlite3.connect` or `Database(…)` opened, a
    statement written in a string. One line each, "line: what"."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
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
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            attr, owner = node.func.attr, node.func.value
            if attr in DATABASE_METHODS or (attr in TABLE_METHODS and _table(owner)):
                found.append(f"{node.lineno}: .{attr}()")
            elif attr == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3":
                found.append(f"{node.lineno}: sqlite3.connect()")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id == "Database":
                found.append(f"{node.lineno}: Database()")
        elif isinstance(node, ast.Attribute):
            if node.attr in TABLE_ATTRIBUTES and _table(node.value):
                found.append(f"{node.lineno}: .{node.attr}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            sql = id(node) not in docstrings and STATEMENT.match(node.value)
            if sql:
                found.append(f"{node.lineno}: {' '.join(node.value.split())[:40]!r}")
    return sorted(found, key=lambda line: int(line.split(":")[0]))


def _storage(name: str) -> bool:
    return name in STORAGE or name == STORAGE_PACKAGE or name.startswith(STORAGE_PACKAGE + ".")


def test_no_sql_outside_the_storage_layer():
    found = {
        name: sql_in(path) for name, path in MODULES.items() if not _storage(name) and sql_in(path)
    }
    assert found == {}


def test_the_storage_layer_is_where_the_sql_is():
    """The finder's control: it finds the statements where they are."""

    def what(name: str) -> set[str]:
        return {line.split(": ", 1)[1] for line in sql_in(MODULES[name])}

    assert {".execute()", "'PRAGMA journal_mode = DELETE'"} <= what("scorekeeper.db")
    assert {".query()", "'select id from groups where watch = ?'"} <= what(
        "scorekeeper.store.groups"
    )
    assert {".execute()", ".query()"} <= what("scorekeeper.store.journal")
    assert ".create()" in what("scorekeeper.migrations")


PLANTED_SQL = '''\
"""Select the players from the list (a docstring, English, not SQL)."""
import sqlite3
from sqlite_utils import Database

ROWS = """
select id from groups where name = ?
"""

def read(db, names):
    """Update the names: never SQL in a docstring."""
    names.insert(0, "Ann")  # a list's insert
    names.update({"Bob": 1}) if isinstance(names, dict) else None
    db["groups"].insert({"id": 1})
    db[names[0]].insert({"id": 2})
    names[0].insert(0, "Cy")  # a list in a list
    db.table("matches").update(1, {"title": "x"})
    ids = [row["id"] for row in db["groups"].rows]
    db.execute("PRAGMA journal_mode = DELETE")
    db.conn.executemany("x", [])
    message = "Delete from the group: choose a member"
    message = "Select the players from the list, or select one."
    sqlite3.connect(":memory:")
    Database(memory=True)
    return list(db.query(ROWS)), ids, message, f"insert into t values ({1})"
'''


def test_the_sql_finder_finds_each_kind_and_no_english(tmp_path):
    path = tmp_path / "planted.py"
    path.write_text(PLANTED_SQL, encoding="utf-8")
    assert sql_in(path) == [
        "5: 'select id from groups where name = ?'",
        "13: .insert()",
        "14: .insert()",
        "16: .update()",
        "16: .table()",
        "17: .rows",
        "18: .execute()",
        "18: 'PRAGMA journal_mode = DELETE'",
        "19: .executemany()",
        "22: sqlite3.connect()",
        "23: Database()",
        "24: .query()",
        "24: 'insert into t values ('",
    ]


# --- thin views: a view module imports no other, and no view function runs long ------


def view_modules(modules: dict[str, Path], package: str = "scorekeeper.views") -> set[str]:
    """The modules of `package` that define routes: those that make a Blueprint at
    their top level. The package's other modules are what the views share."""
    found = set()
    for name, path in modules.items():
        if not name.startswith(f"{package}."):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            value = getattr(node, "value", None)
            if isinstance(node, ast.Assign | ast.AnnAssign) and isinstance(value, ast.Call):
                called = value.func
                if getattr(called, "id", getattr(called, "attr", None)) == "Blueprint":
                    found.add(name)
    return found


def views_importing_views(graph: dict[str, set[str]], views: set[str]) -> list[str]:
    return sorted(f"{v} imports {w}" for v in views for w in graph[v] & views)


def test_a_view_module_importing_another_is_found(tmp_path):
    files = {
        "planted/__init__.py": "",
        "planted/views/__init__.py": "",
        "planted/views/shared.py": "def helper(): ...\n",
        "planted/views/a.py": (
            "from flask import Blueprint\nfrom .shared import helper\n"
            "bp = Blueprint('a', __name__)\n"
        ),
        "planted/views/b.py": (
            "import flask\nfrom . import a\nbp: flask.Blueprint = flask.Blueprint('b', __name__)\n"
        ),
    }
    modules = _plant(tmp_path, files)
    graph, _ = import_graph(modules, top="planted")
    views = view_modules(modules, "planted.views")
    assert views == {"planted.views.a", "planted.views.b"}
    assert views_importing_views(graph, views) == ["planted.views.b imports planted.views.a"]


def test_no_view_module_imports_another():
    """A page's data, its CSV rows and its PDF answer live below the views
    (scorekeeper/viewmodels/); what several views share (pages, commands,
    messages, phone, routing…) is a module of views/ that defines no routes."""
    views = view_modules(MODULES)
    assert {"scorekeeper.views.groups", "scorekeeper.views.ledger"} <= views
    assert "scorekeeper.views.pages" not in views
    assert views_importing_views(GRAPH, views) == []


MAX_VIEW_FUNCTION_LINES = 50


def long_functions(path: Path, limit: int) -> list[str]:
    """Each function of `path` longer than `limit` lines, from `def` to its last line."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            if length > limit:
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
                found.append(f"{where}:{node.lineno} {node.name}: {length} lines")
    return found


def test_the_length_of_a_function_is_measured_from_def_to_its_last_line(tmp_path):
    planted = tmp_path / "planted.py"
    body = "".join(f"    x{i} = {i}\n" for i in range(4))
    planted.write_text(f"@decorated\ndef four():\n{body}\n\ndef one(): ...\n", encoding="utf-8")
    assert long_functions(planted, 5) == []
    assert [line.split(" ", 1)[1] for line in long_functions(planted, 4)] == ["four: 5 lines"]


def test_no_function_in_the_views_or_their_view_models_runs_over_fifty_lines():
    found = [
        line
        for folder in ("views", "viewmodels")
        for path in sorted((PACKAGE / folder).glob("*.py"))
        for line in long_functions(path, MAX_VIEW_FUNCTION_LINES)
    ]
    assert found == []


# --- undo, "what changed since" and form keys: one mechanism for matches and groups ----

GROUP_MODULES = sorted(name for name in MODULES if name.startswith("scorekeeper.groups"))


def test_the_groups_package_has_its_modules():
    assert GROUP_MODULES == [
        "scorekeeper.groups",
        "scorekeeper.groups.checks",
        "scorekeeper.groups.document",
        "scorekeeper.groups.mapping",
        "scorekeeper.groups.plans",
        "scorekeeper.groups.said",
        "scorekeeper.groups.state",
    ]


@pytest.mark.parametrize("name", GROUP_MODULES)
def test_the_groups_modules_stand_below_the_views_and_are_short(name):
    reached = reachable(GRAPH, name)
    assert {m for m in reached if _in_the_app_layer(m) or m == "scorekeeper.app"} == set()
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= 450
    assert long_functions(MODULES[name], MAX_VIEW_FUNCTION_LINES) == []


def test_the_shared_undo_rules_are_pure_and_both_logs_use_them():
    assert GRAPH["scorekeeper.undo"] == {"scorekeeper.speech"}
    reached = reachable(GRAPH, "scorekeeper.undo")
    assert set().union(*(OUTSIDE[m] for m in reached)) & set(HEAVY) == set()
    users = sorted(name for name, imported in GRAPH.items() if "scorekeeper.undo" in imported)
    assert users == [
        "scorekeeper.changelog",
        "scorekeeper.db",
        "scorekeeper.groups",
        "scorekeeper.groups.plans",
        "scorekeeper.views.groups",
    ]


UNDO_NAMES = {"undoable", "_undo_plan", "_conflicts", "newest_standing", "undo_target"}


def own_undo_search(path: Path) -> list[str]:
    """Each function of `path` that searches a change log for what was undone
    (reads `.undoes` inside a loop or a comprehension), and each one named like
    the shared rules that does more than hand over to undo.py."""
    found = []
    for func in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(func, ast.FunctionDef):
            continue
        loops = [
            node
            for node in ast.walk(func)
            if isinstance(node, ast.For | ast.While | ast.comprehension)
        ]
        if any(
            isinstance(inner, ast.Attribute) and inner.attr == "undoes"
            for loop in loops
            for inner in ast.walk(loop)
        ):
            found.append(f"{func.name}: searches the log")
        body = [s for s in func.body if not isinstance(s, ast.Expr)]  # the docstring aside
        handed_over = (
            len(body) == 1
            and isinstance(body[0], ast.Return)
            and isinstance(body[0].value, ast.Call)
            and getattr(body[0].value.func, "id", "") in UNDO_NAMES
        )
        if func.name in UNDO_NAMES and not handed_over:
            found.append(f"{func.name}: an undo rule of its own")
    return found


OWN_UNDO_PLANTED = '''\
def undoable(changes):
    undone = set()
    for change in reversed(changes):
        if change.undoes is not None:
            undone.add(change.undoes)
        elif change.revision not in undone:
            return change


class State:
    def undoable(self):
        """Handed over: the shared rule."""
        return newest_standing(self.log)


def _conflicts(since, touched):
    return [c for c in since if set(c.after) & touched]
'''


def test_an_undo_search_of_its_own_is_found(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(OWN_UNDO_PLANTED, encoding="utf-8")
    assert own_undo_search(planted) == [
        "undoable: searches the log",
        "undoable: an undo rule of its own",
        "_conflicts: an undo rule of its own",
    ]


@pytest.mark.parametrize("name", ["scorekeeper.changelog", "scorekeeper.db", *GROUP_MODULES])
def test_the_match_and_the_groups_undo_through_the_shared_rules_only(name):
    """Which change an Undo takes back, and what a form must not overlook, are
    undo.py's: the change log and the groups keep no copy of their own."""
    assert own_undo_search(MODULES[name]) == []
