"""Several phones at one table, in Chromium: the live sheet, a stale form refused,
a double tap and the Back button stored once, the share QR codes, the history."""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import ARTIFACTS, CHROMIUM, EXPECT_MS, PHONE, Table, click_and_wait, shown

PLAYERS = ["Ann", "Bob", "Cy", "Di"]  # rubber bridge: We = Ann & Cy, They = Bob & Di
SHEET_URL = re.compile(r".*/m/[\w-]{16}(\?.*)?(#.*)?$")
# live.js polls every 2 s, and a change then costs one more fetch: shown within a
# few seconds, and waited for as long as any answer of the server (a busy machine
# is no quicker at a poll than at a page; the pace itself is pinned on a fake
# clock in test_connection_lost.py).
LIVE_WAIT_MS = EXPECT_MS

# The records the match file stores for the hands entered below.
ANN_4S_MADE = {"declarer": "Ann", "contract": "4S", "tricks": 10}
ANN_4S_DOWN = {"declarer": "Ann", "contract": "4S", "tricks": 9}
BOB_2H_MADE = {"declarer": "Bob", "contract": "2H", "tricks": 8}
# How the history and a refused form word those hands.
SAID_4S_MADE = "4♠ by Ann, made · Ann +120, Cy +120"
SAID_4S_DOWN = "4♠ by Ann, down 1 · Bob +50, Di +50"
REFUSED = "Not saved: the match changed since this form was drawn."
CHANGES = "#changed > ul:not(.same-deal-differences) li"  # what changed, not the comparison


@pytest.fixture
def phone_b(browser, server) -> Iterator[Table]:
    """A second phone at the same table: its own browser context (own cookies)."""
    context = browser.new_context(viewport=PHONE)
    yield Table(context.new_page(), server)
    context.close()


@pytest.fixture
def bfcache_phone(browser, server) -> Iterator[Table]:
    """A phone whose Chromium keeps pages in the back/forward cache, as phones do,
    with JavaScript off: with it, a save is answered in place and the saved form
    is replaced in the history (static/save.js), so Back cannot bring it back.

    Playwright launches Chromium with --disable-back-forward-cache, so the
    `browser` fixture reloads a page on Back; this one restores it instead."""
    chromium = browser.browser_type.launch(
        executable_path=CHROMIUM,
        args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        ignore_default_args=["--disable-back-forward-cache"],
    )
    context = chromium.new_context(viewport=PHONE, java_script_enabled=False)
    yield Table(context.new_page(), server)
    context.close()
    chromium.close()


@pytest.fixture
def phone_without_script(browser, server) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    yield Table(context.new_page(), server)
    context.close()


def stored_hands(table: Table, match_id: str) -> list[dict]:
    """The `hands` of the match file as the server exports it now."""
    answer = table.page.request.get(f"{table.server}/m/{match_id}/match.json")
    assert answer.ok, answer.status
    return json.loads(answer.text())["hands"]


def enter(table: Table, declarer: str, level: int, strain: str, tricks: int) -> None:
    """Tap a contract and its result on an open hand form (no Save)."""
    table.tap_button("declarer", declarer)
    table.tap_button("level", str(level))
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))


def checked(table: Table) -> dict[str, str]:
    """The buttons lit on the hand form: {field: value}."""
    return table.page.evaluate(
        "Object.fromEntries([...document.querySelectorAll('#hand-form input:checked')]"
        ".map((i) => [i.name, i.value]))"
    )


def save_refused(table: Table) -> None:
    """Tap Save on a stale form: the answer is the form again, with status 409."""
    posted = table.page.expect_response(lambda r: r.request.method == "POST")
    with table.page.expect_navigation(), posted as answer:
        table.tap("#save")
    assert answer.value.status == 409


def name_phone(table: Table, match_id: str, name: str) -> None:
    """Give this phone a name from the match page; the history shows it."""
    page = table.page
    page.goto(f"{table.server}/m/{match_id}")
    page.fill("#phone-name", name)
    # The answer comes to the sheet's address, the page's own already: waiting for
    # that address would not wait at all.
    click_and_wait(page, "#share button:has-text('Save name')")
    page.wait_for_url(SHEET_URL)
    assert f"This phone is now “{name}”." in page.inner_text("main")


