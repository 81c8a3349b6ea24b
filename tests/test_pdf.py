"""PDF score sheets: what a player reads on paper, extracted back with pypdf.

Each example evening (examples/*.json) is printed with its appendix, and the
text must show the players, every hand's scores as the appendix prints them
(hand number, dealer, one score per player in seating order), the totals and
the payments with two decimals and the currency.
"""

import io
import json
import re
import shutil
import subprocess
from functools import cache
from pathlib import Path

import pytest
from PIL import Image
from pypdf import PdfReader

from scorekeeper import pdf
from scorekeeper.db import create_match, get_db
from scorekeeper.matchfile import from_document
from scorekeeper.pdf import BASE_URL, RefusedURL, StaticFetcher
from scorekeeper.variants import replay_match
from tests.games import VARIANT_IDS, pinned

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
A4 = (595, 842)  # points, rounded
LETTER = (612, 792)


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def store(client, document: dict) -> str:
    with client.application.app_context():
        return create_match(get_db(), from_document(document)).match_id


def get_pdf(client, match_id: str, query: str = "") -> PdfReader:
    response = client.get(f"/m/{match_id}/sheet.pdf{query}")
    assert response.status_code == 200, response.text
    assert response.mimetype == "application/pdf"
    return PdfReader(io.BytesIO(response.data))


def pages_text(reader: PdfReader) -> list[str]:
    return [page.extract_text() for page in reader.pages]


def size(reader: PdfReader, page: int = 0) -> tuple[int, int]:
    box = reader.pages[page].mediabox
    return round(float(box.width)), round(float(box.height))


# --- every variant on paper --------------------------------------------------


# What each example's PDF shows is pinned by its game's own tests (PRINTED in
# tests/test_<family>.py, tests/games.py): players, the appendix line of every
# hand, totals, payments.


def printed(name: str) -> tuple[list[str], list[str], str, list[str]]:
    row = pinned(name, "PRINTED")
    return row.players, row.hands, row.totals, row.payments


def test_every_example_is_checked():
    assert sorted(VARIANT_IDS) == sorted(p.stem for p in EXAMPLES.glob("*.json"))


@pytest.mark.parametrize("name", VARIANT_IDS)
def test_pdf_shows_players_hands_totals_and_payments(client, name):
    players, hands, totals, payments = printed(name)
    document = example(name)
    texts = pages_text(get_pdf(client, store(client, document), "?appendix=1"))
    text = "\n".join(texts)
    lines = text.splitlines()
    assert lines[0] == document["title"]
    assert f"Players {', '.join(players)}" in lines
    for hand in hands:
        # The appendix row: number, dealer, each player's score, then the explanation.
        assert any(line == hand or line.startswith(hand + " ") for line in lines), hand
    assert f"Totals\n{' '.join(players)}\n{totals}\n" in text
    for payment in payments:
        assert payment in lines
    for number, page in enumerate(texts, 1):
        assert page.splitlines()[-1].endswith(f"Page {number} of {len(texts)}")


@pytest.mark.parametrize("name", VARIANT_IDS)
def test_pdf_without_appendix_still_has_totals_and_payments(client, name):
    players, _, totals, payments = printed(name)
    reader = get_pdf(client, store(client, example(name)))
    text = "\n".join(pages_text(reader))
    assert "Every hand explained" not in text
    assert f"Totals\n{' '.join(players)}\n{totals}\n" in text
    for payment in payments:
        assert payment in text.splitlines()
    assert size(reader) == A4


def test_top_game_sheet_prints_both_halves_with_dealer_notes(client):
    # examples/top-game.json: sheet 1 in the order Ann, Bob, Cy; sheet 2 Ann, Cy, Bob.
    text = pages_text(get_pdf(client, store(client, example("top-game"))))[0]
    assert "Sheet 1 (6 of 6 hands)\n# Ann Bob Cy\n1 −5 3 · 2 · 2♠ +10 −5\n" in text
    assert "\n4 0 passed out 0 0\n" in text
    # The redeal is not a hand: it bears the mark, and hand 6 follows it.
    assert "\n↻ −4 +2 +2 wrong dummy information\n6 −4 " in text
    assert "\nΣ −18 +9 +9\nSheet 2 (6 of 6 hands)\n# Ann Cy Bob\n7 " in text
    assert "\n8 −10 +14 3 · 5 · 4NTXX −4\n" in text
    # Hand 5: Bob held 4 tops and bid 2, the one raise penalty, marked and explained.
    assert "\n5 +6 −12† 2 · 3 · 1NT +6\n" in text
    assert "\nΣ +14 −4 −10\n† Did not raise: the declarer held more tops" in text
    assert "passes the hand out.\nTotals\n" in text


