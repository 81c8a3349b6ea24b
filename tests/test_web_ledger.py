"""A group's ledger and statistics through the pages: balances per currency,
settle-up, Mark as paid and its undo, periods, renamed and mapped members, the
kept summaries, and the ledger and statistics as CSV and PDF. The matches are
those of tests/test_ledger.py, whose every figure is worked by hand there."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from datetime import date

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.changelog import local_time
from scorekeeper.matchfile import from_document
from tests.test_ledger import CALYPSO, CHICAGO, NEED_A_FOURTH, RUBBER, TOP_GAME
from tests.test_stats import OVERALL
from tests.webtools import by_id, visible_text

# Each match, the day it was started and played, and its players' members where
# the names differ.
PLAYED = [
    (TOP_GAME, "2026-11-06", {}),
    (RUBBER, "2026-11-13", {}),
    (CALYPSO, "2026-11-20", {"Annie": 1, "Dan": 4}),
    (CHICAGO, "2026-11-21", {}),  # no stake: played, moves no money
    (NEED_A_FOURTH, "2026-10-30", {}),
]


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def make_group(db, matches=PLAYED) -> tuple[str, list[str]]:
    made = g.create_group(db, "Friday four", ["Ann", "Bob", "Cy", "Dee"])
    ids = []
    for doc, day, mapping in matches:
        doc = {k: v for k, v in doc.items() if k != "played"}
        match_id = store.create_match(db, from_document(doc)).match_id
        db.execute(
            "update matches set created = ?, played = ? where id = ?",
            [f"{day}T20:00:00+00:00", day, match_id],
        )
        db.conn.commit()
        cmd = g.GroupCommand(g.ADD_MATCH, {"match": match_id, "mapping": mapping})
        g.apply_group(db, made.group_id, cmd)
        ids.append(match_id)
    return made.group_id, ids


def section(page, start: str, end: str) -> str:
    text = visible_text(page)
    return text[text.index(start) : text.index(end, text.index(start))]


@pytest.fixture
def group(db):
    return make_group(db)


def revision(db, group_id) -> str:
    return str(g.group_revision(db, group_id))


# period query -> members (played, won), balances per currency, settle-up, matches listed
PAGES = [
    pytest.param(
        "",
        "Ann 5 1 Bob 5 3 Cy 5 2 Dee 3 2",  # Cy won Need a Fourth?, Dee two with Bob
        "Balances · EUR Member Net (EUR) Ann −29.38 Bob +22.88 Cy +6.62 Dee −0.12"
        " Balances · GBP Member Net (GBP) Ann −0.70 Bob +0.70 Cy −0.70 Dee +0.70",
        "Ann pays Bob 22.88 EUR Ann pays Cy 6.50 EUR Dee pays Cy 0.12 EUR"
        " Ann pays Bob 0.70 GBP Cy pays Dee 0.70 GBP",
        "Matches (5)",
        id="all-time",
    ),
    pytest.param(
        "?period=between&from=2026-11-01&to=2026-11-30",
        "Ann 4 1 Bob 4 3 Cy 4 1 Dee 3 2",
        "Balances · EUR Member Net (EUR) Ann +0.12 Bob +8.88 Cy −8.88 Dee −0.12"
        " Balances · GBP Member Net (GBP) Ann −0.70 Bob +0.70 Cy −0.70 Dee +0.70",
        "Cy pays Bob 8.88 EUR Dee pays Ann 0.12 EUR Ann pays Bob 0.70 GBP Cy pays Dee 0.70 GBP",
        "Matches (4 of 5)",
        id="november-leaves-out-need-a-fourth",
    ),
    pytest.param(
        "?period=between&from=2026-11-21",
        "Ann 1 0 Bob 1 1 Cy 1 0 Dee 1 1",
        "No money in this period",
        "Nobody owes anybody anything",
        "Matches (1 of 5)",
        id="only-the-match-without-a-stake",
    ),
]


def standings(page) -> str:
    return section(page, "Member Played Won ", "Balances").removeprefix("Member Played Won ")


@pytest.mark.parametrize("query, members, balances, settle, listed", PAGES)
def test_the_ledger_per_period(client, group, query, members, balances, settle, listed):
    group_id, _ = group
    page = client.get(f"/g/{group_id}{query}")
    assert page.status_code == 200
    text = visible_text(page)
    assert text[text.index("Member Played Won") :].startswith(f"Member Played Won {members} ")
    assert balances in text
    assert settle in text
    assert listed in text


def test_each_match_is_listed_with_each_members_part(client, group):
    group_id, (top, rubber, calypso, chicago, naf) = group
    page = client.get(f"/g/{group_id}")
    text = visible_text(page)
    # Calypso's Annie and Dan are Ann and Dee; newest played first.
    started = f"{local_time('2026-11-20T20:00:00+00:00'):%H:%M}"  # in the server's time
    assert (
        f"Calypso 20 Nov 2026 · started {started} · Calypso Ann (Annie), Bob, Cy, Dee (Dan)"
        " Finished" in text
    )
    assert "Ann (won) +0.12 · Bob −0.12 · Cy (won) +0.12 · Dee −0.12 EUR" in text
    assert "Ann +0.00" not in text
    assert "Ann 0.00 · Bob (won) +9.00 · Cy −9.00 EUR" in text
    assert "Ann · Bob (won) · Cy · Dee (won) · no stake" in text
    html = page.get_data(as_text=True)
    for match_id in (top, rubber, calypso, chicago, naf):
        assert f'href="/m/{match_id}"' in html


def test_mark_all_as_paid_zeroes_the_balances_and_undo_brings_them_back(client, db, group):
    group_id, _ = group
    page = client.get(f"/g/{group_id}")
    suggested = re.search(r'name="suggested" value="([^"]*)"', page.get_data(as_text=True))
    shown = json.loads(suggested.group(1).replace("&#34;", '"'))
    assert len(shown) == 5
    data = {
        "all": "1",
        "suggested": json.dumps(shown, sort_keys=True),
        "revision": revision(db, group_id),
        "key": "p" * 16,
    }
    answer = client.post(f"/g/{group_id}/pay", data=data)
    assert answer.status_code == 302
    text = visible_text(client.get(f"/g/{group_id}"))
    assert "Paid: Ann paid Bob 22.88 EUR; Ann paid Cy 6.50 EUR; Dee paid Cy 0.12 EUR;" in text
    # The page now opens on what was played since (tests/test_group_balances.py);
    # over all time every balance is zero.
    # The day they were recorded on, as stored (not the clock asked after midnight).
    paid_on = date.fromisoformat(g.load_group(db, group_id).payments[-1].date)
    assert f"Since the last settle-up ({paid_on:%-d %b %Y}) · 0 matches counted" in text
    text = visible_text(client.get(f"/g/{group_id}?period=all"))
    assert (
        "Balances · EUR Member Net (EUR) Ann 0.00 Bob 0.00 Cy 0.00 Dee 0.00"
        " Balances · GBP Member Net (GBP) Ann 0.00 Bob 0.00 Cy 0.00 Dee 0.00"
    ) in text
    assert "Nobody owes anybody anything for this period." in text
    assert len(g.load_group(db, group_id).payments) == 5
    # The same tap again (double tap, Back and resend): stored once.
    again = client.post(f"/g/{group_id}/pay", data=data, follow_redirects=True)
    assert "Already recorded" in visible_text(again)
    assert len(g.load_group(db, group_id).payments) == 5
    last = g.undoable(g.group_changes(db, group_id)).revision
    client.post(
        f"/g/{group_id}/undo", data={"revision": revision(db, group_id), "undoes": str(last)}
    )
    text = visible_text(client.get(f"/g/{group_id}"))
    assert "Ann −29.38 Bob +22.88 Cy +6.62 Dee −0.12" in text
    assert "Ann pays Bob 22.88 EUR" in text
    assert g.load_group(db, group_id).payments == []


def test_a_typed_payment_counts_and_a_renamed_member_shows_the_new_name(client, db, group):
    group_id, _ = group
    data = {
        "payer": "4",
        "payee": "3",
        "amount": "0,12",
        "currency": "EUR",
        "date": "2026-11-21",
        "revision": revision(db, group_id),
        "key": "t" * 16,
    }
    assert client.post(f"/g/{group_id}/pay", data=data).status_code == 302
    client.post(
        f"/g/{group_id}/members/3", data={"revision": revision(db, group_id), "name": "Cyril"}
    )
    text = visible_text(client.get(f"/g/{group_id}"))
    assert "Ann −29.38 Bob +22.88 Cyril +6.50 Dee 0.00" in text
    assert "21 Nov 2026 · Dee paid Cyril 0.12 EUR" in text
    assert "Ann pays Bob 22.88 EUR Ann pays Cyril 6.50 EUR Ann pays Bob 0.70 GBP" in text
    # A period that ends before the payment does not count it.
    text = visible_text(client.get(f"/g/{group_id}?period=between&to=2026-11-20"))
    assert "Dee −0.12" in text and "21 Nov 2026 · Dee paid" not in text


@pytest.mark.parametrize(
    "data, field, said",
    [
        ({"payer": "", "payee": "3", "amount": "1"}, "pay_payer", "Choose who paid"),
        ({"payer": "2", "payee": "2", "amount": "1"}, "pay_payee", "not themselves"),
        ({"payer": "2", "payee": "3", "amount": "1.234"}, "pay_amount", "at most two decimals"),
        ({"payer": "2", "payee": "3", "amount": "lots"}, "pay_amount", "is not an amount"),
        ({"payer": "2", "payee": "3", "amount": "-5"}, "pay_amount", "above 0"),
        (
            {"payer": "2", "payee": "3", "amount": "5", "date": "yesterday"},
            "pay_date",
            "like 2026-11-25",
        ),
        (
            {"payer": "2", "payee": "3", "amount": "5", "currency": "E" * 40},
            "pay_currency",
            "at most",
        ),
    ],
)
def test_a_bad_payment_names_the_field_and_stores_nothing(client, db, group, data, field, said):
    group_id, _ = group
    before = revision(db, group_id)
    answer = client.post(f"/g/{group_id}/pay", data={**data, "revision": before, "key": "b" * 16})
    assert answer.status_code == 400
    html = answer.get_data(as_text=True)
    found = re.search(rf'<p class="error" id="{field}-error">([^<]*)</p>', html)
    assert found and said in found.group(1), html[:300]
    assert revision(db, group_id) == before and g.load_group(db, group_id).payments == []


def test_mark_all_from_a_page_whose_balances_moved_is_refused(client, db, group):
    group_id, _ = group
    stale = json.dumps([{"payer": 1, "payee": 2, "amount": "1.00", "currency": "EUR"}])
    answer = client.post(
        f"/g/{group_id}/pay",
        data={"all": "1", "suggested": stale, "revision": revision(db, group_id), "key": "s" * 16},
    )
    assert answer.status_code == 409
    assert "the balances changed since this page was drawn" in visible_text(answer)
    assert g.load_group(db, group_id).payments == []


def test_a_bad_period_says_which_day_and_shows_all_time(client, group):
    group_id, _ = group
    answer = client.get(f"/g/{group_id}?period=between&from=1.11.2026")
    text = visible_text(answer)
    assert "From: write a day like" in text
    assert "All time · 5 matches counted" in text


def test_a_match_that_no_longer_replays_is_counted_nowhere(client, db, group):
    group_id, (top, *_rest) = group
    # A hand made impossible behind the rules' back (a store edited by hand).
    db.execute(
        "update changes set hands = ? where match_id = ? and revision = 1",
        [json.dumps([{"declarer": "Nobody", "bid": 3}]), top],
    )
    db.conn.commit()
    store.forget_folded()
    text = visible_text(client.get(f"/g/{group_id}"))
    assert "Cannot be read: a hand no longer fits the rules" in text
    # Without the Top Game's Bob +9.00, Cy −9.00:
    assert "Ann −29.38 Bob +13.88 Cy +15.62 Dee −0.12" in text
    assert "4 matches counted" in text


def test_summaries_are_kept_per_revision_and_replaced_when_a_match_changes(client, db, group):
    group_id, (top, *_rest) = group
    client.get(f"/g/{group_id}")
    kept = {r["match_id"]: r["revision"] for r in db.query("select * from match_summaries")}
    assert kept[top] == 1 and len(kept) == 5
    # The match moves on (deleted at its table): replayed and kept anew, counted nowhere.
    answer = client.post(f"/m/{top}/delete", data={"key": "e" * 16})
    assert store.revision(db, top) == 2, answer.status_code
    text = visible_text(client.get(f"/g/{group_id}"))
    kept = {r["match_id"]: r["revision"] for r in db.query("select * from match_summaries")}
    assert kept[top] == 2
    assert "1 match deleted at its table is not listed: it counts nowhere" in text
    assert "The Top Game 6 Nov 2026" not in text
    assert "Ann −29.38 Bob +13.88 Cy +15.62 Dee −0.12" in text


def test_an_older_summary_never_replaces_a_newer_one(db, group):
    from scorekeeper.summaries import keep

    _, (top, *_rest) = group
    assert keep(db, [(top, 5, '{"format":"x"}', "{}")])
    assert keep(db, [(top, 3, '{"format":"older"}', "{}")])
    row = next(db.query("select * from match_summaries where match_id = ?", [top]))
    assert (row["revision"], row["summary"]) == (5, '{"format":"x"}')


LABELS = [
    ("Matches", "matches played"),
    ("Won", "matches won, alone or with others"),
    ("Hands", "hands dealt in and counted (Calypso: games)"),
    ("Declared", "hands this player's contract was played"),
    ("Made", "contracts made of those this player declared"),
    ("Doubled", "contracts this player declared that were doubled"),
    ("Redoubled", "contracts this player declared, redoubled"),
]


@pytest.mark.parametrize("member, shown", OVERALL)  # worked by hand in tests/test_stats.py
def test_the_statistics_page_shows_each_figure_with_what_it_counts(client, group, member, shown):
    group_id, _ = group
    page = client.get(f"/g/{group_id}/statistics")
    assert page.status_code == 200
    text = visible_text(page)
    card = text[text.index(f" {member} All games ") :]
    figures = " ".join(
        f"{label} {value} {says}" for (label, says), value in zip(LABELS, shown, strict=True)
    )
    assert card.startswith(f" {member} All games {figures} ")


# A game's figures, a person's minus sign: (member, text on the card in that game)
PER_GAME_SHOWN = [
    ("Cy", "Average −4.5 points a match ends with, per hand played"),
    ("Cy", "Wrong dummy information 1 Top Game hands where this player misdescribed dummy"),
    ("Ann", "Worst −2950 the match"),
    ("Ann", "Lies caught 1 Need a Fourth? hands where this player was found to have lied"),
    ("Bob", "Best match +1400 the match"),
    ("Bob", "Calypsos 2 calypsos this player completed"),
]


@pytest.mark.parametrize("member, shown", PER_GAME_SHOWN)
def test_the_statistics_page_per_game(client, group, member, shown):
    group_id, _ = group
    text = visible_text(client.get(f"/g/{group_id}/statistics"))
    card = text[text.index(f" {member} All games ") :]
    nxt = re.search(r" (Ann|Bob|Cy|Dee) All games ", card[5:])
    card = card[: nxt.start() + 5] if nxt else card
    assert shown in card


def test_the_statistics_page_leaves_out_what_the_period_leaves_out(client, group):
    group_id, _ = group
    text = visible_text(client.get(f"/g/{group_id}/statistics?period=between&from=2026-11-01"))
    assert "4 matches counted" in text
    assert "Need a Fourth?" not in text.split("Statistics (CSV)")[0].split("matches counted")[1]


def test_the_ledger_as_csv(client, group):
    group_id, _ = group
    answer = client.get(f"/g/{group_id}/ledger.csv?period=between&from=2026-11-01&to=2026-11-30")
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="friday-four-2026-11-01-to-2026-11-30-ledger.csv"'
    )
    lines = answer.get_data(as_text=True).splitlines()
    assert lines == [
        "kind,member,to,currency,matches,won,amount,day,game,match",
        # Each currency's own matches and wins: EUR the Top Game (Bob won) and
        # Calypso (Ann and Cy won), GBP the rubber (Bob and Dee won).
        "balance,Ann,,EUR,2,1,0.12,,,",
        "balance,Bob,,EUR,2,1,8.88,,,",
        "balance,Cy,,EUR,2,1,-8.88,,,",
        "balance,Dee,,EUR,1,0,-0.12,,,",
        "balance,Ann,,GBP,1,0,-0.70,,,",
        "balance,Bob,,GBP,1,1,0.70,,,",
        "balance,Cy,,GBP,1,0,-0.70,,,",
        "balance,Dee,,GBP,1,1,0.70,,,",
        "match,Ann,,EUR,1,0,0.00,2026-11-06,The Top Game,The Top Game",
        "match,Bob,,EUR,1,1,9.00,2026-11-06,The Top Game,The Top Game",
        "match,Cy,,EUR,1,0,-9.00,2026-11-06,The Top Game,The Top Game",
        "match,Ann,,GBP,1,0,-0.70,2026-11-13,Rubber bridge,Rubber bridge",
        "match,Bob,,GBP,1,1,0.70,2026-11-13,Rubber bridge,Rubber bridge",
        "match,Cy,,GBP,1,0,-0.70,2026-11-13,Rubber bridge,Rubber bridge",
        "match,Dee,,GBP,1,1,0.70,2026-11-13,Rubber bridge,Rubber bridge",
        "match,Ann,,EUR,1,1,0.12,2026-11-20,Calypso,Calypso",
        "match,Bob,,EUR,1,0,-0.12,2026-11-20,Calypso,Calypso",
        "match,Cy,,EUR,1,1,0.12,2026-11-20,Calypso,Calypso",
        "match,Dee,,EUR,1,0,-0.12,2026-11-20,Calypso,Calypso",
        "match,Ann,,,1,0,,2026-11-21,Chicago,Chicago",
        "match,Bob,,,1,1,,2026-11-21,Chicago,Chicago",
        "match,Cy,,,1,0,,2026-11-21,Chicago,Chicago",
        "match,Dee,,,1,1,,2026-11-21,Chicago,Chicago",
        "settle,Cy,Bob,EUR,,,8.88,,,",
        "settle,Dee,Ann,EUR,,,0.12,,,",
        "settle,Ann,Bob,GBP,,,0.70,,,",
        "settle,Cy,Dee,GBP,,,0.70,,,",
    ]


@pytest.mark.skipif(
    not shutil.which("pdftotext"), reason="pdftotext (poppler-utils) is not installed"
)
def test_the_ledger_and_statistics_as_pdf(client, group, tmp_path):
    group_id, _ = group
    answer = client.get(f"/g/{group_id}/ledger.pdf")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert (
        answer.headers["Content-Disposition"]
        == 'inline; filename="friday-four-all-time-ledger.pdf"'
    )
    (tmp_path / "l.pdf").write_bytes(answer.data)
    text = subprocess.run(
        ["pdftotext", "-layout", str(tmp_path / "l.pdf"), "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    words = " ".join(text.split())
    assert "Friday four · ledger" in words
    assert "Ann 5 1 −29.38 −0.70" in words
    assert "Bob 5 3 +22.88 +0.70" in words
    assert "Ann pays Bob 22.88 EUR" in words
    answer = client.get(f"/g/{group_id}/statistics.pdf")
    assert answer.status_code == 200
    (tmp_path / "s.pdf").write_bytes(answer.data)
    text = subprocess.run(
        ["pdftotext", str(tmp_path / "s.pdf"), "-"], capture_output=True, text=True, check=True
    ).stdout
    words = " ".join(text.split())
    assert "Friday four · statistics" in words
    # A member's figures in one table: all games, then each game played.
    assert "Figure All games Calypso Chicago Need a Fourth? Rubber bridge The Top Game" in words
    assert "Won 1 of 5 (20%) 1 of 1 (100%) 0 of 1 (0%) 0 of 1 (0%) 0 of 1 (0%) 0 of 1 (0%)" in words
    assert "Lies caught Need a Fourth? hands where this player was found to have lied" in words


def test_the_statistics_as_csv(client, group):
    group_id, _ = group
    answer = client.get(f"/g/{group_id}/statistics.csv")
    assert answer.headers["Content-Disposition"] == (
        'attachment; filename="friday-four-all-time-statistics.csv"'
    )
    lines = answer.get_data(as_text=True).splitlines()
    assert lines[:9] == [
        "member,game,figure,label,value,of,counts,match",
        "Ann,all games,matches,Matches,5,,matches played,",
        'Ann,all games,won,Won,1,5,"matches won, alone or with others",',
        "Ann,all games,hands,Hands,19,,hands dealt in and counted (Calypso: games),",
        "Ann,all games,declared,Declared,4,,hands this player's contract was played,",
        "Ann,all games,made,Made,3,4,contracts made of those this player declared,",
        "Ann,all games,doubled,Doubled,1,,contracts this player declared that were doubled,",
        'Ann,all games,redoubled,Redoubled,0,,"contracts this player declared, redoubled",',
        "Ann,Calypso,matches,Matches,1,,matches played,",
    ]
    naf = [line for line in lines if line.startswith("Ann,Need a Fourth?,")]
    assert "Ann,Need a Fourth?,worst,Worst,-2950,," in "\n".join(naf)
    assert any(line.startswith("Ann,Need a Fourth?,lied,Lies caught,1,,") for line in naf)
    partners = [line for line in lines if line.startswith("Bob,partners,")]
    assert partners[0].startswith("Bob,partners,partner:")


@pytest.mark.parametrize(
    "args, words, slug",
    [
        ({}, "All time", "all-time"),
        ({"period": "this-month"}, "This month (November 2026)", "2026-11"),
        ({"period": "last-month"}, "Last month (October 2026)", "2026-10"),
        ({"period": "this-year"}, "This year (2026)", "2026"),
        ({"period": "between", "from": "2026-11-01"}, "1 Nov 2026 – now", "2026-11-01-to-now"),
        (
            {"period": "between", "to": "2026-01-31"},
            "the start – 31 Jan 2026",
            "start-to-2026-01-31",
        ),
    ],
)
def test_each_period_is_named_and_bounded(args, words, slug):
    from datetime import date

    from scorekeeper.viewmodels.period import chosen_period

    chosen = chosen_period(args, today=date(2026, 11, 25))
    assert (chosen.words, chosen.slug, chosen.errors) == (words, slug, {})
    bounds = {
        "this-month": (date(2026, 11, 1), date(2026, 11, 25)),
        "last-month": (date(2026, 10, 1), date(2026, 10, 31)),
        "this-year": (date(2026, 1, 1), date(2026, 11, 25)),
    }
    if args.get("period") in bounds:
        assert (chosen.period.start, chosen.period.end) == bounds[args["period"]]


def test_the_running_balance_per_currency_for_the_chart(app, client, db, group):
    from decimal import Decimal as D

    from scorekeeper.viewmodels.group_ledger import group_ledger
    from scorekeeper.viewmodels.period import chosen_period

    group_id, _ = group
    with app.test_request_context():
        book = group_ledger(g.load_group(db, group_id), chosen_period({}))
    # EUR: Need a Fourth? (30 Oct), the Top Game (6 Nov), Calypso (20 Nov, Dee's first:
    # every member of the currency is drawn from the first day, at 0 until they play).
    assert book.running["EUR"] == [
        ("30 Oct", {"Ann": D("-29.50"), "Bob": D("14.00"), "Cy": D("15.50"), "Dee": D("0.00")}),
        ("6 Nov", {"Ann": D("-29.50"), "Bob": D("23.00"), "Cy": D("6.50"), "Dee": D("0.00")}),
        ("20 Nov", {"Ann": D("-29.38"), "Bob": D("22.88"), "Cy": D("6.62"), "Dee": D("-0.12")}),
    ]
    assert [label for label, _ in book.running["GBP"]] == ["13 Nov"]
    html = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert html.count('class="chart" id="balance-chart-') == 2
    assert "Running balance · EUR" in html and "Running balance · GBP" in html


def test_the_watch_page_shows_the_ledger_and_changes_nothing(client, db, group):
    group_id, _ = group
    token = g.load_group(db, group_id).watch
    answer = client.get(f"/gw/{token}?period=last-month")
    assert answer.status_code == 200
    html = answer.get_data(as_text=True)
    assert "<form" not in html.split("<main>")[1] and group_id not in html
    text = visible_text(client.get(f"/gw/{token}"))
    assert "Ann −29.38 Bob +22.88 Cy +6.62 Dee −0.12" in text
    assert "Ann pays Bob 22.88 EUR" in text and "Mark all as paid" not in text


@pytest.mark.parametrize(
    "query, said, status",
    [
        ("?period=between&from=" + "9" * 5000, "From: write a day like", 400),
        ("?period=between&from=2026-02-30", "From: write a day like", 400),
        (
            "?period=between&from=2026-12-01&to=2026-11-01",
            "To: the last day comes on or after",
            400,
        ),
        ("?period=between", "From: give the first day, the last day, or both.", 400),
        ("?period=nonsense", "All time · 5 matches counted", 200),
        ("?period=between&from=%00", "From: write a day like", 400),
    ],
)
def test_any_period_asked_answers_a_page(client, group, query, said, status):
    group_id, _ = group
    assert said in visible_text(client.get(f"/g/{group_id}{query}"))
    page = client.get(f"/g/{group_id}/statistics{query}")
    assert (page.status_code, said in visible_text(page)) == (status, True)
    for url in (f"/g/{group_id}/ledger.csv", f"/g/{group_id}/statistics.csv"):
        assert client.get(url + query).status_code == status


def test_the_live_poll_moves_when_a_hand_is_saved_in_a_match_of_the_group(client, db, group):
    group_id, (top, *_rest) = group
    first = client.get(f"/g/{group_id}/live?since=6")
    assert first.json == {"revision": 6, "mark": "5-5", "changes": []}  # five matches at 1
    again = client.get(
        f"/g/{group_id}/live?since=6", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert again.status_code == 304
    client.post(f"/m/{top}/delete", data={"key": "d" * 16})  # the match's own change
    moved = client.get(
        f"/g/{group_id}/live?since=6", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert moved.json == {"revision": 6, "mark": "5-6", "changes": []}
    assert 'data-live-mark="5-6"' in client.get(f"/g/{group_id}").get_data(as_text=True)


# --- Record a payment: who can be chosen, and a refused form kept ---------------------


def choices(page, select_id: str) -> list[tuple[str, str, bool]]:
    """(value, text, selected) of each option of the payment form's drop-down."""
    return [
        (o.attrs.get("value") or "", o.text(), "selected" in o.attrs)
        for o in by_id(page, select_id).find_all("option")
    ]


