"""The night's report (issue 27, item 3): for a chosen day, every match the group
played that day, its winners, the night's totals and who pays whom per currency,
the text for the group chat, and the same on paper. The matches are those of
tests/test_ledger.py, whose every figure is worked by hand there; the night's
sums are worked below."""

from __future__ import annotations

import re
import shutil
import subprocess
from html import unescape

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.changelog import DELETE_MATCH, Command
from scorekeeper.matchfile import from_document
from tests.test_ledger import CALYPSO, CHICAGO, NEED_A_FOURTH, RUBBER, TOP_GAME
from tests.webtools import visible_text

# Friday 13 November 2026, four matches in the order started; Friday 30 October, one.
NIGHTS = [
    (TOP_GAME, "2026-11-13T20:00:00+00:00", {}),
    (RUBBER, "2026-11-13T21:00:00+00:00", {}),
    (CALYPSO, "2026-11-13T22:00:00+00:00", {"Annie": 1, "Dan": 4}),
    (CHICAGO, "2026-11-13T23:00:00+00:00", {}),  # no stake: won, moves no money
    (NEED_A_FOURTH, "2026-10-30T20:30:00+00:00", {}),
]


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def make_group(db, matches, members=("Ann", "Bob", "Cy", "Dee")) -> tuple[str, list[str]]:
    made = g.create_group(db, "Friday four", list(members))
    ids = []
    for doc, started, mapping in matches:
        doc = {k: v for k, v in doc.items() if k != "played"}
        match_id = store.create_match(db, from_document(doc)).match_id
        db.execute(
            "update matches set created = ?, played = ? where id = ?",
            [started, started[:10], match_id],
        )
        db.conn.commit()
        cmd = g.GroupCommand(g.ADD_MATCH, {"match": match_id, "mapping": mapping})
        g.apply_group(db, made.group_id, cmd)
        ids.append(match_id)
    return made.group_id, ids


@pytest.fixture
def group(db):
    return make_group(db, NIGHTS)


def chat_text(page) -> str:
    """The text the "Copy for the group chat" button copies: the textarea's."""
    found = re.search(r'<textarea[^>]*id="night-text"[^>]*>(.*?)</textarea>', page.text, re.S)
    assert found, "no #night-text"
    return unescape(found.group(1)).removeprefix("\n")


# The night of 13 November, worked by hand:
# EUR  Top Game: Bob +9.00, Cy −9.00, Ann 0.00; Calypso: Ann (Annie) +0.12, Cy +0.12,
#      Bob −0.12, Dee (Dan) −0.12 → Ann +0.12, Bob +8.88, Cy −8.88, Dee −0.12.
#      Settle up (ledger.settle_up): Cy owes exactly what Bob is owed → Cy pays Bob
#      8.88; Dee owes exactly what Ann is owed → Dee pays Ann 0.12.
# GBP  Rubber: Ann, Cy −0.70; Bob, Dee +0.70 → Ann pays Bob 0.70, Cy pays Dee 0.70.
# Chicago: Bob & Dee won, no stake. Need a Fourth? was played on another night.
FRIDAY_TEXT = """\
Friday four · Friday, 13 November 2026
4 matches
The Top Game: won by Bob
Rubber bridge: won by Bob & Dee
Calypso: won by Ann & Cy
Chicago: won by Bob & Dee

Totals in EUR
Ann +0.12
Bob +8.88
Cy −8.88
Dee −0.12

Totals in GBP
Ann −0.70
Bob +0.70
Cy −0.70
Dee +0.70

Who pays whom
Cy pays Bob 8.88 EUR
Dee pays Ann 0.12 EUR
Ann pays Bob 0.70 GBP
Cy pays Dee 0.70 GBP
"""


