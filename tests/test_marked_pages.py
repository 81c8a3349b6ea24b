"""Every page of every game in every language (issue #26): a crawl of the match
side — home, new match, each game's rules, each game's example match (its
page, every hand's form, history, settle up, settings, the watch page, the PDF
and the CSV), an empty match's forms and their refusals, a stale form, the
error pages — drawn

1. with a stand-in catalog that wraps each message in ⟦…⟧: whatever is left
   outside the brackets must be a name, a game's name, a figure or a symbol;
2. with each shipped language's own catalog: every number on the page is the
   English page's (read with the language's number format, in the same order;
   the figures a catalog writes itself, marked as it is asked, set apart), and
   no English sentence of the catalog is left on it.

The group side has its own stand-in crawl (tests/test_marked_groups.py). The
games, their examples and their hand forms come from the catalog and the games'
own test files (tests/games.py): a new game is crawled without editing this file.
"""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal

import flask_babel
import pytest
from babel.numbers import NumberFormatError, get_decimal_symbol, get_group_symbol, parse_decimal
from flask import render_template
from markupsafe import Markup
from pypdf import PdfReader

from scorekeeper import docs, drawn, formats
from scorekeeper.app import create_app
from scorekeeper.db import connect, create_match
from scorekeeper.kept import Recent
from scorekeeper.languages import LANGUAGES
from scorekeeper.matchfile import from_document
from scorekeeper.registry import entry_for
from scorekeeper.translations import HERE, load
from scorekeeper.views import messages
from tests.conftest import TableClient
from tests.games import VARIANT_IDS, example_document, pinned, seated
from tests.test_marked_groups import FOOT, GAMES, Bracketed, unmarked
from tests.webtools import match_id_in, visible_text

# --- the pages --------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """One thing a phone reads: `read(client)` answers its text."""

    name: str
    read: Callable[[TableClient], str]


def text_of(answer) -> str:
    """What a player reads in an answer: a page's visible text, a PDF's, a CSV or
    the HTML a script puts on the page (the hand form's preview)."""
    kind = answer.mimetype
    if kind == "application/pdf":
        reader = PdfReader(io.BytesIO(answer.data))
        return " ".join(" ".join(page.extract_text().split()) for page in reader.pages)
    if kind == "application/json":
        return visible_text(answer.json["live"])
    if kind in ("text/csv", "text/plain"):
        return answer.get_data(as_text=True)
    return visible_text(answer)


def get(path: str, status: int = 200) -> Page:
    def read(client):
        answer = client.get(path)
        assert answer.status_code == status, f"GET {path}: {answer.status_code}"
        return text_of(answer)

    return Page(f"GET {path}", read)


def post(path: str, data: dict[str, str], status: int | tuple[int, ...], why: str) -> Page:
    """A form sent: its answer, or the page it leads to."""
    statuses = status if isinstance(status, tuple) else (status,)

    def read(client):
        answer = client.post(path, data=data, follow_redirects=True)
        assert answer.status_code in statuses, f"POST {path} ({why}): {answer.status_code}"
        return text_of(answer)

    return Page(f"POST {path} ({why})", read)


def error_page(template: str, **context) -> Page:
    """An error page drawn for a request in the client's language (the store
    busy, the server's own error: no test request reaches them otherwise)."""

    def read(client):
        app = client.application
        headers = {"Cookie": f"lang={lang}"} if (lang := client.lang) else {}
        with app.test_request_context("/", headers=headers):
            app.preprocess_request()
            return visible_text(render_template(template, **context))

    return Page(f"{template} {context}", read)


def session_lost(guarded: Reader, path: str, data: dict[str, str]) -> Page:
    """A form sent without its CSRF token, to the app as served (`guarded`)."""

    def read(client):
        answer = guarded.read_in(client.lang).post(path, data=data)
        assert answer.status_code == 400, f"POST {path} (no session): {answer.status_code}"
        return text_of(answer)

    return Page(f"POST {path} (no session)", read)


class Reader(TableClient):
    """A phone reading in one language (`lang`, its cookie; None: the browser's English)."""

    lang: str | None = None

    def read_in(self, lang: str | None) -> Reader:
        self.lang = lang
        if lang is None:
            self.delete_cookie("lang")
        else:
            self.set_cookie("lang", lang)
        return self


@dataclass
class Table:
    client: Reader
    pages: list[Page]
    names: set[str]  # the words of what the players typed (names, titles)
    typed: set[str]  # what the players typed, whole