def zbar(zbarimg: str, png: str) -> str:
    """The text of the one QR code in a PNG, read by zbarimg."""
    run = subprocess.run([zbarimg, "--raw", "-q", png], capture_output=True, text=True, check=True)
    return run.stdout.strip()


def test_sheet_follows_another_phone_without_reload(table, phone_b):
    match_id = table.start_match("rubber", PLAYERS)
    watcher = phone_b.page
    watcher.goto(f"{table.server}/m/{match_id}")
    assert "No hands yet." in watcher.inner_text(".log")
    watcher.evaluate("window.__marker = 1")

    enter(table, "Ann", 4, "S", 10)
    table.save()

    watcher.wait_for_selector("#hand-1", timeout=LIVE_WAIT_MS)
    assert watcher.evaluate("window.__marker") == 1, "the page reloaded instead of redrawing"
    assert watcher.url == f"{table.server}/m/{match_id}"
    assert stored_hands(table, match_id) == [ANN_4S_MADE]
    scored = table.exported_score(match_id)
    # 4S= by Ann, nobody vulnerable: 120 below the line for We (Ann & Cy).
    assert scored["totals"] == {"Ann": 120, "Bob": 0, "Cy": 120, "Di": 0}
    assert phone_b.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    assert "New hand · Bob deals" in watcher.inner_text("#new-hand")
    # The phone that saved is on hand 2's form, its running score in one line.
    assert table.page.inner_text("#score-line") == "Ann & Cy 120 · Bob & Di 0"


def test_open_form_warns_then_stale_save_is_refused(table, phone_b):
    match_id = table.start_match("rubber", PLAYERS)
    name_phone(table, match_id, "Ann's phone")
    late = phone_b.page
    late.goto(f"{table.server}/m/{match_id}/hand/new")
    assert late.is_hidden("#live-note")

    table.new_hand()
    enter(table, "Ann", 4, "S", 10)
    table.save()

    late.wait_for_selector("#live-note", state="visible", timeout=LIVE_WAIT_MS)
    assert late.inner_text("#live-note strong") == ("The match changed while this form was open:")
    assert late.locator("#live-note li").all_inner_texts() == [
        f"Hand 1 saved: {SAID_4S_MADE} — from Ann's phone, a moment ago"
    ]

    # Phone B enters its own hand 1 on the stale form: refused, entries kept.
    enter(phone_b, "Bob", 2, "H", 8)
    save_refused(phone_b)
    assert late.inner_text("#changed strong") == REFUSED
    assert late.locator(CHANGES).all_inner_texts() == [
        f"Hand 1 saved: {SAID_4S_MADE} — from Ann's phone, a moment ago"
    ]
    assert "Nothing was stored. Your entries are kept below" in late.inner_text("#changed")
    # Most likely the same deal: both versions where they differ, keep theirs first.
    assert late.locator("#same-deal-differences li").all_inner_texts() == [
        "Declarer: theirs Ann · yours Bob",
        "Level: theirs 4 · yours 2",
        "Strain: theirs ♠ · yours ♥",
        "Tricks won by declarer's side: theirs 10 · yours 8",
    ]
    assert late.inner_text("#keep-theirs") == "Same deal — keep theirs, discard mine"
    assert late.inner_text("h1") == "Hand 2"
    assert late.is_hidden("#live-note")  # drawn on the match as it is now
    assert checked(phone_b) == {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "8"}
    assert stored_hands(table, match_id) == [ANN_4S_MADE]
    phone_b.no_horizontal_scroll()
    phone_b.screenshot("live-refused-form")
    late.screenshot(path=str(ARTIFACTS / "live-refused-form-viewport.png"))

    # The redrawn form is drawn on the match as it is now: Save stores hand 2.
    phone_b.save()
    assert "Hand 2 saved." in late.inner_text("main")
    assert stored_hands(table, match_id) == [ANN_4S_MADE, BOB_2H_MADE]


SAVE_TWICE = "document.getElementById('save').click(); document.getElementById('save').click()"
SAVE_TWICE_5MS = (
    "document.getElementById('save').click();"
    "setTimeout(() => { document.getElementById('save').click(); window.__tappedTwice = true; }, 5)"
)


