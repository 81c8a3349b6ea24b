"""Every tap in the browser tests that may leave the page is waited for before
the page is read (issue 24, point 12: a fit check once read a page while a
link's navigation was under way, found no <html> and failed; the next run
passed).

Each tap in tests/browser/ (`click`, `dblclick`, `tap`, Enter pressed, a form
submitted or clicked from `evaluate`, a Back, Forward, reload or goto that waits
only for the commit) must be one of:

- inside `with ….expect_navigation()` (or `expect_download`, `expect_popup`);
  `click_and_wait` in tests/browser/conftest.py is that;
- followed at once by a wait: a call named `wait…` (`wait_for_url`,
  `wait_for_selector`, `wait_for_function`, `locator.wait_for`, a helper such as
  `wait_for_hand_form`) or an `expect(…)` on the page, statement after statement
  as the test runs (the end of an `if` or a loop body goes on after it);
- a tap that stays on the page by its nature: its selector names a details'
  summary, a button group's label, a checkbox's label, the heading, or one of
  the hand forms' script buttons (IN_PLACE, each with its reason);
- marked `# in place` at the end of its line, where the target is not a
  selector the check can read (an element found by a helper, a key pressed).

The selector is read from the call (a string, an f-string's fixed parts, a
name assigned a string or looped over strings in the same function or module),
or, for a locator's own `.click()`, from the `locator(…)` it came from. A tap on
a parameter of its function (`Table.tap`) is checked where the function is
called. What this cannot see: a tap made inside a `lambda` (checked where it is
called, by the reader), a click by coordinates (`page.mouse.click`: no target to
name), and a wait that waits for nothing, such as `wait_for_url` of the address
the page is already on (the tests' own comments say why each wait is there).
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from pathlib import Path

import pytest

BROWSER = Path(__file__).resolve().parent / "browser"
TAPS = {"click", "dblclick", "tap"}
AROUND = {"expect_navigation", "expect_download", "expect_popup"}
COMMIT_ONLY = {"goto", "go_back", "go_forward", "reload"}  # with wait_until="commit"
MARK = "# in place"

IN_PLACE = re.compile(
    "|".join(
        [
            r"summary",  # opens or closes a <details> box
            r"\+ label",  # a button group's label: it ticks its radio
            r"^label:has\(",  # the label of a checkbox: it ticks the box
            r"^h1$",  # the heading: a tap anywhere (a gesture for the wake lock)
            r"^#hcp",  # Mini Bridge's HCP boxes and their pad (type=button)
            r"^#call-",  # Need a Fourth?'s auction buttons (type=button)
            r"^#structured-list input",  # a structured bid's tick box
            r"^#p\d_",  # a Calypso count box
        ]
    )
)


@dataclass(frozen=True)
class Tap:
    path: str
    line: int
    code: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code}"


class Module:
    """One test file, parsed, with each node's parent and the marked lines."""

    def __init__(self, source: str, path: str):
        self.path = path
        self.lines = source.splitlines()
        self.tree = ast.parse(source)
        self.parent: dict[ast.AST, ast.AST] = {}
        for node in ast.walk(self.tree):
            for child in ast.iter_child_nodes(node):
                self.parent[child] = node
        self.marked = {
            token.start[0]
            for token in tokenize.generate_tokens(io.StringIO(source).readline)
            if token.type == tokenize.COMMENT and token.string.startswith(MARK)
        }

    def ancestors(self, node: ast.AST):
        while node in self.parent:
            node = self.parent[node]
            yield node

    def function(self, node: ast.AST) -> ast.AST:
        """The function (or lambda, or the module) a node belongs to."""
        for up in self.ancestors(node):
            if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                return up
        return self.tree


