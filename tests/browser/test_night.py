"""Night mode and Add to home screen, in Chromium at 390×844.

Night mode: the pages follow the phone's `prefers-color-scheme`, unless the header's
Colours choice (static/theme.js) says Light or Dark for this browser; the choice is
on <html> before the first paint. axe's contrast check on every page in both schemes
is in test_csp_browser.py. Add to home screen: the manifest, its icons and the tags
that point to them, as Chromium reads them."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from .conftest import PHONE

pytestmark = pytest.mark.browser

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
STATIC = Path(__file__).resolve().parents[2] / "static"
# The page's background (--paper) in each scheme, as getComputedStyle gives it.
PAPER = {"light": "rgb(251, 250, 246)", "dark": "rgb(17, 22, 20)"}
# The browser bar's colour (theme-color) in each scheme: the header's green.
BAR = {"light": "#1f5e46", "dark": "#163d2f"}

# Runs before any script of every document: the scheme on <html> when the parser
# reaches <body> (before any content can be painted), and the page's colour at its
# first frame (a requestAnimationFrame callback runs before the frame is painted).
RECORD_FIRST_FRAME = """
window.__firstFrame = {};
const seen = new MutationObserver(() => {
  if (!document.body) return;
  window.__firstFrame.atBody = document.documentElement.dataset.theme || null;
  seen.disconnect();
});
seen.observe(document, { childList: true, subtree: true });
requestAnimationFrame(() => {
  window.__firstFrame.paper = getComputedStyle(document.documentElement).backgroundColor;
});
"""


@pytest.fixture(params=["light", "dark"])
def scheme(request) -> str:
    return request.param


@pytest.fixture
def phone(browser, scheme):
    """A fresh browser (nothing chosen yet) on a phone set to `scheme`."""
    context = browser.new_context(viewport=PHONE, color_scheme=scheme)
    context.add_init_script(RECORD_FIRST_FRAME)
    page = context.new_page()
    yield page
    context.close()


def other(scheme: str) -> str:
    return "dark" if scheme == "light" else "light"


def paper(page) -> str:
    return page.evaluate("getComputedStyle(document.documentElement).backgroundColor")


def bar_colours(page) -> list[str]:
    return page.eval_on_selector_all('meta[name="theme-color"]', "ms => ms.map(m => m.content)")


def import_example(page, server: str, variant: str) -> str:
    """Import the variant's example match from the home page; the match page's address."""
    page.goto(server + "/")
    form = "form[action$='/import']"
    page.set_input_files(f"{form} input[type=file]", str(EXAMPLES / f"{variant}.json"))
    with page.expect_navigation():
        page.click(f"{form} button")
    if page.locator("#import-copy").count():  # another test imported it: a copy of its own
        with page.expect_navigation():
            page.click("#import-copy")
    return page.url


def test_auto_follows_the_phone(phone, server, scheme):
    phone.goto(server + "/")
    assert phone.input_value("#theme-choice") == "auto"
    assert phone.evaluate("document.documentElement.dataset.theme") is None
    assert paper(phone) == PAPER[scheme]
    # The phone switches at dusk: the open page follows without a reload.
    phone.emulate_media(color_scheme=other(scheme))
    assert paper(phone) == PAPER[other(scheme)]


def test_the_choice_is_in_the_header_of_every_kind_of_page_and_remembered(phone, server, scheme):
    """Chosen once on the match page, the other scheme holds on the next page, after
    a reload and in a new tab, from their first frame; Auto gives the phone back."""
    match = import_example(phone, server, "rubber")
    against = other(scheme)
    phone.select_option("#theme-choice", against)
    assert phone.evaluate("document.documentElement.dataset.theme") == against
    assert paper(phone) == PAPER[against]
    assert bar_colours(phone) == [BAR[against], BAR[against]]

    watch = phone.eval_on_selector("#share-watch code", "code => code.textContent.trim()")
    pages = [
        server + "/",
        server + "/new",
        server + "/rules/",
        match + "/hand/new",
        match + "/settle",
        match + "/history",
        watch,
    ]
    for url in pages:
        phone.goto(url)
        assert phone.is_visible("header #theme-choice"), url
        assert phone.input_value("#theme-choice") == against, url
        first = phone.evaluate("window.__firstFrame")
        assert first == {"atBody": against, "paper": PAPER[against]}, url
    phone.reload()
    assert phone.evaluate("window.__firstFrame") == {"atBody": against, "paper": PAPER[against]}

    tab = phone.context.new_page()
    tab.goto(server + "/rules/")
    assert tab.evaluate("window.__firstFrame") == {"atBody": against, "paper": PAPER[against]}
    tab.select_option("#theme-choice", "auto")
    assert tab.evaluate("localStorage.getItem('scorekeeper-theme')") is None
    assert paper(tab) == PAPER[scheme]
    assert bar_colours(tab) == [BAR["light"], BAR["dark"]]  # each for its own media again
    # The first tab heard it from the second one (a storage event: it comes a moment later).
    expect(phone.locator("#theme-choice")).to_have_value("auto")
    assert paper(phone) == PAPER[scheme]


def test_a_chosen_scheme_looks_the_same_as_the_phones_own(browser, server, scheme):
    """Dark chosen on a light phone gives the colours of a dark phone on Auto, and
    Light on a dark phone those of a light phone: one palette per scheme, not two."""

    def colours(color_scheme: str, chosen: str | None) -> list[str]:
        context = browser.new_context(viewport=PHONE, color_scheme=color_scheme)
        if chosen:
            context.add_init_script(f"localStorage.setItem('scorekeeper-theme', '{chosen}')")
        page = context.new_page()
        page.goto(import_example(page, server, "calypso") + "/hand/new")
        drawn = page.evaluate(
            """() => [...document.querySelectorAll("body *")].map((el) => {
                 const s = getComputedStyle(el);
                 return [s.color, s.backgroundColor, s.borderTopColor].join(" ");
               })"""
        )
        context.close()
        return drawn

    assert colours(other(scheme), chosen=scheme) == colours(scheme, chosen=None)


def test_without_storage_the_choice_still_works_on_the_page(browser, server):
    """Storage switched off (some private modes throw on every access): Auto, and a
    choice changes the open page without an error."""
    context = browser.new_context(viewport=PHONE, color_scheme="light")
    context.add_init_script(
        "Object.defineProperty(window, 'localStorage', { get() { throw new Error('off'); } });"
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server + "/")
    page.select_option("#theme-choice", "dark")
    assert paper(page) == PAPER["dark"]
    assert errors == []
    context.close()


def test_axe_sees_poor_contrast_in_the_dark_scheme(browser, server):
    """The axe check in test_csp_browser.py would see a colour that fails at night:
    dim grey notes on the dark paper."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    page = context.new_page()
    page.goto(server + "/")
    assert Axe().run(page).response["violations"] == []
    page.evaluate("document.documentElement.style.setProperty('--muted', '#4a4a4a')")
    found = {v["id"] for v in Axe().run(page).response["violations"]}
    context.close()
    assert found == {"color-contrast"}