def two_taps_the_first_on_its_way(page) -> None:
    """Save tapped twice 5 ms apart while the first POST is certainly on its way: it
    is held until the second tap was made. (Not held, a busy machine's 5 ms timer can
    run after the answer came back: the second tap then lands on the next hand's
    empty form, which sends nothing, and the test passes without trying the hold;
    held, it fails when save.js's guards are taken out.)"""
    held: list = []

    def hold(route) -> None:
        if held and held[0] is None:  # let go: the taps are made
            route.continue_()
        else:
            held.append(route)

    page.route("**/hand/new", hold)
    page.evaluate(SAVE_TWICE_5MS)
    page.wait_for_function("() => window.__tappedTwice === true")
    routes, held[:] = list(held), [None]
    for route in routes:
        route.continue_()
    page.unroute("**/hand/new")


@pytest.mark.parametrize(
    ("double_tap", "posts_sent"),
    [
        # Chromium folds these two submissions into one POST before sending it.
        pytest.param(lambda page: page.dblclick("#save"), 1, id="dblclick"),
        pytest.param(lambda page: page.evaluate(SAVE_TWICE), 1, id="two-clicks"),
        # 5 ms apart, the first POST is on its way: the page's script holds the
        # second tap (without the script both reach the server, stored once).
        pytest.param(two_taps_the_first_on_its_way, 1, id="two-clicks-5ms"),
    ],
)
def test_double_tap_on_save_stores_one_hand(table, double_tap, posts_sent):
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    posts: list[str] = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    enter(table, "Ann", 4, "S", 10)
    double_tap(page)
    # The second submission aborts the first navigation, and the answer comes back
    # to the address the form was on (/hand/new): wait for the saved hand's line.
    expect(page.locator(".flash-undo")).to_contain_text("Hand 1 saved.")
    page.wait_for_load_state()
    assert stored_hands(table, match_id) == [ANN_4S_MADE]
    assert page.inner_text("h1") == "Hand 2"
    assert posts == [f"{table.server}/m/{match_id}/hand/new"] * posts_sent


def test_double_submit_of_one_form_stores_one_hand(table):
    """The same form sent twice to the server, both POSTs certain to arrive."""
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    enter(table, "Ann", 4, "S", 10)
    answers = page.evaluate(
        """async () => {
            const form = document.getElementById('hand-form');
            const send = () => fetch(form.action, {method: 'POST', body: new FormData(form)});
            const answers = await Promise.all([send(), send()]);
            return answers.map((a) => [a.status, a.url]);
        }"""
    )
    # Both answers are the redirect to the next hand's form.
    assert answers == [[200, f"{table.server}/m/{match_id}/hand/new"]] * 2
    assert stored_hands(table, match_id) == [ANN_4S_MADE]


# What Chromium does on Back to a hand form just saved (seen with Chromium 156):
# - A new hand's Save answers with the next hand's form at the same address
#   (/hand/new). Chromium keeps no back/forward-cache copy across a navigation to
#   the same address ("BrowsingInstanceNotSwapped"), so Back asks the server for
#   the form again: the form for the next hand at the current revision with a new
#   key. Chromium's form-state restoration would light the saved hand's buttons on
#   it again; the form's autocomplete="off" stops that (without it Save stored a
#   copy). Playwright's own launch (--disable-back-forward-cache) does the same
#   everywhere.
# - An edit's Save answers with the sheet, another address: with the cache on, as
#   on phones, Back restores the edit form as it was (pageshow.persisted, JS state
#   kept): the revision and key of that save, entries lit. A restored page fires
#   no load event, hence go_back(wait_until="commit"), and a JS marker proves it
#   was not reloaded.