def test_the_nights_figures_and_the_text_for_the_group_chat(client, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night?day=2026-11-13")
    assert page.status_code == 200
    assert chat_text(page) == FRIDAY_TEXT
    text = visible_text(page)
    assert "The night of Friday, 13 November 2026 Friday four" in text
    assert (
        "Matches (4) The Top Game won by Bob Ann 0.00 · Bob (won) +9.00 · Cy −9.00 EUR"
        " Rubber bridge won by Bob & Dee Ann −0.70 · Bob (won) +0.70 · Cy −0.70 · Dee (won)"
        " +0.70 GBP Calypso won by Ann & Cy Ann (won) +0.12 · Bob −0.12 · Cy (won) +0.12 ·"
        " Dee −0.12 EUR Chicago won by Bob & Dee no stake Totals"
    ) in text
    assert (
        "Totals · EUR Player Tonight (EUR) Ann +0.12 Bob +8.88 Cy −8.88 Dee −0.12"
        " Totals · GBP Player Tonight (GBP) Ann −0.70 Bob +0.70 Cy −0.70 Dee +0.70"
    ) in text
    assert (
        "Who pays whom Cy pays Bob 8.88 EUR Dee pays Ann 0.12 EUR"
        " Ann pays Bob 0.70 GBP Cy pays Dee 0.70 GBP"
    ) in text


def test_another_night_its_own_figures(client, group):
    # Need a Fourth?, 0.10 EUR per 10 points: Ann −29.50, Bob +14.00, Cy +15.50.
    # Settle up: no exact pair; Ann, the one debtor, pays Cy (most owed) 15.50, then Bob 14.00.
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night?day=2026-10-30")
    assert chat_text(page) == (
        "Friday four · Friday, 30 October 2026\n"
        "1 match\n"
        "Need a Fourth?: won by Cy\n"
        "\n"
        "Totals in EUR\n"
        "Ann −29.50\n"
        "Bob +14.00\n"
        "Cy +15.50\n"
        "\n"
        "Who pays whom\n"
        "Ann pays Bob 14.00 EUR\n"
        "Ann pays Cy 15.50 EUR\n"
    )


def test_without_a_day_the_report_is_of_the_last_night_played(client, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night")
    assert page.status_code == 200
    assert chat_text(page) == FRIDAY_TEXT
    assert 'value="2026-11-13"' in page.text
    # the other night the group played is one tap away
    assert f'href="/g/{group_id}/night?day=2026-10-30"' in page.text
    assert "Earlier night: 30 Oct 2026" in visible_text(page)


def test_a_deleted_match_is_no_part_of_the_night(client, db, group):
    group_id, ids = group
    store.apply(db, ids[0], Command(DELETE_MATCH))  # the Top Game
    page = client.get(f"/g/{group_id}/night?day=2026-11-13")
    text = chat_text(page)
    assert text.startswith("Friday four · Friday, 13 November 2026\n3 matches\nRubber bridge")
    assert "Totals in EUR\nAnn +0.12\nBob −0.12\nCy +0.12\nDee −0.12\n" in text
    assert "Who pays whom\nBob pays Ann 0.12 EUR\nDee pays Cy 0.12 EUR\n" in text


def test_a_day_without_matches_says_so(client, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night?day=2026-11-06")
    assert page.status_code == 200
    text = visible_text(page)
    assert "The group played no match on Friday, 6 November 2026." in text
    assert 'id="night-text"' not in page.text
    assert "Earlier night: 30 Oct 2026" in text and "Later night: 13 Nov 2026" in text


def test_a_group_that_never_played(client, db):
    group_id, _ = make_group(db, [])
    page = client.get(f"/g/{group_id}/night")
    assert page.status_code == 200
    assert "This group has not played a match yet." in visible_text(page)
    assert 'id="night-text"' not in page.text


@pytest.mark.parametrize("typed", ["13/11/2026", "2026-13-01", "yesterday", "2026-11-13x"])
def test_a_bad_day_names_the_field_and_what_it_takes(client, group, typed):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night", query_string={"day": typed})
    assert page.status_code == 400
    assert "Day: choose a day in the calendar, or write it like 2026-11-13." in visible_text(page)
    assert f'value="{typed}"' in page.text  # what was typed stays in the box
    pdf = client.get(f"/g/{group_id}/night.pdf", query_string={"day": typed})
    assert pdf.status_code == 400


def test_an_unknown_group_is_404(client):
    assert client.get("/g/AAAAAAAAAAAAAAAA/night").status_code == 404
    assert client.get("/g/AAAAAAAAAAAAAAAA/night.pdf").status_code == 404


# The guest's money is settled at the table (docs/group-ledger.md): the night's
# payments list what the guest pays or receives, the group's ledger does not.
# Rubber, Dee a guest: the match's own payments are Ann → Bob 0.70 and Cy → Dee 0.70.
# The members' settle-up (Ann −0.70, Bob +0.70, Cy 0.00): Ann pays Bob 0.70; at the
# table, Cy pays Dee (guest) 0.70. Top Game: Cy pays Bob 9.00 EUR.
GUEST_NIGHT = [
    (TOP_GAME, "2026-11-13T20:00:00+00:00", {}),
    (RUBBER, "2026-11-13T21:00:00+00:00", {"Dee": g.GUEST}),
]


def test_a_guests_payments_are_part_of_the_night(client, db):
    group_id, _ = make_group(db, GUEST_NIGHT, members=("Ann", "Bob", "Cy"))
    page = client.get(f"/g/{group_id}/night")
    assert chat_text(page) == (
        "Friday four · Friday, 13 November 2026\n"
        "2 matches\n"
        "The Top Game: won by Bob\n"
        "Rubber bridge: won by Bob & Dee (guest)\n"
        "\n"
        "Totals in EUR\n"
        "Ann 0.00\n"
        "Bob +9.00\n"
        "Cy −9.00\n"
        "\n"
        "Totals in GBP\n"
        "Ann −0.70\n"
        "Bob +0.70\n"
        "Cy −0.70\n"
        "Dee (guest) +0.70\n"
        "\n"
        "Who pays whom\n"
        "Cy pays Bob 9.00 EUR\n"
        "Ann pays Bob 0.70 GBP\n"
        "Cy pays Dee (guest) 0.70 GBP\n"
    )
    text = visible_text(page)
    assert "A guest settles at the table:" in text
    # The group's ledger leaves the guest out: Cy owes nothing in GBP there.
    ledger = visible_text(client.get(f"/g/{group_id}?period=all"))
    assert "Ann pays Bob 0.70 GBP" in ledger and "Cy pays" in ledger
    assert "Cy pays Dee" not in ledger


def test_the_group_page_and_its_ledger_link_to_the_night(client, db, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}")
    assert page.text.count(f'href="/g/{group_id}/night"') == 2
    assert 'id="group-night"' in page.text and 'id="ledger-night"' in page.text
    # the watch address never leads to the group's own (play) address
    watch = g.load_group(db, group_id).watch
    assert "/night" not in client.get(f"/gw/{watch}").text


def test_the_page_hands_its_script_the_words_and_has_no_inline_script(client, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night")
    html = page.text
    assert re.search(r'<script src="/static/night\.js\?v=\w+" defer></script>', html)
    # Only the page's words ride in a JSON block (never run); no script is inline.
    assert not re.search(r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>', html)
    assert 'data-copied="Copied: paste it in the group chat."' in html
    assert 'data-hold="Press and hold the text above to copy it."' in html
    assert 'id="night-copy"' in html and 'id="night-share" hidden' in html


@pytest.mark.skipif(
    not shutil.which("pdftotext"), reason="pdftotext (poppler-utils) is not installed"
)
def test_the_night_on_paper(client, group, tmp_path):
    group_id, _ = group
    answer = client.get(f"/g/{group_id}/night.pdf?day=2026-11-13")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.mimetype == "application/pdf"
    assert (
        answer.headers["Content-Disposition"]
        == 'inline; filename="friday-four-2026-11-13-night.pdf"'
    )
    (tmp_path / "n.pdf").write_bytes(answer.data)
    words = " ".join(
        subprocess.run(
            ["pdftotext", str(tmp_path / "n.pdf"), "-"], capture_output=True, text=True, check=True
        ).stdout.split()
    )
    assert "Friday four · the night of Friday, 13 November 2026" in words
    assert "Matches 4 Printed" in words
    assert "Rubber bridge won by Bob & Dee · Ann −0.70; Bob +0.70; Cy −0.70; Dee +0.70 GBP" in words
    assert "Totals · EUR Player Tonight (EUR) Ann +0.12 Bob +8.88 Cy −8.88 Dee −0.12" in words
    assert (
        "Who pays whom • Cy pays Bob 8.88 EUR • Dee pays Ann 0.12 EUR"
        " • Ann pays Bob 0.70 GBP • Cy pays Dee 0.70 GBP"
    ) in words
    # without a day: the last night played, the same file
    latest = client.get(f"/g/{group_id}/night.pdf")
    assert latest.headers["Content-Disposition"] == answer.headers["Content-Disposition"]


# The Top Game after its first hand: Bob +10, Ann −5, Cy −5 points at 0.50 EUR a
# point → Bob +5.00, Ann −2.50, Cy −2.50. Not over: it counts with what it stands
# at, as in the ledger. Settle up: no exact pair; Ann and Cy owe alike, Ann first
# by name pays Bob 2.50, then Cy pays Bob 2.50.
def test_a_match_still_being_played_counts_with_what_it_stands_at(client, db):
    first_hand = {**TOP_GAME, "hands": TOP_GAME["hands"][:1]}
    group_id, _ = make_group(db, [(first_hand, "2026-11-13T20:00:00+00:00", {})])
    page = client.get(f"/g/{group_id}/night")
    assert chat_text(page) == (
        "Friday four · Friday, 13 November 2026\n"
        "1 match\n"
        "The Top Game: still being played\n"
        "\n"
        "Totals in EUR\n"
        "Ann −2.50\n"
        "Bob +5.00\n"
        "Cy −2.50\n"
        "\n"
        "Who pays whom\n"
        "Ann pays Bob 2.50 EUR\n"
        "Cy pays Bob 2.50 EUR\n"
    )


@pytest.mark.parametrize("typed", ["２０２６-１１-１３", "9" * 400, "0001-01-01", "9999-12-31"])
def test_a_hostile_day_is_never_a_500(client, group, typed):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/night", query_string={"day": typed})
    assert page.status_code == (200 if typed[:1] in "09" and "-" in typed else 400)
