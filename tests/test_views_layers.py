"""The views and the app factory import downwards only: no import cycle through
them, and no import inside a function there (the way a cycle is usually hidden).
Read from the source with `ast`, every import counted, also those in functions."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def is_package(name: str) -> bool:
    return MODULES[name].name == "__init__.py"


def imported(name: str, node: ast.Import | ast.ImportFrom) -> set[str]:
    """The package's modules `node` (in module `name`) imports: `from . import x`
    counts x when x is a module, else the package it is read from."""
    if isinstance(node, ast.Import):
        targets = [alias.name for alias in node.names]
    else:
        base = name if is_package(name) else name.rpartition(".")[0]
        for _ in range(node.level - 1):
            base = base.rpartition(".")[0]
        source = node.module or ""
        if node.level:
            source = f"{base}.{source}" if source else base
        targets = [f"{source}.{alias.name}" for alias in node.names]
        targets = [t if t in MODULES else source for t in targets]
    found = set()
    for target in targets:
        while target and target not in MODULES:  # `import a.b.c` imports a.b.c
            target = target.rpartition(".")[0]
        if target:
            found.add(target)
    return found


def edges() -> dict[str, set[str]]:
    """Each module's imports of the package's modules; importing `a.b.c` also
    runs `a/__init__` and `a/b/__init__`."""
    graph: dict[str, set[str]] = {}
    for name, path in MODULES.items():
        # A module's own packages are run before it: importing one of their
        # modules does not import them again (naming one of their names does).
        own = {".".join(name.split(".")[:n]) for n in range(1, name.count(".") + 1)}
        out: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for target in imported(name, node):
                    parts = target.split(".")
                    out.add(target)
                    out.update({".".join(parts[:n]) for n in range(1, len(parts))} - own)
        out.discard(name)
        graph[name] = out
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                top = stack.pop()
                group.append(top)
                if top == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return groups


def watched(name: str) -> bool:
    return (
        name == "scorekeeper"
        or name == "scorekeeper.views"
        or name.startswith("scorekeeper.views.")
    )


def test_the_graph_sees_imports_of_every_kind():
    graph = edges()
    assert {"scorekeeper.views.pages", "scorekeeper.db"} <= graph["scorekeeper.views.live"]
    assert "scorekeeper.extensions" in graph["scorekeeper.views.live"]
    assert "scorekeeper.views.hands" in graph["scorekeeper.app"]
    # A function-level import counts too (cli opens the app only when asked).
    assert "scorekeeper.app" in graph["scorekeeper.cli"]
    assert "scorekeeper" in graph["scorekeeper.app"]  # from . import instance_folder…
    assert "scorekeeper" not in graph["scorekeeper.db"]  # from .changelog import …
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_import_cycle_runs_through_the_views_or_the_package():
    tangled = [group for group in cycles(edges()) if any(watched(m) for m in group)]
    assert tangled == []


def test_no_blueprint_imports_another():
    blueprints = {f"scorekeeper.views.{n}" for n in ("matches", "hands", "history", "live")}
    blueprints |= {"scorekeeper.views.sheets", "scorekeeper.views.rules"}
    graph = edges()
    assert {b: sorted(graph[b] & blueprints) for b in blueprints} == {b: [] for b in blueprints}


def test_no_import_inside_a_function_in_the_views_or_the_package():
    found = []
    for name, path in MODULES.items():
        if not watched(name):
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
    assert edges()["scorekeeper"] == set()
