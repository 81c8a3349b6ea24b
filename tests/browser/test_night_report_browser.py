"""The night's report in Chromium (issue 27, item 3): the page at 390×844 and
360×740 in light and dark (axe finds nothing, no sideways scroll, 44 px targets),
at 320 px with the text at 200 %, and "Copy for the group chat" with the
clipboard, without it (plain http on a LAN: the selection and
execCommand('copy')), when even that fails (the text left selected) and with the
system share sheet."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from scorekeeper import db as store
from scorekeeper.app import create_app
from tests.phones import served
from tests.test_night_report import FRIDAY_TEXT, NIGHTS, make_group

from .conftest import ARTIFACTS, settled
from .test_csp_browser import SMALL_TARGETS, axe_violations
from .test_large_print import LAYOUT, NARROWEST, TWICE, large_print_phone

PHONES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}

# A phone on plain http across the LAN has no navigator.clipboard (no secure
# context); execCommand('copy') is recorded with what it would copy: the
# selected part of the textarea.
NO_CLIPBOARD = """
Object.defineProperty(Navigator.prototype, "clipboard", {get: () => undefined});
window.__copied = [];
document.execCommand = (command) => {
  const box = document.activeElement;
  window.__copied.push([command, box.value.substring(box.selectionStart, box.selectionEnd)]);
  return window.__copyWorks;
};
window.__copyWorks = true;
"""
SHARE_SHEET = """
window.__shared = [];
navigator.share = (data) => { window.__shared.push(data); return Promise.resolve(); };
"""


@pytest.fixture(scope="module")
def night(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """The app on its own store with the group of tests/test_night_report.py."""
    database = tmp_path_factory.mktemp("night") / "night.db"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "night-tests"})
    db = store.connect(str(database))
    group_id, _ = make_group(db, NIGHTS)
    db.close()
    with served(app, threads=4) as base:
        yield base, f"{base}/g/{group_id}/night"


@pytest.fixture
def context(browser):
    made = browser.new_context(viewport=PHONES["390x844"], has_touch=True, is_mobile=True)
    yield made
    made.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(PHONES))
def test_the_report_fits_the_phone_and_axe_finds_nothing(browser, night, size, scheme):
    _, address = night
    viewport = PHONES[size]
    made = browser.new_context(viewport=viewport, has_touch=True, is_mobile=True)
    try:
        page = made.new_page()
        page.emulate_media(color_scheme=scheme)
        page.goto(address)
        settled(page)
        expect(page.locator("h1")).to_have_text("The night of Friday, 13 November 2026")
        assert axe_violations(page) == []
        assert page.evaluate(SMALL_TARGETS) == []
        assert page.evaluate("document.documentElement.scrollWidth") == viewport["width"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"night-{size}-{scheme}.png"), full_page=True)
    finally:
        made.close()


def test_the_report_at_320_px_with_the_text_at_200_percent(browser, night):
    server, address = night
    made, page = large_print_phone(browser, server, "en", NARROWEST, TWICE)
    try:
        page.goto(address)
        settled(page)
        found = page.evaluate(LAYOUT, NARROWEST["width"]) + page.evaluate(SMALL_TARGETS)
        assert found == []
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "night-320-200.png"), full_page=True)
    finally:
        made.close()


def test_copy_without_a_clipboard_selects_the_text_and_copies_it(context, night):
    _, address = night
    context.add_init_script(NO_CLIPBOARD)
    page = context.new_page()
    page.goto(address)
    settled(page)
    expect(page.locator("#night-share")).to_be_hidden()  # no share sheet here
    page.click("#night-copy")
    expect(page.locator("#night-copy-status")).to_have_text("Copied: paste it in the group chat.")
    assert page.evaluate("window.__copied") == [["copy", FRIDAY_TEXT]]


def test_when_copying_fails_the_text_stays_selected_to_press_and_hold(context, night):
    _, address = night
    context.add_init_script(NO_CLIPBOARD + "window.__copyWorks = false;")
    page = context.new_page()
    page.goto(address)
    settled(page)
    page.click("#night-copy")
    expect(page.locator("#night-copy-status")).to_have_text(
        "Press and hold the text above to copy it."
    )
    selected = page.evaluate(
        """() => { const box = document.activeElement;
                   return [box.id, box.value.substring(box.selectionStart, box.selectionEnd)]; }"""
    )
    assert selected == ["night-text", FRIDAY_TEXT]


def test_copy_with_the_clipboard(context, night):
    server, address = night
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    page = context.new_page()
    page.goto(address)
    settled(page)
    page.click("#night-copy")
    expect(page.locator("#night-copy-status")).to_have_text("Copied: paste it in the group chat.")
    assert page.evaluate("navigator.clipboard.readText()") == FRIDAY_TEXT


def test_the_share_sheet_where_the_browser_has_one(context, night):
    _, address = night
    context.add_init_script(SHARE_SHEET)
    page = context.new_page()
    page.goto(address)
    settled(page)
    page.click("#night-share")
    expect(page.locator("#night-copy-status")).to_have_text("Shared.")
    assert page.evaluate("window.__shared") == [
        {"title": "The night of Friday, 13 November 2026", "text": FRIDAY_TEXT}
    ]


def test_the_day_picker_and_the_links_to_other_nights(context, night):
    _, address = night
    page = context.new_page()
    page.goto(address)
    settled(page)
    with page.expect_navigation():
        page.click("#night-earlier")
    expect(page.locator("h1")).to_have_text("The night of Friday, 30 October 2026")
    page.fill("#night-day", "2026-11-13")
    with page.expect_navigation():
        page.click("#night-form button")
    expect(page.locator("h1")).to_have_text("The night of Friday, 13 November 2026")
    assert page.input_value("#night-text") == FRIDAY_TEXT