def test_header_has_title_date_variant_players_and_stake(client):
    match_id = store(client, example("top-game"))
    text = pages_text(get_pdf(client, match_id))[0]
    head = text.splitlines()[:5]
    assert head[0] == "Friday at Ann's"
    assert re.fullmatch(r"Date \d{1,2} [A-Z][a-z]+ \d{4}", head[1])
    assert head[2:] == ["Variant The Top Game", "Players Ann, Bob, Cy", "Stake 0.50 EUR per point"]
    assert "Winner: Cy" in text


def test_settlement_section_shows_what_each_player_settles_on(client):
    text = "\n".join(pages_text(get_pdf(client, store(client, example("top-game")))))
    assert (
        "Settle up\nPlayer Settles on Balance\n"
        "Ann −4 points −2.00 EUR\nBob −1 point −0.50 EUR\nCy +5 points +2.50 EUR\n"
    ) in text


def test_rubber_settlement_lists_each_rubber_rounded(client):
    text = " ".join(" ".join(pages_text(get_pdf(client, store(client, example("rubber"))))).split())
    assert "Rubber 1 +1550 → +1600; Rubber 2 −1750 → −1800." in text


def test_unfinished_match_says_so_and_settles_so_far(client):
    document = example("top-game")
    document["hands"] = document["hands"][:5]
    text = "\n".join(pages_text(get_pdf(client, store(client, document))))
    assert "Not finished: the standing after 5 hands." in text
    assert "Settle up (if you stopped now)" in text


def test_match_without_stake_has_no_settlement(client):
    document = example("top-game")
    del document["stake"]
    text = "\n".join(pages_text(get_pdf(client, store(client, document))))
    assert "Settle up" not in text
    assert "Stake" not in text
    assert "Winner: Cy" in text


def test_match_that_no_longer_replays_prints_its_problems(client):
    match_id = store(client, example("top-game"))
    with client.application.app_context():
        # As if a later version of the rules refused a hand stored long ago.
        db = get_db()
        created = next(db["changes"].rows_where("match_id = ? and revision = 1", [match_id]))
        hands = json.loads(created["hands"])
        hands[0] = {"declarer": "Zed"}
        db.execute(
            "update changes set hands = ? where match_id = ? and revision = 1",
            [json.dumps(hands), match_id],
        )
    text = pages_text(get_pdf(client, match_id))[0]
    assert "This match no longer replays\nhand 1: " in text
    assert "Totals" not in text
    page = client.get(f"/m/{match_id}/settle").text
    assert "This match no longer replays, so it cannot be settled:" in page


# --- paper, pages, fonts -----------------------------------------------------


def test_a4_by_default_and_letter_on_request(client):
    match_id = store(client, example("top-game"))
    assert size(get_pdf(client, match_id)) == A4
    assert size(get_pdf(client, match_id, "?paper=letter")) == LETTER
    assert size(get_pdf(client, match_id, "?paper=A4")) == A4


def test_unknown_paper_is_refused(client):
    match_id = store(client, example("top-game"))
    response = client.get(f"/m/{match_id}/sheet.pdf?paper=legal")
    assert response.status_code == 400
    assert "paper: choose a4 or letter" in response.text


def test_missing_match_is_404(client):
    assert client.get("/m/999/sheet.pdf").status_code == 404


def test_every_page_is_numbered_in_the_footer(client):
    # Letter with the appendix: the rubber evening runs over three pages (its two
    # pads side by side on the first, the appendix opening the second).
    reader = get_pdf(client, store(client, example("rubber")), "?paper=letter&appendix=1")
    texts = pages_text(reader)
    assert len(texts) == 3
    for number, text in enumerate(texts, 1):
        assert text.splitlines()[-1] == f"Two rubbers at the Hendersons' Page {number} of 3"


