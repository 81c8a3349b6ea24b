"""A save on weak Wi-Fi: Chromium's network emulation at 150 ms round trips and
1.6 Mbit/s. Static files carry fingerprinted addresses and are cached for a
year, so from the Save tap to the next hand's form the server sees one request:
the POST, answered with the next hand's form (static/save.js). Without
JavaScript it sees the POST and the one page it redirects to, nothing else.
The time is printed, not asserted (these machines are shared)."""

from __future__ import annotations

import re
import time

from scorekeeper.app import create_app
from tests.phones import served

from .conftest import PHONE, ROUND_TRIP_MS, Table, weak_wifi


def counted_app(tmp_path):
    """The app, noting every request that reaches it."""
    app = create_app({"DATABASE": str(tmp_path / "wifi.db"), "SECRET_KEY": "wifi"})
    seen: list[tuple[str, str]] = []
    inner = app.wsgi_app

    def counting(environ, start_response):
        seen.append((environ["REQUEST_METHOD"], environ["PATH_INFO"]))
        return inner(environ, start_response)

    app.wsgi_app = counting
    return app, seen


def play(table, declarer, level, strain, tricks):
    table.tap_button("declarer", declarer)
    table.tap_button("level", level)
    table.tap_button("strain", strain)
    table.tap_button("tricks", tricks)


def test_save_to_next_hand_is_one_request_on_weak_wifi(browser, tmp_path):
    app, seen = counted_app(tmp_path)
    with served(app, threads=4) as server:
        measure_a_save(browser, server, seen, script=True)


def test_without_javascript_a_save_is_two_requests(browser, tmp_path):
    app, seen = counted_app(tmp_path)
    with served(app, threads=4) as server:
        measure_a_save(browser, server, seen, script=False)


def measure_a_save(browser, server, seen, script: bool):
    context = browser.new_context(viewport=PHONE, java_script_enabled=script)
    try:
        page = context.new_page()
        weak_wifi(context, page)
        table = Table(page, server)
        match_id = table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
        play(table, "Ann", "4", "S", "10")
        table.save()  # the first save fetched the stylesheets and scripts once

        play(table, "Bob", "2", "H", "8")
        seen.clear()
        began = time.perf_counter()
        with page.expect_navigation(wait_until="load"):
            page.click("#save")
        page.wait_for_selector("text=Save hand 3")
        took = time.perf_counter() - began
        asked = list(seen)
        print(
            f"\nSave → next hand's form at {ROUND_TRIP_MS} ms round trips, 1.6 Mbit/s,"
            f" {'with' if script else 'without'} JavaScript:"
            f" {took * 1000:.0f} ms, {len(asked)} requests: {asked}"
        )
        post = ("POST", f"/m/{match_id}/hand/new")
        assert asked == ([post] if script else [post, ("GET", f"/m/{match_id}/hand/new")])
        assert re.search(r"/hand/new$", page.url)
        assert "Hand 2 saved." in page.inner_text(".flash-undo")
        # One round trip per request at least, and the rest is the page itself
        # on a slow line.
        assert took * 1000 >= len(asked) * ROUND_TRIP_MS
    finally:
        context.close()
