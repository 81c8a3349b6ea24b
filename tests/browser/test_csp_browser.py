"""Every kind of page under the app's Content-Security-Policy, in Chromium: no
inline style or script is refused, even after the hand form's scripts ran; and
axe-core (bundled by axe-playwright-python, so offline) finds no accessibility
violation, colour contrast included, on any kind of page in the light or the dark
colour scheme (the phone's setting, emulated); and on a 360 px wide phone no
page scrolls sideways and every tap target is at least 44 × 44 px.

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

from tests.phones import Phone

from .conftest import PHONE, settled

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
        settled(self.page)
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
    if page.locator("#import-copy").count():  # another test imported it: a copy of its own
        phone.check("already here")
        with page.expect_navigation():
            page.click("#import-copy")
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
            labels[0].click()  # in place: a button group's label
            taps += 1
    if drawn := shown("#hand-form button[type=button]"):
        drawn[-1].click()  # in place: e.g. Need a Fourth?'s highest bid
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
    settled(page)
    found = Axe().run(page).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): " + ", ".join(" ".join(n["target"]) for n in v["nodes"])
        for v in found
    ]


SCHEMES = ["light", "dark"]  # the phone's setting, as `prefers-color-scheme` tells the page


class Audited(Watched):
    """A phone in one colour scheme on which axe checks every page it is asked to,
    colour contrast included; a page's findings are kept under what it is."""

    def __init__(self, page, server: str, scheme: str):
        super().__init__(page, server)
        page.emulate_media(color_scheme=scheme)
        self.scheme = scheme
        self.found: dict[str, list[str]] = {}

    def axe(self, what: str) -> None:
        settled(self.page)
        dark = self.page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")
        assert dark == (self.scheme == "dark"), f"{what}: not in the {self.scheme} scheme"
        self.check(what)
        if violations := axe_violations(self.page):
            self.found[f"{what} ({self.scheme}) {self.page.url}"] = violations


@pytest.fixture(params=SCHEMES)
def audited(watched_context, server, request) -> Iterator[Audited]:
    page = watched_context.new_page()
    yield Audited(page, server, request.param)
    page.close()


def post_from_page(phone: Watched, url: str) -> None:
    """Submit an empty form to `url` from the page, as a tap on a stale button would."""
    with phone.page.expect_navigation():
        phone.page.evaluate(
            """url => { const form = document.createElement("form");
                form.method = "post"; form.action = url;
                document.body.append(form); form.submit(); }""",
            url,
        )


@pytest.mark.parametrize("variant", VARIANTS)
def test_axe_finds_no_violation_on_any_page_of_the_variant(audited, variant):
    """The variant's own pages, in the scheme of the fixture: its sheet, its hand
    form tapped and refused (the errors), its rules. The pages every variant draws
    with the same template are in the next test."""
    page = audited.page
    evening = import_example(audited, variant)
    audited.axe("match page")
    audited.visit("rules", evening.rules)
    audited.axe("rules")
    new_hand = start_match(audited, variant)
    poke_hand_form(audited, "new hand")
    audited.axe("new hand, tapped")
    audited.visit("new hand", new_hand)
    with page.expect_navigation():
        page.click("#save")  # nothing chosen: the form comes back with its errors
    assert page.locator(".error, .flash-error").count() > 0, page.url
    audited.axe("new hand, refused")

    assert audited.found == {}, "axe found:\n" + report(audited.found)
    assert audited.refused == {}, "refused:\n" + report(audited.refused)


def test_axe_finds_no_violation_on_the_answers_to_two_phones(audited, server):
    """A match file imported again (already here), and a hand another phone saved
    first: the two versions (same deal), and the very same hand."""
    page = audited.page
    import_example(audited, "rubber")
    audited.visit("home", server + "/")
    page.set_input_files("form[action$='/import'] input[type=file]", str(EXAMPLES / "rubber.json"))
    with page.expect_navigation():
        page.click("form[action$='/import'] button")
    assert page.locator("#already-here").count() == 1
    audited.axe("import, already here")
    new_hand = start_match(audited, "rubber")
    match = urlsplit(new_hand).path.removesuffix("/hand/new")
    other = Phone(server, "Bob's phone")
    declarer = json.loads((EXAMPLES / "rubber.json").read_text())["players"][1]
    for tricks, what in (("7", "same deal, two versions"), ("8", "same deal, the same hand")):
        form = other.form(f"{match}/hand/new")
        theirs = {"declarer": declarer, "level": "2", "strain": "H", "tricks": "8"}
        assert other.submit(form, **theirs).status == 302
        for field, value in {**theirs, "tricks": tricks}.items():
            page.click(f'#group-{field} input[value="{value}"] + label')
        page.click("#save")
        page.wait_for_selector("#keep-theirs")
        audited.axe(what)
        with page.expect_navigation():
            page.click("#keep-theirs")

    assert audited.found == {}, "axe found:\n" + report(audited.found)
    assert audited.refused == {}, "refused:\n" + report(audited.refused)


