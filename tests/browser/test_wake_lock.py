"""The screen stays on while a match page or a hand form is open: a `screen`
wake lock where the browser has the API (127.0.0.1 is a secure context), else a
muted, looping, inline video started by the first tap; let go when leaving the
page, and switched off by the footer's toggle, remembered on the phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Table

# What the page asks of the browser, kept in sessionStorage so it outlives the page
# that asked: "request screen /m/…", "release /m/…", "pause /m/…".
SPY = """
(() => {
  const log = (what) => {
    const seen = JSON.parse(sessionStorage.getItem("awake") || "[]");
    seen.push(`${what} ${location.pathname}`);
    sessionStorage.setItem("awake", JSON.stringify(seen));
  };
  const pause = HTMLMediaElement.prototype.pause;
  HTMLMediaElement.prototype.pause = function () {
    if (!this.paused) log("pause");
    return pause.call(this);
  };
  if (!("wakeLock" in navigator)) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = async (type) => {
    log(`request ${type}`);
    const sentinel = await request(type);
    window.__sentinel = sentinel;
    const release = sentinel.release.bind(sentinel);
    sentinel.release = () => {
      log("release");
      return release();
    };
    return sentinel;
  };
})();
"""
# A browser without the API, as on plain http to a LAN address.
NO_WAKE_LOCK = "delete Navigator.prototype.wakeLock;"
VIDEO = """(() => {
  const v = document.querySelector("video.keep-awake-video");
  return v && {paused: v.paused, muted: v.muted, loop: v.loop,
               inline: v.hasAttribute("playsinline"),
               src: v.currentSrc.split("?")[0].split("/").pop()};
})()"""


# The tab hidden (another app in front) and shown again, as the browser tells it.
HIDE_AND_SHOW = """(() => {
  let hidden = false;
  Object.defineProperty(document, "hidden", { configurable: true, get: () => hidden });
  Object.defineProperty(document, "visibilityState", {
    configurable: true, get: () => (hidden ? "hidden" : "visible") });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
})()"""


def phone(browser, server, *scripts: str) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE)
    for script in scripts:
        context.add_init_script(script)
    yield Table(context.new_page(), server)
    context.close()


@pytest.fixture
def with_api(browser, server) -> Iterator[Table]:
    yield from phone(browser, server, SPY)


@pytest.fixture
def without_api(browser, server) -> Iterator[Table]:
    yield from phone(browser, server, NO_WAKE_LOCK, SPY)


def asked(table: Table, match_id: str) -> list[str]:
    """The log, with the match's id shortened to ID."""
    seen = json.loads(table.page.evaluate("sessionStorage.getItem('awake') || '[]'"))
    return [line.replace(match_id, "ID") for line in seen]


def open_match(table: Table) -> str:
    match_id = table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
    # The hand form holds its lock (or says the first tap will) before the phone
    # leaves: a lock still on its way when the page goes has nothing to let go,
    # as happened on a busy machine (the browser drops it with the page anyway).
    expect(table.page.locator("#keep-awake-state")).not_to_be_empty()
    table.page.goto(f"{table.server}/m/{match_id}")
    expect(table.page.locator("#keep-awake-state")).not_to_be_empty()
    return match_id


def test_a_match_page_and_a_hand_form_hold_a_screen_wake_lock_and_let_go(with_api):
    page = with_api.page
    match_id = open_match(with_api)  # the new-match form led to hand 1's form first
    assert page.inner_text("#keep-awake-state") == "active"
    assert page.is_checked("#keep-awake")
    assert asked(with_api, match_id) == [
        "request screen /m/ID/hand/new",
        "release /m/ID/hand/new",
        "request screen /m/ID",
    ]
    assert page.locator("video").count() == 0  # the API does it: no video

    page.click("#new-hand")
    page.wait_for_url(re.compile(r".*/hand/new$"))
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    page.click(".keep-awake .how")  # leaving for the rules page, which explains it
    page.wait_for_url(re.compile(r".*/rules/#screen$"))
    assert page.is_visible("h2#screen")
    assert page.locator("#keep-awake").count() == 0  # only match pages keep the screen on
    assert asked(with_api, match_id)[3:] == [
        "release /m/ID",
        "request screen /m/ID/hand/new",
        "release /m/ID/hand/new",
    ]


