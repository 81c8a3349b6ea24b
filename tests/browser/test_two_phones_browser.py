"""Two phones, one deal, in a real browser: phone B's hand is refused because
Ann's phone saved that hand first. "Same deal — keep theirs, discard mine"
stores nothing and leaves no copy in the phone's storage; "Save mine as the
next hand" stores it once. With the page's script (fetch, the offline queue)
and without it (plain form posts)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.phones import Phone

from .conftest import PHONE, Table

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
# Part scores: the rubber goes on after both (no second game).
THEIRS = ("Ann", "2", "S", "8")
MINE = ("Ann", "2", "S", "7")
DIFFERENCE = "Tricks won by declarer's side: theirs 8 · yours 7"
EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "top-game.json"
WAIT_MS = 40_000  # a resend comes at most 30 s after the last try (the backoff's cap)


def stored(hand) -> dict:
    declarer, level, strain, tricks = hand
    return {"declarer": declarer, "contract": f"{level}{strain}", "tricks": int(tricks)}


def stored_hands(page, server: str, match_id: str) -> list[dict]:
    answer = page.request.get(f"{server}/m/{match_id}/match.json")
    assert answer.ok, answer.status
    return json.loads(answer.text())["hands"]


def revision(page, server: str, match_id: str) -> int:
    return page.request.get(f"{server}/m/{match_id}/live").json()["revision"]


def enter(table: Table, hand) -> None:
    for field, value in zip(("declarer", "level", "strain", "tricks"), hand, strict=True):
        table.tap_button(field, value)


def wait_for_heading(page, heading: str) -> None:
    page.wait_for_function(
        "h => (document.querySelector('h1') || {}).textContent === h",
        arg=heading,
        timeout=WAIT_MS,
    )


def kept(page, match_id: str) -> list[dict]:
    text = page.evaluate(f"localStorage.getItem('scorekeeper:waiting:{match_id}')")
    return json.loads(text) if text else []


def ann_saves(server: str, match_id: str, hand) -> None:
    """Ann's phone, another HTTP client, saves `hand` as the next hand."""
    ann = Phone(server, "Ann's phone")
    new = f"/m/{match_id}/hand/new"
    declarer, level, strain, tricks = hand
    answer = ann.submit(ann.form(new), declarer=declarer, level=level, strain=strain, tricks=tricks)
    assert answer.status == 302


@pytest.fixture
def phone_without_script(browser, server) -> Iterator[Table]:
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    yield Table(context.new_page(), server)
    context.close()


def test_keep_theirs_after_the_wifi_came_back_stores_nothing_and_forgets_the_copy(table):
    page, context, server = table.page, table.page.context, table.server
    match_id = table.start_match("rubber", PLAYERS)
    enter(table, MINE)
    context.set_offline(True)
    page.click("#save")
    page.wait_for_selector(".not-sent")
    [waiting] = kept(page, match_id)
    ann_saves(server, match_id, THEIRS)  # meanwhile, the same deal with one trick more

    context.set_offline(False)  # the page sends its copy: refused, both versions shown
    page.wait_for_selector("#keep-theirs", timeout=WAIT_MS)
    assert page.locator("#same-deal-differences li").all_inner_texts() == [DIFFERENCE]
    assert page.inner_text("#keep-theirs") == "Same deal — keep theirs, discard mine"
    assert page.inner_text("#save-mine") == "Save mine as the next hand"
    assert page.inner_text("h1") == "Hand 2"
    assert page.get_attribute("#keep-theirs-form", "data-discard") == waiting["key"]
    assert stored_hands(page, server, match_id) == [stored(THEIRS)]
    table.no_horizontal_scroll()
    # A second tab of this phone may still hold the copy: put it back, as that
    # tab would have kept it, so "keep theirs" has something to forget.
    page.evaluate(
        "([id, copy]) => localStorage.setItem('scorekeeper:waiting:' + id, JSON.stringify([copy]))",
        [match_id, waiting],
    )
    before = revision(page, server, match_id)

    page.click("#keep-theirs")
    wait_for_heading(page, "Hand 2")
    page.wait_for_selector("text=Kept hand 1 as Ann's phone saved it; yours was not saved.")
    assert page.url.endswith(f"/m/{match_id}/hand/new")
    assert page.locator("#keep-theirs").count() == 0
    assert kept(page, match_id) == []
    # Nothing is sent again later either: the page is shown anew, still one hand.
    page.reload()
    page.wait_for_selector("#save")
    assert kept(page, match_id) == []
    assert page.locator(".not-sent, #waiting").count() == 0
    assert revision(page, server, match_id) == before
    assert stored_hands(page, server, match_id) == [stored(THEIRS)]


