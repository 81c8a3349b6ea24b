"""Real-browser tests: the app served on a free local port, Debian's Chromium
driven by Playwright for Python (no browser download), viewport 390×844."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.app import create_app
from tests.phones import served

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PHONE = {"width": 390, "height": 844}
# An expect() gives up after 30 s, as Playwright's actions and navigations do, not
# after its own 5 s: most wait for the server's answer (a save, a page, a poll's
# redraw), and a busy machine answers in more than 5 s (a save held 6 s failed
# its expect on the next hand's heading). It waits only until it holds.
EXPECT_MS = 30_000
expect.set_options(timeout=EXPECT_MS)
# A page that can be read: loaded to the end, its <html> in place (a read made while
# a tap's navigation is under way can find a document with nothing in it yet).
SETTLED = "() => document.readyState === 'complete' && document.documentElement !== null"


def settled(page) -> None:
    """Wait until the page on screen has finished loading, before reading it.
    A guard for the helpers that read a whole page (the fit, axe and policy
    checks, screenshots): a tap that leaves the page must still be awaited
    where it is made (`click_and_wait`, `expect_navigation`, an `expect` on
    the new page), or the read may find the old page, not the new one."""
    page.wait_for_load_state("load")
    page.wait_for_function(SETTLED)


def click_and_wait(page, selector: str, **options) -> None:
    """Tap a link or button that leaves the page and wait for the next one: a
    new document, or the answer save.js shows in place (its history entry is
    replaced, which is a navigation within the document), loaded to the end."""
    with page.expect_navigation():
        page.click(selector, **options)
    settled(page)


def pytest_collection_modifyitems(items):
    """Mark every test under tests/browser/ (a `pytestmark` in a conftest marks
    nothing), so `-m "not browser"` really leaves them out."""
    here = Path(__file__).resolve().parent
    for item in items:
        if here in Path(item.fspath).resolve().parents:
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def server(tmp_path_factory):
    """The app under waitress on 127.0.0.1, on its own database."""
    database = tmp_path_factory.mktemp("browser") / "browser.db"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests"})
    with served(app, threads=4) as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI"):
            pytest.fail(f"{CHROMIUM} is missing: install Debian's chromium (scripts/test.sh does)")
        pytest.skip(f"{CHROMIUM} is missing: apt-get install chromium")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield chromium
        chromium.close()


class Table:
    """A phone at the table: taps are counted so tests can hold the tap budgets."""

    def __init__(self, page, server: str):
        self.page = page
        self.server = server
        self.taps = 0
        self.scrolls = 0
        self.outside: list[str] = []
        page.on("request", self._watch)

    def _watch(self, request) -> None:
        if not request.url.startswith(self.server) and not request.url.startswith("data:"):
            self.outside.append(request.url)

    def tap(self, selector: str) -> None:
        """One tap; a target that is off screen or under the sticky Save bar
        costs a scroll first (counted in `scrolls`)."""
        self._reach(selector)
        self.page.click(selector)
        self.taps += 1

    def _reach(self, selector: str) -> None:
        """A target out of reach costs one swipe, which brings it to the middle of
        the screen, as a thumb would (Playwright alone scrolls only as far as it
        must, which can leave the next target half under the Save bar)."""
        if not self.in_reach(selector):
            self.scrolls += 1
            self.page.eval_on_selector(selector, "el => el.scrollIntoView({block: 'center'})")

    def in_reach(self, selector: str) -> bool:
        """Whether a thumb reaches the element without a swipe: the whole element
        inside the viewport and, at its centre, nothing on top of it (the sticky
        Save bar covers what lies under it: that counts as off screen)."""
        return self.page.eval_on_selector(
            selector,
            """(el) => {
                const r = el.getBoundingClientRect();
                if (r.width === 0 || r.height === 0) return false;
                const inside = r.top >= 0 && r.left >= 0
                    && r.bottom <= innerHeight && r.right <= innerWidth;
                if (!inside) return false;
                const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
                return top !== null && (el.contains(top) || top.contains(el));
            }""",
        )

    def tap_button(self, field: str, value: str) -> None:
        """Tap the big button for `value` in the radio group `field`."""
        self.tap(f'#group-{field} input[value="{value}"] + label')

    def type(self, selector: str, text: str) -> None:
        """Typing a number counts one tap per character, as on a phone keypad; a
        box out of reach costs a scroll first, as a tap would."""
        self._reach(selector)
        self.page.fill(selector, text)
        self.taps += len(text)

    def start_match(self, variant: str, players: list[str], **options: str) -> str:
        page = self.page
        page.goto(f"{self.server}/new")
        page.check(f'input[name=variant][value="{variant}"]')
        for i, name in enumerate(players, 1):
            page.fill(f"#player{i}", name)
        for name, value in options.items():
            selector = f'.option[data-variants~="{variant}"] [name="opt_{name}"]'
            if value in ("on", "off"):
                page.set_checked(selector, value == "on")
            else:
                page.fill(selector, value)
        page.click("form#new-match button.primary")
        page.wait_for_url(re.compile(r".*/m/[\w-]{16}/hand/new$"))
        return re.search(r"/m/([\w-]{16})", page.url).group(1)

    def new_hand(self) -> None:
        """Start counting a hand's taps and scrolls. After a save the next hand's
        form is already on screen; from the match page it costs the New hand tap."""
        self.taps = self.scrolls = 0
        if not re.search(r"/hand/new$", self.page.url):
            self.tap("#new-hand")
            self.page.wait_for_url(re.compile(r".*/hand/new$"))

    def save(self, button: str = "#save") -> None:
        """Tap Save (or a one-tap action such as `#quick-passed_out`) and wait for
        the answer: the next hand's form, or the match page when the match is over."""
        with self.page.expect_navigation():
            self.tap(button)
        assert re.search(r"/m/[\w-]{16}(/hand/new)?(\?.*)?(#.*)?$", self.page.url), self.page.url

    def no_horizontal_scroll(self, width: int = 360) -> None:
        settled(self.page)
        self.page.set_viewport_size({"width": width, "height": 800})
        scroll = self.page.evaluate("document.documentElement.scrollWidth")
        self.page.set_viewport_size(PHONE)
        assert scroll <= width, f"{self.page.url} scrolls sideways at {width}px ({scroll})"

    def exported_score(self, match_id: str) -> dict:
        """`scorekeeper score` on the match file the page exports."""
        text = self.page.request.get(f"{self.server}/m/{match_id}/match.json").text()
        run = subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", "score", "-"],
            input=text,
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(run.stdout)

    def page_totals(self) -> dict[str, str]:
        settled(self.page)
        cells = self.page.query_selector_all(".totals td[data-player]")
        return {c.get_attribute("data-player"): c.inner_text().strip() for c in cells}

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        path = ARTIFACTS / f"{name}.png"
        settled(self.page)
        self.page.screenshot(path=str(path), full_page=True)
        return path


def shown(points: int) -> str:
    """How the page prints a total."""
    return f"+{points}" if points > 0 else (f"−{-points}" if points < 0 else "0")


@pytest.fixture
def table(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield Table(page, server)
    context.close()


def has_chromium() -> bool:
    return shutil.which("chromium") is not None or os.path.exists(CHROMIUM)


ROUND_TRIP_MS = 150  # a weak table Wi-Fi: 150 ms round trips, 1.6 Mbit/s
BYTES_PER_SECOND = 1_600_000 / 8


def weak_wifi(context, page):
    """Slow `page` down to ROUND_TRIP_MS round trips and 1.6 Mbit/s (Chromium's
    network emulation); returns the CDP session, to watch the traffic."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": ROUND_TRIP_MS,
            "downloadThroughput": BYTES_PER_SECOND,
            "uploadThroughput": BYTES_PER_SECOND,
        },
    )
    return cdp