def test_axe_finds_no_violation_on_any_shared_kind_of_page(audited, server):
    """The pages every variant shares, in the scheme of the fixture, each in the
    state that shows the most: lists filled, refusals with their messages."""
    page = audited.page
    evening = import_example(audited, "rubber")
    page.click("#share summary")  # the two QR codes and their addresses
    audited.axe("match page, Share open")
    for what in ("edit_hand", "history", "settle", "settings", "watch"):
        audited.visit(what, getattr(evening, what))
        audited.axe(what.replace("_", " "))
    audited.visit("home", server + "/")
    audited.axe("home")
    broken = {"name": "broken.json", "mimeType": "application/json", "buffer": b'{"players": 1}'}
    page.set_input_files("form[action$='/import'] input[type=file]", files=[broken])
    with page.expect_navigation():
        page.click("form[action$='/import'] button")
    assert page.locator(".flash-error").count() > 0, "the import was not refused"
    audited.axe("import, refused")
    audited.visit("new match", server + "/new")
    page.check('input[name=variant][value="need-a-fourth"]')  # its options shown
    audited.axe("new match")
    with page.expect_navigation():
        page.click("form#new-match button.primary")  # no game's players given
    audited.axe("new match, refused")
    audited.visit("rules index", server + "/rules/")
    audited.axe("rules index")
    audited.visit("watch", evening.watch)
    post_from_page(audited, evening.watch)
    assert page.locator("text=Nothing was changed").count() == 1
    audited.axe("watch refusal (403)")

    assert audited.found == {}, "axe found:\n" + report(audited.found)
    assert audited.refused == {}, "refused:\n" + report(audited.refused)


def test_axe_finds_no_violation_on_the_not_found_page(audited, server):
    """An old link or a mistyped address: the 404 page, in the scheme of the fixture."""
    response = audited.page.goto(server + "/m/" + "x" * 16)
    assert response.status == 404
    audited.axe("no such match (404)")
    assert audited.found == {}, "axe found:\n" + report(audited.found)


NARROW = {"width": 360, "height": 780}  # the narrowest phone we draw for

# What a thumb can hit, as drawn: every visible link, button, field, button-group
# label and summary smaller than 44 × 44 px (a radio or checkbox counts by its label).
# A link inside a sentence is exempt, as WCAG's target-size rule has it.
SMALL_TARGETS = """() => {
  const small = [];
  const controls = "a, button, select, textarea, summary, input:not([type=hidden]), .buttons label";
  for (const el of document.querySelectorAll(controls)) {
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height || el.closest("[hidden], [aria-hidden=true]")) continue;
    if (el.matches(".buttons input")) continue;  // drawn as its label
    const sentence = el.matches("a") && el.parentElement.closest("p, li");
    if (sentence && sentence.textContent.trim() !== el.textContent.trim()) continue;
    const label = el.matches("input[type=radio], input[type=checkbox]") && el.closest("label");
    const box = label ? label.getBoundingClientRect() : r;
    if (box.width < 44 || box.height < 44) {
      const text = (el.innerText || el.value || el.name || "").trim().slice(0, 30);
      const size = `${Math.round(box.width)}×${Math.round(box.height)}`;
      small.push(`${el.tagName.toLowerCase()} "${text}" ${size}`);
    }
  }
  return small;
}"""


class Narrow(Watched):
    """A 360 px phone that measures each page it is asked to: sideways scrolling and
    tap targets under 44 px, kept under what the page is."""

    def __init__(self, page, server: str):
        super().__init__(page, server)
        self.found: dict[str, list[str]] = {}

    def measure(self, what: str) -> None:
        self.check(what)
        found = self.page.evaluate(SMALL_TARGETS)
        width = self.page.evaluate("document.documentElement.scrollWidth")
        if width > NARROW["width"]:
            found.append(f"the page is {width} px wide")
        if found:
            self.found[f"{what} {self.page.url}"] = found


@pytest.fixture
def narrow(browser, server) -> Iterator[Narrow]:
    context = browser.new_context(viewport=NARROW, has_touch=True, is_mobile=True)
    context.add_init_script(RECORD_VIOLATIONS)
    yield Narrow(context.new_page(), server)
    context.close()


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_page_of_the_variant_fits_a_360_px_phone_with_44_px_targets(narrow, variant):
    page = narrow.page
    evening = import_example(narrow, variant)
    narrow.measure("match page")
    page.click("#share summary")
    narrow.measure("match page, Share open")
    for what in ("edit_hand", "history", "settle", "settings", "rules", "watch"):
        narrow.visit(what, getattr(evening, what))
        narrow.measure(what.replace("_", " "))
    start_match(narrow, variant)
    narrow.measure("new hand")
    poke_hand_form(narrow, "new hand, tapped")
    narrow.measure("new hand, tapped")
    with page.expect_navigation():
        page.click("#save")
    narrow.measure("new hand, refused")
    assert narrow.found == {}, "too small or too wide:\n" + report(narrow.found)


def test_every_shared_page_fits_a_360_px_phone_with_44_px_targets(narrow, server):
    page = narrow.page
    for what, path in (("home", "/"), ("new match", "/new"), ("rules index", "/rules/")):
        narrow.visit(what, server + path)
        narrow.measure(what)
    narrow.visit("new match", server + "/new")
    page.check('input[name=variant][value="need-a-fourth"]')  # its options shown
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    narrow.measure("new match, refused")
    response = page.goto(server + "/m/" + "x" * 16)
    assert response.status == 404
    narrow.measure("no such match (404)")
    assert narrow.found == {}, "too small or too wide:\n" + report(narrow.found)


def test_the_narrow_check_sees_a_small_target(narrow, server):
    """The checks above would see a small target: a link shrunk on the home page."""
    narrow.visit("home", server + "/")
    page = narrow.page
    page.evaluate(
        """() => { const link = document.querySelector("main a");
            link.className = ""; link.style.fontSize = "10px"; }"""
    )
    narrow.measure("home, shrunk")
    [(what, found)] = narrow.found.items()
    assert what.startswith("home, shrunk")
    assert any(line.startswith("a ") for line in found), found
