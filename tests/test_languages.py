"""Each phone in its own language (issue 26): which language a request is
answered in, the switch that remembers a phone's choice, `<html lang dir>` on
every page, the catalogs complete and sound, and numbers, money and dates as
each language writes them."""

from __future__ import annotations

import re
import shutil
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import NamedTuple

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import write_po

from scorekeeper import formats
from scorekeeper.app import create_app
from scorekeeper.languages import LANGUAGES
from scorekeeper.translations import HERE, catalog_problems, compile_catalogs, stale
from scorekeeper.translations.__main__ import table
from scorekeeper.views.messages import changed_words
from tests.webtools import visible_text

ROOT = Path(__file__).resolve().parent.parent
HTML = re.compile(r'<html lang="([^"]*)" dir="([^"]*)"[ >]')


def html_lang(response) -> tuple[str, str]:
    found = HTML.search(response.get_data(as_text=True))
    assert found, response.get_data(as_text=True)[:300]
    return found.groups()


# --- which language: Accept-Language, as phones send it ------------------------------


# Real headers: Chrome on Android and Safari on iOS, set to each language.
@pytest.mark.parametrize(
    "header, tag",
    [
        ("fr-FR,fr;q=0.9,en-US;q=0.8,en;q=0.7", "fr"),  # Chrome, French (France)
        ("fr-FR,en-US;q=0.7", "fr"),  # region tag only: best_match's known miss
        ("fr-CA", "fr"),
        ("nl-NL,nl;q=0.9", "nl"),  # Safari
        ("nl-BE,nl;q=0.9,fr-BE;q=0.8,fr;q=0.7,en-US;q=0.6,en;q=0.5", "nl"),
        ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
        ("de-CH", "de"),
        ("sv-SE,sv;q=0.9,en-US;q=0.8,en;q=0.7", "sv"),
        ("zh-CN,zh;q=0.9", "zh-Hans"),  # Chrome, Chinese (China)
        ("zh-Hans-CN,zh-Hans;q=0.9", "zh-Hans"),  # Safari, Simplified Chinese
        ("zh-Hans", "zh-Hans"),
        ("zh", "zh-Hans"),
        ("it-IT,it;q=0.9,en-US;q=0.8,en;q=0.7", "it"),
        ("pl-PL,pl;q=0.9,en-US;q=0.8,en;q=0.7", "pl"),
        ("en-US,en;q=0.9", "en"),
        ("en-GB", "en"),
        ("pt-BR,pt;q=0.9,fr;q=0.8", "fr"),  # none of ours first: the next that is
        ("pt-BR,pt;q=0.9", "en"),
        ("nb-NO,nb;q=0.9,no;q=0.8,sv;q=0.7,en;q=0.5", "sv"),
        ("en;q=0.5,pl;q=0.8", "pl"),  # by quality, not by place
        # Traditional Chinese is not Simplified: such a reader gets the next
        # language they named, and a bare zh after a Traditional tag is theirs too.
        ("zh-TW,zh;q=0.9,en-US;q=0.8,en;q=0.7", "en"),  # Chrome, Taiwan
        ("zh-Hant-TW,zh-Hant;q=0.9", "en"),  # Safari, Traditional
        ("zh-HK,zh;q=0.9,de;q=0.8", "de"),
        ("*", "en"),
        ("", "en"),
    ],
)
def test_the_browsers_languages_choose_the_page_language(client, header, tag):
    answer = client.get("/", headers={"Accept-Language": header})
    assert html_lang(answer) == (tag, "ltr")
    assert "Accept-Language" in answer.headers["Vary"]


def test_without_accept_language_the_page_is_english(client):
    assert html_lang(client.get("/")) == ("en", "ltr")
    assert "Resume a match" in visible_text(client.get("/"))


# --- the switch --------------------------------------------------------------------


@pytest.fixture
def guarded_client(store_path):
    """A phone on the app with its CSRF check on, as served."""
    app = create_app({"TESTING": True, "DATABASE": store_path})
    return app.test_client()


def switch_form(page: str) -> dict[str, str]:
    form = re.search(
        r'<form class="language-pick" method="post" action="([^"]+)">(.*?)</form>', page, re.S
    )
    assert form, "no language switch on the page"
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form[2]))
    return {"action": form[1], **fields}


