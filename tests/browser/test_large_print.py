"""Large print (issue 26, item 5): every page of the app read at 320 CSS px with
the text at 200 %, in each language the app speaks, and the text size switch.

How 200 % is made: Chromium's default font size set to 32 px instead of 16
(`Page.setFontSizes`, what the browser's own text size setting changes; a rem and
a percentage follow it, a px does not), on a 320 × 640 viewport. That is the page
a 320 px phone draws with its text size at 200 %, and what a 640 px phone draws at
400 % zoom. The app's own switch (125 / 150 %) multiplies on top of it.

On each page (one crawl, `test_page_scripts.crawl`):
- no sideways scroll: `document.scrollingElement.scrollWidth` is the viewport's
  width, and no box scrolls sideways inside the page either;
- no word broken inside: each word of the page's text (words split at spaces,
  dashes, slashes and soft hyphens) lies on one line (its range's rectangles share
  one line), unless the word is longer than the page's line itself (German's
  "Tabellenkalkulation" at 32 px: no layout keeps it whole; a phone that knows
  the language's hyphenation hyphenates it there);
- no control covered: a control scrolled to the middle of the screen is what
  `elementFromPoint` finds at its centre (or something inside it); and none cut:
  its content fits its box;
- every target at least 44 × 44 px (test_csp_browser.SMALL_TARGETS).

Every language of the app: the crawl runs once, in English, on one phone (it
imports the matches and makes the group); then the same phone reads its pages
again in each other language, switched by the `lang` cookie. The languages of
long words (LONG_WORDS) read every kind of page of every game family, the others
each kind of page once; each also saves a hand (the answer to a save). Pages are
found by their addresses and ids, never by their words.

Axe in every language: the main pages (MAIN_PAGES, a hand form of each family)
on a 390 px phone at 100 % text (at 200 % nearly all text is "large" to axe, whose
contrast bar is then lower), in the light colour scheme and the dark one."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from scorekeeper.games.catalog import GAMES

from .conftest import ARTIFACTS, PHONE, Table, click_and_wait, settled
from .test_csp_browser import SMALL_TARGETS
from .test_page_scripts import RUBBER, RUBBER_HANDS, Console, crawl, enter

# Every main page in every language for axe, every page in every language for the
# layout (SCOREKEEPER_EVERY_LANGUAGE=1; several minutes): else the suite's share.
EVERY_PAGE_IN_EVERY_LANGUAGE = os.environ.get("SCOREKEEPER_EVERY_LANGUAGE") == "1"
# The languages of long words get every page; the others the main pages.
LONG_WORDS = ["de", "nl", "pl", "zh_Hans_CN"]
SHORTER_WORDS = ["fr", "sv", "it"]
NARROWEST = {"width": 320, "height": 640}
TWICE = 32  # px: Chromium's default font size at 200 % (16 px is 100 %)

# Everything on the page that is out of shape at this size, one line each.
LAYOUT = """(width) => {
  const found = [];
  // Drawn: not in a closed <details> (its content is not laid out), not hidden.
  const shown = (el) => el.checkVisibility({visibilityProperty: true})
      && !el.closest("[aria-hidden=true], .visually-hidden");
  const named = (el) => {
    const text = (el.innerText || el.value || el.getAttribute("aria-label") || el.name || "")
        .trim().replace(/\\s+/g, " ").slice(0, 40);
    const where = el.id ? "#" + el.id : (el.classList.length ? "." + el.classList[0] : "");
    const within = el.parentElement?.closest("[id]");
    return `${el.tagName.toLowerCase()}${where} "${text}"${within ? " in #" + within.id : ""}`;
  };
  const page = document.scrollingElement;
  if (page.scrollWidth > width) {
    // What reaches past the edge, innermost first (its ancestors reach out with it).
    const out = [...document.querySelectorAll("body *")].filter((el) => shown(el)
        && el.getBoundingClientRect().right > width + 1
        && ![...el.children].some((c) => c.getBoundingClientRect().right > width + 1));
    found.push(`the page is ${page.scrollWidth} px wide: ${out.slice(0, 3).map(named).join(", ")}`);
  }
  for (const el of document.querySelectorAll("body *")) {
    const style = getComputedStyle(el);
    if (!["auto", "scroll"].includes(style.overflowX) || !shown(el)) continue;
    // A table of two dimensions (a score sheet, a rules table) may scroll in its own
    // box, as WCAG's reflow rule allows; its figures still may not break (below).
    if (el.matches(".sheet, table.score")) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      found.push(`${named(el)} scrolls sideways (${el.scrollWidth} in ${el.clientWidth} px)`);
    }
  }

  // Words broken inside: a word whose rectangles lie on more than one line, unless
  // it is longer than the page's line itself (no layout keeps it whole; a phone
  // with the language's hyphenation hyphenates it). A soft hyphen is a break.
  const main = document.querySelector("main") || document.body;
  const mainStyle = getComputedStyle(main);
  const line = main.clientWidth - parseFloat(mainStyle.paddingLeft)
      - parseFloat(mainStyle.paddingRight);
  // Chinese and Japanese break between any two characters: no word to keep whole.
  const cjk = "\\u2e80-\\u9fff\\uf900-\\ufaff\\uff00-\\uffef";
  const breaks = new RegExp(`[^\\\\s\\\\-\\\\u00ad\\\\u2010-\\\\u2015\\\\u2212/${cjk}]{2,}`, "g");
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  const range = document.createRange();
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    // An address or a command (code) may break anywhere; a select's options are not drawn.
    if (!parent || !shown(parent) || parent.closest("code, select, script, style")) continue;
    for (const word of node.data.matchAll(breaks)) {
      range.setStart(node, word.index);
      range.setEnd(node, word.index + word[0].length);
      const rects = [...range.getClientRects()].filter((r) => r.width > 0);
      // After a soft hyphen that broke the line, Chromium gives the range the drawn
      // hyphen's box too, at the end of the line before: not the word's own.
      if (node.data[word.index - 1] === "\\u00ad" && rects.length > 1) rects.shift();
      if (rects.length < 2) continue;
      const first = rects[0], last = rects[rects.length - 1];
      const wide = rects.reduce((sum, r) => sum + r.width, 0);
      if (last.top >= first.bottom - first.height / 2 && wide <= line) {
        found.push(`"${word[0]}" broken inside, in ${named(parent)}`);
      }
    }
  }

  // Controls covered by something else, or cut by their own box.
  const controls = "a, button, select, textarea, summary, input:not([type=hidden]), .buttons label";
  const x = scrollX, y = scrollY;
  for (const el of document.querySelectorAll(controls)) {
    if (!shown(el) || el.matches(".buttons input")) continue;  // drawn as its label
    const inner = `${el.scrollWidth}×${el.scrollHeight}`;
    const box = `${el.clientWidth}×${el.clientHeight}`;
    if (!el.matches("input, select, textarea") && (el.scrollWidth > el.clientWidth + 1
        || el.scrollHeight > el.clientHeight + 1) && getComputedStyle(el).overflow !== "visible") {
      found.push(`${named(el)} cut (${inner} in ${box})`);
    }
    el.scrollIntoView({block: "center", inline: "center", behavior: "instant"});
    const r = el.getClientRects()[0];  // a link in a sentence may run over two lines
    const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    const own = top && (el.contains(top) || [...(el.labels || [])].some((l) => l.contains(top)));
    if (!own) found.push(`${named(el)} covered by ${top ? named(top) : "nothing (off screen)"}`);
  }
  scrollTo(x, y);
  return found;
}"""


class LargePrint(Console):
    """A 320 px phone with its text at 200 % that measures each page it is shown."""

    def __init__(self, page, server: str, width: int):
        super().__init__(page, server)
        self.width = width
        self.found: dict[str, list[str]] = {}

    def measure(self, what: str = "") -> list[str]:
        settled(self.page)
        found = self.page.evaluate(LAYOUT, self.width) + self.page.evaluate(SMALL_TARGETS)
        if found:
            self.found[f"{what} {self.page.url}".strip()] = found
        return found


def large_print_phone(browser, server, lang: str, viewport: dict, font: int) -> Iterator:
    context = browser.new_context(
        viewport=viewport,
        has_touch=True,
        is_mobile=True,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    cdp = context.new_cdp_session(page)
    cdp.send("Page.enable")
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": font, "fixed": font * 13 // 16}})
    return context, page


@pytest.fixture
def twice(browser, server) -> Iterator[LargePrint]:
    """A 320 px phone, text at 200 %, in English."""
    context, page = large_print_phone(browser, server, "en", NARROWEST, TWICE)
    yield LargePrint(page, server, NARROWEST["width"])
    context.close()


def report(found: dict[str, list[str]]) -> str:
    return "\n".join(f"{page}:\n  " + "\n  ".join(lines) for page, lines in found.items())


def kind(url: str) -> str:
    """What a page is, its ids left out: "/m/*/history"."""
    path = re.sub(r"/[\w-]{16,}", "/*", urlsplit(url).path)
    return re.sub(r"/hand/(?!new$)[\w-]+$", "/hand/*", path)


@dataclass
class Crawled:
    """The one large-print phone of the module and the pages its crawl opened, in
    English: each with its kind and the game family it belongs to."""

    phone: LargePrint
    pages: list[tuple[str, str, str | None]]  # (url, kind, family)
    group_new: str  # a group's "New match" page

    def switch(self, lang: str) -> None:
        """Read in `lang` from the next page on (the switch's cookie, no new phone)."""
        server = self.phone.server
        self.phone.page.context.add_cookies([{"name": "lang", "value": lang, "url": server}])

    def every_page(self) -> list[str]:
        """Every kind of page: each once, a game's own (PER_FAMILY) once for each
        game family (two variants of one family are drawn by the same templates),
        each variant's rules."""
        seen, chosen = set(), []
        for url, what, family in self.pages:
            key = (what, family if what in PER_FAMILY else None)
            if key not in seen:
                seen.add(key)
                chosen.append(url)
        return chosen

    def page(self, what: str, family: str | None = None) -> str:
        """The last page the crawl opened of a kind (of a family): a hand form of a
        match still open (the finished match's comes first), the group's pages."""
        return [url for url, kind, f in self.pages if kind == what and family in (None, f)][-1]


# The kinds of page drawn by a game's own templates and words: one of each family.
PER_FAMILY = {"/m/*", "/m/*/hand/new", "/m/*/hand/*", "/m/*/history", "/w/*"}


@pytest.fixture(scope="module")
def crawled(browser, server) -> Iterator[Crawled]:
    """The English crawl, measured as it goes (`test_every_page_..._in_english`
    reads its findings); the other languages open the pages it made again."""
    context, page = large_print_phone(browser, server, "en", NARROWEST, TWICE)
    phone = LargePrint(page, server, NARROWEST["width"])
    pages = []
    for url in crawl(phone, label="large print"):
        phone.measure()
        pages.append((url, kind(url), phone.family))
    group_new = next(url for url, what, _ in pages if what == "/g/*/new")
    yield Crawled(phone, pages, group_new)
    context.close()


def test_every_page_at_320_px_with_the_text_at_200_percent_in_english(crawled):
    """One crawl of every page; each measured as it is reached."""
    assert len(crawled.pages) >= 60, len(crawled.pages)
    assert crawled.phone.errors == []  # and no script error at this size either
    assert crawled.phone.found == {}, "out of shape at 320 px, 200 %:\n" + report(
        crawled.phone.found
    )


def save_a_hand(crawled: Crawled) -> None:
    """Start a match from the group's page and save its first hand: the hand form
    with the answer to a save ("Hand 1 saved." and Undo), in the page's language."""
    page = crawled.phone.page
    page.goto(crawled.group_new)
    page.check('input[name=variant][value="rubber"]')
    for i, name in enumerate(RUBBER, 1):
        page.fill(f"#player{i}", name)
    click_and_wait(page, "form#new-match button.primary")
    enter(Table(page, crawled.phone.server), RUBBER_HANDS[0])
    click_and_wait(page, "#save")
    assert page.locator(".flash-undo form[action$='/undo']").count() == 1, page.url


@pytest.mark.parametrize("lang", LONG_WORDS + SHORTER_WORDS)
def test_every_page_at_320_px_with_the_text_at_200_percent_in_each_language(crawled, lang):
    """The pages of the English crawl, read again in `lang`: in the languages of
    long words every kind of page, in the others the main pages (MAIN_PAGES)."""
    phone = crawled.phone
    crawled.switch(lang)
    phone.found, phone.errors = {}, []
    try:
        every = lang in LONG_WORDS or EVERY_PAGE_IN_EVERY_LANGUAGE
        pages = crawled.every_page() if every else main_pages(crawled)
        for url in pages:
            phone.page.goto(url)
            phone.measure()
        assert phone.page.locator(f"html[lang^='{lang[:2]}']").count() == 1
        save_a_hand(crawled)
        phone.measure("saved")
    finally:
        crawled.switch("en")
    assert phone.found == {}, f"out of shape at 320 px, 200 % ({lang}):\n" + report(phone.found)
    assert phone.settle() == []


def test_the_new_match_page_with_a_stake_at_300_px_and_120_percent(browser, server):
    """The issue's own case: a 360 px phone at 120 % text is 300 CSS px. "Currency"
    stays whole and the stake's boxes leave Start free to tap."""
    context, page = large_print_phone(browser, server, "en", {"width": 300, "height": 600}, 16)
    phone = LargePrint(page, server, 300)
    try:
        page.goto(server + "/new")
        page.check('input[name=variant][value="rubber"]')
        assert phone.measure("new match") == []
        start = page.locator("form#new-match button.primary")
        start.scroll_into_view_if_needed()
        stake = page.locator("fieldset.stake").bounding_box()
        assert start.bounding_box()["y"] >= stake["y"] + stake["height"]
    finally:
        context.close()


def test_the_layout_check_sees_each_fault(twice, server):
    """The measures above would see what the issue saw: a word cut in two, a
    control under another, a page wider than the phone, a small target."""
    page = twice.page
    page.goto(server + "/new")
    page.evaluate(
        """() => {
          const legend = document.querySelector("fieldset.stake legend");
          legend.textContent = "Currencyyy";
          Object.assign(legend.style, {overflowWrap: "anywhere", maxWidth: "4em"});
          const start = document.querySelector("form#new-match button.primary");
          const cover = document.createElement("div");
          cover.id = "cover";
          start.after(cover);
          Object.assign(cover.style, {position: "relative", height: "60px", marginTop: "-60px",
                                      background: "red"});
          const wide = document.createElement("div");
          wide.style.width = "400px"; wide.style.height = "1px";
          document.querySelector("main").append(wide);
          // Broken at its soft hyphen only (as it may be), and then inside as well.
          const words = [["shy", "Teil\u00adkontrakt"], ["cut", "Teil\u00adkontraktzzz"]];
          for (const [id, text] of words) {
            const box = document.createElement("p");
            Object.assign(box, {id, textContent: text});
            Object.assign(box.style, {width: "5em", overflowWrap: "anywhere"});
            document.querySelector("main").append(box);
          }
          const small = document.querySelector("#text-size a");
          small.style.minHeight = "0"; small.style.height = "24px";
        }"""
    )
    found = twice.measure("new match, spoilt")
    assert any(line.startswith("the page is ") for line in found), found
    assert any(line.startswith('"Currencyyy" broken inside') for line in found), found
    assert any(line.startswith('"kontraktzzz" broken inside, in p#cut') for line in found), found
    assert not any(line.startswith('"kontrakt" broken') for line in found), found
    start = 'button.button "Start"'
    assert any(line.startswith(start) and "covered by div#cover" in line for line in found), found
    assert any(line.startswith('a "100%"') and line.endswith("×24") for line in found), found


# --- the switch ---------------------------------------------------------------------
def root_font(page) -> float:
    return page.evaluate("parseFloat(getComputedStyle(document.documentElement).fontSize)")


@pytest.fixture
def phone(browser, server):
    context = browser.new_context(viewport=PHONE)
    yield context.new_page()
    context.close()


def test_the_switch_sets_the_text_size_remembered_by_the_phone(phone, server):
    page = phone
    page.goto(server + "/rules/")
    assert root_font(page) == 16
    assert page.inner_text("#text-size a[aria-current]") == "100%"
    click_and_wait(page, "#text-size a:text-is('150%')")
    assert urlsplit(page.url).path == "/rules/"  # back on the page it was tapped on
    assert root_font(page) == 24
    assert page.inner_text("#text-size a[aria-current]") == "150%"
    page.goto(server + "/new")  # another page, the same phone: remembered
    assert root_font(page) == 24
    click_and_wait(page, "#text-size a:text-is('125%')")
    assert urlsplit(page.url).path == "/new"
    assert root_font(page) == 20
    click_and_wait(page, "#text-size a:text-is('100%')")
    assert root_font(page) == 16


def test_the_switch_follows_the_phones_own_text_size(browser, server):
    """150 % of a phone whose text is already at 200 % (32 px): 48 px, not 24."""
    context, page = large_print_phone(browser, server, "en", PHONE, TWICE)
    try:
        page.goto(server + "/")
        assert root_font(page) == 32
        click_and_wait(page, "#text-size a:text-is('150%')")
        assert root_font(page) == 48
    finally:
        context.close()


def test_the_switch_works_without_the_script(browser, server):
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(server + "/rules/")
        click_and_wait(page, "#text-size a:text-is('125%')")
        assert urlsplit(page.url).path == "/rules/"
        expect(page.locator("#text-size a[aria-current]")).to_have_text("125%")
        assert root_font(page) == 20
    finally:
        context.close()


def whole_page(page, path) -> None:
    """A picture of the whole page: the viewport grown to the page's height (a
    full-page screenshot resizes the view, which drops the emulated text size)."""
    settled(page)
    size = page.viewport_size
    height = page.evaluate("document.scrollingElement.scrollHeight")
    page.set_viewport_size({"width": size["width"], "height": min(height, 6000)})
    page.screenshot(path=str(path))
    page.set_viewport_size(size)


def test_screenshots_at_large_print(browser, server):
    """The pages to look at: the new match page, a hand form, the match sheet and
    the ledger, at 320 px with 200 % text and at 390 × 844 with the switch at 125 %
    (test-artifacts/large-print-*.png)."""
    ARTIFACTS.mkdir(exist_ok=True)
    for name, viewport, font, switch in (
        ("320-200", NARROWEST, TWICE, None),
        ("390-125", PHONE, 16, "125"),
    ):
        context, page = large_print_phone(browser, server, "en", viewport, font)
        try:
            if switch:
                context.add_cookies([{"name": "text_size", "value": switch, "url": server}])
            page.goto(server + "/groups/new")
            page.fill("#name", f"Large print {name}")
            for i, member in enumerate(["Ann", "Bob", "Cy", "Di"], 1):
                page.fill(f"#member{i}", member)
            click_and_wait(page, "#new-group button.primary")
            group = urlsplit(page.url).path
            page.goto(server + group + "/new")
            page.check('input[name=variant][value="rubber"]')
            page.fill("input[name=stake_amount]", "10")
            whole_page(page, ARTIFACTS / f"large-print-{name}-new.png")
            click_and_wait(page, "form#new-match button.primary")
            assert re.search(r"/hand/new$", page.url), page.url
            # The hand form: its first screen, as the thumb sees it.
            page.screenshot(path=str(ARTIFACTS / f"large-print-{name}-hand.png"))
            for field, value in (("declarer", "Ann"), ("level", "2"), ("strain", "S")):
                page.click(f'#group-{field} input[value="{value}"] + label')
            page.click('#group-tricks input[value="8"] + label')
            click_and_wait(page, "#save")
            match = re.search(r"/m/[\w-]{16}", page.url).group(0)
            page.goto(server + match)
            whole_page(page, ARTIFACTS / f"large-print-{name}-sheet.png")
            page.goto(server + group)  # the group page: its ledger
            whole_page(page, ARTIFACTS / f"large-print-{name}-ledger.png")
        finally:
            context.close()


# --- axe in every language ------------------------------------------------------------
# The main pages: (kind, family) of the English crawl's pages; a hand form of each family.
MAIN_PAGES = [
    ("/", None),
    ("/new", None),
    ("/m/*", "rubber"),
    ("/m/*/history", "rubber"),
    ("/m/*/settle", "rubber"),
    ("/rules/", None),
    ("/rules/rubber", "rubber"),
    ("/g/*", None),  # the group page: its ledger
    ("/g/*/statistics", None),
    ("/g/*/ratings", None),
    ("/g/*/night", None),
    *(("/m/*/hand/new", game.family) for game in GAMES),
]
# The rules the colour scheme can change: the others read the page's elements and
# words, which are the same in both schemes (axe runs them all in the light one).
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def main_pages(crawled: Crawled) -> list[str]:
    return [crawled.page(what, family) for what, family in MAIN_PAGES]


def axe_in(page, colour_rules_only: bool) -> list[str]:
    options = {"resultTypes": ["violations"]}
    if colour_rules_only:
        options["runOnly"] = COLOUR_RULES
    found = Axe().run(page, options=options).response["violations"]
    return [
        f"{v['id']} ({v['impact']}): " + ", ".join(" ".join(n["target"]) for n in v["nodes"])
        for v in found
    ]


EVERY_LANGUAGE = ["en", *LONG_WORDS, *SHORTER_WORDS]


def axe_pages(crawled: Crawled, lang: str) -> list[str]:
    """The main pages axe reads in `lang`: all of them with EVERY_PAGE_IN_EVERY_LANGUAGE
    set (as before a release: all pass), else, to keep the suite short, each main page
    in one language and each language on its share of them, in turn (axe takes a
    second or two a page on a busy machine)."""
    pages = main_pages(crawled)
    if EVERY_PAGE_IN_EVERY_LANGUAGE:
        return pages
    turn = EVERY_LANGUAGE.index(lang)
    return pages[turn :: len(EVERY_LANGUAGE)]


@pytest.mark.parametrize("lang", EVERY_LANGUAGE)
def test_axe_finds_no_violation_on_the_main_pages_in_each_language(crawled, browser, lang):
    """The main pages in `lang` (`axe_pages`) on a 390 px phone, in the light colour
    scheme and then the dark one (the phone's setting switched under the same page)."""
    server = crawled.phone.server
    context = browser.new_context(viewport=PHONE, locale=lang)
    context.add_cookies([{"name": "lang", "value": lang, "url": server}])
    page = context.new_page()
    found = {}
    try:
        for url in axe_pages(crawled, lang):
            page.emulate_media(color_scheme="light")
            page.goto(url)
            settled(page)
            assert page.locator(f"html[lang^='{lang[:2]}']").count() == 1, url
            for scheme in ("light", "dark"):
                page.emulate_media(color_scheme=scheme)
                if violations := axe_in(page, colour_rules_only=scheme == "dark"):
                    found[f"{kind(url)} ({scheme}) {url}"] = violations
    finally:
        context.close()
    assert found == {}, f"axe found ({lang}):\n" + report(found)
