"""The ledger (scorekeeper/ledger.py): each match's part is what its own settlement
payments move; balances per currency, recorded payments, periods, names mapped,
and the fewest payments that settle up. Every figure is worked by hand below
from the rules (docs/variants/*.md) and the settlement (docs/settlement.md)."""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest

from scorekeeper.ledger import Period, Transfer, ledger, settle_up
from scorekeeper.matchfile import dumps, from_document, loads
from scorekeeper.model import MatchSummary
from scorekeeper.report import match_summary
from scorekeeper.variants import MatchError

D = Decimal


def match(variant, players, hands, *, stake=None, played=None, options=None, title=None):
    doc = {"format": "scorekeeper-match/1", "variant": variant, "players": players}
    if title:
        doc["title"] = title
    if played:
        doc["played"] = played
    if options:
        doc["options"] = options
    if stake:
        doc["stake"] = stake
    doc["hands"] = hands
    return doc


EUR_1 = {"amount": "0.50", "per": 1, "currency": "EUR"}

# Top Game, two hands a half, 0.50 EUR a point. Ann, Bob, Cy deal A B C, then A C B.
#  1 Bob bids 3, dummy 4 tops: pn 7, 4♦ needs 10, 11 taken: 4 + 1 = 5 → Bob +10, Ann −5, Cy −5
#  2 passed out (counted)
#  3 Cy misinformed Ann about dummy: −2 per opponent → Cy −4, Ann +2, Bob +2 (not counted)
#  4 Ann 4, 3 tops; pn 7, 4♥X by Cy, 9 tricks: down 1 → 0, Cy receives 3 → Ann −3, Cy +3
#  5 Cy bids 2 holding 4 tops: did not raise → −6 per opponent → Cy −12, Ann +6, Bob +6
#  totals Ann 0, Bob +18, Cy −18 (zero sum) → Bob +9.00, Cy −9.00 EUR; Cy pays Bob 9.00
TOP_GAME = match(
    "top-game",
    ["Ann", "Bob", "Cy"],
    [
        {"bids": [2, 3, None], "declarer": "Bob", "bid": 3, "dummy_tops": 4, "contract": "4D",
         "tricks": 11},
        {"bids": [None, None, None], "passed_out": True},
        {"bids": [4, None, None], "declarer": "Ann", "misinformation": "Cy"},
        {"declarer": "Ann", "bid": 4, "declarer_tops": 3, "dummy_tops": 3, "contract": "4HX",
         "doubler": "Cy", "tricks": 9},
        {"declarer": "Cy", "bid": 2, "declarer_tops": 4, "dummy_tops": 2},
    ],
    stake=EUR_1,
    played="2026-11-06",
    options={"hands_per_half": 2},
)  # fmt: skip

# Rubber, 0.10 GBP per 100, rounded to hundreds. We = Ann & Cy, They = Bob & Dee.
#  1 Ann 2♥ +1: 60 below, 30 above (We 90)        2 Bob 3NT: 100 below, game (They 100)
#  3 passed out                                    4 Cy 4♠X −1, not vul: 100 to They (200)
#  5 Ann 3♦: 60 below (the part score of 1 was wiped by They's game) (We 150)
#  6 Cy 2♠ +1: 60 below, game; 30 above; Bob's honours 100 to They (We 240, They 300)
#  7 Dee 4♥ +1, vul: 120 below + 30, game, rubber 2–1: 500 (They 950)
#  We − They = 240 − 950 = −710 → −700 → 0.001 EUR… GBP a point: Ann, Cy −0.70; Bob, Dee +0.70
#  payments: Ann → Bob 0.70, Cy → Dee 0.70
RUBBER = match(
    "rubber",
    ["Ann", "Bob", "Cy", "Dee"],
    [
        {"declarer": "Ann", "contract": "2H", "tricks": 9},
        {"declarer": "Bob", "contract": "3NT", "tricks": 9},
        {"passed_out": True},
        {"declarer": "Cy", "contract": "4SX", "tricks": 9},
        {"declarer": "Ann", "contract": "3D", "tricks": 9},
        {
            "declarer": "Cy",
            "contract": "2S",
            "tricks": 9,
            "honors": {"holder": "Bob", "points": 100},
        },
        {"declarer": "Dee", "contract": "4H", "tricks": 11},
    ],
    stake={"amount": "0.10", "per": 100, "currency": "GBP"},
    played="2026-11-13",
)