def test_the_switch_remembers_the_phones_choice_and_goes_back(guarded_client):
    page = guarded_client.get("/rules/?x=1", headers={"Accept-Language": "de-DE"})
    form = switch_form(page.get_data(as_text=True))
    assert form["action"] == "/language" and form["next"] == "/rules/?x=1"
    answer = guarded_client.post(
        "/language",
        data={"csrf_token": form["csrf_token"], "next": form["next"], "lang": "pl"},
        headers={"Accept-Language": "de-DE"},
    )
    assert answer.status_code == 303 and answer.headers["Location"] == "/rules/?x=1"
    cookie = guarded_client.get_cookie("lang")
    assert cookie.value == "pl" and cookie.http_only and cookie.same_site == "Lax"
    # The choice beats the browser's languages, on every page of this phone.
    home = guarded_client.get("/", headers={"Accept-Language": "de-DE"})
    assert html_lang(home) == ("pl", "ltr")
    assert "Rozpocznij mecz" in visible_text(home)
    assert 'value="pl" lang="pl" selected' in home.get_data(as_text=True)


def test_the_switch_without_its_token_changes_nothing(guarded_client):
    answer = guarded_client.post("/language", data={"lang": "fr", "next": "/"})
    assert answer.status_code == 400
    assert guarded_client.get_cookie("lang") is None


@pytest.mark.parametrize(
    "sent, back",
    [
        ("/m/abc?x=1", "/m/abc?x=1"),
        ("https://elsewhere.example/", "/"),
        ("//elsewhere.example/", "/"),
        ("/\\elsewhere.example", "/"),
        ("", "/"),
        ("rules", "/"),
    ],
)
def test_the_switch_goes_back_to_a_page_of_this_app_only(client, sent, back):
    answer = client.post("/language", data={"lang": "sv", "next": sent})
    assert answer.status_code == 303 and answer.headers["Location"] == back


def test_an_unknown_language_forgets_the_choice(client):
    client.post("/language", data={"lang": "fr", "next": "/"})
    assert client.get_cookie("lang").value == "fr"
    answer = client.post("/language", data={"lang": "../../etc", "next": "/"})
    assert answer.status_code == 303 and client.get_cookie("lang") is None
    client.set_cookie("lang", "klingon")  # a cookie of no language of ours: the browser's
    assert html_lang(client.get("/", headers={"Accept-Language": "it"})) == ("it", "ltr")


# --- lang on every page ---------------------------------------------------------------