def strings(module: Module, node: ast.AST, scope: ast.AST, seen=()) -> set[str] | None:
    """The selector strings `node` can be, or None when they cannot be read.
    "" stands for a parameter of the function (checked where it is called)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return {node.value}
    if isinstance(node, ast.JoinedStr):
        return {"".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)}
    if isinstance(node, ast.Name) and node.id not in seen:
        return named(module, node, scope, (*seen, node.id))
    if isinstance(node, ast.Attribute | ast.Subscript):
        return strings(module, node.value, scope, seen)
    if isinstance(node, ast.Call):
        if node.args and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
            return strings(module, node.args[0], scope, seen)
        if isinstance(node.func, ast.Attribute):
            return strings(module, node.func.value, scope, seen)
    return None


def named(module: Module, name: ast.Name, scope: ast.AST, seen) -> set[str] | None:
    for where in (scope, module.tree):
        if isinstance(where, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            arguments = where.args
            every = arguments.posonlyargs + arguments.args + arguments.kwonlyargs
            if name.id in {a.arg for a in every}:
                return {""}
        found: set[str] = set()
        nodes = ast.walk(where) if where is scope else where.body  # the module's own names
        for node in nodes:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name.id for t in node.targets
            ):
                values = [node.value]
            elif isinstance(node, ast.For) and (
                isinstance(node.target, ast.Name) and node.target.id == name.id
            ):
                if not isinstance(node.iter, ast.Tuple | ast.List):
                    return None
                values = node.iter.elts
            else:
                continue
            for value in values:
                read = strings(module, value, where, seen)
                if read is None:
                    return None
                found |= read
        if found:
            return found
    return None


def target(module: Module, call: ast.Call) -> set[str] | None:
    """The selectors a tap call taps."""
    scope = module.function(call)
    if call.args:
        return strings(module, call.args[0], scope)
    return strings(module, call.func.value, scope)


def kind(call: ast.Call) -> str | None:
    """What a call is, for this check: "tap", "leaves" (may leave the page,
    whatever it taps) or None (not checked)."""
    func = call.func
    if not isinstance(func, ast.Attribute):
        return None
    receiver = func.value
    if func.attr in TAPS:
        if isinstance(receiver, ast.Attribute) and receiver.attr == "mouse":
            return None  # by coordinates: no target to name
        return "tap"
    if func.attr == "press":
        keys = [a.value for a in call.args if isinstance(a, ast.Constant)]
        return "leaves" if "Enter" in keys else None
    if func.attr in COMMIT_ONLY:
        until = {k.arg: k.value for k in call.keywords}.get("wait_until")
        if isinstance(until, ast.Constant) and until.value == "commit":
            return "leaves"
        return None
    if func.attr == "evaluate" and call.args:
        script = call.args[0]
        text = script.value if isinstance(script, ast.Constant) else ""
        if isinstance(text, str) and re.search(r"\.(submit|requestSubmit|click)\(", text):
            return "leaves"
    return None


def is_wait(statement: ast.stmt | None) -> bool:
    """A statement that waits for the page: a call named wait… or an expect(…)."""
    if isinstance(statement, ast.Expr | ast.Assign):
        node = statement.value
    else:
        return False
    while isinstance(node, ast.Call | ast.Attribute):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name.startswith("wait") or name == "expect":
                return True
            node = func
        else:
            node = node.value
    return False


def next_statement(module: Module, node: ast.AST) -> ast.stmt | None:
    """The statement that runs after the one holding `node`: the next in its
    block, or after the block's compound statement (an if, a loop, a with)."""
    statement = node
    while not isinstance(statement, ast.stmt):
        statement = module.parent[statement]
    while (up := module.parent.get(statement)) is not None:
        for field in ("body", "orelse", "finalbody"):
            block = getattr(up, field, None)
            if isinstance(block, list) and statement in block:
                place = block.index(statement)
                if place + 1 < len(block):
                    return block[place + 1]
        if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.Module):
            return None
        statement = up
    return None