def test_save_mine_as_the_next_hand_double_tapped_stores_it_once(table):
    page, server = table.page, table.server
    match_id = table.start_match("rubber", PLAYERS)
    ann_saves(server, match_id, THEIRS)  # while this phone's form is open
    enter(table, MINE)
    page.click("#save")
    page.wait_for_selector("#save-mine")
    assert page.locator("#same-deal-differences li").all_inner_texts() == [DIFFERENCE]

    page.dblclick("#save-mine")
    wait_for_heading(page, "Hand 3")
    assert "Hand 2 saved." in page.inner_text(".flash-undo")
    assert kept(page, match_id) == []
    assert stored_hands(page, server, match_id) == [stored(THEIRS), stored(MINE)]


def test_without_the_script_keep_theirs_and_save_mine_are_plain_forms(phone_without_script):
    table = phone_without_script
    page, server = table.page, table.server
    match_id = table.start_match("rubber", PLAYERS)
    ann_saves(server, match_id, THEIRS)
    enter(table, MINE)
    with page.expect_navigation():
        page.click("#save")
    assert page.locator("#same-deal-differences li").all_inner_texts() == [DIFFERENCE]
    before = revision(page, server, match_id)
    with page.expect_navigation():
        page.click("#keep-theirs")
    assert page.url.endswith(f"/m/{match_id}/hand/new")
    assert "Kept hand 1 as Ann's phone saved it; yours was not saved." in page.inner_text("main")
    assert revision(page, server, match_id) == before

    # The same again; this time this phone's hand is saved as the next one.
    ann_saves(server, match_id, THEIRS)
    enter(table, MINE)
    with page.expect_navigation():
        page.click("#save")
    with page.expect_navigation():
        page.click("#save-mine")
    assert page.inner_text("h1") == "Hand 4"
    assert stored_hands(page, server, match_id) == [stored(THEIRS)] * 2 + [stored(MINE)]


def import_file(page, server: str, content: bytes) -> None:
    page.goto(f"{server}/")
    page.set_input_files(
        "input[type=file]",
        files=[{"name": "evening.json", "mimeType": "application/json", "buffer": content}],
    )
    with page.expect_navigation():
        page.click("form[action='/import'] button")


def test_the_same_file_imported_again_offers_to_open_it_or_import_a_copy(table):
    page, server = table.page, table.server
    document = json.loads(EXAMPLE.read_text())
    content = json.dumps({**document, "title": "Imported twice"}).encode()
    import_file(page, server, content)
    first = page.url
    assert "Imported 12 hands." in page.inner_text("main")

    import_file(page, server, content)
    assert page.inner_text("#already-here") == (
        "This match is already here (imported a moment ago). Nothing was imported."
    )
    table.no_horizontal_scroll()
    assert page.get_attribute("#open-it", "href") == first.removeprefix(server)
    with page.expect_navigation():
        page.dblclick("#import-copy")  # a double tap: one copy
    copy = page.url
    assert copy != first and "Imported a copy: 12 hands." in page.inner_text("main")
    page.goto(f"{server}/")
    listed = page.locator(".match-list a", has_text="Imported twice")
    assert listed.count() == 2
    assert {listed.nth(i).get_attribute("href") for i in range(2)} == {
        first.removeprefix(server),
        copy.removeprefix(server),
    }
    answer = page.request.get(f"{copy}/match.json")
    exported = json.loads(answer.text())
    # The example names no day played: the copy carries the day it was imported on.
    assert (
        exported.pop("played")
        == json.loads(table.page.request.get(f"{first}/match.json").text())["played"]
    )
    assert exported == {**document, "title": "Imported twice"}
