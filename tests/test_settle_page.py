"""The settle-up page: each kind of settlement with exact amounts.

docs/settlement.md; the examples are examples/*.json.
"""

import json
from pathlib import Path

from tests.webtools import items, links, tables, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str, **changes) -> dict:
    document = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    document.update(changes)
    return document


def balances(page: str) -> list[tuple[str, str, str]]:
    """(player, what they settle on, balance) rows of the balance table."""
    [table] = tables(page, "balances")
    assert table[0] == ["Player", "Settles on", "Balance"]
    return [tuple(row) for row in table[1:]]


def payments(page: str) -> list[str]:
    """Who pays whom, as the list reads."""
    return items(page, "payments")


def units(page: str) -> list[tuple[str, str, str]]:
    """(rubber or round, points, rounded) rows of the table of rounded differences."""
    [table] = tables(page, "units")
    return [tuple(row) for row in table[1:]]


def change_stake(actions, match_id: str, amount: str, per: str, currency: str) -> None:
    response = actions.client.post(
        f"/m/{match_id}/settings",
        data={"title": "", "stake_amount": amount, "stake_per": per, "stake_currency": currency},
    )
    assert response.status_code == 302, visible_text(response)


# --- zero-sum: the Top Game ---------------------------------------------------


def test_zero_sum_each_player_settles_their_total(actions):
    # examples/top-game.json: totals Ann −4, Bob −1, Cy +5 at 0.50 EUR a point.
    match_id = actions.imported(example("top-game"))
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "Stake: 0.50 EUR per point" in shown
    assert balances(page) == [
        ("Ann", "−4 points", "−2.00 EUR"),
        ("Bob", "−1 point", "−0.50 EUR"),
        ("Cy", "+5 points", "+2.50 EUR"),
    ]
    assert payments(page) == ["Ann pays Cy 2.00 EUR", "Bob pays Cy 0.50 EUR"]
    assert "Each player wins or pays their own total times the stake." in shown
    assert links(page, "Change the stake", "button") == [f"/m/{match_id}/settings"]


def test_changing_the_stake_after_hands_were_played_updates_the_page(actions):
    # 1.00 per 3 points: −4/3 = −1.333…, −1/3 = −0.333…, 5/3 = 1.666…; rounded alone
    # they would add up to +0.01, so the cent goes to the first player in seating
    # order among equal remainders: Ann −1.34.
    match_id = actions.imported(example("top-game"))
    change_stake(actions, match_id, "1", "3", "EUR")
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "Stake: 1.00 EUR per 3 points" in shown
    assert balances(page) == [
        ("Ann", "−4 points", "−1.34 EUR"),
        ("Bob", "−1 point", "−0.33 EUR"),
        ("Cy", "+5 points", "+1.67 EUR"),
    ]
    assert payments(page) == ["Ann pays Cy 1.34 EUR", "Bob pays Cy 0.33 EUR"]


def test_unfinished_match_settles_as_if_stopped_now(actions):
    # The first five hands of examples/top-game.json: Ann −10, Bob −1, Cy +11.
    document = example("top-game")
    document["hands"] = document["hands"][:5]
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "this is what everyone would pay if you stopped now" in shown
    assert balances(page) == [
        ("Ann", "−10 points", "−5.00 EUR"),
        ("Bob", "−1 point", "−0.50 EUR"),
        ("Cy", "+11 points", "+5.50 EUR"),
    ]
    assert payments(page) == ["Ann pays Cy 5.00 EUR", "Bob pays Cy 0.50 EUR"]


# --- pairwise: Need a Fourth?, Mini Bridge for three --------------------------


def test_pairwise_every_two_players_settle_their_gap(actions):
    # examples/need-a-fourth.json: Maren 2800, Tobias 750, Ilse 2400 at 0.10 per 10.
    # Maren (2050 + 400) = +2450, Tobias (−2050 − 1650) = −3700, Ilse (−400 + 1650) = +1250.
    match_id = actions.imported(example("need-a-fourth"))
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "Stake: 0.10 EUR per 10 points" in shown
    assert balances(page) == [
        ("Maren", "+2450 points", "+24.50 EUR"),
        ("Tobias", "−3700 points", "−37.00 EUR"),
        ("Ilse", "+1250 points", "+12.50 EUR"),
    ]
    assert payments(page) == ["Tobias pays Ilse 12.50 EUR", "Tobias pays Maren 24.50 EUR"]
    assert "every two players settle the gap between" in shown


