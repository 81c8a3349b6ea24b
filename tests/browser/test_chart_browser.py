"""The chart of the running score in Chromium: drawn by the server (no script
needed), in the page's light or dark colours (the phone's setting or the header's
choice), named for a screen reader with its numbers in a table, nothing refused by
the Content-Security-Policy, no axe violation, no sideways scrolling at 360 px,
and a second phone's chart following a hand saved on the first."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from .conftest import PHONE, Table
from .test_csp_browser import (
    EXAMPLES,
    RECORD_VIOLATIONS,
    Watched,
    axe_violations,
    import_example,
)
from .test_live_browser import LIVE_WAIT_MS, PLAYERS, enter

pytestmark = pytest.mark.browser

# Ann's, Bob's and Cy's lines (series 0, 1, 2) and the axis labels, as Chromium
# computes them from static/charts.css and app.css in each scheme.
STROKES = {
    "light": ["rgb(22, 71, 58)", "rgb(179, 38, 30)", "rgb(31, 79, 163)"],
    "dark": ["rgb(138, 209, 173)", "rgb(255, 143, 133)", "rgb(143, 184, 255)"],
}
MUTED = {"light": "rgb(93, 107, 102)", "dark": "rgb(163, 176, 171)"}
TITLE = "Running score after each hand. After hand 12: Ann −4, Bob −1, Cy 5."

LINE_STROKES = """() => [...document.querySelectorAll("#score-chart .line polyline")]
    .map((line) => getComputedStyle(line).stroke)"""
AXIS_FILL = """() => getComputedStyle(document.querySelector("#score-chart .axis text")).fill"""


@pytest.fixture(params=["light", "dark"])
def scheme(request) -> str:
    return request.param


@pytest.fixture
def phone(browser, server, scheme) -> Iterator[Watched]:
    """A phone set to `scheme`, recording anything the policy refuses."""
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    context.add_init_script(RECORD_VIOLATIONS)
    yield Watched(context.new_page(), server)
    context.close()


def test_the_chart_takes_the_schemes_colours_within_the_policy_with_no_axe_finding(phone, scheme):
    page = phone.page
    import_example(phone, "top-game")
    chart = page.get_by_role("img", name=TITLE)
    expect(chart).to_be_visible()
    assert page.evaluate(LINE_STROKES) == STROKES[scheme]
    assert page.evaluate(AXIS_FILL) == MUTED[scheme]
    # The numbers for a screen reader: a table named by the chart's title, not shown.
    table = page.get_by_role("table", name="Running score after each hand")
    assert table.locator("tbody tr").count() == 12  # hands 1–12; the redeal counts with hand 6
    assert table.locator("tbody tr").nth(7).inner_text().split() == ["8", "−28", "5", "23"]
    assert page.locator("#score-chart .visually-hidden").bounding_box()["width"] <= 1
    phone.check("match page with its chart")
    assert phone.refused == {}
    assert axe_violations(page) == []

    page.set_viewport_size({"width": 360, "height": 780})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    box = chart.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert page.locator("#score-chart .chart-legend li").count() == 3


def test_the_colour_chosen_in_the_header_recolours_the_chart(browser, server):
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    phone = Watched(context.new_page(), server)
    import_example(phone, "bridge-for-three")
    page = phone.page
    expect(
        page.get_by_role(
            "img", name="Pegs after each hand. After hand 11: Ann 10, Bob −5, Cy 11, Dan 4."
        )
    ).to_be_visible()
    assert page.evaluate(LINE_STROKES)[:3] == STROKES["light"]
    page.select_option("#theme-choice", "dark")
    assert page.evaluate(LINE_STROKES)[:3] == STROKES["dark"]
    assert page.evaluate(AXIS_FILL) == MUTED["dark"]
    context.close()


def test_the_chart_needs_no_script(browser, server, tmp_path):
    """Drawn on the server: with JavaScript off the chart is there, and the
    phone's dark setting still colours it (app.css's media query)."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark", java_script_enabled=False)
    page = context.new_page()
    page.goto(server + "/")
    form = "form[action$='/import']"
    # A match of its own (the example itself may be here already, from another test).
    document = json.loads((EXAMPLES / "top-game.json").read_text(encoding="utf-8"))
    own = tmp_path / "no-script.json"
    own.write_text(json.dumps({**document, "title": "Without a script"}), encoding="utf-8")
    page.set_input_files(f"{form} input[type=file]", str(own))
    with page.expect_navigation():
        page.click(f"{form} button")
    expect(page.get_by_role("img", name=TITLE)).to_be_visible()
    lines = page.locator("#score-chart .line polyline")
    for i, stroke in enumerate(STROKES["dark"]):
        expect(lines.nth(i)).to_have_css("stroke", stroke)
    context.close()


@pytest.fixture
def two_phones(browser, server) -> Iterator[tuple[Table, Table]]:
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    yield tuple(Table(context.new_page(), server) for context in contexts)
    for context in contexts:
        context.close()


def test_a_second_phones_chart_follows_a_saved_hand(two_phones):
    """Rubber: a side's line. Ann's 4♠ made is 120 below the line for We."""
    first, second = two_phones
    match_id = first.start_match("rubber", PLAYERS)
    second.page.goto(f"{second.server}/m/{match_id}")
    assert second.page.locator("#score-chart").count() == 0  # no hand yet
    enter(first, "Ann", 4, "S", 10)
    first.save()
    title = (
        "Points per side (above and below the line) after each hand."
        " After hand 1: We (Ann & Cy) 120, They (Bob & Di) 0."
    )
    expect(second.page.get_by_role("img", name=title)).to_be_visible(timeout=LIVE_WAIT_MS)
    rows = second.page.locator("#score-chart tbody tr")
    assert rows.all_inner_texts() == ["1\t120\t0"]
    we = second.page.locator('#score-chart .line[data-name="We (Ann & Cy)"] polyline')
    # 0 … 150 from y 180 to 10: 120 is at 180 − 170·120/150 = 44.
    assert we.get_attribute("points") == "48.5,180 346,44"
