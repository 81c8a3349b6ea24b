"""Settlement: docs/settlement.md, each kind with exact amounts."""

from decimal import Decimal

import pytest

from scorekeeper.games.common import Outcome, Summary
from scorekeeper.games.rubber.rules import PartnershipSummary
from scorekeeper.games.settlement import round_to_hundreds
from scorekeeper.settle import exact_balances, payments, round_balances, settle, usual_per


def outcome(variant, totals, finished=True, winners=(), options=None, units=None):
    summary = Summary()
    if units is not None:
        players = list(totals)
        summary = PartnershipSummary(
            "rubber", ["We", "They"], [players[0::2], players[1::2]], [], list(units), [False] * 2
        )
    return Outcome(
        variant=variant,
        players=list(totals),
        options=options or {},
        hands=[],
        totals=dict(totals),
        finished=finished,
        winners=list(winners),
        upcoming=None,
        summary=summary,
    )


def paid(result):
    return [(p.payer, p.payee, str(p.amount)) for p in result]


def test_zero_sum_readme_example():
    # docs/score-output.md, "An example": Ann 10, Bob −5, Cy −5 at 0.50 a point.
    balances, pays = settle(
        outcome("top-game", {"Ann": 10, "Bob": -5, "Cy": -5}), Decimal("0.50"), 1
    )
    assert balances == {"Ann": Decimal("5.00"), "Bob": Decimal("-2.50"), "Cy": Decimal("-2.50")}
    assert paid(pays) == [("Bob", "Ann", "2.50"), ("Cy", "Ann", "2.50")]


def test_zero_sum_one_third_per_point_keeps_balances_at_zero():
    # 1.00 per 3 points: 10/3 = 3.333…, −5/3 = −1.666… each; rounding each alone
    # would leave a cent over, so the largest remainder (first in seat order) takes it.
    balances, pays = settle(outcome("top-game", {"Ann": 10, "Bob": -5, "Cy": -5}), Decimal("1"), 3)
    assert balances == {"Ann": Decimal("3.34"), "Bob": Decimal("-1.67"), "Cy": Decimal("-1.67")}
    assert sum(balances.values()) == 0
    assert paid(pays) == [("Bob", "Ann", "1.67"), ("Cy", "Ann", "1.67")]


def test_zero_sum_one_third_when_rounding_loses_a_cent_the_other_way():
    # 7/3 = 2.333…→2.33, −2/3 = −0.666…→−0.67, −5/3 = −1.666…→−1.67: sum −0.01.
    balances, _ = settle(outcome("top-game", {"A": 7, "B": -2, "C": -5}), Decimal("1"), 3)
    assert balances == {"A": Decimal("2.34"), "B": Decimal("-0.67"), "C": Decimal("-1.67")}


def test_pairwise_differences():
    # need-a-fourth: every pair settles the difference; Ann 1200, Bob 500, Cy −300.
    # Ann: (700 + 1500) × 0.01 = 22; Bob: (−700 + 800) = 1; Cy: (−1500 − 800) = −23.
    balances, pays = settle(
        outcome("need-a-fourth", {"Ann": 1200, "Bob": 500, "Cy": -300}), Decimal("0.10"), 10
    )
    assert balances == {"Ann": Decimal("22.00"), "Bob": Decimal("1.00"), "Cy": Decimal("-23.00")}
    assert paid(pays) == [("Cy", "Ann", "22.00"), ("Cy", "Bob", "1.00")]


def test_pairwise_one_third():
    # mini-bridge-3 at 1 per 3 points: Ann 100, Bob 50, Cy 0 -> Ann (50 + 100)/3 = 50,
    # Bob (−50 + 50)/3 = 0, Cy (−100 − 50)/3 = −50.
    balances, pays = settle(
        outcome("mini-bridge-3", {"Ann": 100, "Bob": 50, "Cy": 0}), Decimal("1"), 3
    )
    assert balances == {"Ann": Decimal("50.00"), "Bob": Decimal("0.00"), "Cy": Decimal("-50.00")}
    assert paid(pays) == [("Cy", "Ann", "50.00")]


def test_partnership_difference_without_rounding():
    totals = {"Ann": 450, "Bob": 130, "Cy": 450, "Dee": 130}
    balances, pays = settle(outcome("mini-bridge", totals), Decimal("0.01"), 1)
    assert balances == {
        "Ann": Decimal("3.20"),
        "Bob": Decimal("-3.20"),
        "Cy": Decimal("3.20"),
        "Dee": Decimal("-3.20"),
    }
    assert paid(pays) == [("Bob", "Ann", "3.20"), ("Dee", "Cy", "3.20")]


@pytest.mark.parametrize(
    "points, rounded",
    [
        pytest.param(560, 600, id="seed-example-560-is-6-hundreds"),
        pytest.param(550, 600, id="fifty-rounds-up"),
        pytest.param(549, 500, id="below-fifty-rounds-down"),
        pytest.param(-550, -600, id="other-side-fifty-rounds-up-too"),
        pytest.param(-40, 0, id="small-difference-is-nothing"),
        pytest.param(0, 0, id="zero"),
    ],
)
def test_round_to_hundreds(points, rounded):
    assert round_to_hundreds(points) == rounded