def retire(db, group_id: str, member: int) -> None:
    g.apply_group(db, group_id, g.GroupCommand(g.RETIRE, {"member": member}))


def test_a_retired_member_who_owes_or_is_owed_is_offered_marked_retired(client, db, group):
    group_id, _ = group
    g.apply_group(db, group_id, g.GroupCommand(g.ADD_MEMBER, {"name": "Eve"}))
    retire(db, group_id, 4)  # Dee: −0.12 EUR, +0.70 GBP
    retire(db, group_id, 5)  # Eve: never played, owes nothing: not offered
    page = client.get(f"/g/{group_id}")
    expected = [
        ("", "Choose…", False),
        ("1", "Ann", False),
        ("2", "Bob", False),
        ("3", "Cy", False),
        ("4", "Dee (retired)", False),
    ]
    assert choices(page, "pay_payer") == expected
    assert choices(page, "pay_payee") == expected


def test_a_retired_member_is_offered_while_owing_outside_the_period_shown(client, db, group):
    """From 21 November Dee's balance is nil, but Dee still owes from before."""
    group_id, _ = group
    retire(db, group_id, 4)
    page = client.get(f"/g/{group_id}?period=between&from=2026-11-21")
    assert "Nobody owes anybody anything" in visible_text(page)
    assert ("4", "Dee (retired)", False) in choices(page, "pay_payer")