# WCAG's contrast ratio of two computed colours ("rgb(r, g, b)"), in the page.
CONTRAST = """
(pairs) => {
  const lum = (colour) => {
    const [r, g, b] = colour.match(/[\\d.]+/g).slice(0, 3).map((c) => {
      const s = Number(c) / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  return pairs.map(([what, fg, bg]) => {
    const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
    return [what, Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100];
  });
}
"""
# What axe leaves out of its contrast check: disabled buttons, and the peg board's
# SVG text (on the board, or on the winner's gold band).
UNCHECKED_BY_AXE = """
() => {
  const style = (el) => getComputedStyle(el);
  const pairs = [...document.querySelectorAll("button:disabled")].map((b) =>
    [`disabled ${b.textContent.trim()}`, style(b).color, style(b).backgroundColor]);
  const board = document.querySelector(".peg-board svg");
  if (board) {
    board.querySelectorAll("text").forEach((text) => {
      const band = text.closest("g.winner") && text.closest("g.winner").querySelector("rect");
      const under = band ? style(band).fill : style(board).backgroundColor;
      pairs.push([`board ${text.textContent.trim()}`, style(text).fill, under]);
    });
  }
  return pairs;
}
"""


def test_what_axe_leaves_out_keeps_its_contrast(phone, server, scheme):
    """A disabled button (Need a Fourth?'s Undo before any call) and the peg board's
    labels read at 4.5:1 or more in both schemes."""
    phone.goto(server + "/new")
    phone.check('input[name=variant][value="need-a-fourth"]')
    phone.check('.option[data-variants~="need-a-fourth"] [name="opt_liar_rule"]')  # the auction
    for i, name in enumerate(["Ann", "Bob", "Cy"], 1):
        phone.fill(f"#player{i}", name)
    with phone.expect_navigation():
        phone.click("form#new-match button.primary")
    pairs = phone.evaluate(UNCHECKED_BY_AXE)
    import_example(phone, server, "bridge-for-three")
    pairs += phone.evaluate(UNCHECKED_BY_AXE)
    assert [what for what, *_ in pairs if what.startswith("disabled")] == ["disabled Undo call"]
    assert len([what for what, *_ in pairs if what.startswith("board")]) > 20
    ratios = dict(phone.evaluate(CONTRAST, pairs))
    assert {what: ratio for what, ratio in ratios.items() if ratio < 4.5} == {}


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    head = path.read_bytes()[:24]
    assert head[:8] == b"\x89PNG\r\n\x1a\n", path
    return struct.unpack(">II", head[16:24])


