"""From the Save tap to the next hand's form on weak Wi-Fi: Chromium (Debian's,
driven by Playwright) with its network emulated at 150 ms round trips and
1.6 Mbit/s, the app under waitress on 127.0.0.1.

Prints, with JavaScript (static/save.js: one request) and without (the form and
its redirect), the time of each save, the requests the server saw, the bytes on
the wire (the answers as received, compressed, headers included, and the forms
sent), and how often the server loaded the match and replayed it per save.
The aims: under 300 ms with JavaScript, one load and at most two replays. Run:
    python benchmarks/bench_save.py [saves]
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from flask import has_request_context, request
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the web tests' server is the benchmark's

from scorekeeper import changelog, db, matchfile  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.views import hands as hand_views  # noqa: E402
from scorekeeper.views import pages  # noqa: E402
from tests.browser.conftest import ROUND_TRIP_MS, weak_wifi  # noqa: E402
from tests.phones import served  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
PHONE = {"width": 390, "height": 844}
# Part scores and downs: any number of them follow one another in a rubber.
HANDS = [("Ann", "1", "C", "6"), ("Bob", "2", "D", "7"), ("Cy", "1", "H", "5")]


class Counts:
    """Requests, loads of the match and replays, as the server sees them."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        self.loads = 0
        self.replays = 0

    def clear(self) -> None:
        self.requests.clear()
        self.loads = self.replays = 0

    def wrap(self, module, name: str, counter: str) -> None:
        inner = getattr(module, name)

        def counting(*args, **kwargs):
            if has_request_context() and "/hand/" in request.path:  # not the live polls
                setattr(self, counter, getattr(self, counter) + 1)
            return inner(*args, **kwargs)

        setattr(module, name, counting)


def counted_app(folder: Path, counts: Counts):
    app = create_app({"DATABASE": str(folder / "bench.db"), "SECRET_KEY": "bench"})
    inner = app.wsgi_app

    def counting(environ, start_response):
        counts.requests.append(f"{environ['REQUEST_METHOD']} {environ['PATH_INFO']}")
        return inner(environ, start_response)

    app.wsgi_app = counting
    counts.wrap(db, "load_match", "loads")
    counts.wrap(pages, "load_match", "loads")
    for module in (matchfile, changelog, hand_views):
        counts.wrap(module, "replay", "replays")
    return app


IN_PAGE = """() => {
    document.addEventListener("submit", () => {
        window.saveBegan = performance.now();
        window.saveTook = undefined;
    }, true);
    document.addEventListener("scorekeeper:swapped", () => requestAnimationFrame(() => {
        window.saveTook = performance.now() - window.saveBegan;
    }));
}"""


def tap_hand(page, hand) -> None:
    for field, value in zip(("declarer", "level", "strain", "tricks"), hand, strict=True):
        page.click(f'#group-{field} input[value="{value}"] + label')


def measure(browser, server: str, counts: Counts, script: bool, saves: int) -> None:
    context = browser.new_context(viewport=PHONE, java_script_enabled=script)
    page = context.new_page()
    cdp = weak_wifi(context, page)
    received: list[int] = []
    sent: list[int] = []
    cdp.on("Network.loadingFinished", lambda e: received.append(int(e["encodedDataLength"])))
    cdp.on(
        "Network.requestWillBeSent",
        lambda e: sent.append(len(e["request"].get("postData", "").encode())),
    )
    page.goto(f"{server}/new")
    page.check('input[name=variant][value="rubber"]')
    for i, name in enumerate(["Ann", "Bob", "Cy", "Di"], 1):
        page.fill(f"#player{i}", name)
    page.click("form#new-match button.primary")
    page.wait_for_url("**/hand/new")
    tap_hand(page, HANDS[0])
    page.click("#save")  # the first save fetches the stylesheets and scripts once
    page.wait_for_selector("text=Save hand 2")

    if script:  # the time in the page itself: from the submit to the new form drawn
        page.evaluate(IN_PAGE)
    times, in_page, wire, asked, loads, replays = [], [], [], [], [], []
    for number in range(2, saves + 2):
        tap_hand(page, HANDS[number % len(HANDS)])
        page.wait_for_timeout(200)  # let the taps' own traffic (none expected) settle
        counts.clear()
        received.clear()
        sent.clear()
        began = time.perf_counter()
        page.click("#save")
        page.wait_for_selector(f"text=Save hand {number + 1}")
        page.wait_for_load_state("load")
        times.append((time.perf_counter() - began) * 1000)
        if script:
            page.wait_for_function("window.saveTook !== undefined")
            in_page.append(page.evaluate("window.saveTook"))
        page.wait_for_timeout(100)  # the last loadingFinished event
        wire.append(sum(received) + sum(sent))
        asked.append(len(counts.requests))
        loads.append(counts.loads)
        replays.append(counts.replays)
    context.close()
    way = "with JavaScript   " if script else "without JavaScript"
    print(
        f"{way}: save → next hand median {statistics.median(times):4.0f} ms"
        f" (min {min(times):.0f}, max {max(times):.0f}),"
        f" {statistics.median(asked):.0f} request(s),"
        f" {statistics.median(wire) / 1024:.1f} kB on the wire,"
        f" loads {max(loads)}, replays {max(replays)} per save"
    )
    if in_page:
        print(
            f"  in the page, from the submit to the next form drawn: median"
            f" {statistics.median(in_page):.0f} ms (min {min(in_page):.0f}, max {max(in_page):.0f})"
        )


def main() -> None:
    saves = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    counts = Counts()
    print(
        f"{saves} saves at {ROUND_TRIP_MS} ms round trips, 1.6 Mbit/s"
        " (aim: under 300 ms with JavaScript; 1 load, at most 2 replays)"
    )
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        with served(counted_app(Path(tmp), counts), threads=4) as server:
            measure(browser, server, counts, script=True, saves=saves)
            measure(browser, server, counts, script=False, saves=saves)
        browser.close()


if __name__ == "__main__":
    main()
