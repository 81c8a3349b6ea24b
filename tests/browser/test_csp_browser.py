"""Every kind of page under the app's Content-Security-Policy, in Chromium: no
inline style or script is refused, even after the hand form's scripts ran; and
axe-core (bundled by axe-playwright-python, so offline) finds no accessibility
violation on one page of each kind.

Addresses are always taken from the pages' own links and redirects: match ids
are random strings."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe

from .conftest import PHONE

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VARIANTS = sorted(p.stem for p in EXAMPLES.glob("*.json"))  # one example evening per variant

# Runs before any script of every document: keeps what the browser refused.
RECORD_VIOLATIONS = """
window.__cspViolations = [];
document.addEventListener("securitypolicyviolation", (event) => {
  window.__cspViolations.push(
    `${event.violatedDirective} blocked ${event.blockedURI || "inline"}`
    + ` at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
});
"""
# The violation events are queued tasks: read them after the ones queued so far have run.
READ_VIOLATIONS = "() => new Promise((done) => setTimeout(() => done(window.__cspViolations)))"


class Watched:
    """A phone whose every page is checked against the Content-Security-Policy:
    the console's "Content Security Policy" messages and `securitypolicyviolation`
    events, collected per page before it is left."""

    def __init__(self, page, server: str):
        self.page = page
        self.server = server
        self.console: list[str] = []
        self.refused: dict[str, list[str]] = {}
        page.on("console", self._console)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text:
            self.console.append(message.text)

    def check(self, what: str) -> None:
        """Record what this page had refused so far, under `what`."""
        seen = self.console + (self.page.evaluate(READ_VIOLATIONS) or [])
        self.console = []
        if seen:
            self.refused[f"{what} {self.page.url}"] = seen

    def visit(self, what: str, url: str) -> None:
        self.page.goto(url)
        self.check(what)

    def address(self, selector: str) -> str:
        """The absolute address a link of this page points to."""
        return self.page.eval_on_selector(selector, "a => a.href")


def report(found: dict[str, list[str]]) -> str:
    """One line per page, one indented line per finding."""
    return "\n".join(f"{page}:\n  " + "\n  ".join(lines) for page, lines in found.items())


@dataclass
class Evening:
    """The pages of one variant's match, as linked from its match page."""

    match: str
    edit_hand: str
    history: str
    settle: str
    settings: str
    rules: str
    watch: str


def import_example(phone: Watched, variant: str) -> Evening:
    """Import the variant's example file from the home page; read the match page's links."""
    page = phone.page
    phone.visit("home", phone.server + "/")
    form = "form[action$='/import']"
    page.set_input_files(f"{form} input[type=file]", str(EXAMPLES / f"{variant}.json"))
    with page.expect_navigation():
        page.click(f"{form} button")
    phone.check("match page")
    # The watch address is shown (in the closed Share box) for another phone on the
    # Wi-Fi: keep its path only.
    watch = urlsplit(page.text_content("#share-watch code").strip()).path
    assert watch.startswith("/w/"), watch
    return Evening(
        match=page.url,
        edit_hand=phone.address(".log .actions a.button"),
        history=phone.address("a.button:text-is('History')"),
        settle=phone.address("a.button:text-is('Settle up')"),
        settings=phone.address("a.button:text-is('Title & stake')"),
        rules=phone.address("a.button:text-is('Rules')"),
        watch=phone.server + watch,
    )


def start_match(phone: Watched, variant: str) -> str:
    """Start a match of the example's players from /new; return its new-hand address."""
    page = phone.page
    players = json.loads((EXAMPLES / f"{variant}.json").read_text())["players"]
    phone.visit("new match", phone.server + "/new")
    page.check(f'input[name=variant][value="{variant}"]')  # app.js shows its options
    for i, name in enumerate(players, 1):
        page.fill(f"#player{i}", name)
    phone.check("new match, filled in")
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    assert urlsplit(page.url).path.endswith("/hand/new"), page.url
    return page.url


def poke_hand_form(phone: Watched, what: str) -> int:
    """Tap the first button of up to three button groups, one script-drawn button,
    and type a number, so the variant's script redraws the form; return the taps."""
    page = phone.page

    def shown(selector: str, within=page) -> list:
        return [e for e in within.query_selector_all(selector) if e.is_visible()]

    taps = 0
    for group in page.query_selector_all("#hand-form fieldset.buttons"):
        labels = shown("label", group) if taps < 3 and group.is_visible() else []
        if labels:
            labels[0].click()
            taps += 1
    if drawn := shown("#hand-form button[type=button]"):
        drawn[-1].click()  # e.g. Need a Fourth?'s highest bid
        taps += 1
    if typed := shown("#hand-form input[inputmode=numeric]"):
        typed[0].fill("10")  # e.g. Mini Bridge's first HCP
        taps += 1
    phone.check(what)
    return taps


@pytest.fixture(scope="module")
def watched_context(browser):
    """One context for the module (its cache warm after the first page), recording
    every refused inline style or script."""
    context = browser.new_context(viewport=PHONE)
    context.add_init_script(RECORD_VIOLATIONS)
    yield context
    context.close()


@pytest.fixture
def phone(watched_context, server) -> Iterator[Watched]:
    page = watched_context.new_page()
    yield Watched(page, server)
    page.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_no_page_of_the_variant_breaks_the_content_security_policy(phone, variant):
    evening = import_example(phone, variant)
    phone.visit("edit hand", evening.edit_hand)
    assert poke_hand_form(phone, "edit hand, tapped") >= 2
    for what in ("history", "settle", "settings", "rules", "watch"):
        phone.visit(what, getattr(evening, what))
    phone.visit("rules index", phone.server + "/rules")

    new_hand = start_match(phone, variant)
    phone.check("new hand")
    assert poke_hand_form(phone, "new hand, tapped") >= 2, new_hand

    assert phone.refused == {}, "refused:\n" + report(phone.refused)


def test_the_policy_check_sees_a_refused_inline_style(phone):
    """The check above would see a violation: an inline style added to a page is refused."""
    phone.visit("home", phone.server + "/")
    phone.page.evaluate("document.body.setAttribute('style', 'color: red')")
    phone.check("styled home")
    assert phone.refused, "the style attribute was not refused"
    [(what, seen)] = phone.refused.items()
    assert what.startswith("styled home")
    assert any("style-src" in line for line in seen), seen


def axe_violations(page) -> list[str]:
    """axe-core's violations on this page: rule id, impact and the elements' selectors."""
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): " + ", ".join(" ".join(n["target"]) for n in v["nodes"])
        for v in found
    ]


def test_axe_finds_no_violation_on_any_kind_of_page(phone, server):
    page = phone.page
    found: dict[str, list[str]] = {}

    def axe(what: str) -> None:
        violations = axe_violations(page)
        if violations:
            found[f"{what} {page.url}"] = violations

    phone.visit("home", server + "/")
    axe("home")
    phone.visit("new match", server + "/new")
    page.check('input[name=variant][value="need-a-fourth"]')  # its options shown
    axe("new match")
    phone.visit("rules index", server + "/rules")
    axe("rules index")
    import_example(phone, "bridge-for-three")
    axe("match page")  # the peg board
    # Rubber: the score pad, the standing table on the hand form, the settle units.
    evening = import_example(phone, "rubber")
    axe("match page")
    for what in ("edit_hand", "history", "settle", "settings", "watch", "rules"):
        phone.visit(what, getattr(evening, what))
        axe(what.replace("_", " "))
    # Need a Fourth?: the auction, and the Chooser hidden among the Partners.
    start_match(phone, "need-a-fourth")
    poke_hand_form(phone, "new hand")
    axe("new hand, tapped")

    assert found == {}, "axe found:\n" + report(found)