def good_hand(variant_id: str) -> dict[str, str]:
    return dict(pinned(variant_id, "HAND_FORMS").good)


def match_pages(client, variant_id: str) -> tuple[list[Page], set[str]]:
    """The pages of one game: its example match read every way, an empty match's
    forms and refusals, a stale form, a deleted match."""
    document = example_document(variant_id)
    db = connect(client.application.config["DATABASE"])
    try:
        example = create_match(db, from_document(document)).match_id
    finally:
        db.close()
    m = f"/m/{example}"
    sheet = client.get(m).get_data(as_text=True)
    watch = re.search(r"/w/[\w-]+", sheet).group(0)
    hand_ids = sorted({int(n) for n in re.findall(rf'href="{m}/hand/(\d+)"', sheet)})
    assert hand_ids, f"{variant_id}: no hand to edit on its example's page"
    pages = [
        get(m),
        *([get(f"{m}/hand/new")] if client.get(f"{m}/hand/new").status_code == 200 else []),
        *(get(f"{m}/hand/{hand}") for hand in hand_ids),
        get(f"{m}/history"),
        get(f"{m}/settle"),
        get(f"{m}/settings"),
        get(watch),
        get(f"{m}/sheet.pdf"),
        get(f"{m}/hands.csv"),
        get(f"/rules/{variant_id}"),
    ]
    players = seated(variant_id)
    new = {"variant": variant_id, **{f"player{i}": p for i, p in enumerate(players, 1)}}
    start = client.post("/new", data=new)
    assert start.status_code == 302, visible_text(start)
    empty = f"/m/{match_id_in(start.location)}"
    form = pinned(variant_id, "HAND_FORMS")
    pages += [get(empty), get(f"{empty}/hand/new")]
    for name, shown in form.without:
        if shown is None:  # an optional input: the hand would be saved
            continue
        spoiled = {k: v for k, v in form.good.items() if k != name}
        pages.append(post(f"{empty}/hand/new", spoiled, 200, f"without {name}"))
    for name, _shown in form.numbers:
        pages.append(post(f"{empty}/hand/new", {**form.good, name: "99"}, 200, f"{name} 99"))
    if entry_for(variant_id).preview_template is not None:
        query = "&".join(f"{k}={v}" for k, v in form.good.items())
        pages.append(get(f"{empty}/hand/preview?{query}"))
    pages.append(post("/new", {"variant": variant_id}, 200, f"{variant_id}, no players"))
    # A stale form: another phone saved this hand since the form was drawn (the
    # same entries: "they saved the same game", nothing stored; or the two
    # versions to choose from).
    start = client.post("/new", data=new)
    played = f"/m/{match_id_in(start.location)}"
    drawn_at = str(client.get(f"{played}/live").json["revision"])
    assert client.post(f"{played}/hand/new", data=form.good).status_code == 302
    stale = {**form.good, "revision": drawn_at, "key": "a-second-phone"}
    pages.append(post(f"{played}/hand/new", stale, (409, 200), "stale"))
    # A match deleted at its table.
    start = client.post("/new", data=new)
    deleted = f"/m/{match_id_in(start.location)}"
    assert client.post(f"{deleted}/delete").status_code in (302, 303)
    pages.append(get(deleted))
    # What the players typed is theirs, never translated: names and the title.
    typed = {*document["players"], *players, document.get("title", "")} - {""}
    return pages, typed


@pytest.fixture(scope="module")
def table(tmp_path_factory, migrated_template) -> Table:
    """Every game's matches in one store, shared by every language's crawl."""
    path = tmp_path_factory.mktemp("crawl") / "t.db"
    shutil.copyfile(migrated_template, path)
    config = {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(path)}
    app = create_app(config)
    app.test_client_class = Reader
    client = app.test_client()
    guarded_app = create_app({**config, "WTF_CSRF_ENABLED": True})
    guarded_app.test_client_class = Reader
    pages = [
        get("/"),
        get("/new"),
        get("/rules/"),
        get("/no/such/page", 404),
        get("/m/AAAAAAAAAAAAAAAA", 404),
        error_page("busy.html"),
        error_page("error.html", code=500),
    ]
    typed: set[str] = set()
    for variant_id in VARIANT_IDS:
        more, players = match_pages(client, variant_id)
        pages += more
        typed |= players
    client.get("/")  # the fixture's own flashes, said to the phone that made them
    # A form whose session was lost (CSRF): the hand form drawn again with its
    # entries, any other form the app's own page.
    first = VARIANT_IDS[0]
    new = {"variant": first, **{f"player{i}": p for i, p in enumerate(seated(first), 1)}}
    lost = f"/m/{match_id_in(client.post('/new', data=new).location)}"
    guarded = guarded_app.test_client()
    pages += [
        session_lost(guarded, f"{lost}/hand/new", good_hand(first)),
        session_lost(guarded, f"{lost}/delete", {}),
    ]
    names = {word for text in typed for word in re.findall(r"[^\W\d_]{2,}", text)}
    return Table(client, pages, names, typed)