def test_pairwise_at_one_per_three_points(actions):
    # examples/mini-bridge-3.json: Ann 640, Bob 1130, Cy 580 at 1.00 per 3 points.
    # Ann (−490 − 60) … in points: Ann −430, Bob +1040, Cy −610, divided by 3:
    # −143.333…, +346.666…, −203.333…; rounded alone they add up to +0.01, and the
    # remainders are equal, so the first in seating order takes the cent: Ann −143.34.
    document = example("mini-bridge-3", stake={"amount": "1", "per": 3, "currency": "EUR"})
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "Stake: 1.00 EUR per 3 points" in shown
    assert balances(page) == [
        ("Ann", "−430 points", "−143.34 EUR"),
        ("Bob", "+1040 points", "+346.67 EUR"),
        ("Cy", "−610 points", "−203.33 EUR"),
    ]
    assert payments(page) == ["Ann pays Bob 143.34 EUR", "Cy pays Bob 203.33 EUR"]


# --- partnerships -------------------------------------------------------------


def test_partnership_chicago_rounds_each_round_to_hundreds(actions):
    # examples/chicago.json: round 1 They +1150 → −1200, round 2 We +1380 → +1400;
    # settled on +200 for Ann & Cy at 0.10 per 100 = 0.20 each.
    match_id = actions.imported(example("chicago"))
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert balances(page) == [
        ("Ann", "+200 points", "+0.20 EUR"),
        ("Bob", "−200 points", "−0.20 EUR"),
        ("Cy", "+200 points", "+0.20 EUR"),
        ("Dee", "−200 points", "−0.20 EUR"),
    ]
    assert units(page) == [("Round 1", "−1150", "−1200"), ("Round 2", "+1380", "+1400")]
    assert (
        "Each round's difference, We (Ann & Cy) − They (Bob & Dee), rounded to the nearest 100:"
        in shown
    )
    assert payments(page) == ["Bob pays Ann 0.20 EUR", "Dee pays Cy 0.20 EUR"]
    assert "rounded to the nearest 100" in shown


def test_partnership_chicago_without_rounding_settles_the_plain_difference(actions):
    # Same evening, round_to_hundreds off: 1730 − 1500 = 230 → 0.23 each.
    document = example("chicago")
    document["options"] = {**document["options"], "round_to_hundreds": False}
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    assert balances(page)[:2] == [
        ("Ann", "+230 points", "+0.23 EUR"),
        ("Bob", "−230 points", "−0.23 EUR"),
    ]
    assert tables(page, "units") == []
    assert payments(page) == ["Bob pays Ann 0.23 EUR", "Dee pays Cy 0.23 EUR"]


def test_partnership_rubber_in_progress_is_rounded_too(actions):
    # The first ten hands of examples/rubber.json: rubber 1 We +1550 → +1600, rubber 2
    # still being played, They ahead by 270 → −300; settled on +1300 at 0.50 per 100.
    document = example("rubber")
    document["hands"] = document["hands"][:10]
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    assert units(page) == [("Rubber 1", "+1550", "+1600"), ("Rubber 2", "−270", "−300")]
    assert balances(page) == [
        ("Margaret", "+1300 points", "+6.50 GBP"),
        ("Tom", "−1300 points", "−6.50 GBP"),
        ("Helen", "+1300 points", "+6.50 GBP"),
        ("Richard", "−1300 points", "−6.50 GBP"),
    ]
    assert payments(page) == ["Richard pays Helen 6.50 GBP", "Tom pays Margaret 6.50 GBP"]