# Calypso, one game, 0.10 EUR per 100; "Annie" and "Dan" are Ann and Dee in the group.
#  Annie 500 + 7×20 + 31×10 = 950     Bob 500+750 + 3×20 + 25×10 = 1560
#  Cy    500 + 10×20 + 46×10 = 1160   Dan 0 + 9×20 + 25×10 = 430
#  Annie & Cy 2110 − Bob & Dan 1990 = +120 → 0.12: Annie, Cy +0.12; Bob, Dan −0.12
CALYPSO = match(
    "calypso",
    ["Annie", "Bob", "Cy", "Dan"],
    [
        {
            "tallies": {
                "Annie": {"calypsos": 1, "incomplete": 7, "discards": 31},
                "Bob": {"calypsos": 2, "incomplete": 3, "discards": 25},
                "Cy": {"calypsos": 1, "incomplete": 10, "discards": 46},
                "Dan": {"calypsos": 0, "incomplete": 9, "discards": 25},
            }
        }
    ],
    stake={"amount": "0.10", "per": 100, "currency": "EUR"},
    played="2026-11-20",
)

# Chicago, no stake and no day: counts as played, moves no money, only in all time.
#  deal 1 (none vul) Ann 4♥: 120 + game 300 (We 420); deal 2 (dealer Bob) passed out: not
#  counted, Bob deals deal 2 again: Bob 2♠: 60 (They 60); deal 3 (dealer Cy, We vul)
#  Cy 3NT −1: 100 to They, Cy's honours 150 (We 570, They 160); deal 4 (both vul)
#  Dee 3♣ +1: 60 + 20, game 500 (They 740). The round is over: Bob & Dee win.
CHICAGO = match(
    "chicago",
    ["Ann", "Bob", "Cy", "Dee"],
    [
        {"declarer": "Ann", "contract": "4H", "tricks": 10},
        {"passed_out": True},
        {"declarer": "Bob", "contract": "2S", "tricks": 8},
        {
            "declarer": "Cy",
            "contract": "3NT",
            "tricks": 8,
            "honors": {"holder": "Cy", "points": 150},
        },
        {"declarer": "Dee", "contract": "3C", "tricks": 10},
    ],
)

# Need a Fourth?, three hands, liar rule, 0.10 EUR per 10 points, played in October.
#  1 Ann 1♠, Cy 2♠: Cy chooses Ann; 2♠X, 7 tricks: down 1; only Ann lied:
#    Ann (Liar) −350, Cy (Partner column) −150; Bob, alone, 0
#  2 passed out
#  3 Bob chooses Cy, 4♥XX redoubled by Cy (scored as Chooser), 11 tricks: game 500,
#    XX 600 / 400, overtrick 200 → Cy +1300, Bob +1100
#  totals Ann −350, Bob 1100, Cy 1150; pairwise at 0.01 a point:
#    Ann (−1450 − 1500) = −29.50, Bob (1450 − 50) = +14.00, Cy (1500 + 50) = +15.50
NEED_A_FOURTH = match(
    "need-a-fourth",
    ["Ann", "Bob", "Cy"],
    [
        {"auction": ["1S", "P", "2S", "P", "P"], "partner": "Ann", "contract": "2SX",
         "tricks": 7, "liars": ["Ann"]},
        {"auction": ["P", "P", "P"], "passed_out": True},
        {"chooser": "Bob", "partner": "Cy", "contract": "4HXX", "redoubled_by": "Cy",
         "tricks": 11},
    ],
    stake={"amount": "0.10", "per": 10, "currency": "EUR"},
    played="2026-10-30",
    options={"hands": 3, "liar_rule": True},
)  # fmt: skip

GROUP = {
    "top-game": TOP_GAME,
    "rubber": RUBBER,
    "calypso": CALYPSO,
    "chicago": CHICAGO,
    "need-a-fourth": NEED_A_FOURTH,
}
SAME = {"Annie": "Ann", "Dan": "Dee"}
NOVEMBER = Period(date(2026, 11, 1), date(2026, 11, 30))


