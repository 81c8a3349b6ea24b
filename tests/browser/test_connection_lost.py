"""The live view while the server is away: the poll backs off instead of
hammering, the page says since when the connection is lost, and it catches up by
itself when the server answers again. Timers run on Playwright's fake clock, so
the ten seconds and the backoff are stepped through, never waited for."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from itertools import pairwise

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Table
from .test_live_browser import ANN_4S_MADE, PLAYERS, enter, stored_hands

# Every poll the page sends, with the page's (fake) clock: Date.now() at the call.
COUNT_POLLS = """
window.__polls = [];
window.__inflight = 0; // fetches on their way: the test lets them end before time moves on
const realFetch = window.fetch;
window.fetch = function (resource, options) {
  if (String(resource).includes("/live")) window.__polls.push(Date.now());
  window.__inflight += 1;
  const done = () => { window.__inflight -= 1; };
  const answer = realFetch.call(this, resource, options);
  answer.then(done, done);
  return answer;
};
Math.random = () => 0.5; // the jitter's middle: the backoff is exactly 4, 8, 16, 30 s
"""
LIVE = re.compile(r".*/m/[\w-]{16}/live\?.*")
SHEET_URL = re.compile(r".*/m/[\w-]{16}$")
# London keeps UTC in November: the first poll fails at 21:14:00 on the phone.
START = dt.datetime(2026, 11, 25, 21, 13, 58, tzinfo=dt.UTC)


@pytest.fixture
def away(browser, server) -> Iterator[Table]:
    """A phone in London time whose page timers run on a fake clock."""
    context = browser.new_context(viewport=PHONE, timezone_id="Europe/London", locale="en-GB")
    context.add_init_script(COUNT_POLLS)
    page = context.new_page()
    yield Table(page, server)
    context.close()


@pytest.fixture
def other_phone(browser, server) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE)
    yield Table(context.new_page(), server)
    context.close()


def step(table: Table, seconds: float) -> None:
    """Let `seconds` pass on the page's clock, half a second at a time; after each
    half second the fetches it started end (in real time: fetch is not faked)
    before the clock moves on, so a busy machine cannot shift the backoff."""
    page = table.page
    for _ in range(round(seconds * 2)):
        page.clock.run_for(500)
        settle(table)


def settle(table: Table) -> None:
    """Wait (at most 10 s) until no fetch of the page is on its way."""
    for _ in range(1000):
        if table.page.evaluate("window.__inflight") == 0:
            return
        table.page.wait_for_timeout(10)
    raise AssertionError("a fetch of the page never ended")


def polls(table: Table) -> list[int]:
    """Seconds between the start and each poll sent, on the page's clock."""
    start = START.timestamp() * 1000
    return [round((t - start) / 1000) for t in table.page.evaluate("window.__polls")]


def open_sheet(table: Table, other: Table) -> str:
    match_id = other.start_match("rubber", PLAYERS)
    start = START
    table.page.clock.install(time=start - dt.timedelta(minutes=1))
    table.page.clock.pause_at(start)  # time moves only when a test steps it
    table.page.goto(f"{table.server}/m/{match_id}")
    return match_id