def test_every_page_says_its_language_and_offers_the_switch(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    actions.save_hand(match_id, {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"})
    client.set_cookie("lang", "zh_Hans_CN")
    group = client.post(
        "/groups/new",
        data={"name": "Friday", "stake_game": "*", "member1": "Ann", "member2": "Bob"},
    )
    group_page = group.headers["Location"]
    pages = [
        "/",
        "/new",
        "/rules/",
        f"/m/{match_id}",
        f"/m/{match_id}/hand/new",
        f"/m/{match_id}/hand/1",
        f"/m/{match_id}/history",
        f"/m/{match_id}/settle",
        group_page,
        "/no/such/page",
    ]
    for path in pages:
        answer = client.get(path)
        assert answer.status_code in (200, 404), path
        assert html_lang(answer) == ("zh-Hans", "ltr"), path
        switch_form(answer.get_data(as_text=True))
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    watch = re.search(r"/w/[\w-]+", page).group(0)
    assert html_lang(client.get(watch)) == ("zh-Hans", "ltr")
    assert "<form" not in client.get(watch).get_data(as_text=True)  # a watch address: none


def test_the_pdf_sheet_says_the_language_of_the_phone_that_asks(client, actions):
    from scorekeeper.db import get_db, load_match
    from scorekeeper.views.pages import Loaded
    from scorekeeper.views.sheets import match_html

    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    with client.application.test_request_context("/", headers={"Cookie": "lang=sv"}):
        stored = load_match(get_db(), match_id)
        html = match_html(Loaded(stored, None, [], None))
    assert '<html lang="sv">' in html


def test_a_page_the_phone_has_is_drawn_again_in_another_language(client, actions):
    """The match page's ETag: a phone that switched language gets the page anew,
    never a 304 for the page in the language it had."""
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    english = client.get(f"/m/{match_id}")
    etag = english.headers["ETag"]
    assert client.get(f"/m/{match_id}", headers={"If-None-Match": etag}).status_code == 304
    client.set_cookie("lang", "fr")
    french = client.get(f"/m/{match_id}", headers={"If-None-Match": etag})
    assert french.status_code == 200 and french.headers["ETag"] != etag
    assert html_lang(french) == ("fr", "ltr")
    client.set_cookie("lang", "en")
    assert client.get(f"/m/{match_id}").get_data(as_text=True).count("Règles") == 0


def test_the_home_page_in_polish_uses_its_three_plural_forms(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    client.set_cookie("lang", "pl")
    for count, words in ((1, "1 rozdanie"), (2, "2 rozdania"), (5, "5 rozdań")):
        while len(actions.hands(match_id)) < count:
            actions.save_hand(
                match_id, {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "7"}
            )
        assert words in visible_text(client.get("/")), count


# --- the catalogs ---------------------------------------------------------------------


def test_each_language_has_a_catalog_and_each_catalog_a_language():
    folders = {p.name for p in HERE.iterdir() if (p / "LC_MESSAGES" / "messages.po").exists()}
    assert folders == {language.code for language in LANGUAGES}
    assert [language.code for language in LANGUAGES] == [
        "en",
        "fr",
        "nl",
        "de",
        "sv",
        "zh_Hans_CN",
        "it",
        "pl",
    ]


@pytest.mark.parametrize("code", [language.code for language in LANGUAGES])
def test_every_catalog_is_complete_and_keeps_every_placeholder(code):
    assert catalog_problems()[code] == []


def test_every_compiled_catalog_says_what_its_po_says():
    """A .po changed since it was compiled: the pages would show the old words.
    (scripts/setup.sh compiles them: python -m scorekeeper.translations.)"""
    assert stale() == []


def test_catalogs_hold_every_message_marked_in_the_code(tmp_path):
    """pybabel extract over babel.cfg finds nothing that the catalogs lack."""
    from babel.messages.frontend import CommandLineInterface

    pot = tmp_path / "messages.pot"
    CommandLineInterface().run(
        [
            "pybabel",
            "-q",
            "extract",
            "-F",
            str(ROOT / "babel.cfg"),
            "-k",
            "lazy_gettext",
            "-k",
            "_l",
            "-k",
            "lazy_ngettext:1,2",
            "-k",
            "lazy_pgettext:1c,2",
            "--no-location",
            "-o",
            str(pot),
            str(ROOT),
        ]
    )
    from babel.messages.pofile import read_po

    with pot.open("rb") as file:
        marked = {
            (m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in read_po(file) if m.id
        }
    for code in (language.code for language in LANGUAGES):
        with (HERE / code / "LC_MESSAGES" / "messages.po").open("rb") as file:
            known = {
                (m.context, m.id if isinstance(m.id, str) else m.id[0])
                for m in read_po(file)
                if m.id and m.string
            }
        assert marked - known == set(), code


def _catalog(tmp_path: Path, locale: str, *messages: tuple) -> Path:
    """A catalog of `messages` ((id, string[, flags])) as translations/<locale>/…"""
    catalog = Catalog(locale=locale)
    for id_, string, *flags in messages:
        catalog.add(id_, string, flags=flags[0] if flags else ())
    po = tmp_path / locale / "LC_MESSAGES" / "messages.po"
    po.parent.mkdir(parents=True)
    with po.open("wb") as file:
        write_po(file, catalog)
    return po


@pytest.mark.parametrize(
    "locale, message, problem",
    [
        ("fr", ("Rules", ""), "'Rules': no translation"),
        ("fr", ("Rules", "   "), "'Rules': no translation"),
        (
            "fr",
            ("won by %(winners)s", "gagné par %(gagnants)s", ["python-format"]),
            "'won by %(winners)s': %(name)s placeholders ['gagnants'] instead of ['winners']",
        ),
        (
            "fr",
            ("won by %(winners)s", "gagné", ["python-format"]),
            "'won by %(winners)s': %(name)s placeholders [] instead of ['winners']",
        ),
        (
            "de",
            ("{player} pays", "{spieler} zahlt"),
            "'{player} pays': {name} placeholders ['spieler'] instead of ['player']",
        ),
        (
            "pl",
            (
                ("%(num)d hand", "%(num)d hands"),
                ("%(num)d rozdanie", "%(num)d rozdania"),
                ["python-format"],
            ),
            "'%(num)d hand': plural forms [2] left empty",
        ),
        (
            "pl",
            (
                ("%(num)d hand", "%(num)d hands"),
                ("%(num)d rozdanie", "rozdania", "%(num)d rozdań"),
                ["python-format"],
            ),
            "'%(num)d hand': %(name)s placeholders [] instead of ['num']",
        ),
        # A positional %s dropped, or changed to another kind (issue #26's crawl).
        (
            "fr",
            ("%s points", "points", ["python-format"]),
            "'%s points': placeholders are incompatible",
        ),
        (
            "fr",
            ("%s points", "%d points", ["python-format"]),
            "'%s points': incompatible format for placeholder 1: 's' and 'd' are not compatible",
        ),
        # A {name} placeholder renamed in Polish's third plural form.
        (
            "pl",
            (
                ("{count} hand", "{count} hands"),
                ("{count} rozdanie", "{count} rozdania", "{liczba} rozdań"),
            ),
            "'{count} hand': {name} placeholders ['liczba'] instead of ['count']",
        ),
        ("pl", (("{count} hand", "{count} hands"), ("", "", "")), "'{count} hand': no translation"),
    ],
)
def test_a_missing_translation_or_a_broken_placeholder_is_a_problem(
    tmp_path, locale, message, problem
):
    _catalog(tmp_path, locale, message)
    assert problem in catalog_problems(tmp_path)[locale]


def test_a_singular_may_leave_out_its_number_and_is_still_sound(tmp_path):
    _catalog(
        tmp_path,
        "fr",
        (
            ("%(num)d minute ago", "%(num)d minutes ago"),
            ("il y a une minute", "il y a %(num)d de minutes", "il y a %(num)d minutes"),
            ["python-format"],
        ),
    )
    assert catalog_problems(tmp_path) == {"fr": []}


@pytest.mark.parametrize(
    "said, sound",
    [
        ("每 %(num)d 分 %(amount)s", True),  # the plural's words, its number kept
        ("每分 %(amount)s", False),  # the number dropped: wrong for 3 points
        ("每 %(num)d 分 %(amount)s %(x)s", False),  # a placeholder the code never gives
    ],
)
def test_a_language_with_one_plural_form_is_checked_against_the_plural(tmp_path, said, sound):
    """Chinese says every count with one form: it must keep the plural's
    placeholders (the singular "per point" has no number to keep)."""
    _catalog(
        tmp_path,
        "zh_Hans_CN",
        (("%(amount)s per point", "%(amount)s per %(num)d points"), (said,), ["python-format"]),
    )
    assert (catalog_problems(tmp_path)["zh_Hans_CN"] == []) is sound


def test_a_po_changed_after_compiling_is_stale_until_compiled_again(tmp_path):
    po = _catalog(tmp_path, "sv", ("Rules", "Regler"))
    assert stale(tmp_path) == ["sv"]  # never compiled
    compile_catalogs(tmp_path)
    assert stale(tmp_path) == []
    po.write_text(po.read_text().replace('"Regler"', '"Spelregler"'))
    assert stale(tmp_path) == ["sv"]
    compile_catalogs(tmp_path)
    assert stale(tmp_path) == []


def test_the_repositorys_catalogs_compile_as_setup_does(tmp_path):
    copy = tmp_path / "translations"
    shutil.copytree(HERE, copy, ignore=shutil.ignore_patterns("*.mo", "__pycache__"))
    written = compile_catalogs(copy)
    assert sorted(p.parent.parent.name for p in written) == sorted(
        language.code for language in LANGUAGES
    )
    assert stale(copy) == []


# --- numbers, money and dates ---------------------------------------------------------


class Written(NamedTuple):
    """How one language writes −1234, −0.50 EUR and Friday 27 November 2026."""

    locale: str
    number: str
    money: str
    day: str
    long_day: str
    short_day: str
    weekday: str


# English as it always was: no grouping in a score, a true minus sign. Babel's
# spaces elsewhere: no line breaks inside "1 234" (narrow) or "0,50 €".
ROWS = [
    ("en_GB", "−1,234", "−0.50 EUR", "27 Nov 2026", "27 November 2026", "27 Nov", "Friday"),
    ("fr", "−1\u202f234", "−0,50\xa0€", "27 nov. 2026", "27 novembre 2026", "27 nov.", "vendredi"),
    ("nl", "−1.234", "€\xa0−0,50", "27 nov 2026", "27 november 2026", "27 nov", "vrijdag"),
    ("de", "−1.234", "−0,50\xa0€", "27. Nov. 2026", "27. November 2026", "27. Nov.", "Freitag"),
    ("sv", "−1\xa0234", "−0,50\xa0€", "27 nov. 2026", "27 november 2026", "27 nov.", "fredag"),
    ("zh_Hans_CN", "−1,234", "−€0.50", "2026年11月27日", "2026年11月27日", "11月27日", "星期五"),
    ("it", "−1.234", "−0,50\xa0€", "27 nov 2026", "27 novembre 2026", "27 nov", "venerdì"),
    ("pl", "−1\xa0234", "−0,50\xa0€", "27 lis 2026", "27 listopada 2026", "27 lis", "piątek"),
]
WRITTEN = [Written(*row) for row in ROWS]


@pytest.mark.parametrize("written", WRITTEN, ids=lambda w: w.locale)
def test_numbers_and_money_as_each_language_writes_them(written):
    locale = written.locale
    assert formats.number(-1234, locale) == written.number
    # A score is never grouped, and its minus is a true minus sign, in every language.
    assert formats.signed(-1234, locale) == "−1234"
    assert formats.minus(-1234, locale) == "−1234"
    assert formats.money(Decimal("-0.5"), "EUR", locale) == written.money


@pytest.mark.parametrize(
    "value, en, fr",
    [
        (5, "+5", "+5"),
        (-4, "−4", "−4"),
        (0, "0", "0"),
        (Decimal("8"), "+8.00", "+8,00"),
        (Decimal("-8.00"), "−8.00", "−8,00"),
        (Decimal("-0.00"), "0.00", "0,00"),
        (Decimal("1234.5"), "+1234.50", "+1234,50"),
    ],
)
def test_scores_keep_their_sign_and_cents_in_each_language(value, en, fr):
    assert formats.signed(value) == en
    assert formats.signed(value, "fr") == fr


def test_a_score_and_money_of_equal_value_are_each_written_their_own_way():
    """Whole scores are kept once written (formats._whole); money, a Decimal that
    equals them (8 == Decimal("8.00")), still keeps its cents, in either order."""
    for locale in ("en", "fr"):
        assert [formats.signed(8, locale), formats.signed(Decimal("8"), locale)] == [
            "+8",
            "+8.00" if locale == "en" else "+8,00",
        ]
        assert formats.cents(0, locale) == ("0.00" if locale == "en" else "0,00")
        assert formats.signed(0, locale) == "0"
        assert formats.number(1234, locale) == ("1,234" if locale == "en" else "1\u202f234")
        assert formats.minus(-3, locale) == "−3"


@pytest.mark.parametrize(
    "amount, currency, locale, written",
    [
        (Decimal("0.5"), "EUR", "en_GB", "0.50 EUR"),
        (Decimal("0.5"), "EUR", "fr", "0,50\xa0€"),
        (Decimal("0.5"), "eur", "nl", "€\xa00,50"),
        (Decimal("1234.5"), "EUR", "fr", "1\u202f234,50\xa0€"),
        (Decimal("0.5"), "beers", "fr", "0,50 beers"),  # not a currency code: as typed
        (Decimal("2"), "", "de", "2,00"),
        (Decimal("2"), "SEK", "sv", "2,00\xa0kr"),
        (Decimal("2"), "PLN", "pl", "2,00\xa0zł"),
        (Decimal("2"), "CNY", "zh_Hans_CN", "¥2.00"),
    ],
)
def test_money_with_its_currency(amount, currency, locale, written):
    assert formats.money(amount, currency, locale) == written


@pytest.mark.parametrize("written", WRITTEN, ids=lambda w: w.locale)
def test_dates_as_each_language_writes_them(written):
    when, locale = date(2026, 11, 27), written.locale
    assert formats.day(when, locale) == written.day
    assert formats.long_day(when, locale) == written.long_day
    assert formats.short_day(when, locale) == written.short_day
    assert formats.weekday(when, locale) == written.weekday
    assert formats.clock(time(21, 5), locale) == "21:05"


@pytest.mark.parametrize(
    "typed, read",
    [
        ("0,50", "0.50"),
        ("0.50", "0.50"),
        (" 7,5 ", "7.5"),
        (",5", ".5"),
        ("12", "12"),
        ("1,000", "1,000"),  # a thousands separator, not decimals: left for the check
        ("1.234,50", "1.234,50"),
        ("٣", "٣"),
        ("-0,50", "-0,50"),
    ],
)
def test_amounts_are_read_with_a_decimal_comma_or_point(typed, read):
    assert formats.typed_amount(typed) == read


def test_a_stake_and_a_payment_typed_with_a_comma_are_stored_with_a_point(client, actions):
    match_id = actions.start(
        "rubber", ["Ann", "Bob", "Cy", "Dee"], stake_amount="0,25", stake_currency="EUR"
    )
    assert actions.document(match_id)["stake"]["amount"] == "0.25"


# --- "when" in each language ----------------------------------------------------------

NOW = datetime(2026, 11, 21, 22, 30, tzinfo=UTC)  # a Saturday


@pytest.fixture
def utc_clock(monkeypatch):
    import time as clock

    monkeypatch.setenv("TZ", "UTC")
    clock.tzset()
    yield
    monkeypatch.undo()
    clock.tzset()


@pytest.mark.parametrize(
    "before, words",
    [
        (timedelta(seconds=20), "przed chwilą"),
        (timedelta(minutes=1), "1 minutę temu"),
        (timedelta(minutes=2), "2 minuty temu"),
        (timedelta(minutes=5), "5 minut temu"),
        (timedelta(minutes=12), "12 minut temu"),
        (timedelta(minutes=22), "22 minuty temu"),
        (timedelta(hours=3), "dziś o 19:30"),
        (timedelta(hours=23), "wczoraj o 23:30"),
        (timedelta(days=3), "środa o 22:30"),
        (timedelta(days=30), "22 października 2026"),
    ],
)
def test_when_a_match_changed_in_polish(app, utc_clock, before, words):
    with app.test_request_context("/", headers={"Cookie": "lang=pl"}):
        assert changed_words((NOW - before).isoformat(), now=NOW) == words


# --- the docs -------------------------------------------------------------------------


def test_the_docs_table_of_languages_is_the_catalogs_own():
    """docs/languages.md shows what `python -m scorekeeper.translations --table` prints."""
    page = (ROOT / "docs" / "languages.md").read_text(encoding="utf-8")
    assert table() in page
    assert table().count("| 100 % |") == len(LANGUAGES)


GLOSSARY_WORDS = [
    "no trumps", "double", "redouble", "tricks", "game", "part score", "slam", "vulnerable",
    "match", "hand", "contract", "declarer", "dealer", "rubber", "penalty", "settle up",
    "ledger", "group", "member", "period", "stake",
]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES[1:], ids=lambda language: language.code)
def test_each_translation_has_its_glossary_of_bridge_words(language):
    page = ROOT / "docs" / "glossary" / f"{language.code}.md"
    rows = re.findall(r"^\| ([^|]+?) \| ([^|]+?) \|$", page.read_text(encoding="utf-8"), re.M)
    said = {english.split(" (")[0].split(";")[0]: own for english, own in rows[1:]}
    assert [word for word in GLOSSARY_WORDS if not said.get(word)] == []
    assert f"glossary/{language.code}.md" in (ROOT / "docs" / "languages.md").read_text()


# Each name a module gives Flask-Babel's functions must be one the extraction
# command (docs/languages.md) looks for, or its messages never reach a catalog
# (form labels imported as `_l` were missed once: 61 of them).
EXTRACTED_NAMES = {"_", "gettext", "ngettext", "pgettext", "N_", "lazy_gettext", "_l"}
EXTRACTED_NAMES |= {"lazy_ngettext", "lazy_pgettext"}


def test_every_name_given_to_a_gettext_function_is_one_extraction_reads():
    import ast

    unread = []
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module in ("flask_babel", "speech"):
                for alias in node.names:
                    if (
                        "gettext" in alias.name
                        and (alias.asname or alias.name) not in EXTRACTED_NAMES
                    ):
                        unread.append((path.name, alias.name, alias.asname))
    assert unread == []
    docs = (ROOT / "docs" / "languages.md").read_text(encoding="utf-8")
    assert "-k _l " in docs


@pytest.mark.parametrize(
    "code, said", [("en", "hand 3"), ("fr", "hand 3"), ("de", "Hand 3"), ("zh_Hans_CN", "hand 3")]
)
def test_a_title_inside_a_sentence_keeps_its_capital_where_the_language_writes_nouns_so(code, said):
    """ "Save hand 3", but German writes "Spiel 3 speichern": its nouns keep their capital."""
    from scorekeeper.languages import language

    assert language(code).in_a_sentence("Hand 3") == said