def test_rubber_rounds_each_rubber_then_adds():
    # Two rubbers: We +560 (→ +600) then They +1040 (→ −1000): We −400 in all.
    # At 1.00 per 100 points each of We pays 4.00.
    totals = {"Ann": 1000, "Bob": 1480, "Cy": 1000, "Dee": 1480}
    result = outcome("rubber", totals, options={"round_to_hundreds": True}, units=[560, -1040])
    balances, pays = settle(result, Decimal("1.00"), 100)
    assert balances == {
        "Ann": Decimal("-4.00"),
        "Bob": Decimal("4.00"),
        "Cy": Decimal("-4.00"),
        "Dee": Decimal("4.00"),
    }
    assert paid(pays) == [("Ann", "Bob", "4.00"), ("Cy", "Dee", "4.00")]


def test_rubber_without_rounding_uses_the_exact_difference():
    totals = {"Ann": 1000, "Bob": 1480, "Cy": 1000, "Dee": 1480}
    result = outcome("rubber", totals, options={"round_to_hundreds": False}, units=[560, -1040])
    balances, _ = settle(result, Decimal("1.00"), 100)
    assert balances["Ann"] == Decimal("-4.80")


def test_honeymoon_two_players_one_side_each():
    result = outcome(
        "honeymoon", {"Ann": 870, "Bob": 200}, options={"round_to_hundreds": True}, units=[670]
    )
    balances, pays = settle(result, Decimal("0.50"), 100)
    assert balances == {"Ann": Decimal("3.50"), "Bob": Decimal("-3.50")}
    assert paid(pays) == [("Bob", "Ann", "3.50")]


def test_pegging_non_winners_pay_the_stake_amount_per_is_ignored():
    result = outcome("bridge-for-three", {"A": 11, "B": 3, "C": -2, "D": 7}, winners=["A"])
    balances, pays = settle(result, Decimal("2.00"), 5)
    assert balances == {
        "A": Decimal("6.00"),
        "B": Decimal("-2.00"),
        "C": Decimal("-2.00"),
        "D": Decimal("-2.00"),
    }
    assert paid(pays) == [("B", "A", "2.00"), ("C", "A", "2.00"), ("D", "A", "2.00")]


def test_pegging_tie_shares_equally():
    # Two winners, three losers at 1.00: each winner receives 1.50.
    result = outcome(
        "bridge-for-three", {"A": 11, "B": 11, "C": 0, "D": 4, "E": -6}, winners=["A", "B"]
    )
    balances, pays = settle(result, Decimal("1.00"), 1)
    assert balances == {
        "A": Decimal("1.50"),
        "B": Decimal("1.50"),
        "C": Decimal("-1.00"),
        "D": Decimal("-1.00"),
        "E": Decimal("-1.00"),
    }
    assert len(pays) <= 4
    assert paid(pays) == [
        ("C", "A", "1.00"),
        ("D", "B", "1.00"),
        ("E", "A", "0.50"),
        ("E", "B", "0.50"),
    ]


def test_pegging_three_tied_winners_round_to_cents_at_zero_sum():
    # Two losers pay 1.00 each, shared by three winners: 0.666… each.
    result = outcome(
        "bridge-for-three", {"A": 11, "B": 11, "C": 11, "D": 2, "E": 0}, winners=["A", "B", "C"]
    )
    balances, _ = settle(result, Decimal("1.00"), 1)
    # The cent is taken from the first in seating order among equal remainders.
    assert balances == {
        "A": Decimal("0.66"),
        "B": Decimal("0.67"),
        "C": Decimal("0.67"),
        "D": Decimal("-1.00"),
        "E": Decimal("-1.00"),
    }


def test_pegging_unfinished_game_settles_nothing():
    result = outcome("bridge-for-three", {"A": 9, "B": 3, "C": 0}, finished=False)
    assert settle(result, Decimal("1.00"), 1)[1] == []


def test_payments_are_at_most_n_minus_1_and_sorted():
    balances = {
        "E": Decimal("-7"),
        "A": Decimal("5"),
        "D": Decimal("-1"),
        "B": Decimal("4"),
        "C": Decimal("-1"),
    }
    result = payments(balances)
    # E pays A 5 and B 2; then D and C (equal, D first in order) pay B 1 each.
    assert paid(result) == [("C", "B", "1"), ("D", "B", "1"), ("E", "A", "5"), ("E", "B", "2")]


def test_no_zero_payments():
    assert payments({"A": Decimal(0), "B": Decimal(0)}) == []


def test_exact_balances_sum_to_zero_before_rounding():
    result = outcome("need-a-fourth", {"A": 1, "B": 2, "C": 4})
    assert sum(exact_balances(result, Decimal("1"), 7).values()) == 0
    assert round_balances({"A": Decimal("0.005"), "B": Decimal("-0.005")}) == {
        "A": Decimal("0.01"),
        "B": Decimal("-0.01"),
    }


@pytest.mark.parametrize(
    ("variant_id", "per"),
    [
        ("top-game", 1),
        ("need-a-fourth", 1),
        ("bridge-for-three", 1),
        ("mini-bridge", 1),
        ("mini-bridge-3", 1),
        # Scored in hundreds, each rubber (round) rounded to 100 by default.
        ("rubber", 100),
        ("honeymoon", 100),
        ("chicago", 100),
        ("calypso", 1),
    ],
)
def test_the_usual_per_of_a_stake(variant_id, per):
    assert usual_per(variant_id) == per