def headings(reader: PdfReader, words: tuple[str, ...]) -> dict[str, tuple[int, int, int]]:
    """Where each of these words starts a line of text: (page, x, y) in points."""
    found: dict[str, tuple[int, int, int]] = {}
    for number, page in enumerate(reader.pages, 1):

        def seen(text, cm, tm, font, size, number=number):
            for word in words:
                if text.startswith(word) and word not in found:
                    x, y = cm[4] + tm[4] * cm[0], cm[5] + tm[5] * cm[3]
                    found[word] = (number, round(x), round(y))

        page.extract_text(visitor_text=seen)
    return found


def three_rubbers() -> dict:
    """examples/rubber.json with its first rubber played again (benchmarks/bench_pdf.py's)."""
    document = example("rubber")
    document["options"] = {**document["options"], "rubbers": 3}
    document["hands"] = [*document["hands"], *document["hands"][:8]]
    return document


@pytest.mark.parametrize(
    ("document", "words", "pages", "third"),
    [
        (example("rubber"), ("Rubber 1", "Rubber 2", "All rubbers"), 2, 1),
        (example("chicago"), ("Round 1", "Round 2", "All rounds"), 2, 1),
        (three_rubbers(), ("Rubber 1", "Rubber 2", "Rubber 3"), 3, 2),
    ],
    ids=["rubber", "chicago", "three rubbers"],
)
def test_score_pads_print_two_side_by_side(client, document, words, pages, third):
    # A pad is narrow: two share a row, each whole (never split over two pages),
    # the first at the left margin (14 mm = 40 pt), the second flush with the
    # right one (A4: 595 - 40 - 49 % of the 515 between the margins = 303 pt);
    # what follows starts again at the left, below them or on the next page.
    reader = get_pdf(client, store(client, document))
    found = headings(reader, words)
    assert len(reader.pages) == pages
    assert found[words[0]][:2] == (1, 40)
    assert found[words[1]] == (1, 303, found[words[0]][2])
    assert found[words[2]][:2] == (third, 40)
    assert third == 2 or found[words[2]][2] < found[words[0]][2]


def test_rubber_pad_prints_each_side_as_one_column(client):
    # On paper a side's entries above the line (or in one game) are one block of
    # lines, the points over what they are: the text reads We's column, then
    # They's, each in the pad's order (far from the line first, above it).
    text = pages_text(get_pdf(client, store(client, three_rubbers())))[0]
    assert (
        "nearest the line ↑\n500\n#8 rubber\n750\n#8 slam\n100\n#7 down\n150\n#6 honours\n"
        "30\n#6 over\n30\n#1 over\n100\n#5 honours\n40\n#5 over\n100\n#4 down\n"
        "Below the line: trick scores towards game ↓\n60\n#1 tricks\n100\n#3 tricks\n"
        "game 1 to They\n120\n#6 tricks\n40\n#5 tricks\ngame 2 to We\n"
    ) in text


def test_appendix_never_splits_a_hand_across_pages(client):
    # Every hand's row starts and ends on the same page: the last line of its
    # explanation is printed on the page that has its number.
    document = example("rubber")
    reader = get_pdf(client, store(client, document), "?paper=letter&appendix=1")
    texts = [" ".join(text.split()) for text in pages_text(reader)]
    outcome = replay_match(from_document(document))
    players = document["players"]
    checked = 0
    for hand in outcome.hands:
        scores = " ".join(
            f"+{s}" if s > 0 else (f"−{-s}" if s < 0 else "0")
            for s in (hand.scores[p] for p in players)
        )
        start = f" {hand.number} {hand.dealer} {scores} "
        pages = [i for i, text in enumerate(texts) if start in text]
        assert len(pages) == 1, (hand.number, pages)
        tail = " ".join(hand.explanation[-1].split())[-25:]
        assert tail in texts[pages[0]], (hand.number, tail)
        checked += 1
    assert checked == 12


def test_fonts_are_the_machines_dejavu_sans(client):
    reader = get_pdf(client, store(client, example("top-game")), "?appendix=1")
    fonts = set()
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            fonts.add(str(font.get_object()["/BaseFont"]).split("+")[-1])
    assert fonts and all(name.startswith("DejaVu-Sans") for name in fonts), fonts


