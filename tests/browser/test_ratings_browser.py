"""The ratings and head-to-head pages in Chromium, light and dark, at 390×844 and
360×740: no axe violation, nothing refused by the Content-Security-Policy, no
sideways scrolling, the links tall enough for a finger, and the way there from
the statistics page. Screenshots go to test-artifacts/ to be looked at."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import expect

from scorekeeper import db as store
from scorekeeper.app import create_app
from tests.phones import served
from tests.test_web_ledger import make_group

from .conftest import ARTIFACTS
from .test_csp_browser import RECORD_VIOLATIONS, Watched, axe_violations

pytestmark = pytest.mark.browser

SIZES = {"390x844": {"width": 390, "height": 844}, "360x740": {"width": 360, "height": 740}}


@pytest.fixture(scope="module")
def group_server(tmp_path_factory) -> Iterator[tuple[str, str]]:
    """The app served on a store holding the group of tests/test_web_ledger.py."""
    database = tmp_path_factory.mktemp("ratings") / "ratings.db"
    app = create_app({"DATABASE": str(database), "SECRET_KEY": "browser-tests"})
    db = store.connect(str(database))
    group_id, _ = make_group(db)
    db.close()
    with served(app, threads=2) as base:
        yield base, group_id


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("size", list(SIZES))
def test_the_ratings_pages_fit_a_phone_and_pass_axe(browser, group_server, scheme, size):
    base, group_id = group_server
    context = browser.new_context(viewport=SIZES[size], color_scheme=scheme)
    context.add_init_script(RECORD_VIOLATIONS)
    phone = Watched(context.new_page(), base)
    page = phone.page
    try:
        page.goto(f"{base}/g/{group_id}/statistics")
        with page.expect_navigation():
            page.get_by_role("link", name="Ratings and head to head").click()
        expect(page.locator("h1")).to_have_text("Ratings · Friday four")
        page.locator("#rating-1 summary").click()  # Ann's chart, open
        expect(
            page.get_by_role("img", name="Ann: rating after each match.", exact=False)
        ).to_be_visible()
        phone.check("ratings page")
        for where in ("ratings", "head-to-head"):
            if where == "head-to-head":
                with page.expect_navigation():
                    page.get_by_role("link", name="Head to head").first.click()
                expect(page.locator("h1")).to_have_text("Head to head · Friday four")
                phone.check("head-to-head page")
            assert axe_violations(page) == [], where
            width = SIZES[size]["width"]
            assert page.evaluate("document.documentElement.scrollWidth") <= width, where
            heights = page.evaluate(
                "() => [...document.querySelectorAll('main a.button, main summary.button')]"
                ".map((e) => e.getBoundingClientRect().height)"
            )
            assert heights and min(heights) >= 44, (where, heights)
            ARTIFACTS.mkdir(exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{where}-{size}-{scheme}.png"), full_page=True)
        assert phone.refused == {}
    finally:
        context.close()