def test_partnership_calypso_without_rounding(actions):
    # examples/calypso.json: Ann & Cy 4300, Bob & Dan 5320 at 0.10 per 100: 1.02 each.
    match_id = actions.imported(example("calypso"))
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert balances(page) == [
        ("Ann", "−1020 points", "−1.02 EUR"),
        ("Bob", "+1020 points", "+1.02 EUR"),
        ("Cy", "−1020 points", "−1.02 EUR"),
        ("Dan", "+1020 points", "+1.02 EUR"),
    ]
    assert payments(page) == ["Ann pays Bob 1.02 EUR", "Cy pays Dan 1.02 EUR"]
    assert "settles with an opponent, not with their partner" in shown


# --- pegging: Bridge for Three ------------------------------------------------

TIE = {
    "format": "scorekeeper-match/1",
    "variant": "bridge-for-three",
    "players": ["Ann", "Bob", "Cy"],
    "stake": {"amount": "1.00", "per": 1, "currency": "EUR"},
    "hands": [
        {"declarer": "Ann", "contract": "7NT", "tricks": 13},  # Ann 7
        {"declarer": "Bob", "contract": "7NT", "tricks": 13},  # Bob 7
        # Cy 7NT doubled with 2 tricks: back 22 from 0, stops at −6; the 16 holes
        # that do not fit move Ann and Bob forward to 11 together.
        {"declarer": "Cy", "contract": "7NTX", "doubler": "Ann", "tricks": 2},
    ],
}


def test_pegging_tied_winners_share_the_stake(actions):
    match_id = actions.imported(TIE)
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "Stake: 1.00 EUR a game from each player who does not win" in shown
    assert balances(page) == [
        ("Ann", "won", "+0.50 EUR"),
        ("Bob", "won", "+0.50 EUR"),
        ("Cy", "did not win", "−1.00 EUR"),
    ]
    assert payments(page) == ["Cy pays Ann 0.50 EUR", "Cy pays Bob 0.50 EUR"]
    assert "when two or more players win together they share" in shown


def test_pegging_the_example_game_every_loser_pays_the_winner(actions):
    # examples/bridge-for-three.json: Cy reaches 11; 0.50 EUR from each of the others.
    match_id = actions.imported(example("bridge-for-three"))
    page = actions.page(f"/m/{match_id}/settle")
    assert balances(page) == [
        ("Ann", "did not win", "−0.50 EUR"),
        ("Bob", "did not win", "−0.50 EUR"),
        ("Cy", "won", "+1.50 EUR"),
        ("Dan", "did not win", "−0.50 EUR"),
    ]
    assert payments(page) == [
        "Ann pays Cy 0.50 EUR",
        "Bob pays Cy 0.50 EUR",
        "Dan pays Cy 0.50 EUR",
    ]


def test_pegging_unfinished_game_owes_nothing(actions):
    document = example("bridge-for-three")
    document["hands"] = document["hands"][:5]
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "nothing is owed until someone wins the game" in shown
    assert balances(page) == [
        ("Ann", "game not won yet", "0.00 EUR"),
        ("Bob", "game not won yet", "0.00 EUR"),
        ("Cy", "game not won yet", "0.00 EUR"),
        ("Dan", "game not won yet", "0.00 EUR"),
    ]
    assert payments(page) == []
    assert "Settled when the game is won." in shown


# --- no stake -------------------------------------------------------------------


def test_without_a_stake_the_page_says_how_to_add_one(actions):
    document = example("top-game")
    del document["stake"]
    match_id = actions.imported(document)
    page = actions.page(f"/m/{match_id}/settle")
    shown = visible_text(page)
    assert "No stake is set for this match" in shown
    assert "open Title & stake and enter an amount" in shown
    assert links(page, "Add a stake", "button") == [f"/m/{match_id}/settings"]
    assert tables(page, "balances") == []


def test_adding_a_stake_later_settles_every_hand_already_played(actions):
    document = example("need-a-fourth")
    del document["stake"]
    match_id = actions.imported(document)
    assert "No stake is set" in actions.text(f"/m/{match_id}/settle")
    change_stake(actions, match_id, "0.10", "10", "EUR")
    page = actions.page(f"/m/{match_id}/settle")
    assert payments(page) == ["Tobias pays Ilse 12.50 EUR", "Tobias pays Maren 24.50 EUR"]


def test_settle_page_of_a_missing_match_is_404(actions):
    assert actions.client.get("/m/42/settle").status_code == 404