def summaries():
    return [match_summary(from_document(doc), key=key) for key, doc in GROUP.items()]


def test_each_match_counts_exactly_its_own_settlement_payments():
    found = {s.key: {seat.player: seat.money for seat in s.seats} for s in summaries()}
    assert found == {
        "top-game": {"Ann": D("0.00"), "Bob": D("9.00"), "Cy": D("-9.00")},
        "rubber": {"Ann": D("-0.70"), "Bob": D("0.70"), "Cy": D("-0.70"), "Dee": D("0.70")},
        "calypso": {"Annie": D("0.12"), "Bob": D("-0.12"), "Cy": D("0.12"), "Dan": D("-0.12")},
        "chicago": dict.fromkeys(["Ann", "Bob", "Cy", "Dee"], D("0.00")),
        "need-a-fourth": {"Ann": D("-29.50"), "Bob": D("14.00"), "Cy": D("15.50")},
    }
    assert [s.currency for s in summaries()] == ["EUR", "GBP", "EUR", None, "EUR"]


# (period, recorded payments) -> matches, balances, settle-up payments
CASES = [
    pytest.param(
        Period(),
        [],
        5,
        # EUR  Ann 0 + 0.12 − 29.50 = −29.38   Bob 9.00 − 0.12 + 14.00 = 22.88
        #      Cy −9.00 + 0.12 + 15.50 = 6.62    Dee (Dan) −0.12
        {
            "EUR": {"Ann": "-29.38", "Bob": "22.88", "Cy": "6.62", "Dee": "-0.12"},
            "GBP": {"Ann": "-0.70", "Bob": "0.70", "Cy": "-0.70", "Dee": "0.70"},
        },
        # EUR: no exact pair; Ann (most owed) pays Bob 22.88, then Cy 6.50 of her
        # remaining 6.50; Dee pays Cy the last 0.12: 3 payments for 4 members.
        # GBP: Ann's −0.70 matches Bob's +0.70 (first by name), Cy's Dee's.
        [
            ("Ann", "Bob", "22.88", "EUR"),
            ("Ann", "Cy", "6.50", "EUR"),
            ("Dee", "Cy", "0.12", "EUR"),
            ("Ann", "Bob", "0.70", "GBP"),
            ("Cy", "Dee", "0.70", "GBP"),
        ],
        id="all-time",
    ),
    pytest.param(
        NOVEMBER,
        [],
        3,  # Need a Fourth? was played in October, Chicago has no day
        # EUR  Ann 0.12, Bob 9.00 − 0.12 = 8.88, Cy −9.00 + 0.12 = −8.88, Dee −0.12
        {
            "EUR": {"Ann": "0.12", "Bob": "8.88", "Cy": "-8.88", "Dee": "-0.12"},
            "GBP": {"Ann": "-0.70", "Bob": "0.70", "Cy": "-0.70", "Dee": "0.70"},
        },
        [
            ("Cy", "Bob", "8.88", "EUR"),
            ("Dee", "Ann", "0.12", "EUR"),
            ("Ann", "Bob", "0.70", "GBP"),
            ("Cy", "Dee", "0.70", "GBP"),
        ],
        id="november-leaves-out-october-and-the-undated-match",
    ),
    pytest.param(
        Period(),
        [Transfer("Dee", "Cy", D("0.12"), "EUR", date(2026, 11, 21))],
        5,
        # Dee paid her 0.12: Dee −0.12 + 0.12 = 0.00, Cy 6.62 − 0.12 = 6.50
        {
            "EUR": {"Ann": "-29.38", "Bob": "22.88", "Cy": "6.50", "Dee": "0.00"},
            "GBP": {"Ann": "-0.70", "Bob": "0.70", "Cy": "-0.70", "Dee": "0.70"},
        },
        [
            ("Ann", "Bob", "22.88", "EUR"),
            ("Ann", "Cy", "6.50", "EUR"),
            ("Ann", "Bob", "0.70", "GBP"),
            ("Cy", "Dee", "0.70", "GBP"),
        ],
        id="a-recorded-payment-zeroes-a-balance",
    ),
    pytest.param(
        NOVEMBER,
        [
            Transfer("Cy", "Bob", D("8.88"), "EUR", date(2026, 11, 27)),
            Transfer("Dee", "Ann", D("0.12"), "EUR", date(2026, 12, 1)),  # after the period
            Transfer("Ann", "Bob", D("0.70"), "GBP"),  # no day: all time only
        ],
        3,
        {
            "EUR": {"Ann": "0.12", "Bob": "0.00", "Cy": "0.00", "Dee": "-0.12"},
            "GBP": {"Ann": "-0.70", "Bob": "0.70", "Cy": "-0.70", "Dee": "0.70"},
        },
        [
            ("Dee", "Ann", "0.12", "EUR"),
            ("Ann", "Bob", "0.70", "GBP"),
            ("Cy", "Dee", "0.70", "GBP"),
        ],
        id="payments-count-in-their-period-only",
    ),
]


