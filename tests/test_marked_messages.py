"""Every message said through `_()`, `ngettext()` or `pgettext()` reaches the
catalogs: `pybabel extract` only finds a message written as a string literal
in the call itself or marked where it is written with `N_()` (docs/languages.md).
A message passed through a variable without `N_()` would stay English in every
language, so this test reads the code (ast over scorekeeper/) and refuses it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"

# Which positional arguments of each call are messages (the others are counts,
# a context is a literal too).
MESSAGES = {
    "_": (0,),
    "gettext": (0,),
    "lazy_gettext": (0,),
    "ngettext": (0, 1),
    "lazy_ngettext": (0, 1),
    "pgettext": (0, 1),
    "lazy_pgettext": (0, 1),
    "npgettext": (0, 1, 2),
}

# (file under scorekeeper/, function): why its message need not be marked there.
ALLOWED = {
    ("speech.py", "__str__"): "says a Said's own message, marked where the Said was made",
}


def _name(call: ast.Call) -> str | None:
    if isinstance(call.func, ast.Name):
        return call.func.id
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return None


def _literal(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _marked(node: ast.AST) -> bool:
    """`N_("…")`, or a choice between two marked values."""
    if isinstance(node, ast.Call) and _name(node) == "N_":
        return len(node.args) == 1 and _literal(node.args[0])
    if isinstance(node, ast.IfExp):
        return _marked(node.body) and _marked(node.orelse)
    return False


def _marked_table(node: ast.AST) -> bool:
    """A dict, tuple or list whose every message is `N_("…")`."""
    if isinstance(node, ast.Dict):
        return bool(node.values) and all(_marked_table(v) for v in node.values)
    if isinstance(node, ast.Tuple | ast.List):
        return bool(node.elts) and all(_marked_table(e) for e in node.elts)
    return _marked(node)


NOT_GIVEN = ast.Constant(value=None)  # a name never given in a function: a constant


def _written_before(scope: ast.AST, name: str, line: int) -> ast.AST | None:
    """The value `name` was last given in `scope` before `line` (None when it
    was a parameter or a loop variable there: where it comes from is not
    written here; NOT_GIVEN when it is not given there at all)."""
    last: tuple[int, ast.AST | None] = (0, NOT_GIVEN)
    for node in ast.walk(scope):
        given: list[tuple[int, ast.AST | None]] = []
        if isinstance(node, ast.Assign):
            if any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
                given.append((node.lineno, node.value))
        elif isinstance(node, ast.AnnAssign | ast.AugAssign | ast.NamedExpr):
            if isinstance(node.target, ast.Name) and node.target.id == name:
                changed = isinstance(node, ast.AugAssign)  # `+=` on a message: not marked
                given.append((node.lineno, None if changed else node.value))
        elif isinstance(node, ast.For | ast.comprehension):
            if any(isinstance(t, ast.Name) and t.id == name for t in ast.walk(node.target)):
                given.append((getattr(node, "lineno", node.target.lineno), None))
        elif isinstance(node, ast.arg) and node.arg == name:
            given.append((node.lineno, None))
        for at, value in given:
            if last[0] <= at < line:
                last = (at, value)
    return last[1]


def marked_constants(tree: ast.Module) -> set[str]:
    """The module's names given a marked value or table of marked values."""
    return {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign | ast.AnnAssign) and node.value is not None
        for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        if isinstance(target, ast.Name) and _marked_table(node.value)
    }


def unmarked(source: str, filename: str = "<test>", imported: frozenset = frozenset()) -> list[str]:
    """Each message in `source` said through a value no `N_()` marks
    (`imported`: the names it imports that their own module marks)."""
    tree = ast.parse(source)
    tables = marked_constants(tree) | imported

    def from_table(node: ast.AST) -> bool:
        while isinstance(node, ast.Subscript):
            node = node.value
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "get"
            and all(from_table(a) or _marked(a) for a in node.args[1:])
        ):
            node = node.func.value
        return isinstance(node, ast.Name) and node.id in tables

    found = []

    def visit(node: ast.AST, scope: ast.AST, function: str) -> None:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            scope, function = node, node.name
        if isinstance(node, ast.Call) and _name(node) in MESSAGES:
            for i in MESSAGES[_name(node)]:
                if i >= len(node.args):
                    continue
                arg = node.args[i]
                if (
                    _literal(arg)
                    or _marked(arg)
                    or (not isinstance(arg, ast.Name) and from_table(arg))
                ):
                    continue
                if isinstance(arg, ast.Name):
                    given = _written_before(scope, arg.id, node.lineno)
                    if _marked(given) or (given is NOT_GIVEN and arg.id in tables):
                        continue
                if (filename, function) in ALLOWED:
                    continue
                found.append(f"{filename}:{node.lineno} {function}: {ast.unparse(node)[:90]}")
        for child in ast.iter_child_nodes(node):
            visit(child, scope, function)

    visit(tree, tree, "<module>")
    return found


def _module(path: Path) -> tuple[str, ...]:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return parts[:-1] if parts[-1] == "__init__" else parts


def test_every_message_said_through_a_value_is_marked_where_it_is_written():
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in PACKAGE.rglob("*.py")}
    constants = {_module(path): marked_constants(tree) for path, tree in trees.items()}
    found = []
    for path, tree in sorted(trees.items()):
        package = _module(path) if path.name == "__init__.py" else _module(path)[:-1]
        imported = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                base = package[: len(package) - node.level + 1] if node.level else ()
                module = (*base, *node.module.split(".")) if node.module else base
                imported |= {a.name for a in node.names} & constants.get(module, set())
        source = path.read_text(encoding="utf-8")
        found += unmarked(source, str(path.relative_to(PACKAGE)), frozenset(imported))
    assert found == []


@pytest.mark.parametrize(
    ("source", "count"),
    [
        ('def f(x):\n    message = "%(x)s is wrong"\n    return _(message, x=x)\n', 1),
        ('def f(x):\n    message = N_("%(x)s is wrong")\n    return _(message, x=x)\n', 0),
        ('def f(x, a):\n    m = N_("a") if a else "b"\n    return _(m)\n', 1),
        ('def f(x, a):\n    m = N_("a") if a else N_("b")\n    return _(m)\n', 0),
        ("def f(message):\n    return _(message)\n", 1),
        ('def f(x):\n    m = N_("a")\n    m = _("b")\n    return _(m)\n', 1),
        ('def f(x):\n    m = _("b")\n    m = N_("a")\n    return _(m)\n', 0),
        ("def f(xs):\n    for m in xs:\n        print(_(m))\n", 1),
        ('M = N_("a")\ndef f():\n    return _(M)\n', 0),
        ('M = "a"\ndef f():\n    return _(M)\n', 1),
        ('M = N_("a")\ndef f():\n    M = "b"\n    return _(M)\n', 1),
        ('def f(n):\n    return ngettext("%(num)d hand", plural, n)\n', 1),
        ('T = {"a": N_("A")}\ndef f(k):\n    return _(T[k])\n', 0),
        ('T = {"a": N_("A"), "b": "B"}\ndef f(k):\n    return _(T[k])\n', 1),
        ('T = {"a": (N_("A"), N_("B"))}\ndef f(k):\n    return _(T[k][0])\n', 0),
        ('def f(a):\n    return pgettext("csv column", a)\n', 1),
        ('def f():\n    return pgettext("csv column", "game")\n', 0),
        ('def f():\n    return speech._("%(x)s")\n', 0),
    ],
)
def test_the_check_tells_a_marked_message_from_an_unmarked_one(source, count):
    assert len(unmarked(source)) == count
