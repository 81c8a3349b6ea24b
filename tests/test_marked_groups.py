"""Every word of the group pages, the ledger, statistics and ratings, and of their
CSV and PDF files, is marked for translation (issue #26): drawn with a stand-in
catalog that wraps each message it is asked for in ⟦…⟧, a page keeps outside
the brackets only what is never translated — the players' and the group's
names, the games' names (marked with the rules), currencies as typed, figures.

English itself is unchanged: the page tests (test_web_ledger.py,
test_web_groups.py, test_ratings.py) read the same pages word for word."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess

import flask_babel
import pytest
from wtforms.fields.core import UnboundField

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.forms import NewGroupForm, StakeFields
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.matchfile import from_document
from scorekeeper.stats import TELLING
from tests.test_group_balances import group_of as balances_group
from tests.test_group_balances import mark_all_paid
from tests.test_ledger import CHICAGO, RUBBER, TOP_GAME
from tests.test_web_ledger import make_group
from tests.webtools import visible_text


class Bracketed:
    """A catalog that says every message as ⟦message⟧ (its plural by the count)."""

    def gettext(self, message: str) -> str:
        return f"⟦{message}⟧"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"

    ugettext = gettext
    ungettext = ngettext

    def upgettext(self, context: str, message: str) -> str:
        return f"⟦{message}⟧"

    pgettext = upgettext

    def unpgettext(self, context: str, singular: str, plural: str, n: int) -> str:
        return f"⟦{singular if n == 1 else plural}⟧"


@pytest.fixture
def bracketed(monkeypatch):
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Bracketed())


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


@pytest.fixture
def group(db):
    group_id, ids = make_group(db)
    # A payment, so that the "Paid in this period" lines are drawn too.
    g.apply_group(
        db,
        group_id,
        g.GroupCommand(
            g.PAY,
            {
                "payments": [
                    {
                        "payer": 1,
                        "payee": 2,
                        "amount": "5.00",
                        "currency": "EUR",
                        "date": "2026-11-21",
                    }
                ]
            },
        ),
    )
    return group_id, ids


def unmarked(text: str) -> set[str]:
    """The words of `text` outside every ⟦…⟧ (brackets may nest: a sentence
    with a sentence in a placeholder)."""
    inner = re.compile(r"⟦[^⟦⟧]*⟧")
    while inner.search(text):
        text = inner.sub(" ", text)
    return set(re.findall(r"[^\W\d_]{2,}", text))


def words(texts) -> set[str]:
    return {w for text in texts for w in re.findall(r"[^\W\d_]{2,}", str(text))}


# Never translated: the group's and the members' names, the players' names in a
# match (Annie, Dan), the currencies as typed.
NAMES = {"Friday", "four", "Ann", "Bob", "Cy", "Dee", "Annie", "Dan", "EUR", "GBP"}
# Marked elsewhere, with the rules (scorekeeper/speech.py) and the forms
# (scorekeeper/forms.py): the games' names and what each game counts, the
# labels of the group's form inputs.
GAMES = words(cls.name for cls in VARIANTS.values())
GAMES |= words(w for label, says in TELLING.values() for w in (label, says))
FORM_LABELS = words(
    [
        text
        for field in (getattr(NewGroupForm, name) for name in dir(NewGroupForm))
        if isinstance(field, UnboundField)
        for text in [
            *field.args[:1],
            *(label for _key, label in field.kwargs.get("choices", [])),
            field.kwargs.get("render_kw", {}).get("placeholder", ""),
        ]
    ]
    + [
        text
        for field in (getattr(StakeFields, name) for name in dir(StakeFields))
        if isinstance(field, UnboundField)
        for text in [*field.args[:1], field.kwargs.get("render_kw", {}).get("placeholder", "")]
    ]
)
# The foot of every page: each language named in its own words (never
# translated), and the text-size switch (templates/_text_size.html, not these
# pages' words). Days and months are written by Babel in the page's language.
FOOT = {"English", "Français", "Nederlands", "Deutsch", "Svenska", "简体中文", "Italiano", "Polski"}
FOOT |= {"Text", "size"}
MONTHS = {"Oct", "Nov", "October", "November"}


def leftover(text: str) -> set[str]:
    """The words of `text` that should have been marked: none."""
    text = re.sub(r"https?://\S+", " ", text)  # the share addresses
    return unmarked(text) - NAMES - GAMES - FORM_LABELS - FOOT - MONTHS


def page_text(page) -> str:
    """A page's text without the history line its Undo names: each change keeps
    its summary in English, as it was stored (docs/languages.md)."""
    html = page.get_data(as_text=True)
    return visible_text(re.sub(r'<form[^>]*class="undo-last".*?</form>', "", html, flags=re.S))


def test_the_stand_in_catalog_finds_unmarked_words():
    assert unmarked("⟦Stake: ⟦Rubber: 1 EUR⟧⟧ Settle up ⟦%d⟧ Ann") == {"Settle", "up", "Ann"}
    assert leftover("Ann 21 Nov http://localhost/gw/x9Q Settle") == {"Settle"}


@pytest.mark.parametrize(
    "path",
    [
        "/g/{group}",
        "/g/{group}?period=between&from=2026-11-01&to=2026-11-30",
        "/g/{group}?period=between&from=nonsense",
        "/g/{group}?period=last-month",
        "/g/{group}/statistics",
        "/g/{group}/ratings",
        "/g/{group}/head-to-head",
        "/g/{group}/stake",
        "/g/{group}/add",
        "/groups/new",
    ],
)
def test_every_word_of_a_group_page_is_marked(client, group, bracketed, path):
    group_id, _ids = group
    page = client.get(path.format(group=group_id))
    assert page.status_code in (200, 400)
    assert leftover(page_text(page)) == set()


def test_the_watch_page_is_marked(client, db, group, bracketed):
    group_id, _ids = group
    token = g.load_group(db, group_id).watch
    page = client.get(f"/gw/{token}")
    assert page.status_code == 200
    assert leftover(page_text(page)) == set()


def test_the_csv_headers_and_words_are_marked_and_the_figures_stay_numbers(
    client, group, bracketed
):
    group_id, _ids = group
    ledger = list(csv.reader(io.StringIO(client.get(f"/g/{group_id}/ledger.csv").text)))
    assert ledger[0] == [
        "⟦kind⟧", "⟦member⟧", "⟦to⟧", "⟦currency⟧", "⟦matches⟧", "⟦won⟧", "⟦amount⟧", "⟦day⟧",
        "⟦game⟧", "⟦match⟧",
    ]  # fmt: skip
    # The kind of a row is a key a spreadsheet filters by; amounts keep a decimal point.
    assert ledger[1][0] == "balance" and re.fullmatch(r"-?\d+\.\d\d", ledger[1][6])
    stats = list(csv.reader(io.StringIO(client.get(f"/g/{group_id}/statistics.csv").text)))
    assert stats[0] == [
        "⟦member⟧", "⟦game⟧", "⟦figure⟧", "⟦label⟧", "⟦value⟧", "⟦of⟧", "⟦counts⟧", "⟦match⟧",
    ]  # fmt: skip
    assert stats[1][:6] == ["Ann", "⟦all games⟧", "matches", "⟦Matches⟧", "5", ""]
    assert stats[1][6] == "⟦matches played⟧"
    ratings = list(csv.reader(io.StringIO(client.get(f"/g/{group_id}/ratings.csv").text)))
    assert ratings[0] == ["⟦member⟧", "⟦game⟧", "⟦matches⟧", "mu", "sigma", "ordinal", "⟦shown⟧"]
    assert ratings[1][1] == "⟦all games⟧"


@pytest.mark.skipif(not shutil.which("pdftotext"), reason="pdftotext is not installed")
@pytest.mark.parametrize("kind", ["ledger", "statistics"])
def test_every_word_of_a_group_pdf_is_marked(client, group, bracketed, tmp_path, kind):
    group_id, _ids = group
    answer = client.get(f"/g/{group_id}/{kind}.pdf")
    assert answer.status_code == 200
    (tmp_path / "p.pdf").write_bytes(answer.data)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "p.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    assert leftover(text) == set()


def test_a_refusal_from_the_groups_rules_is_said_in_the_phones_language(
    client, db, group, bracketed
):
    group_id, _ids = group
    revision = str(g.group_revision(db, group_id))
    answer = client.post(
        f"/g/{group_id}/members", data={"revision": revision, "key": "k-ann", "name": "ann"}
    )
    assert answer.status_code == 400
    assert "⟦ann reads the same as the member Ann.⟧" in visible_text(answer)


def test_a_refusal_stays_english_outside_a_request(db, group):
    group_id, _ids = group
    cmd = g.GroupCommand(g.ADD_MEMBER, {"name": "ann"}, g.group_revision(db, group_id))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group_id, cmd)
    assert str(refused.value.message) == "ann reads the same as the member Ann."


def test_a_matchs_state_kept_with_its_summary_is_said_to_each_phone(client, group, monkeypatch):
    """The group page keeps each match's line with its summary (by revision): the
    first phone's language must not stick to it."""
    group_id, _ids = group
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Bracketed())
    bracketed = visible_text(client.get(f"/g/{group_id}"))
    assert "⟦finished⟧ · ⟦won by Bob & Dee⟧" in bracketed
    monkeypatch.undo()
    english = visible_text(client.get(f"/g/{group_id}"))
    assert "⟦" not in english
    assert "Finished · won by Bob & Dee" in english


