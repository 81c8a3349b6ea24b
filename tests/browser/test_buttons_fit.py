"""Every button of every game's hand form shows its whole label on a small phone:
at 360×740, at 320×640, and at 360×740 with the text twice its usual size (the
browser's text size setting, emulated as Chrome's default font size of 32 px).
Nothing is cut ("1…" for "10 +3"), every button keeps 44 × 44 px, and nothing
scrolls sideways. The state that makes labels longest is shown: a contract
chosen (the tricks buttons then carry their result, "+3"), every "more" box open."""

from __future__ import annotations

import re

import pytest

from .conftest import Table

# (variant, players): one of each game, and the three games of the rubber family.
GAMES = [
    ("rubber", ["Ann", "Bob", "Cy", "Di"]),
    ("chicago", ["Ann", "Bob", "Cy", "Di"]),
    ("honeymoon", ["Ann", "Bob"]),
    ("top-game", ["Ann", "Bob", "Cy"]),
    ("need-a-fourth", ["Ann", "Bob", "Cy"]),
    ("bridge-for-three", ["Ann", "Bob", "Cy", "Di", "Ed"]),
    ("mini-bridge", ["Ann", "Bob", "Cy", "Di"]),
    ("mini-bridge-3", ["Ann", "Bob", "Cy"]),
    ("calypso", ["Ann", "Bob", "Cy", "Di"]),
]
# (width, height, the browser's default font size in px: 16 is the usual, 32 is 200 %)
PHONES = {
    "360x740": (360, 740, 16),
    "320x640": (320, 640, 16),
    "360x740-text-200": (360, 740, 32),
}
TAPPABLE = "main .buttons label, main button, main .button, main .pad-key"
# Each visible button: its text, whether its label is cut (wider or taller than its
# box, which is where "…" shows), and its size.
MEASURE = """sel => [...document.querySelectorAll(sel)]
  .filter(el => el.getClientRects().length && !el.closest('[aria-hidden=true]'))
  .map(el => {
    const box = el.getBoundingClientRect();
    const after = getComputedStyle(el, '::after').content;
    return {
      text: el.textContent.trim().replace(/\\s+/g, ' ')
        + (after && after !== 'none' && after !== 'normal' ? ' ' + el.dataset.result : ''),
      cut: el.scrollWidth > el.clientWidth || el.scrollHeight > el.clientHeight,
      width: box.width,
      height: box.height,
    };
  })"""


@pytest.fixture(scope="module", params=list(PHONES), ids=list(PHONES))
def small_phone_context(request, browser):
    """One browser context per phone size for the module (the text size is the
    context's): each test opens a page of its own in it."""
    width, height, font = PHONES[request.param]
    context = browser.new_context(viewport={"width": width, "height": height})
    yield context, width, font
    context.close()


@pytest.fixture
def small_phone(small_phone_context, server):
    context, width, font = small_phone_context
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")
    # What Chrome's text size setting changes (a rem follows it; a px does not).
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font * 13 // 16}})
    table = Table(page, server)
    table.width = width
    yield table
    page.close()


@pytest.fixture(scope="module")
def new_hand_forms() -> dict[str, str]:
    """The new-hand address of one match per game, started by the first phone that
    needs it: nothing is saved on it, so every phone size reads the same fresh form."""
    return {}


@pytest.mark.parametrize(("variant", "players"), GAMES, ids=[g[0] for g in GAMES])
def test_every_button_of_a_hand_form_shows_its_whole_label(
    small_phone, new_hand_forms, variant, players
):
    table, page = small_phone, small_phone.page
    if variant in new_hand_forms:
        page.goto(new_hand_forms[variant])
    else:
        table.start_match(variant, players)
        new_hand_forms[variant] = page.url
    assert re.search(r"/hand/new$", page.url)
    if page.locator("#group-level").count():  # the tricks buttons say "=", "+3", "−2"
        table.tap_button("level", "1")
        table.tap_button("strain", "NT")
    page.eval_on_selector_all("main details", "all => all.forEach(d => { d.open = true; })")
    buttons = page.evaluate(MEASURE, TAPPABLE)
    assert len(buttons) >= 10, buttons
    assert [b["text"] for b in buttons if b["cut"]] == []
    assert [b["text"] for b in buttons if b["width"] < 44 or b["height"] < 44] == []
    assert page.evaluate("document.documentElement.scrollWidth") == table.width