def test_back_then_save_from_the_back_forward_cache(bfcache_phone):
    """Back to a saved edit, as a phone does it: Chromium restores the page from its
    back/forward cache (same revision, same one-time key, entries lit), so Save
    again is the same submission and a changed Save is a stale form."""
    table = bfcache_phone
    page = table.page
    match_id = table.start_match("rubber", PLAYERS)
    enter(table, "Ann", 4, "S", 10)
    table.save()
    name_phone(table, match_id, "Ann's phone")
    page.click("#hand-1 summary")
    page.click("#hand-1 a:has-text('Edit')")
    page.wait_for_url(re.compile(rf".*/m/{match_id}/hand/\d+$"))
    page.evaluate("window.__marker = 1")
    table.tap_button("tricks", "9")
    with page.expect_navigation():
        table.tap("#save")
    assert stored_hands(table, match_id) == [ANN_4S_DOWN]
    revision = table.page.request.get(f"{table.server}/m/{match_id}/live").json()["revision"]

    # (a) Back, Save unchanged: the same answer as the first time, nothing new.
    page.go_back(wait_until="commit")  # a restored page fires no load event
    page.wait_for_selector("#save")
    assert page.evaluate("window.__marker") == 1, "Back reloaded the form (no bfcache)"
    # (The edit form lights "not doubled" too: the stored hand says so.)
    edited = {"declarer": "Ann", "level": "4", "strain": "S", "doubling": ""}
    assert checked(table) == {**edited, "tricks": "9"}
    with page.expect_navigation():
        table.tap("#save")
    assert re.fullmatch(rf"{re.escape(table.server)}/m/{match_id}\?hand=\d+", page.url)
    assert stored_hands(table, match_id) == [ANN_4S_DOWN]
    assert table.page.request.get(f"{table.server}/m/{match_id}/live").json()["revision"] == (
        revision
    )

    # (b) Back again, one more trick, Save: refused as drawn before the edit.
    page.go_back(wait_until="commit")
    page.wait_for_selector("#save")
    assert page.evaluate("window.__marker") == 1, "Back reloaded the form (no bfcache)"
    changed = f"Hand 1 changed to {SAID_4S_DOWN} (was: {SAID_4S_MADE})"
    table.tap_button("tricks", "11")
    save_refused(table)
    assert page.inner_text("#changed strong") == REFUSED
    assert page.locator(CHANGES).all_inner_texts() == [
        f"{changed} — from this phone (Ann's phone), a moment ago"
    ]
    assert page.locator("#same-deal-differences li").all_inner_texts() == [
        "Tricks won by declarer's side: theirs 9 · yours 11"
    ]
    assert page.inner_text("h1") == "Edit hand 1"
    assert checked(table) == {**edited, "tricks": "11"}
    assert stored_hands(table, match_id) == [ANN_4S_DOWN]


def test_back_then_save_when_back_reloads_the_form(phone_without_script):
    """Back without the back/forward cache (Playwright's default; also any page
    Chromium will not keep): the form comes again from the server, for hand 2 at
    the current revision, and autocomplete=off keeps hand 1's entries off it, so
    Save stores nothing (before that attribute it stored a copy as hand 2)."""
    table = phone_without_script
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    page.evaluate("window.__marker = 1")
    enter(table, "Ann", 4, "S", 10)
    table.save()
    page.go_back()
    page.wait_for_selector("#save")
    assert page.evaluate("window.__marker") is None  # reloaded, not restored
    assert page.inner_text("h1") == "Hand 2"
    assert checked(table) == {}
    with page.expect_navigation() as navigation:
        table.tap("#save")
    assert navigation.value.status == 200
    assert page.inner_text("h1") == "Hand 2"
    assert page.inner_text(".flash-error strong") == "Not saved."
    assert stored_hands(table, match_id) == [ANN_4S_MADE]