# --- 1. the stand-in catalog ---------------------------------------------------------------

# Words every language shows as they are: the contract's doubling marks (4♠X,
# 3NTXX: the bridge notation), a Mini Bridge or Need a Fourth? count of
# high-card points (HCP), currencies as typed, months as Babel writes them.
SYMBOLS = {"X", "XX", "NT", "NTX", "NTXX", "SX", "SXX", "CX", "CXX", "DX", "DXX", "HX", "HXX"}
SYMBOLS |= {"EUR", "GBP", "November"}

KNOWN_ENGLISH_LEFT: set[tuple[str, str]] = set()


def stand_in(patch: pytest.MonkeyPatch) -> None:
    """The stand-in catalog for every message, and no page part kept from a
    drawing in real English (kept parts are keyed by the language's code)."""
    patch.setattr(flask_babel.Domain, "get_translations", lambda self: Bracketed())
    fresh = Recent(drawn.KEPT_DRAWINGS, drawn.KEPT_SIZE, drawn.Drawing.size)
    patch.setattr(drawn, "_drawings", fresh)
    apart(patch)


def apart(patch: pytest.MonkeyPatch) -> None:
    """The rules pages' decisions and tables come from the rules documents
    (docs/variants/<code>/<id>.md, checked against the English by
    tests/test_rules_languages.py), not from the catalogs: set apart as ⟪…⟫."""
    to_html = docs.to_html
    patch.setattr(docs, "to_html", lambda *a, **k: Markup("⟪{}⟫").format(to_html(*a, **k)))


def leftover(text: str, names: set[str]) -> set[str]:
    """The words of `text` outside every ⟦…⟧ that are no name, game or symbol."""
    text = re.sub(r"https?://\S+|/[mw]/[\w-]+|⟪[^⟫]*⟫", " ", text)
    return unmarked(text) - names - GAMES - FOOT - SYMBOLS


def said(found: dict) -> str:
    """What a crawl found, a line per page (the assertion's own diff is cut short)."""
    return "\n".join(
        f"{page}: {sorted(what) if isinstance(what, set) else what}" for page, what in found.items()
    )


def kind_of(name: str) -> str:
    """A page's kind, its match and hand ids left out: "GET /m/…/hand/…"."""
    name = re.sub(r"/[mw]/[\w-]{16,}", lambda m: m.group()[:3] + "…", name)
    return re.sub(r"/hand/\d+", "/hand/…", name)


def test_the_stand_in_finds_what_is_left_unmarked():
    names = {"Ann"}
    assert leftover("⟦Hand 3⟧ Ann 4♠X ⟦made⟧ Save mine", names) == {"Save", "mine"}
    assert kind_of("GET /m/N_eTyIaovp1oVfBN/hand/12") == "GET /m/…/hand/…"


def test_the_crawl_reads_every_game_and_every_kind_of_page(table):
    kinds = {kind_of(page.name) for page in table.pages}
    assert {f"GET /rules/{variant}" for variant in VARIANT_IDS} <= kinds
    for kind in ("/m/…", "/m/…/hand/…", "/m/…/hand/new", "/m/…/history", "/m/…/settle"):
        assert f"GET {kind}" in kinds
    for kind in ("/m/…/settings", "/w/…", "/m/…/sheet.pdf", "/m/…/hands.csv"):
        assert f"GET {kind}" in kinds
    assert "POST /m/…/hand/new (stale)" in kinds and "GET /no/such/page" in kinds


def test_every_word_of_every_match_page_is_marked(table):
    found: dict[str, set[str]] = {}
    with pytest.MonkeyPatch.context() as patch:
        stand_in(patch)
        client = table.client.read_in(None)
        for page in table.pages:
            words = leftover(page.read(client), table.names)
            words = {w for w in words if (kind_of(page.name), w) not in KNOWN_ENGLISH_LEFT}
            if words:
                found.setdefault(kind_of(page.name), set()).update(words)
    assert found == {}, said(found)