@pytest.mark.parametrize("period, paid, matches, balances, payments", CASES)
def test_balances_and_settle_up(period, paid, matches, balances, payments):
    book = ledger(summaries(), same=SAME, period=period, paid=paid)
    assert book.as_json() == {
        "matches": matches,
        "balances": balances,
        "payments": [
            {"from": a, "to": b, "amount": amount, "currency": c} for a, b, amount, c in payments
        ],
    }


def test_standings_count_matches_played_and_won_and_a_mapped_name():
    # Won: top-game Bob; rubber Bob & Dee; calypso Annie (Ann) & Cy; chicago (no stake)
    # Bob & Dee; need-a-fourth Cy.
    book = ledger(summaries(), same=SAME)
    assert [(s.member, s.played, s.won) for s in book.standings] == [
        ("Ann", 5, 1),
        ("Bob", 5, 3),
        ("Cy", 5, 2),
        ("Dee", 3, 2),
    ]
    # Without the mapping Annie and Dan stand on their own.
    plain = ledger(summaries())
    assert plain.balances["EUR"] == {
        "Ann": D("-29.50"),
        "Annie": D("0.12"),
        "Bob": D("22.88"),
        "Cy": D("6.62"),
        "Dan": D("-0.12"),
    }


def test_a_match_without_a_stake_counts_as_played_and_moves_no_money():
    only = [s for s in summaries() if s.key == "chicago"]
    book = ledger(only)
    assert (book.as_json(), [(s.member, s.played) for s in book.standings]) == (
        {"matches": 1, "balances": {}, "payments": []},
        [("Ann", 1), ("Bob", 1), ("Cy", 1), ("Dee", 1)],
    )


def test_two_names_of_one_match_mapped_to_one_member_add_up():
    # Calypso's Annie (+0.12) and Bob (−0.12) both counted as Bob: 0.00.
    (calypso,) = [s for s in summaries() if s.key == "calypso"]
    merged = calypso.renamed({"Annie": "Bob"})
    assert [(s.player, s.money, s.won) for s in merged.seats] == [
        ("Bob", D("0.00"), True),
        ("Cy", D("0.12"), True),
        ("Dan", D("-0.12"), False),
    ]