def inside_a_wait(module: Module, call: ast.Call) -> bool:
    for up in module.ancestors(call):
        if isinstance(up, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            return False
        if isinstance(up, ast.With):
            for item in up.items:
                expression = item.context_expr
                if (
                    isinstance(expression, ast.Call)
                    and isinstance(expression.func, ast.Attribute)
                    and expression.func.attr in AROUND
                ):
                    return True
    return False


def unwaited(source: str, path: str = "<test>") -> list[Tap]:
    """The taps of a test file that may leave the page and are not waited for."""
    module = Module(source, path)
    found = []
    for call in ast.walk(module.tree):
        if not isinstance(call, ast.Call) or (what := kind(call)) is None:
            continue
        if isinstance(module.function(call), ast.Lambda):
            continue  # checked where the lambda is called, by the reader
        if call.lineno in module.marked or inside_a_wait(module, call):
            continue
        if is_wait(next_statement(module, call)):
            continue
        if what == "tap":
            selectors = target(module, call)
            if selectors == {""}:
                continue  # a parameter: checked where the function is called
            if selectors and all(s and IN_PLACE.search(s) for s in selectors - {""}):
                continue
        code = module.lines[call.lineno - 1].strip()
        found.append(Tap(path, call.lineno, code))
    return found


def test_every_tap_that_may_leave_the_page_is_waited_for():
    found = [
        tap
        for path in sorted(BROWSER.glob("*.py"))
        for tap in unwaited(path.read_text(encoding="utf-8"), path.name)
    ]
    assert found == [], (
        "a tap that may leave the page, then no wait (use click_and_wait or"
        " `with page.expect_navigation():`, or an expect on the next page; a tap that"
        f" stays on the page: end its line with {MARK!r}):\n" + "\n".join(map(str, found))
    )


# The check itself, on small examples: what it must see and what it must let pass.
SEEN = {
    "a link, then a read": """
def f(page, look):
    page.click(".match-list a")
    look("mapping form")
""",
    "a button, then a plain assert": """
def f(page):
    page.click("#save")
    assert page.inner_text("h1") == "Hand 2"
""",
    "a locator's own click": """
def f(page):
    undo = page.locator(".flash-undo button")
    undo.click()
    assert "Undone" in page.inner_text("main")
""",
    "Enter pressed in a form": """
def f(page):
    page.press("#title", "Enter")
    assert page.url.endswith("/m/x")
""",
    "a form submitted from a script": """
def f(page):
    page.evaluate("document.querySelector('form').submit()")
    assert page.url
""",
    "Back, waited for to the commit only": """
def f(page):
    page.go_back(wait_until="commit")
    assert page.evaluate("window.__marker") == 1
""",
    "a tap looped over, one of them a link": """
def f(table):
    for selector in ("#call-P", "#new-hand"):
        table.tap(selector)
    read(table)
""",
    "the last statement of a function": """
def f(page):
    page.click("#delete-match")
""",
}
PASSED = {
    "inside expect_navigation": """
def f(page, look):
    with page.expect_navigation():
        page.click(".match-list a")
    look("mapping form")
""",
    "click_and_wait": """
def f(page, look):
    click_and_wait(page, ".match-list a")
    look("mapping form")
""",
    "followed by a wait for the next page": """
def f(page):
    page.click("#new-hand")
    page.wait_for_url(re.compile(r".*/hand/new$"))
""",
    "followed by an expect": """
def f(page):
    page.click("#record-payment")
    expect(page.locator("#pay_amount-error")).to_have_count(1)
""",
    "the wait after the if": """
def f(page, down):
    if down:
        page.click("#save")
    else:
        page.click("#save")
    page.wait_for_selector(".not-sent")
""",
    "a details box opened": """
def f(page):
    page.click("#share summary")
    page.inner_text("#share-watch code")
""",
    "a button group's label, in an f-string": """
def f(table, field, value):
    table.tap(f'#group-{field} input[value="{value}"] + label')
    read(table)
""",
    "a parameter: checked at the call": """
def tap(self, selector):
    self.page.click(selector)
    self.taps += 1
""",
    "marked in place": """
def f(labels):
    labels[0].click()  # in place: a button group's label
    count()
""",
}


@pytest.mark.parametrize("source", SEEN.values(), ids=SEEN.keys())
def test_the_check_sees_an_unwaited_tap(source):
    assert len(unwaited(source)) == 1


@pytest.mark.parametrize("source", PASSED.values(), ids=PASSED.keys())
def test_the_check_lets_a_waited_or_in_place_tap_pass(source):
    assert unwaited(source) == []