def test_the_toggle_lets_go_and_is_remembered(with_api):
    page = with_api.page
    match_id = open_match(with_api)
    page.click("label:has(#keep-awake)")
    assert not page.is_checked("#keep-awake")
    assert page.inner_text("#keep-awake-state") == "off"
    assert asked(with_api, match_id)[-1] == "release /m/ID"
    page.reload()
    expect(page.locator("#keep-awake-state")).to_have_text("off")
    assert not page.is_checked("#keep-awake")
    page.click("h1")
    assert asked(with_api, match_id)[-1] == "release /m/ID"  # nothing asked after the reload
    page.click("label:has(#keep-awake)")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert asked(with_api, match_id)[-1] == "request screen /m/ID"
    assert page.evaluate("localStorage.getItem('scorekeeper-keep-awake')") is None


def test_without_the_api_a_muted_inline_video_plays_from_the_first_tap(without_api):
    page = without_api.page
    match_id = open_match(without_api)
    assert page.evaluate("'wakeLock' in navigator") is False
    assert page.inner_text("#keep-awake-state") == "from your first tap"
    assert page.evaluate(VIDEO) is None  # no video before a tap
    page.click("h1")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert page.evaluate(VIDEO) == {
        "paused": False,
        "muted": True,
        "loop": True,
        "inline": True,
        "src": "keep-awake.mp4",
    }
    box = page.eval_on_selector("video.keep-awake-video", "v => v.getBoundingClientRect().toJSON()")
    assert (box["width"], box["height"]) == (PHONE["width"], PHONE["height"])  # Blink's rule
    assert page.evaluate("getComputedStyle(document.querySelector('video')).pointerEvents") == (
        "none"
    )

    page.click("#new-hand")  # leaving the match page stops the video
    page.wait_for_url(re.compile(r".*/hand/new$"))
    assert asked(without_api, match_id) == ["pause /m/ID"]
    assert page.evaluate(VIDEO) is None  # the new page waits for its own first tap
    page.click("h1")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert page.evaluate(VIDEO)["paused"] is False

    page.click("label:has(#keep-awake)")  # switched off: the video stops
    assert page.evaluate(VIDEO)["paused"] is True
    assert asked(without_api, match_id) == ["pause /m/ID", "pause /m/ID/hand/new"]


def test_the_watch_page_and_other_pages_leave_the_screen_alone(with_api):
    page = with_api.page
    match_id = open_match(with_api)
    page.click("#share summary")
    watch = page.inner_text("#share-watch figcaption")
    before = asked(with_api, match_id)
    for address in (watch, f"{with_api.server}/", f"{with_api.server}/m/{match_id}/history"):
        page.goto(address)
        assert page.locator("#keep-awake").count() == 0
    assert asked(with_api, match_id) == [*before, "release /m/ID"]


def test_the_lock_is_taken_again_when_the_page_is_shown_again(with_api):
    page = with_api.page
    match_id = open_match(with_api)
    page.evaluate(HIDE_AND_SHOW)
    page.evaluate("window.__setHidden(true)")
    page.evaluate("window.__sentinel.release()")  # what the browser does to a hidden tab
    assert asked(with_api, match_id)[-1] == "release /m/ID"
    page.evaluate("window.__setHidden(false)")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert asked(with_api, match_id)[-2:] == ["release /m/ID", "request screen /m/ID"]


def test_the_video_stops_while_hidden_and_plays_again_when_shown(without_api):
    page = without_api.page
    match_id = open_match(without_api)
    page.click("h1")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    page.evaluate(HIDE_AND_SHOW)
    page.evaluate("window.__setHidden(true)")
    assert page.evaluate(VIDEO)["paused"] is True
    assert asked(without_api, match_id) == ["pause /m/ID"]
    page.evaluate("window.__setHidden(false)")  # no tap needed: this page played before
    # play() settles in a moment: the video's own `paused`, polled until it reads false.
    expect(page.locator("video.keep-awake-video")).to_have_js_property("paused", False)
    assert page.evaluate(VIDEO)["paused"] is False
    assert asked(without_api, match_id) == ["pause /m/ID"]


