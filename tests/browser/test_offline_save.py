"""Nothing lost when the Wi-Fi drops at Save (static/save.js): the entries stay
on the screen and in the phone's storage, "Not sent yet" says so, and the same
submission (its one-time key) is sent again by itself until the server answers;
the server stores it once whatever happened on the way."""

from __future__ import annotations

import json
import random
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.phones import SERVER, Phone, free_port

from .conftest import PHONE, Table

NOT_SENT = "Not sent yet — kept on this phone, sending when the connection is back."
PLAYERS = ["Ann", "Bob", "Cy", "Di"]
# Hands that can follow one another in any order in a rubber (no game reached fast:
# part scores and downs), each as (declarer, level, strain, tricks) and as stored.
HANDS = [
    ("Ann", "1", "C", "6"),
    ("Bob", "2", "D", "7"),
    ("Cy", "1", "H", "5"),
    ("Di", "2", "S", "6"),
]
WAIT_MS = 40_000  # a resend comes at most 30 s after the last try (the backoff's cap)


def stored(hand) -> dict:
    declarer, level, strain, tricks = hand
    return {"declarer": declarer, "contract": f"{level}{strain}", "tricks": int(tricks)}


def stored_hands(page, server: str, match_id: str) -> list[dict]:
    answer = page.request.get(f"{server}/m/{match_id}/match.json")
    assert answer.ok, answer.status
    return json.loads(answer.text())["hands"]


def enter(table: Table, hand) -> None:
    for field, value in zip(("declarer", "level", "strain", "tricks"), hand, strict=True):
        table.tap_button(field, value)


def entries_on_screen(page) -> list[str | None]:
    return [
        page.evaluate(
            f"(document.querySelector('#hand-form input[name={field}]:checked') || {{}}).value"
            " || null"
        )
        for field in ("declarer", "level", "strain", "tricks")
    ]


def kept(page, match_id: str) -> list[dict]:
    text = page.evaluate(f"localStorage.getItem('scorekeeper:waiting:{match_id}')")
    return json.loads(text) if text else []


def form_key(page) -> str:
    return page.get_attribute("#hand-form input[name=key]", "value")


def wait_for_hand_form(page, number: int) -> None:
    page.wait_for_function(
        "n => (document.querySelector('h1') || {}).textContent === `Hand ${n}`",
        arg=number,
        timeout=WAIT_MS,
    )


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    yield Table(page, server)
    context.close()