def test_share_qr_codes_read_back_and_watch_is_read_only(table, phone_b, zbarimg):
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    enter(table, "Ann", 4, "S", 10)
    table.save()
    page.goto(f"{table.server}/m/{match_id}")
    page.click("#share summary")
    ARTIFACTS.mkdir(exist_ok=True)

    addresses = {}
    for which in ("play", "watch"):
        png = ARTIFACTS / f"live-qr-{which}.png"
        page.locator(f"#share-{which} svg").screenshot(path=str(png))
        shown_address = page.inner_text(f"#share-{which} figcaption code")
        assert zbar(zbarimg, str(png)) == shown_address
        addresses[which] = shown_address
    assert addresses["play"] == f"{table.server}/m/{match_id}"
    assert re.fullmatch(re.escape(table.server) + r"/w/[A-Za-z0-9_-]{8,64}", addresses["watch"])
    table.no_horizontal_scroll()
    table.screenshot("live-share-open")

    # The watch address: the sheet, no form, no link but to a place on the page.
    watcher = phone_b.page
    watcher.goto(addresses["watch"])
    assert watcher.query_selector_all("form") == []
    assert watcher.is_visible("#sheet")
    links = watcher.eval_on_selector_all("a[href]", "all => all.map((a) => a.getAttribute('href'))")
    # ...but the text size switch, which changes only this phone's print and comes
    # back to the watch address.
    others = [href for href in links if not href.startswith("#")]
    assert [href.split("&back=")[0] for href in others] == [
        f"/text-size?size={size}" for size in (100, 125, 150)
    ]
    assert {href.split("&back=")[1] for href in others} == {
        addresses["watch"].split(table.server)[1]
    }
    assert phone_b.page_totals() == {"Ann": "+120", "Bob": "0", "Cy": "+120", "Di": "0"}
    assert "read-only" in watcher.inner_text("#live-region")
    refused = watcher.request.post(addresses["watch"], form={"revision": "2", "key": "x" * 16})
    assert refused.status == 403
    assert stored_hands(table, match_id) == [ANN_4S_MADE]
    phone_b.no_horizontal_scroll()

    # It follows the table too: hand 2 (2H= by Bob, 60 below for They) shows up.
    table.new_hand()
    enter(table, "Bob", 2, "H", 8)
    table.save()
    watcher.wait_for_selector("#hand-2", timeout=LIVE_WAIT_MS)
    assert phone_b.page_totals() == {"Ann": "+120", "Bob": "+60", "Cy": "+120", "Di": "+60"}
    assert watcher.query_selector_all("form") == []
    phone_b.screenshot("live-watch")


def test_history_brings_back_the_earlier_version(table):
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    enter(table, "Ann", 4, "S", 10)
    table.save()
    click_and_wait(page, "header #to-sheet")  # the sheet is one tap away
    page.click("#hand-1 summary")
    page.click("#hand-1 a:has-text('Edit')")
    page.wait_for_url(re.compile(rf".*/m/{match_id}/hand/\d+$"))
    assert page.inner_text("h1") == "Edit hand 1"
    table.tap_button("tricks", "9")
    table.save()
    assert stored_hands(table, match_id) == [ANN_4S_DOWN]

    page.click(".match-actions a:has-text('History')")
    page.wait_for_url(f"**/m/{match_id}/history")
    assert page.locator("ol.history li p.what").all_inner_texts() == [
        f"Hand 1 changed to {SAID_4S_DOWN} (was: {SAID_4S_MADE})",
        f"Hand 1 saved: {SAID_4S_MADE}",
        "Match started: Rubber bridge, Ann · Bob · Cy · Di",
    ]
    table.no_horizontal_scroll()
    table.screenshot("live-history")

    page.click("ol.history li >> nth=0 >> button:has-text('Bring back the earlier version')")
    page.wait_for_url(SHEET_URL)
    assert page.inner_text(".flash-undo").startswith(
        f"Brought back. Hand 1 changed to {SAID_4S_MADE} (was: {SAID_4S_DOWN})."
    )
    assert stored_hands(table, match_id) == [ANN_4S_MADE]
    page.goto(f"{table.server}/m/{match_id}/history")
    assert page.locator("ol.history li p.what").all_inner_texts()[0] == (
        f"Hand 1 changed to {SAID_4S_MADE} (was: {SAID_4S_DOWN})"
    )


def test_with_the_script_back_after_a_save_never_shows_the_saved_form(table):
    """With JavaScript a save is answered in place and the saved form's place in
    the history is taken by the answer: Back goes to the page before the form."""
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page
    enter(table, "Ann", 4, "S", 10)
    table.save()
    assert page.inner_text("h1") == "Hand 2"
    page.go_back()
    assert page.url == f"{table.server}/new"
    page.goto(f"{table.server}/m/{match_id}")
    page.click("#hand-1 summary")
    page.click("#hand-1 a:has-text('Edit')")
    page.wait_for_url(re.compile(rf".*/m/{match_id}/hand/\d+$"))
    table.tap_button("tricks", "9")
    table.save()
    assert re.fullmatch(rf"{re.escape(table.server)}/m/{match_id}\?hand=\d+", page.url)
    page.go_back()
    assert page.url == f"{table.server}/m/{match_id}"
    assert stored_hands(table, match_id) == [ANN_4S_DOWN]