def test_the_manifest_makes_the_app_installable(browser, server):
    """Every page links the manifest and the home-screen icon; the manifest is served
    as application/manifest+json and Chromium reads it without an error: standalone
    from "/", icons of 192 and 512 pixels and a maskable one. The only reason it
    names for not offering to install is the test's incognito profile."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server + "/rules/")
    manifest_url = page.eval_on_selector('link[rel="manifest"]', "link => link.href")
    touch_icon = page.eval_on_selector('link[rel="apple-touch-icon"]', "link => link.href")
    assert urlsplit(manifest_url).path == "/static/manifest.webmanifest"
    served = page.request.get(manifest_url)
    assert served.headers["content-type"] == "application/manifest+json"
    manifest = json.loads(served.text())
    assert {k: manifest[k] for k in ("name", "short_name", "start_url", "display")} == {
        "name": "Scorekeeper",
        "short_name": "Scorekeeper",
        "start_url": "/",
        "display": "standalone",
    }
    assert (manifest["theme_color"], manifest["background_color"]) == (BAR["light"], "#fbfaf6")

    pngs = {}
    for icon in manifest["icons"] + [{"src": touch_icon, "sizes": "180x180", "purpose": "touch"}]:
        answer = page.request.get(server + icon["src"] if icon["src"][0] == "/" else icon["src"])
        assert answer.ok, icon
        if icon.get("type", "image/png") == "image/png":
            assert answer.headers["content-type"] == "image/png", icon
            file = STATIC / Path(urlsplit(icon["src"]).path).name
            assert answer.body() == file.read_bytes()
            assert "x".join(map(str, png_size(file))) == icon["sizes"], icon
            pngs[icon["purpose"]] = pngs.get(icon["purpose"], []) + [icon["sizes"]]
    assert pngs == {"any": ["192x192", "512x512"], "maskable": ["512x512"], "touch": ["180x180"]}

    cdp = context.new_cdp_session(page)
    read = cdp.send("Page.getAppManifest")
    assert (read["url"], read["errors"]) == (manifest_url, [])
    assert read["manifest"]["display"] == "kStandalone"
    assert read["manifest"]["startUrl"] == server + "/"
    refusals = cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]
    assert [e["errorId"] for e in refusals] == ["in-incognito"]
    context.close()


def test_no_service_worker_is_registered(browser, server):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(server + "/")
    registered = page.evaluate("navigator.serviceWorker.getRegistrations().then(r => r.length)")
    context.close()
    assert registered == 0