def test_the_group_poll_answers_each_language_afresh(client, group):
    """A phone that switched language is not told "unchanged" (304) about the
    change lines it read in the other language."""
    group_id, _ids = group
    first = client.get(f"/g/{group_id}/live?since=1")
    assert first.status_code == 200
    client.set_cookie("lang", "fr")
    again = client.get(
        f"/g/{group_id}/live?since=1", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 200
    assert again.headers["ETag"] != first.headers["ETag"]


# --- members and mappings, the day played (main's #27 items 4-6) ------------------------


@pytest.fixture
def members(db, group):
    """The group with a guest at a match (Dee, at a second rubber), a match
    deleted at its table, Cy retired, and a match not in the group yet (to add)."""
    group_id, _ids = group
    guest_match = store.create_match(db, from_document(RUBBER)).match_id
    cmd = g.GroupCommand(g.ADD_MATCH, {"match": guest_match, "mapping": {"Dee": g.GUEST}})
    g.apply_group(db, group_id, cmd)
    deleted = store.create_match(db, from_document(CHICAGO)).match_id
    g.apply_group(db, group_id, g.GroupCommand(g.ADD_MATCH, {"match": deleted}))
    store.apply(db, deleted, store.Command("delete_match"))
    g.apply_group(db, group_id, g.GroupCommand(g.RETIRE, {"member": 3}))
    outside = store.create_match(db, from_document(TOP_GAME)).match_id
    return group_id, guest_match, outside


@pytest.mark.parametrize(
    "path",
    [
        "/g/{group}",  # the retired list, Retire/Bring back, a guest's line, the deleted note
        "/g/{group}?period=since-settled",  # never settled: since the start
        "/g/{group}/mapping/{guest}",  # Who played
        "/g/{group}/add?match={outside}",  # a retired member and Guest offered
        "/g/{group}/statistics",
        "/g/{group}/ratings",
    ],
)
def test_every_word_of_the_members_and_mappings_pages_is_marked(client, members, bracketed, path):
    group_id, guest_match, outside = members
    page = client.get(path.format(group=group_id, guest=guest_match, outside=outside))
    assert page.status_code == 200
    text = page_text(page)
    assert leftover(text) == set()
    if path == "/g/{group}":
        assert "⟦Retired⟧" in text and "⟦Bring back⟧" in text and "⟦Who played⟧" in text
        assert "⟦Dee (guest)⟧" in text  # the guest's part of the match line
        assert "⟦1 match deleted at its table is not listed: it counts nowhere" in text
    if "mapping" in path:
        assert "⟦Who played this match⟧" in text and "⟦Save who played⟧" in text
    if "add" in path:
        assert "⟦Cy (retired)⟧" in text and "⟦Guest: Ann, not a member⟧" in text


def test_the_watch_page_with_a_guest_and_the_ledger_pdf_members_are_marked(
    client, db, members, bracketed
):
    group_id, _guest, _outside = members
    page = client.get(f"/gw/{g.load_group(db, group_id).watch}")
    assert page.status_code == 200
    assert leftover(page_text(page)) == set()
    assert "⟦Dee (guest)⟧" in page_text(page)


def test_a_members_refusal_is_said_in_the_phones_language(client, db, members, bracketed):
    group_id, guest_match, _outside = members
    revision = str(g.group_revision(db, group_id))
    retired = client.post(f"/g/{group_id}/members/3/retire", data={"revision": revision})
    assert retired.status_code == 400
    assert "⟦Cy is retired already.⟧" in visible_text(retired)
    unchanged = client.post(f"/g/{group_id}/mapping/{guest_match}", data={"revision": revision})
    assert unchanged.status_code == 400
    assert "⟦That is already the mapping: nothing to change.⟧" in visible_text(unchanged)
    stale = client.post(f"/g/{group_id}/mapping/{guest_match}", data={"revision": "1", "map4": "4"})
    assert stale.status_code == 409
    assert "⟦Not saved: the group changed since this form was drawn." in visible_text(stale)
    assert g.group_revision(db, group_id) == int(revision)


def test_the_members_refusals_stay_english_outside_a_request(db, members):
    group_id, _guest, _outside = members
    cmd = g.GroupCommand(g.RETIRE, {"member": 3}, g.group_revision(db, group_id))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group_id, cmd)
    assert str(refused.value.message) == "Cy is retired already."


def test_since_the_last_settle_up_is_marked(client, db, monkeypatch):
    group_id, _ = balances_group(db, [(TOP_GAME, "Friday", "2026-11-20T19:05:00.000+00:00")])
    mark_all_paid(client, db, group_id)
    client.get(f"/g/{group_id}")  # its flash: the change's line, kept in English
    monkeypatch.setattr(flask_babel.Domain, "get_translations", lambda self: Bracketed())
    text = page_text(client.get(f"/g/{group_id}"))
    assert leftover(text) == set()
    assert re.search(r"⟦Since the last settle-up \(\d+ \w+ \d{4}\)⟧", text)
    assert "⟦Nothing to settle: no match with a stake was played since the last" in text