def test_offline_at_save_keeps_the_entries_and_sends_them_once_back_online(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    for round_, hand in enumerate(HANDS[:3], 1):
        enter(phone, hand)
        key, revision = form_key(page), page.get_attribute("#hand-form [name=revision]", "value")
        context.set_offline(True)
        page.click("#save")
        page.wait_for_selector(".not-sent")
        assert page.inner_text(".not-sent") == NOT_SENT
        assert entries_on_screen(page) == list(hand)
        assert page.inner_text("h1") == f"Hand {round_}"
        [waiting] = kept(page, match_id)
        fields = dict(waiting["fields"])
        assert (fields["key"], fields["revision"], fields["declarer"]) == (key, revision, hand[0])
        assert len(stored_hands(page, phone.server, match_id)) == round_ - 1

        context.set_offline(False)  # no tap: the page sends it and moves on
        wait_for_hand_form(page, round_ + 1)
        assert f"Hand {round_} saved." in page.inner_text(".flash-undo")
        assert page.locator(".not-sent").count() == 0
        assert kept(page, match_id) == []
        assert stored_hands(page, phone.server, match_id) == [stored(h) for h in HANDS[:round_]]
        assert page.url.endswith(f"/m/{match_id}/hand/new")


def test_an_answer_lost_after_the_hand_was_stored_ends_showing_it_saved(phone):
    page = phone.page
    match_id = phone.start_match("rubber", PLAYERS)
    dropped: list[str] = []

    def drop_the_first_answer(route):
        if route.request.method == "POST" and not dropped:
            route.fetch()  # the server stores the hand and answers …
            dropped.append(route.request.url)
            route.abort("connectionreset")  # … and the answer never arrives
        else:
            route.continue_()

    for round_, hand in enumerate(HANDS[:3], 1):
        dropped.clear()
        page.route("**/hand/new", drop_the_first_answer)
        enter(phone, hand)
        page.click("#save")
        wait_for_hand_form(page, round_ + 1)
        page.unroute("**/hand/new")
        assert dropped, "no answer was dropped"
        assert f"Hand {round_} saved." in page.inner_text(".flash-undo")
        assert stored_hands(page, phone.server, match_id) == [stored(h) for h in HANDS[:round_]]
        assert kept(page, match_id) == []


def test_a_hand_waiting_when_the_tab_was_closed_is_sent_when_the_match_opens(browser, server):
    context = browser.new_context(viewport=PHONE)
    try:
        first = Table(context.new_page(), server)
        match_id = first.start_match("rubber", PLAYERS)
        for round_, hand in enumerate(HANDS[:2], 1):
            enter(first, hand)
            # No connection for this tab, to its end: a retry it may still start
            # while it closes can never arrive (set_offline(False) right after the
            # close could let one through, and then nothing would wait).
            first.page.route("**/hand/new", lambda route: route.abort("internetdisconnected"))
            first.page.click("#save")
            first.page.wait_for_selector(".not-sent")
            first.page.close()  # the tab closed (the phone slept, the browser was killed)
            assert len(stored_hands(context, server, match_id)) == round_ - 1

            again = context.new_page()
            again.goto(f"{server}/m/{match_id}")  # the match page sends it as it opens
            again.wait_for_selector("#waiting")
            again.wait_for_function(
                "() => /Hand \\d+ saved/.test(document.getElementById('waiting').textContent)",
                timeout=WAIT_MS,
            )
            assert f"Hand {round_} saved." in again.inner_text("#waiting")
            assert kept(again, match_id) == []
            assert stored_hands(context, server, match_id) == [stored(h) for h in HANDS[:round_]]
            again.reload()
            assert again.locator("#waiting").count() == 0
            again.goto(f"{server}/m/{match_id}/hand/new")
            first = Table(again, server)
    finally:
        context.close()


def test_a_waiting_hand_can_be_discarded(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    for _ in range(2):
        enter(phone, HANDS[0])
        context.set_offline(True)
        page.click("#save")
        page.wait_for_selector(".not-sent")
        # The server cannot be reached from the match page: the banner stays.
        page.route("**/hand/new", lambda route: route.abort("connectionrefused"))
        context.set_offline(False)
        page.goto(f"{phone.server}/m/{match_id}")
        page.wait_for_selector("#waiting-discard")
        assert page.inner_text("#waiting p") == (
            "1 hand waiting on this phone (Hand 1) — sending when the connection is back."
        )
        page.once("dialog", lambda dialog: dialog.accept())
        page.click("#waiting-discard")
        expect(page.locator("#waiting")).to_have_count(0)
        assert kept(page, match_id) == []
        page.unroute("**/hand/new")
        page.goto(f"{phone.server}/m/{match_id}/hand/new")
        assert stored_hands(page, phone.server, match_id) == []


def test_a_stale_answer_after_the_connection_came_back_keeps_the_entries(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    other = Phone(phone.server, "Bob's phone")
    expected: list[dict] = []
    for round_ in range(2):
        mine, theirs = HANDS[round_], HANDS[round_ + 2]
        enter(phone, mine)
        context.set_offline(True)
        page.click("#save")
        page.wait_for_selector(".not-sent")
        # Meanwhile another phone saves the same hand.
        form = other.form(f"/m/{match_id}/hand/new", action=f"/m/{match_id}/hand/new")
        declarer, level, strain, tricks = theirs
        answer = other.submit(form, declarer=declarer, level=level, strain=strain, tricks=tricks)
        assert answer.status == 302
        expected.append(stored(theirs))

        context.set_offline(False)
        page.wait_for_selector("#changed", timeout=WAIT_MS)
        assert "Not saved: the match changed since this form was drawn." in page.inner_text(
            "#changed"
        )
        assert entries_on_screen(page) == list(mine)
        assert kept(page, match_id) == []
        assert page.locator(".not-sent").count() == 0
        assert stored_hands(page, phone.server, match_id) == expected
        # Saved again on the match as it is now, it is stored after the other.
        phone.save()
        expected.append(stored(mine))
        assert stored_hands(page, phone.server, match_id) == expected


def test_one_taps_offline_say_nothing_was_changed(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    enter(phone, HANDS[0])
    phone.save()
    for _ in range(2):
        page.goto(f"{phone.server}/m/{match_id}#hand-1")
        context.set_offline(True)
        page.click("#hand-1 .actions button.danger")
        page.wait_for_selector(".no-answer")
        assert page.inner_text(".no-answer") == (
            "Nothing was changed — no connection. Try again when it is back."
        )
        assert page.url.startswith(phone.server)  # no browser error page
        context.set_offline(False)
        assert stored_hands(page, phone.server, match_id) == [stored(HANDS[0])]
    # Back online, the same tap works, in place. The live poll sent when the phone
    # came back online ends first: on a busy machine its answer once arrived
    # during the tap (the button detached under it).
    page.wait_for_load_state("networkidle")
    with page.expect_navigation():
        page.click("#hand-1 .actions button.danger")
    assert "Hand 1 deleted." in page.inner_text(".flash-undo")
    assert stored_hands(page, phone.server, match_id) == []


class Restartable:
    """The app in a process of its own on a fixed port and database file, so it
    can be stopped and started again under the same address (as `serve` is)."""

    def __init__(self, database: Path):
        self.database = database
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", SERVER, str(self.database), str(self.port)],
            cwd=Path(__file__).resolve().parents[2],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("the server did not start within 30 s")

    def stop(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=10)
            self.process = None


def test_the_server_restarting_during_a_save_stores_it_once(browser, tmp_path):
    server = Restartable(tmp_path / "restart.db")
    server.start()
    context = browser.new_context(viewport=PHONE)
    try:
        table = Table(context.new_page(), server.base)
        page = table.page
        match_id = table.start_match("rubber", PLAYERS)
        for round_, hand in enumerate(HANDS[:3], 1):
            enter(table, hand)
            if round_ % 2:
                server.stop()  # down when Save is tapped
                page.click("#save")
            else:
                # Down between storing the hand and answering.
                def store_then_die(route):
                    route.fetch()
                    server.stop()
                    route.abort("connectionreset")

                page.route("**/hand/new", store_then_die)
                page.click("#save")
                page.wait_for_function("() => !!document.querySelector('.not-sent')")
                page.unroute("**/hand/new")
            page.wait_for_selector(".not-sent")
            assert entries_on_screen(page) == list(hand)
            server.start()  # same database, same secret: the same form is accepted
            wait_for_hand_form(page, round_ + 1)
            assert f"Hand {round_} saved." in page.inner_text(".flash-undo")
            assert stored_hands(page, server.base, match_id) == [stored(h) for h in HANDS[:round_]]
    finally:
        context.close()
        server.stop()


def test_twenty_rounds_of_random_drops_store_every_hand_once(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    chance = random.Random(16)
    expected: list[dict] = []
    for round_ in range(1, 21):
        hand = HANDS[round_ % len(HANDS)]
        enter(phone, hand)
        how = chance.choice(["fine", "offline", "answer lost", "request lost", "closed"])
        if how == "fine":
            phone.save()
        elif how == "offline":
            context.set_offline(True)
            page.click("#save")
            page.wait_for_selector(".not-sent")
            time.sleep(chance.random())
            context.set_offline(False)
        elif how in ("answer lost", "request lost"):
            lost: list[int] = []

            def drop(route, how=how, lost=lost):
                if route.request.method == "POST" and len(lost) < 2:
                    lost.append(1)
                    if how == "answer lost":
                        route.fetch()
                    route.abort("connectionreset")
                else:
                    route.continue_()

            page.route("**/hand/new", drop)
            page.click("#save")
            page.wait_for_function("() => !!document.querySelector('.not-sent')", timeout=WAIT_MS)
            page.unroute("**/hand/new")
        else:  # "closed": the tab is closed while the hand waits; a new one opens the match
            context.set_offline(True)
            page.click("#save")
            page.wait_for_selector(".not-sent")
            page.close()
            context.set_offline(False)
            page = context.new_page()
            phone = Table(page, phone.server)
            page.goto(f"{phone.server}/m/{match_id}/hand/new")
        wait_for_hand_form(page, round_ + 1)
        expected.append(stored(hand))
        assert stored_hands(page, phone.server, match_id) == expected, (round_, how)
        assert kept(page, match_id) == []


def test_after_a_save_in_place_the_live_poll_asks_about_the_new_form(phone):
    """live.js read the page's live address when the page loaded; after a save
    answered in place its poll asks about the form now on screen, so the
    phone's own save is not reported as another phone's change, and another
    phone's save still is."""
    page = phone.page
    match_id = phone.start_match("rubber", PLAYERS)
    other = Phone(phone.server, "Bob's phone")
    for round_, hand in enumerate(HANDS[:2], 1):
        enter(phone, hand)
        phone.save()
        revision = page.get_attribute("#hand-form [name=revision]", "value")
        # The first poll sent from now on (a poll sent before the save may still
        # be on its way; its answer is not the one asked about here).
        with page.expect_request(lambda r: "/live" in r.url) as polled:
            page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
        assert polled.value.url.endswith(f"/m/{match_id}/live?since={revision}")
        assert polled.value.response().json()["changes"] == []
        assert page.is_hidden("#live-note")
        # Another phone saves the next hand: this form says so before Save.
        form = other.form(f"/m/{match_id}/hand/new", action=f"/m/{match_id}/hand/new")
        declarer, level, strain, tricks = HANDS[round_ + 1]
        other.submit(form, declarer=declarer, level=level, strain=strain, tricks=tricks)
        page.wait_for_selector("#live-note", state="visible", timeout=WAIT_MS)
        assert f"Hand {2 * round_} saved" in page.inner_text("#live-note")
        page.reload()


def test_settings_offline_keep_what_was_typed_and_change_nothing(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    page.goto(f"{phone.server}/m/{match_id}/settings")
    for title in ("Friday at Ann's", "Friday at Bob's"):
        page.fill("#title", title)
        context.set_offline(True)
        page.click("form.stack button.primary")
        page.wait_for_selector(".no-answer")
        assert "Nothing was changed — no connection." in page.inner_text(".no-answer")
        assert page.input_value("#title") == title  # still on the screen
        context.set_offline(False)
        assert (
            page.request.get(f"{phone.server}/m/{match_id}/match.json").json().get("title") is None
        )
    with page.expect_navigation():
        page.click("form.stack button.primary")
    assert page.request.get(f"{phone.server}/m/{match_id}/match.json").json()["title"] == (
        "Friday at Bob's"
    )


def test_a_waiting_hand_is_accepted_after_the_phone_lost_its_session_cookie(phone):
    """The kept form's CSRF token belongs to the old session: it is sent with the
    token of the page that sends it, so the same submission is still stored once."""
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    for round_, hand in enumerate(HANDS[:2], 1):
        enter(phone, hand)
        context.set_offline(True)
        page.click("#save")
        page.wait_for_selector(".not-sent")
        context.clear_cookies()  # the browser was closed: its session cookie is gone
        page.route("**/hand/new", lambda route: route.abort("connectionrefused"))
        context.set_offline(False)
        page.goto(f"{phone.server}/m/{match_id}")
        page.wait_for_selector("#waiting-send")
        page.unroute("**/hand/new")
        page.click("#waiting-send")
        page.wait_for_function(
            "() => /Hand \\d+ saved/.test(document.getElementById('waiting').textContent)",
            timeout=WAIT_MS,
        )
        assert stored_hands(page, phone.server, match_id) == [stored(h) for h in HANDS[:round_]]
        page.goto(f"{phone.server}/m/{match_id}/hand/new")


# What the page showed of an earlier answer that refused the hand: the list of what
# to fix, a field's own error, "the match changed" (or the two versions of the deal).
REFUSAL_BOXES = "#error-summary, #changed, [data-answer], .has-error, p.error"


def test_a_refused_hand_saved_offline_shows_only_not_sent(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    hand = HANDS[0]
    for field, value in zip(("declarer", "level", "strain"), hand, strict=False):
        phone.tap_button(field, value)
    page.click("#save")  # no tricks: refused, the entries shown again in place
    expect(page.locator("#error-summary")).to_contain_text("Not saved.")
    assert page.locator("#group-tricks p.error").count() == 1
    phone.tap_button("tricks", hand[3])
    context.set_offline(True)
    page.click("#save")
    expect(page.locator(".not-sent")).to_have_text(NOT_SENT)
    assert page.locator(REFUSAL_BOXES).count() == 0
    assert entries_on_screen(page) == list(hand)

    context.set_offline(False)
    wait_for_hand_form(page, 2)
    assert stored_hands(page, phone.server, match_id) == [stored(hand)]


def test_the_two_versions_of_a_deal_saved_mine_offline_show_only_not_sent(phone):
    page, context = phone.page, phone.page.context
    match_id = phone.start_match("rubber", PLAYERS)
    mine, theirs = HANDS[0], HANDS[2]
    other = Phone(phone.server, "Bob's phone")
    form = other.form(f"/m/{match_id}/hand/new", action=f"/m/{match_id}/hand/new")
    declarer, level, strain, tricks = theirs
    answer = other.submit(form, declarer=declarer, level=level, strain=strain, tricks=tricks)
    assert answer.status == 302
    enter(phone, mine)
    page.click("#save")  # refused: Bob's phone saved hand 1 first
    expect(page.locator("#same-deal-differences")).to_be_visible()
    context.set_offline(True)
    page.click("#save-mine")
    expect(page.locator(".not-sent")).to_have_text(NOT_SENT)
    assert page.locator(REFUSAL_BOXES).count() == 0
    assert page.locator("#keep-theirs").count() == 0  # the choice is made: mine waits
    assert entries_on_screen(page) == list(mine)

    context.set_offline(False)
    wait_for_hand_form(page, 3)
    assert stored_hands(page, phone.server, match_id) == [stored(theirs), stored(mine)]