@pytest.mark.parametrize(
    "balances, payments",
    [
        # One debtor, three creditors: 3 payments, largest first in the greedy pass.
        (
            {"X": {"A": "-6", "B": "3", "C": "2", "D": "1"}},
            [("A", "B", "3.00"), ("A", "C", "2.00"), ("A", "D", "1.00")],
        ),
        # Exact pairs first: B's −7 clears E's +7 in one payment; then A pays D 5 and
        # C 4: three payments, where the greedy pass alone takes four (A pays E 7,
        # B pays D 5, then A and B each pay C 2).
        (
            {"X": {"A": "-9", "B": "-7", "C": "4", "D": "5", "E": "7"}},
            [("A", "C", "4.00"), ("A", "D", "5.00"), ("B", "E", "7.00")],
        ),
        # Ties by name: two equal debtors and creditors.
        (
            {"X": {"Zoe": "-1.50", "Al": "-1.50", "Bo": "1.50", "Cy": "1.50"}},
            [("Al", "Bo", "1.50"), ("Zoe", "Cy", "1.50")],
        ),
        # Five members, nothing cancels: at most four payments.
        (
            {"X": {"A": "-7.25", "B": "-2.75", "C": "4.10", "D": "3.90", "E": "2.00"}},
            # A pays C 4.10 (A −3.15), then D 3.15 (D 0.75); B pays E 2.00, then D 0.75.
            [("A", "C", "4.10"), ("A", "D", "3.15"), ("B", "D", "0.75"), ("B", "E", "2.00")],
        ),
        # Nothing owed: no payment.
        ({"X": {"A": "0", "B": "0"}}, []),
    ],
)
def test_settle_up_takes_at_most_one_payment_fewer_than_members(balances, payments):
    found = settle_up({c: {m: D(v) for m, v in b.items()} for c, b in balances.items()})
    assert [(p.payer, p.payee, f"{p.amount:.2f}") for p in found] == payments
    members = {m for b in balances.values() for m, v in b.items() if D(v)}
    assert len(found) <= max(0, len(members) - 1)
    payers, payees = {p.payer for p in found}, {p.payee for p in found}
    assert payers & payees == set()


def test_currencies_never_mix():
    found = settle_up({"EUR": {"A": D("-1")}, "GBP": {"B": D("1")}})
    assert found == []  # a debt in one currency is never paid in another


def test_the_summary_is_serialisable_and_comes_back_equal():
    for summary in summaries():
        text = json.dumps(summary.as_json())
        assert MatchSummary.from_json(json.loads(text)) == summary
    (need,) = [s for s in summaries() if s.key == "need-a-fourth"]
    assert (need.played, need.finished, need.seats[0].margin) == (
        date(2026, 10, 30),
        True,
        Fraction(-2950),
    )


@pytest.mark.parametrize(
    "period, day, holds",
    [
        (Period(), None, True),
        (Period(), date(2026, 1, 1), True),
        (NOVEMBER, date(2026, 11, 1), True),  # both ends are included
        (NOVEMBER, date(2026, 11, 30), True),
        (NOVEMBER, date(2026, 10, 31), False),
        (NOVEMBER, date(2026, 12, 1), False),
        (NOVEMBER, None, False),  # a match without a day: only in all time
        (Period(start=date(2026, 11, 1)), date(2030, 1, 1), True),
        (Period(end=date(2026, 11, 1)), date(2020, 1, 1), True),
    ],
)
def test_a_period_holds_the_days_from_start_to_end(period, day, holds):
    assert period.holds(day) is holds


def test_a_summary_of_another_shape_is_refused_so_the_store_replays_the_match():
    doc = summaries()[0].as_json()
    assert doc["format"] == "scorekeeper-summary/2"
    with pytest.raises(ValueError, match="not a scorekeeper-summary/2 summary: None"):
        MatchSummary.from_json({k: v for k, v in doc.items() if k != "format"})


# --- the match file's optional played day ----------------------------------------------


def test_the_played_day_is_read_and_written_back():
    match = from_document(TOP_GAME)
    assert match.played == date(2026, 11, 6)
    text = dumps(match)
    assert '"title"' not in text and text.index('"played": "2026-11-06"') < text.index('"players"')
    assert loads(text).played == date(2026, 11, 6)
    # A file without it stays as it was: nothing is added on writing.
    assert "played" not in dumps(from_document(CHICAGO))


@pytest.mark.parametrize("value", ["2026-02-30", "2026-11-6", "20.11.2026", "", 20261120, None])
def test_a_played_day_that_is_not_a_date_is_refused(value):
    with pytest.raises(MatchError) as refused:
        from_document({**TOP_GAME, "played": value})
    assert refused.value.lines == [f'played: {value!r} is not a day written like "2026-11-20"']


def test_a_stored_match_takes_the_day_it_was_started_unless_its_file_says():
    started = date(2026, 12, 24)
    assert match_summary(from_document(CHICAGO), played=started).played == started
    assert match_summary(from_document(TOP_GAME), played=started).played == date(2026, 11, 6)