def test_a_retired_member_who_settled_up_is_no_longer_offered(client, db, group):
    group_id, _ = group
    retire(db, group_id, 4)
    # Dee owes Cy 0.12 EUR and is owed 0.70 GBP by Ann: both paid.
    for payer, payee, amount, currency in (("4", "3", "0.12", "EUR"), ("1", "4", "0.70", "GBP")):
        pay = {"payer": payer, "payee": payee, "amount": amount, "currency": currency}
        data = {**pay, "date": "2026-11-22", "revision": revision(db, group_id), "key": payer * 16}
        assert client.post(f"/g/{group_id}/pay", data=data).status_code == 302
    page = client.get(f"/g/{group_id}")
    assert [text for _, text, _ in choices(page, "pay_payee")] == ["Choose…", "Ann", "Bob", "Cy"]


def test_a_payment_refused_as_stale_is_drawn_again_as_typed_and_open(client, db, group):
    group_id, _ = group
    drawn = revision(db, group_id)
    first = {"payer": "4", "payee": "3", "amount": "0.12", "currency": "EUR", "date": "2026-11-21"}
    assert (
        client.post(
            f"/g/{group_id}/pay", data={**first, "revision": drawn, "key": "a" * 16}
        ).status_code
        == 302
    )
    typed = {"payer": "1", "payee": "2", "amount": "3,50", "currency": "GBP", "date": "2026-11-22"}
    answer = client.post(f"/g/{group_id}/pay", data={**typed, "revision": drawn, "key": "b" * 16})
    assert answer.status_code == 409
    assert "the group changed since this page was drawn" in by_id(answer, "group-problem").text()
    assert "open" in by_id(answer, "pay-one").attrs
    assert [v for v, _, selected in choices(answer, "pay_payer") if selected] == ["1"]
    assert [v for v, _, selected in choices(answer, "pay_payee") if selected] == ["2"]
    assert by_id(answer, "pay_amount").attrs["value"] == "3,50"
    assert by_id(answer, "pay_currency").attrs["value"] == "GBP"
    assert by_id(answer, "pay_date").attrs["value"] == "2026-11-22"
    assert len(g.load_group(db, group_id).payments) == 1


def test_a_page_without_a_refused_payment_keeps_the_payment_form_closed(client, group):
    group_id, _ = group
    assert "open" not in by_id(client.get(f"/g/{group_id}"), "pay-one").attrs
