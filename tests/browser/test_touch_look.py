"""How a phone sees the buttons and the watch page's header: a touch screen's
last tap never looks like a second kind of "chosen", and the watch header fits
at 360 and 390 px with nothing overlapping."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser


def phone(browser, scheme: str, width: int):
    return browser.new_context(
        viewport={"width": width, "height": 844 if width == 390 else 740},
        has_touch=True,
        is_mobile=True,
        color_scheme=scheme,
    )


def start_rubber(page, server: str) -> str:
    page.goto(f"{server}/new")
    page.check('input[name=variant][value="rubber"]')
    for i, name in enumerate(["Ann", "Bob", "Cy", "Dee"], 1):
        page.fill(f"#player{i}", name)
    page.click("form#new-match button.primary")
    page.wait_for_url(re.compile(r".*/hand/new$"))
    return re.search(r"/m/([\w-]{16})", page.url).group(1)


LOOK = """sel => { const s = getComputedStyle(document.querySelector(sel));
  return [s.backgroundColor, s.webkitTapHighlightColor]; }"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_last_tapped_button_looks_like_every_other_chosen_one(browser, server, scheme):
    context = phone(browser, scheme, 390)
    page = context.new_page()
    start_rubber(page, server)
    for field, value in (("declarer", "Bob"), ("level", "4"), ("strain", "S")):
        page.tap(f'#group-{field} input[value="{value}"] + label')
    first = page.evaluate(LOOK, '#group-declarer input[value="Bob"] + label')
    last = page.evaluate(LOOK, '#group-strain input[value="S"] + label')
    unchosen = page.evaluate(LOOK, '#group-strain input[value="C"] + label')
    assert last == first  # the same dark fill, no flash left on the last tap
    assert last[1] == "rgba(0, 0, 0, 0)"  # the phone's own tap tint is off
    assert unchosen[0] != last[0]
    context.close()


@pytest.mark.parametrize("width", [360, 390])
def test_watch_header_fits_without_overlap(browser, server, width):
    context = phone(browser, "light", width)
    page = context.new_page()
    match_id = start_rubber(page, server)
    page.goto(f"{server}/m/{match_id}")
    watch = re.search(r"/w/[\w-]+", page.text_content("#share-watch code")).group(0)
    page.goto(server + watch)
    boxes = [
        page.locator(s).bounding_box() for s in (".top .brand", ".top .watching", ".theme-pick")
    ]
    for left, right in zip(boxes, boxes[1:], strict=False):
        assert left["x"] + left["width"] <= right["x"]  # side by side, not overlapping
    for box in boxes:
        assert box["y"] >= 0 and box["y"] + box["height"] <= 48, boxes  # one line in the bar
    assert page.locator("#theme-choice").bounding_box()["height"] >= 44
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    context.close()
