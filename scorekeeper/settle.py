"""Settling the stakes: totals -> balances -> the shortest list of payments.

Rules: docs/settlement.md; each kind of settlement is a strategy in
scorekeeper/games/settlement.py. Balances are computed exactly (as
fractions: a stake of 1 per 3 points is exactly 1/3, never a float) and rounded
to cents once, at the end, in a way that keeps the balances at zero sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .games.catalog import settlement_for, variant_for
from .games.common import Outcome

__all__ = [
    "Payment",
    "exact_balances",
    "payments",
    "round_balances",
    "settle",
    "settlement_json",
    "to_cents",
    "usual_per",
]

CENT = Decimal("0.01")


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal

    def as_json(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": f"{self.amount:.2f}"}


def usual_per(variant_id: str) -> int:
    """The points a stake is usually quoted per (the game's stake basis: 100 at
    rubber bridge, Honeymoon and Chicago, else 1). New match fills in the
    stake's "per" with it when a game is chosen."""
    return variant_for(variant_id).stake_per


def exact_balances(outcome: Outcome, amount: Decimal, per: int) -> dict[str, Fraction]:
    """Each player's exact balance; positive receives, negative pays (the way the
    game's settlement, scorekeeper/games/settlement.py, works it out)."""
    stake = Fraction(amount)
    return settlement_for(outcome.variant).balances(outcome, stake, stake / per)


def to_cents(value: Fraction) -> Decimal:
    """Nearest cent, a half cent rounding away from zero."""
    cents = Decimal(value.numerator * 100) / Decimal(value.denominator)
    return (cents.quantize(Decimal(1), rounding=ROUND_HALF_UP) * CENT).quantize(CENT)


def round_balances(exact: dict[str, Fraction]) -> dict[str, Decimal]:
    """Round to cents keeping the sum at zero: a cent lost in rounding goes to the
    player whose balance was rounded furthest the other way (largest remainder),
    the first in seating order among equals."""
    rounded = {p: to_cents(Fraction(b)) for p, b in exact.items()}
    residual = -sum(rounded.values(), Decimal(0))
    order = list(exact)
    while residual:
        sign = 1 if residual > 0 else -1
        step = CENT * sign
        # The player whose rounding moved furthest against the residual takes the cent.
        player = max(
            order,
            key=lambda p: ((Fraction(exact[p]) - Fraction(rounded[p])) * sign, -order.index(p)),
        )
        rounded[player] += step
        residual -= step
    return rounded


def payments(balances: dict[str, Decimal]) -> list[Payment]:
    """Greedy: the largest debtor pays the largest creditor; at most n − 1 payments."""
    order = list(balances)
    left = dict(balances)
    result = []
    while True:
        debtors = [p for p in order if left[p] < 0]
        creditors = [p for p in order if left[p] > 0]
        if not debtors or not creditors:
            break
        payer = min(debtors, key=lambda p: (left[p], order.index(p)))
        payee = max(creditors, key=lambda p: (left[p], -order.index(p)))
        amount = min(-left[payer], left[payee])
        result.append(Payment(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return sorted(result, key=lambda pay: (pay.payer, pay.payee))


def settle(outcome: Outcome, amount: Decimal, per: int) -> tuple[dict[str, Decimal], list[Payment]]:
    """Balances rounded to cents and the payments that clear them."""
    balances = round_balances(exact_balances(outcome, amount, per))
    return balances, payments(balances)


def settlement_json(outcome: Outcome, amount: Decimal, per: int) -> list[dict[str, Any]]:
    return [pay.as_json() for pay in settle(outcome, amount, per)[1]]