@pytest.mark.parametrize(
    "outage",
    [
        pytest.param(lambda route: route.abort("connectionrefused"), id="server-stopped"),
        pytest.param(lambda route: route.fulfill(status=502, body="Bad Gateway"), id="proxy-502"),
    ],
)
def test_the_sheet_says_since_when_the_server_is_away_and_catches_up(away, other_phone, outage):
    match_id = open_sheet(away, other_phone)
    page = away.page
    lost = page.locator("#connection-lost")
    step(away, 1)
    assert polls(away) == []
    page.route(LIVE, outage)
    step(away, 1)  # 21:14:00, the first poll: no answer
    assert polls(away) == [2]
    step(away, 9)  # 21:14:09: nine seconds away, nothing said yet
    assert lost.count() == 0
    step(away, 1)  # 21:14:10
    assert lost.is_visible()
    assert lost.inner_text() == (
        "Connection lost since 21:14 · still trying; this page catches up by itself."
    )
    step(away, 50)  # a minute of outage: a poll after 4, 8, 16, 30 s, not one every 2 s
    assert polls(away) == [2, 6, 14, 30, 60]

    # Meanwhile another phone saves a hand; then the server answers again.
    other_phone.page.goto(f"{other_phone.server}/m/{match_id}/hand/new")
    enter(other_phone, "Ann", 4, "S", 10)
    other_phone.save()
    assert stored_hands(other_phone, match_id) == [ANN_4S_MADE]
    page.unroute(LIVE)
    step(away, 30)
    assert polls(away)[:6] == [2, 6, 14, 30, 60, 90]  # (its answer may start the next)
    page.wait_for_selector("#hand-1", state="attached")
    assert lost.is_hidden()
    assert page.url.endswith(f"/m/{match_id}")  # redrawn in place, not reloaded
    assert "New hand · Bob deals" in page.inner_text("#new-hand")
    # Back to the usual pace: 2 s after each answer (fetches take real time). The
    # clock is stepped until the 90 s poll has three after it, at most 10 s: on a
    # busy machine the redraw of the catch-up once ended a step late.
    for _ in range(20):
        sent = away.page.evaluate("window.__polls")[5:]
        if len(sent) >= 4:
            break
        step(away, 0.5)
    assert len(sent) >= 4  # 90 s, then three polls every 2 s
    # 2 s after each answer; the clock steps half a second at a time and an answer
    # may end its redraw a step late on a busy machine, so "2 s" reads 2–3.5 s:
    # never faster, and never the outage's backoff (4 s and more).
    gaps = [later - earlier for earlier, later in pairwise(sent)]
    assert all(2000 <= gap < 4000 for gap in gaps), gaps


def test_back_online_tries_at_once(away, other_phone):
    """Offline (the phone left the Wi-Fi): the browser's `online` event brings the
    next poll at once, not at the end of a 30 s wait."""
    match_id = open_sheet(away, other_phone)
    page = away.page
    step(away, 1)
    page.context.set_offline(True)
    step(away, 40)
    assert polls(away) == [2, 6, 14, 30]
    assert page.locator("#connection-lost").is_visible()
    other_phone.page.goto(f"{other_phone.server}/m/{match_id}/hand/new")
    enter(other_phone, "Ann", 4, "S", 10)
    other_phone.save()
    page.context.set_offline(False)  # fires `online`: polled without any time passing
    page.wait_for_selector("#hand-1", state="attached")
    assert polls(away) == [2, 6, 14, 30, 41]
    assert page.locator("#connection-lost").is_hidden()


def test_a_hand_form_says_so_too_and_keeps_the_entries(away, other_phone):
    match_id = open_sheet(away, other_phone)
    page = away.page
    page.goto(f"{away.server}/m/{match_id}/hand/new")
    enter(away, "Ann", 4, "S", 10)
    page.route(LIVE, lambda route: route.abort("connectionrefused"))
    step(away, 13)
    assert page.locator("#connection-lost").is_visible()
    page.unroute(LIVE)
    step(away, 16)
    assert page.locator("#connection-lost").is_hidden()
    checked = page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#hand-form input:checked')]"
        ".map((i) => [i.name, i.value]))"
    )
    assert checked == {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}


def test_shown_again_the_page_asks_at_once(away, other_phone):
    """A phone picked up again (the tab shown) asks at once, not when its backoff
    ends; while hidden it does not ask at all."""
    open_sheet(away, other_phone)
    page = away.page
    page.evaluate(
        """(() => {
      let hidden = false;
      Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
      window.__setHidden = (value) => {
        hidden = value;
        document.dispatchEvent(new Event("visibilitychange"));
      };
    })()"""
    )
    page.route(LIVE, lambda route: route.abort("connectionrefused"))
    step(away, 15)
    assert polls(away) == [2, 6, 14]
    page.evaluate("window.__setHidden(true)")
    step(away, 60)
    assert polls(away) == [2, 6, 14]  # hidden: nothing asked, however long
    page.unroute(LIVE)
    page.evaluate("window.__setHidden(false)")
    assert polls(away) == [2, 6, 14, 75]
    expect(page.locator("#connection-lost")).to_be_hidden()  # its answer, in real time
