"""The language switch as a player uses it in Chromium: the phone's own
languages first, a pick at the foot of the page that comes back to the same
page in the new language (no script needed), and every page of a match in
each language fits a 360 px phone with the switch a full tap high."""

from __future__ import annotations

import pytest

from .conftest import PHONE, Table, click_and_wait, settled

# The longest words of the header and the switch: German and Polish.
LANGUAGES = ["de-DE", "pl-PL", "fr-FR", "zh-CN"]


@pytest.fixture
def phone_in(browser, server):
    contexts = []

    def open_phone(language: str) -> Table:
        context = browser.new_context(
            viewport=PHONE, locale=language, extra_http_headers={"Accept-Language": language}
        )
        contexts.append(context)
        return Table(context.new_page(), server)

    yield open_phone
    for context in contexts:
        context.close()


def switch_sizes(page) -> list[tuple[int, int]]:
    return page.evaluate(
        """[...document.querySelectorAll('.language-pick select, .language-pick button')]
           .map(el => { const r = el.getBoundingClientRect();
                        return [Math.round(r.width), Math.round(r.height)]; })"""
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_of_a_match_fits_a_small_phone_in_each_language(phone_in, language):
    table = phone_in(language)
    match_id = table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
    tag = "zh-Hans" if language == "zh-CN" else language[:2]
    for path in ("/", f"/m/{match_id}", f"/m/{match_id}/hand/new", "/nowhere"):
        table.page.goto(f"{table.server}{path}")
        settled(table.page)
        assert table.page.evaluate("document.documentElement.lang") == tag, path
        table.no_horizontal_scroll(360)
        table.page.set_viewport_size({"width": 360, "height": 740})
        assert all(height >= 44 for _, height in switch_sizes(table.page)), path
        table.page.set_viewport_size(PHONE)


def test_the_switch_brings_the_same_page_back_in_the_language_picked(phone_in):
    table = phone_in("de-DE")
    match_id = table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    page.goto(f"{table.server}/m/{match_id}")
    settled(page)
    assert page.evaluate("document.documentElement.lang") == "de"
    page.select_option(".language-pick select", "pl")
    click_and_wait(page, ".language-pick button")
    assert page.url == f"{table.server}/m/{match_id}"
    assert page.evaluate("document.documentElement.lang") == "pl"
    # Remembered on this phone: the home page too, whatever the browser says.
    page.goto(f"{table.server}/")
    settled(page)
    assert page.locator("h2").first.inner_text() == "Wznów mecz"