# --- 2. each language's own catalog ------------------------------------------------------------


def numbers(text: str, locale: str) -> list:
    """Every number in `text` as `locale` writes it (1 234,5 · 1.234,5 · 1,234.5)."""
    if locale == "csv":  # a CSV's figures: a decimal point in every language
        return [Decimal(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]
    group, decimal = get_group_symbol(locale), get_decimal_symbol(locale)
    grouped = rf"\d{{1,3}}(?:{re.escape(group)}\d{{3}})+(?:{re.escape(decimal)}\d+)?"
    plain = rf"\d+(?:{re.escape(decimal)}\d+)?"
    found = []
    for written in re.findall(f"{grouped}|{plain}", text):
        try:
            found.append(parse_decimal(written, locale, strict=True))
        except NumberFormatError:
            found.append(written)
    return found


_PLACEHOLDER = re.compile(r"%\(\w+\)[sd]|%[sd]|\{\w+\}")
_OWN = re.compile(r"⁅[^⁆]*⁆")


class OwnFiguresMarked:
    """A language's own catalog whose sentences' own figures ("rounded to the
    nearest 100", "0–%(most)s each", "/m/ followed by 16 letters") come marked
    as ⁅100⁆, before any placeholder is filled: no score of the match is ever
    marked, and a figure the catalog writes is set apart however the language
    words the sentence around it. So is a placeholder the English message
    leaves out ("per point": 每 ⁅1⁆ 分, a language with one plural form)."""

    def __init__(self, translations) -> None:
        self._translations = translations

    @staticmethod
    def marked(said: str, english: str) -> str:
        written = set(_PLACEHOLDER.findall(english))
        return "".join(
            (piece if piece in written else f"⁅{piece}⁆")
            if _PLACEHOLDER.fullmatch(piece)
            else re.sub(r"\d+", r"⁅\g<0>⁆", piece)
            for piece in re.split(f"({_PLACEHOLDER.pattern})", said)
        )

    def ugettext(self, message: str) -> str:
        return self.marked(self._translations.ugettext(message), message)

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        english = singular if n == 1 else plural
        return self.marked(self._translations.ungettext(singular, plural, n), english)

    def upgettext(self, context: str, message: str) -> str:
        return self.marked(self._translations.upgettext(context, message), message)

    def unpgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        english = singular if n == 1 else plural
        return self.marked(self._translations.unpgettext(context, singular, plural, n), english)

    gettext, ngettext, pgettext, npgettext = ugettext, ungettext, upgettext, unpgettext


def unmarked_own(text: str) -> str:
    """A page as the player reads it, the catalog's own figures unmarked."""
    return text.replace("⁅", "").replace("⁆", "")


def days_written(locale: str) -> list[str]:
    """Today's, yesterday's and tomorrow's date as `locale` writes them (a
    match's day; their figures are in each language's order)."""
    today = datetime.now(UTC).date()
    days = [today + timedelta(days=n) for n in (-2, -1, 0, 1)]
    kinds = (formats.day, formats.long_day, formats.short_day, formats.month)
    return sorted({kind(d, locale) for d in days for kind in kinds}, key=len, reverse=True)


def figures(text: str, locale: str, kind: str) -> list:
    """The figures of a page, read as `locale` writes them, once the dates and
    the catalog's own figures (marked ⁅…⁆ by OwnFiguresMarked) are set apart."""
    text = _OWN.sub(" ", text)
    if kind.endswith(".csv"):
        return numbers(text, "csv")
    text = re.sub(r"⟪[^⟫]*⟫", " ", text)
    for day in days_written(locale):
        text = text.replace(day, " ")
    return numbers(text, locale)


# Languages whose sentences put a message's figures in another order than the
# English does ("每 100 分 €0.50" for "0.50 EUR per 100 points", "明手有 12 个顶张中的
# 3 个" for "dummy holds 3 of the 12 tops"): their pages' figures are compared
# as a whole, each figure as often as on the English page, in any order.
IN_ANOTHER_ORDER = {"zh_Hans_CN"}


def figures_differ(
    ours: str, english: str, locale: str, kind: str, in_order: bool = True
) -> str | None:
    """Where a page in `locale` parts from the English page's figures (None: nowhere)."""
    mine, theirs = figures(ours, locale, kind), figures(english, "en_GB", kind)
    if kind.endswith(".pdf") or not in_order:  # a PDF's text comes in the layout's order
        mine, theirs = sorted(mine, key=str), sorted(theirs, key=str)
    return None if mine == theirs else first_difference(mine, theirs)


def first_difference(ours: list, theirs: list) -> str:
    """Where two pages' figures part, and the next few of each."""
    pairs = zip(ours, theirs, strict=False)
    at = next((i for i, (one, other) in enumerate(pairs) if one != other), None)
    at = min(len(ours), len(theirs)) if at is None else at
    said, english = [str(f) for f in ours[at : at + 5]], [str(f) for f in theirs[at : at + 5]]
    return f"figure {at}: {said} not {english}"


class Saying:
    """A catalog of a few messages (`said`: message -> what the language says)."""

    def __init__(self, said: dict[str, str | tuple[str, ...]]) -> None:
        self.said = said

    def ugettext(self, message: str) -> str:
        return self.said.get(message, message)

    def ungettext(self, singular: str, plural: str, n: int) -> str:
        forms = self.said.get(singular, (singular, plural))
        return forms[min(n != 1, len(forms) - 1)]


def drawn_in(catalog: Saying, message: str, plural: str | None = None, n: int = 1, **values):
    """A message as a page draws it through the marked catalog."""
    marked = OwnFiguresMarked(catalog)
    said = marked.ugettext(message) if plural is None else marked.ungettext(message, plural, n)
    return said % values


ENGLISH = Saying({})


def test_a_catalogs_own_figure_is_set_apart_and_never_a_score():
    each = "0–%(most)s each. The four must add up to 40."
    german = Saying({each: "Je 0–%(most)s. Die vier müssen 40 ergeben."})
    theirs = drawn_in(ENGLISH, each, most=37)
    ours = drawn_in(german, each, most=37)
    assert (theirs, ours) == (
        "⁅0⁆–37 each. The four must add up to ⁅40⁆.",
        "Je ⁅0⁆–37. Die vier müssen ⁅40⁆ ergeben.",
    )
    assert figures(ours, "de_DE", "GET /m/…/hand/new") == [Decimal(37)]
    assert figures_differ(ours, theirs, "de_DE", "GET /m/…/hand/new") is None
    # The same words as a message of the catalog's own figure: the score stays.
    aces = "at no trumps only the four aces count, for %(aces)d"
    german = Saying({aces: "in Sans Atout zählen nur die vier Asse, %(aces)d"})
    ours, theirs = drawn_in(german, aces, aces=150), drawn_in(ENGLISH, aces, aces=150)
    assert figures(ours, "de_DE", "GET /m/…/hand/…") == [Decimal(150)]
    assert figures_differ(ours, theirs, "de_DE", "GET /m/…/hand/…") is None
    # One plural form: the count the English singular leaves out is set apart.
    chinese = Saying({"per point": ("每 %(per)s 分",)})
    ours = drawn_in(chinese, "per point", "per %(per)s points", 1, per=1)
    assert ours == "每 ⁅1⁆ 分"
    assert figures(ours, "zh_Hans_CN", "GET /m/…/settle") == []
    assert drawn_in(chinese, "per point", "per %(per)s points", 100, per=100) == "每 100 分"


def test_the_figures_check_catches_a_score_that_differs():
    theirs = "Hand 3 We 120 below, They 60 · 0.50 EUR per 100 points"
    kind = "GET /m/…"
    assert (
        figures_differ(
            "Spiel 3 Wir 120 unten, Sie 60 · 0,50 EUR je 100 Punkte", theirs, "de_DE", kind
        )
        is None
    )
    ours = "Spiel 3 Wir 120 unten, Sie 70 · 0,50 EUR je 100 Punkte"
    assert figures_differ(ours, theirs, "de_DE", kind) == (
        "figure 2: ['70', '0.50', '100'] not ['60', '0.50', '100']"
    )
    # A stake written as English writes money beside German words.
    ours = "Spiel 3 Wir 120 unten, Sie 60 · 0.50 EUR je 100 Punkte"
    assert figures_differ(ours, theirs, "de_DE", kind) == (
        "figure 3: ['0', '50', '100'] not ['0.50', '100']"
    )
    # Scores swapped: caught in order; in another order only a different figure.
    swapped = "Spiel 3 Wir 60 unten, Sie 120 · 0,50 EUR je 100 Punkte"
    assert figures_differ(swapped, theirs, "de_DE", kind) == (
        "figure 1: ['60', '120', '0.50', '100'] not ['120', '60', '0.50', '100']"
    )
    assert figures_differ(swapped, theirs, "de_DE", kind, in_order=False) is None
    assert figures_differ(ours, theirs, "de_DE", kind, in_order=False) == (
        "figure 0: ['0', '100', '120', '3', '50'] not ['0.50', '100', '120', '3', '60']"
    )
    # A translation writing its own number where the English page has the score.
    each = "0–%(most)s each."
    wrong = Saying({each: "Je 0–40."})
    ours, theirs = drawn_in(wrong, each, most=37), drawn_in(ENGLISH, each, most=37)
    assert figures_differ(ours, theirs, "de_DE", "GET /m/…/hand/new") == "figure 0: [] not ['37']"


def english_sentences(code: str) -> list[tuple[str, str]]:
    """(message, the English piece a page must not show) for every message of
    two words or more the language says otherwise: its text between placeholders."""
    catalog = load(HERE / code / "LC_MESSAGES" / "messages.po")
    said = " ".join(
        " ".join(string.split())
        for message in catalog
        if message.id
        for string in (message.string if isinstance(message.string, tuple) else (message.string,))
    )
    pieces = []
    for message in catalog:
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for english in ids:
            if not english or english in strings:
                continue
            split = re.split(r"%\(\w+\)[sd]|%[sd]|\{\w+\}", english)
            # A whole sentence of two words; a piece between placeholders of three
            # ("of the" is in many a name and title).
            fewest = 2 if len(split) == 1 else 3
            for piece in split:
                piece = " ".join(piece.split()).strip(" .,:;·—-()")
                if len(piece.split()) >= fewest and piece not in said:
                    pieces.append((english, piece))
    return pieces


@pytest.fixture(scope="module")
def frozen_clock():
    """ "5 minutes ago" is the same on every page of the crawl, the rules
    documents (English only) are set apart as ⟪…⟫ and the catalogs' own
    figures marked ⁅…⁆ (no page part kept from a drawing unmarked)."""
    now = datetime.now(UTC) + timedelta(seconds=5)

    class Frozen(datetime):
        @classmethod
        def now(cls, tz=None):
            return now

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(messages, "datetime", Frozen)
        apart(patch)
        catalog = flask_babel.Domain.get_translations
        patch.setattr(
            flask_babel.Domain, "get_translations", lambda self: OwnFiguresMarked(catalog(self))
        )
        patch.setattr(
            drawn, "_drawings", Recent(drawn.KEPT_DRAWINGS, drawn.KEPT_SIZE, drawn.Drawing.size)
        )
        yield


@pytest.fixture(scope="module")
def english(table, frozen_clock) -> dict[str, str]:
    client = table.client.read_in("en")
    return {page.name: page.read(client) for page in table.pages}


OTHER_LANGUAGES = [language for language in LANGUAGES if language.code != "en"]


@pytest.fixture(scope="module")
def crawled(table, frozen_clock) -> dict[str, dict[str, str]]:
    """Each language's pages, read once for both checks below."""
    pages: dict[str, dict[str, str]] = {}

    def read(code: str) -> dict[str, str]:
        if code not in pages:
            client = table.client.read_in(code)
            pages[code] = {page.name: page.read(client) for page in table.pages}
        return pages[code]

    return read


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=lambda language: language.code)
def test_no_english_sentence_of_the_catalog_is_left_on_any_page(table, crawled, language):
    pieces = english_sentences(language.code)
    typed = re.compile("|".join(re.escape(t) for t in sorted(table.typed, key=len, reverse=True)))
    left: dict[str, set[str]] = {}
    for name, text in crawled(language.code).items():
        # What the players typed and the rules documents (English only) set apart.
        words = typed.sub(" ", re.sub(r"⟪[^⟫]*⟫", " ", unmarked_own(text)))
        seen = {piece for _message, piece in pieces if piece in words}
        seen = {p for p in seen if (kind_of(name), p) not in KNOWN_ENGLISH_LEFT}
        if seen:
            left.setdefault(kind_of(name), set()).update(seen)
    assert left == {}, said(left)


@pytest.mark.parametrize("language", OTHER_LANGUAGES, ids=lambda language: language.code)
def test_every_page_in_each_language_has_the_english_pages_figures(
    table, english, crawled, language
):
    different = {}
    for name, text in crawled(language.code).items():
        kind = kind_of(name)
        if kind.startswith("GET /rules/"):  # rules: prose, no score
            continue
        in_order = language.code not in IN_ANOTHER_ORDER
        if where := figures_differ(text, english[name], language.formats, kind, in_order):
            different[name] = where
    assert different == {}, said(different)
