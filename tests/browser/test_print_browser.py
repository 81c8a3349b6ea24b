"""A sheet on paper without WeasyPrint: the browser's own Print of a match page
and of a watch page holds the title, the sheet, the totals and the settlement,
and none of the header, buttons, forms, Share panel, bars or messages.
Chromium prints with print media (`page.pdf()`); pypdf reads the text back."""

from __future__ import annotations

import io
import json
import re
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from pypdf import PdfReader

from scorekeeper import pdf

from .conftest import PHONE, Table

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
VARIANTS = sorted(p.stem for p in EXAMPLES.glob("*.json"))
# Words only the screen shows: controls, the header and footer, Share, the actions.
SCREEN_ONLY = [
    "Scorekeeper",  # the header's name
    "Rules",
    "Colours",
    "New hand",
    "Save",
    "Share",
    "Bring a phone",
    "Undo",
    "Delete",
    "Edit",
    "History",
    "PDF sheet",
    "Hand log",
    "Match file",
    "Title & stake",
    "Keep the screen on",
    "Key",  # the Top Game sheet's key, left out as in the PDF
]
A4 = (596, 843)  # 595.92 × 842.88 points, as Chromium writes them
LETTER = (612, 792)


@pytest.fixture
def printer(browser, server) -> Iterator[Table]:
    """A phone in the dark: paper must come out black on white all the same."""
    context = browser.new_context(viewport=PHONE, color_scheme="dark")
    yield Table(context.new_page(), server)
    context.close()


def import_example(table: Table, variant: str) -> str:
    page = table.page
    page.goto(table.server + "/")
    form = "form[action$='/import']"
    page.set_input_files(f"{form} input[type=file]", str(EXAMPLES / f"{variant}.json"))
    with page.expect_navigation():
        page.click(f"{form} button")
    if page.locator("#import-copy").count():  # another test imported it: a copy of its own
        with page.expect_navigation():
            page.click("#import-copy")
    assert re.search(r"/m/[\w-]{16}$", page.url), page.url
    return page.url


# Every control and bar, as print media lays the page out: drawn ones are listed.
DRAWN_CONTROLS = """[...document.querySelectorAll(
  "button, .button, form, input, select, summary, header, footer, nav, .share, .flash, video")]
  .filter((el) => el.getClientRects().length > 0)
  .map((el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : ""))"""


def printed(table: Table, paper: str = "A4") -> tuple[str, list[tuple[int, int]]]:
    """The page as the browser prints it: its text (NFKC: no ligatures; one space between words)
    and the size of each sheet of paper."""
    page = table.page
    page.emulate_media(media="print")
    assert page.evaluate(DRAWN_CONTROLS) == []
    reader = PdfReader(io.BytesIO(page.pdf(format=paper)))
    page.emulate_media(media="screen")
    text = " ".join(p.extract_text() for p in reader.pages)
    sizes = [(round(p.mediabox.width), round(p.mediabox.height)) for p in reader.pages]
    return " ".join(unicodedata.normalize("NFKC", text).split()), sizes


def expected(table: Table) -> dict[str, object]:
    """What the screen shows of the sheet: title, totals, settlement lines."""
    page = table.page
    return {
        "title": page.inner_text("h1"),
        "totals": table.page_totals(),
        "payments": page.locator("#settlement .payments li").all_inner_texts(),
        "sheet": page.locator("#sheet").count(),
    }


def assert_paper(text: str, shown: dict, variant: str) -> None:
    document = json.loads((EXAMPLES / f"{variant}.json").read_text(encoding="utf-8"))
    assert shown["title"] in text
    assert shown["sheet"] == 1
    assert ("Pegs" if variant == "bridge-for-three" else "Totals") in text
    totals = shown["totals"]
    assert list(totals) == document["players"]
    for player, total in totals.items():
        assert player in text
        assert total in text, f"{player}'s total {total} is not on paper"
    assert shown["payments"], "every example has a stake: the settlement is on paper"
    for payment in shown["payments"]:
        assert " ".join(payment.split()) in text
    for word in SCREEN_ONLY:
        assert not re.search(rf"\b{re.escape(word)}\b", text), f"{word!r} is on paper"


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_match_page_prints_the_sheet_and_nothing_of_the_screen(printer, variant):
    import_example(printer, variant)
    shown = expected(printer)
    text, sizes = printed(printer)
    assert_paper(text, shown, variant)
    assert set(sizes) == {A4}


@pytest.mark.parametrize("variant", ["rubber", "bridge-for-three"])
def test_the_watch_page_prints_the_same_on_letter(printer, variant):
    import_example(printer, variant)
    printer.page.click("#share summary")
    watch = printer.page.inner_text("#share-watch figcaption")
    printer.page.goto(watch)
    shown = expected(printer)
    text, sizes = printed(printer, "Letter")
    assert_paper(text, shown, variant)
    assert "Watching" not in text
    assert set(sizes) == {LETTER}


def test_paper_is_black_on_white_from_a_dark_phone(printer):
    import_example(printer, "rubber")
    page = printer.page
    page.emulate_media(media="print")
    colours = page.evaluate(
        "[getComputedStyle(document.body).color, getComputedStyle(document.documentElement)"
        ".backgroundColor, getComputedStyle(document.querySelector('table.score')).backgroundColor]"
    )
    assert colours == ["rgb(0, 0, 0)", "rgb(255, 255, 255)", "rgb(255, 255, 255)"]
    hidden = page.evaluate(
        "['header.top', '.match-actions', '#share', '.log', '.page-foot']"
        ".map((s) => getComputedStyle(document.querySelector(s)).display)"
    )
    assert hidden == ["none"] * 5


def test_without_pango_the_page_says_so_before_any_tap_and_print_still_works(printer, monkeypatch):
    monkeypatch.setattr(pdf, "MISSING_LIBRARIES", "cannot load library 'pango-1.0-0'")
    import_example(printer, "rubber")
    page = printer.page
    assert page.locator("a[href*='sheet.pdf']").count() == 0
    hint = page.inner_text("#pdf-missing")
    assert hint.startswith(
        "No PDF from this server (the machine that runs the app lacks a library)."
    )
    assert pdf.install_hint().rsplit(": ", 1)[1] in hint  # the command, on this machine
    assert "your browser's own Print" in hint
    text, sizes = printed(printer)
    assert "No PDF" not in text
    assert_paper(text, expected(printer), "rubber")
    printer.no_horizontal_scroll()