def save_first_hand(table: Table) -> None:
    """Hand 1 saved through its form: save.js shows hand 2's form in place."""
    for field, value in (("declarer", "Ann"), ("level", "1"), ("strain", "C"), ("tricks", "7")):
        table.tap_button(field, value)
    table.page.click("#save")
    expect(table.page.locator("h1")).to_have_text("Hand 2")


def test_a_form_shown_in_place_keeps_the_lock_and_its_switch_works(with_api):
    page = with_api.page
    match_id = open_match(with_api)
    page.click("#new-hand")
    expect(page.locator("h1")).to_have_text("Hand 1")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    before = asked(with_api, match_id)
    assert before[-1] == "request screen /m/ID/hand/new"

    save_first_hand(with_api)  # the answer swapped in: no page load
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert page.is_visible("#keep-awake")
    assert page.is_checked("#keep-awake")
    assert asked(with_api, match_id) == before  # the lock held on: not asked twice

    page.click("label:has(#keep-awake)")  # the new page's switch lets go
    expect(page.locator("#keep-awake-state")).to_have_text("off")
    assert asked(with_api, match_id) == [*before, "release /m/ID/hand/new"]
    assert page.evaluate("localStorage.getItem('scorekeeper-keep-awake')") == "off"
    page.click("label:has(#keep-awake)")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert asked(with_api, match_id) == [
        *before,
        "release /m/ID/hand/new",
        "request screen /m/ID/hand/new",
    ]

    for field, value in (("declarer", "Bob"), ("level", "1"), ("strain", "D"), ("tricks", "7")):
        with_api.tap_button(field, value)
    page.click("#save")  # a second swap: one switch listener, not two
    expect(page.locator("h1")).to_have_text("Hand 3")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    page.click("label:has(#keep-awake)")
    expect(page.locator("#keep-awake-state")).to_have_text("off")
    assert asked(with_api, match_id)[len(before) + 2 :] == ["release /m/ID/hand/new"]
    assert page.evaluate("localStorage.getItem('scorekeeper-keep-awake')") == "off"


def test_a_form_shown_in_place_keeps_the_one_video_playing(without_api):
    page = without_api.page
    match_id = open_match(without_api)
    page.click("#new-hand")
    expect(page.locator("h1")).to_have_text("Hand 1")
    page.click("h1")
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert asked(without_api, match_id) == ["pause /m/ID"]

    save_first_hand(without_api)
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    assert page.is_visible("#keep-awake")
    assert page.locator("video").count() == 1  # moved to the new page, not a second one
    assert page.evaluate(VIDEO)["paused"] is False
    assert asked(without_api, match_id) == ["pause /m/ID"]  # it never stopped

    page.click("label:has(#keep-awake)")  # the new page's switch stops it
    expect(page.locator("#keep-awake-state")).to_have_text("off")
    assert page.evaluate(VIDEO)["paused"] is True
    assert asked(without_api, match_id) == ["pause /m/ID", "pause /m/ID/hand/new"]


def test_an_answer_in_place_without_the_switch_lets_go(with_api):
    page = with_api.page
    match_id = open_match(with_api)
    page.click("#delete-match")  # answered in place: the deleted match's page
    expect(page.locator(".deleted-match")).to_be_visible()
    expect(page.locator("#keep-awake-state")).to_have_text("active")
    before = asked(with_api, match_id)
    assert before[-1] == "request screen /m/ID"
    page.click(".deleted-match button")  # answered in place: the home page, no switch
    expect(page.locator("h1.brand")).to_be_visible()
    assert page.locator("#keep-awake").count() == 0
    assert asked(with_api, match_id) == [*before, "release /"]