def test_pdf_page_renders_to_png(client, tmp_path):
    """pdftoppm draws page 1: a broken PDF or an empty page fails here."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is missing: apt-get install poppler-utils")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(client.get(f"/m/{store(client, example('top-game'))}/sheet.pdf").data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "1", "-l", "1", str(path), str(tmp_path / "page")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    image = Image.open(tmp_path / "page-1.png").convert("L")
    assert image.size == (497, 702)  # A4 (210 × 297 mm) at 60 dpi
    # Ink where the title and the sheet are, white in the margins.
    assert image.crop((30, 30, 300, 60)).getextrema()[0] < 80
    assert image.crop((30, 100, 466, 450)).getextrema()[0] < 80
    assert image.crop((0, 0, 496, 20)).getextrema() == (255, 255)


# --- asking again ---------------------------------------------------------------


def test_pdf_is_inline_with_a_file_name_and_revalidated_by_etag(client):
    match_id = store(client, example("top-game"))
    first = client.get(f"/m/{match_id}/sheet.pdf")
    assert first.headers["Content-Disposition"] == 'inline; filename="friday-at-ann-s.pdf"'
    assert first.headers["Cache-Control"] == "no-cache"
    etag = first.headers["ETag"]
    again = client.get(f"/m/{match_id}/sheet.pdf", headers={"If-None-Match": etag})
    assert again.status_code == 304
    letter = client.get(f"/m/{match_id}/sheet.pdf?paper=letter")
    assert letter.headers["ETag"] != etag


def test_each_pdf_link_of_the_match_page_downloads_under_its_own_name(client):
    match_id = store(client, example("top-game"))
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    names = {}
    for label in ("PDF sheet", "PDF with explanations", "PDF (US Letter)"):
        found = re.search(r'href="([^"]+)" download>' + re.escape(label) + "<", page)
        assert found, label
        href = found.group(1).replace("&amp;", "&")
        names[label] = client.get(href).headers["Content-Disposition"]
    assert names == {
        "PDF sheet": 'inline; filename="friday-at-ann-s.pdf"',
        "PDF with explanations": 'inline; filename="friday-at-ann-s-explained.pdf"',
        "PDF (US Letter)": 'inline; filename="friday-at-ann-s-letter.pdf"',
    }
    both = client.get(f"/m/{match_id}/sheet.pdf?paper=letter&appendix=1")
    assert (
        both.headers["Content-Disposition"]
        == 'inline; filename="friday-at-ann-s-explained-letter.pdf"'
    )


def test_changing_the_stake_changes_the_pdf(client):
    # Rendered once at 0.50 EUR a point, then at 1.00 per 3 points: never the old copy.
    match_id = store(client, example("top-game"))
    assert "Ann pays Cy 2.00 EUR" in pages_text(get_pdf(client, match_id))[0]
    response = client.post(
        f"/m/{match_id}/settings",
        data={"title": "Rematch", "stake_amount": "1", "stake_per": "3", "stake_currency": "EUR"},
    )
    assert response.status_code == 302
    text = "\n".join(pages_text(get_pdf(client, match_id)))
    assert text.startswith("Rematch\n")
    assert "Stake 1.00 EUR per 3 points" in text
    assert "Ann pays Cy 1.34 EUR\nBob pays Cy 0.33 EUR" in text


def test_without_pango_the_pdf_says_what_to_install(client, monkeypatch):
    monkeypatch.setattr(pdf, "MISSING_LIBRARIES", "cannot load library 'pango-1.0-0'")
    pdf.clear_cache()
    match_id = store(client, example("top-game"))
    response = client.get(f"/m/{match_id}/sheet.pdf")
    assert response.status_code == 503
    assert response.text.startswith(
        "PDF export needs Pango and a font: apt-get install libpango-1.0-0 libpangoft2-1.0-0"
    )
    assert client.get(f"/m/{match_id}/settle").status_code == 200  # the rest of the app still works


# --- nothing is fetched but our own static files -----------------------------


def test_fetcher_serves_static_files_from_disk(app):
    fetched = StaticFetcher(app.static_folder).fetch(BASE_URL + "static/print.css")
    assert b"counter(pages)" in fetched.read()
    assert fetched.content_type == "text/css"


@pytest.mark.parametrize(
    "url",
    [
        "https://fonts.googleapis.com/css2?family=Roboto",
        "http://example.com/static/print.css",
        "file:///etc/passwd",
        BASE_URL + "static/../scorekeeper/pdf.py",
        BASE_URL + "static/%2e%2e/pyproject.toml",
        BASE_URL + "m/1/match.json",
        BASE_URL + "static/no-such-file.css",
    ],
)
def test_fetcher_refuses_everything_else(app, url):
    with pytest.raises(RefusedURL):
        StaticFetcher(app.static_folder).fetch(url)


# --- names from a phone: emoji and every script ---------------------------------
# Whatever a phone shows prints: with the machine's fonts where one has the
# character (scripts/setup.sh installs Noto Color Emoji and WenQuanYi Micro Hei),
# else spelt out as its code point, never as an empty box. fc-list says which
# fonts have what, independently of scorekeeper/pdf.py's own fontconfig query.

PHONE_NAMES = {"Ann": "Zoe\u0308 👍🏽", "Bob": "王小明 김민준", "Cy": "محمد", "Dee": "שרה"}
# Playing cards and emoji, Cyrillic, Greek, Devanagari (no font in setup.sh has
# it) and U+F8FF, the Apple logo, which Debian has only in a Type 1 font.
PHONE_TITLE = "🂡🃏😀👍🏽 Алёша & Γιώργος अनु \uf8ff"


def fc_list(pattern: str, element: str) -> list[str]:
    """One element (e.g. "%{fontformat}") of each font fontconfig lists for `pattern`."""
    if shutil.which("fc-list") is None:
        pytest.skip("fc-list is missing: apt-get install fontconfig")
    listed = subprocess.run(
        ["fc-list", "--format", element + "\n", pattern],
        check=True, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    return listed.stdout.splitlines()


@cache
def fonts_have(char: str) -> bool:
    """Some font Pango draws with (TrueType or CFF: not Type 1) has `char`."""
    return bool({"TrueType", "CFF"} & set(fc_list(f":charset={ord(char):x}", "%{fontformat}")))


def colour_emoji_fonts() -> list[str]:
    return fc_list(":color=true:charset=1f600", "%{family[0]}")


def as_printed(text: str) -> str:
    """`text` as the PDF prints it, without spaces: what no font has as code points."""
    return "".join(c if fonts_have(c) else f"U+{ord(c):04X}" for c in "".join(text.split()))


def renamed(value, names: dict[str, str]):
    """A match document with each player's name replaced, in the hands too."""
    if isinstance(value, dict):
        return {key: renamed(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    return names.get(value, value) if isinstance(value, str) else value


def phone_match(client) -> bytes:
    document = renamed(example("chicago"), PHONE_NAMES) | {"title": PHONE_TITLE}
    response = client.get(f"/m/{store(client, document)}/sheet.pdf?appendix=1")
    assert response.status_code == 200, response.text
    return response.data


def embedded_fonts(reader: PdfReader) -> dict[str, str]:
    """Each embedded font's name (without the subset tag) and its /Encoding."""
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[str(font["/BaseFont"]).split("+")[-1]] = str(font["/Encoding"])
    return fonts


@pytest.mark.parametrize(
    "char",
    ["A", "ë", "\u0308", "Ж", "λ", "ש", "م", "王", "김", "さ", "🂡", "🃏", "😀", "👍", "🏽",
     "अ", "\uf8ff", "\U0010fffd"],
)  # fmt: skip
def test_a_character_is_drawn_where_fontconfig_has_a_font_for_it(char):
    assert pdf.can_draw(char) == fonts_have(char)


@pytest.mark.parametrize("char", ["\u200d", "\ufe0f", "\u200f", "\U000e0067", "\U000e0100"])
def test_joiners_selectors_and_marks_are_never_missing(char):
    # ZWJ, VS16, the right-to-left mark, a flag's tag and a variation selector: never drawn.
    assert pdf.can_draw(char)


PRETEND_MISSING = set("🂡👨👩👧❤अनु")


@pytest.mark.parametrize(
    ("html", "printed"),
    [
        ("<td>Ann</td>", "<td>Ann</td>"),
        ("<td>🂡 Ann</td>", '<td><span class="code-point">U+1F0A1</span> Ann</td>'),
        # A run is spelt out in one frame; the zero-width joiners inside it go.
        ("<td>👨\u200d👩\u200d👧</td>",
         '<td><span class="code-point">U+1F468 U+1F469 U+1F467</span></td>'),
        ("<b>अनु</b>", '<b><span class="code-point">U+0905 U+0928 U+0941</span></b>'),
        # The emoji variation selector goes with a missing heart, stays with a drawn face.
        ("<p>❤\ufe0f 😀\ufe0f</p>", '<p><span class="code-point">U+2764</span> 😀\ufe0f</p>'),
        # Markup, attribute values and the document's title are never drawn.
        ('<title>🂡</title><p title="🂡">x🂡</p>',
         '<title>🂡</title><p title="🂡">x<span class="code-point">U+1F0A1</span></p>'),
        ("<style>p::after { content: '🂡' }</style>", "<style>p::after { content: '🂡' }</style>"),
    ],
)  # fmt: skip
def test_characters_no_font_has_are_spelt_out_as_code_points(html, printed):
    assert pdf.spell_out_missing(html, lambda char: char not in PRETEND_MISSING) == printed


def test_names_from_a_phone_print_in_every_script(client, caplog):
    reader = PdfReader(io.BytesIO(phone_match(client)))
    # Compared without spaces: pypdf breaks lines at the frames round code points.
    text = "".join("".join(pages_text(reader)).split())
    for name in [PHONE_TITLE, *PHONE_NAMES.values()]:
        assert as_printed(name) in text, name
    assert f"Players{','.join(as_printed(n) for n in PHONE_NAMES.values())}Stake" in text
    # Never an empty box: WeasyPrint warns of each .notdef it draws, and gives a
    # font that has any a custom encoding, mapping those to glyph 0.
    assert [r.message for r in caplog.records if ".notdef" in r.message] == []
    assert set(embedded_fonts(reader).values()) == {"/Identity-H"}


def test_emoji_print_in_colour_where_the_machine_has_a_colour_font(client, tmp_path):
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is missing: apt-get install poppler-utils")
    body = phone_match(client)
    fonts = embedded_fonts(PdfReader(io.BytesIO(body)))
    colour = colour_emoji_fonts()
    assert any(name.startswith(f.replace(" ", "-")) for name in fonts for f in colour) == bool(
        colour
    ), (fonts, colour)
    (tmp_path / "sheet.pdf").write_bytes(body)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "80", "-f", "1", "-l", "1", str(tmp_path / "sheet.pdf"),
         str(tmp_path / "page")],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    # The title line (A4 at 80 dpi, 14 mm margins): 🃏😀👍🏽 in colour, or nothing
    # but grey there (DejaVu Sans draws 🂡🃏😀 in black, 👍🏽 is spelt out).
    title = Image.open(tmp_path / "page-1.png").convert("RGB").crop((40, 40, 620, 68))
    coloured = sum(title.convert("HSV").getchannel("S").histogram()[128:])  # half saturated
    assert (coloured > 100) == bool(colour), coloured
    assert title.convert("L").getextrema()[0] < 80  # the title is there


def test_a_pad_taller_than_a_page_runs_on_to_the_next_and_loses_no_entry(client):
    # 80 defeated contracts: one rubber that never ends, forty entries a side
    # above the line, more than a page holds. A pad that fits stays whole; this
    # one must go on over the next page instead of running off the foot of its
    # page, where its last entries were drawn outside the paper.
    hands = [
        {"declarer": ["Ann", "Bob", "Cy", "Dee"][n % 4], "contract": "1C", "tricks": 5}
        for n in range(80)
    ]
    document = {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "hands": hands,
    }
    reader = get_pdf(client, store(client, document))
    drawn: dict[int, int] = {}  # each hand's entry: the page it is printed on
    for number, page in enumerate(reader.pages, 1):
        bottom, top = float(page.mediabox.bottom), float(page.mediabox.top)

        def seen(text, cm, tm, font, size, number=number, bottom=bottom, top=top):
            found = re.fullmatch(r"#(\d+) down", text.strip())
            if found:
                assert bottom + 20 < cm[5] + tm[5] * cm[3] < top - 20, (number, text)
                drawn[int(found.group(1))] = number

        page.extract_text(visitor_text=seen)
    assert sorted(drawn) == list(range(1, 81))  # every entry once, on the paper
    assert set(drawn.values()) == {1, 2}  # the pad runs on over page 2
