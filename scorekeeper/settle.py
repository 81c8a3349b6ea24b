"""Settling the stakes: totals -> balances -> the shortest list of payments.

Rules: docs/settlement.md. Balances are computed exactly (as
fractions: a stake of 1 per 3 points is exactly 1/3, never a float) and rounded
to cents once, at the end, in a way that keeps the balances at zero sum.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

from .variants import VARIANTS, Outcome
from .variants.common import partnerships as sides
from .variants.rubber import PartnershipSummary

CENT = Decimal("0.01")
HUNDRED = 100


@dataclass(frozen=True)
class Payment:
    payer: str
    payee: str
    amount: Decimal

    def as_json(self) -> dict[str, str]:
        return {"from": self.payer, "to": self.payee, "amount": f"{self.amount:.2f}"}


def round_to_hundreds(points: int) -> int:
    """Nearest 100, a half rounding away from zero: +560 -> 600, +550 -> 600, −550 -> −600."""
    sign = -1 if points < 0 else 1
    return sign * ((abs(points) + HUNDRED // 2) // HUNDRED) * HUNDRED


def usual_per(variant_id: str) -> int:
    """The points a stake is usually quoted per: 100 in the games whose rubbers may be
    rounded to hundreds (rubber, Honeymoon, Chicago), else 1. New match fills in
    the stake's "per" with it when a game is chosen."""
    specs = VARIANTS[variant_id].option_specs
    return 100 if any(spec.name == "round_to_hundreds" for spec in specs) else 1


def rounded_units(outcome: Outcome) -> PartnershipSummary | None:
    """The rubbers (rounds) to round one by one, when the match asks for rounding."""
    summary = outcome.summary
    if outcome.options.get("round_to_hundreds") and isinstance(summary, PartnershipSummary):
        return summary
    return None


def partnership_difference(outcome: Outcome) -> int:
    """Points of players[0]'s side minus the other side's, rounded per rubber when asked."""
    summary = rounded_units(outcome)
    if summary is not None:
        return sum(round_to_hundreds(diff) for diff in summary.unit_differences)
    first, second = sides(outcome.players)
    return outcome.totals[first[0]] - outcome.totals[second[0]]


def exact_balances(outcome: Outcome, amount: Decimal, per: int) -> dict[str, Fraction]:
    """Each player's exact balance; positive receives, negative pays."""
    kind = VARIANTS[outcome.variant].settlement
    stake = Fraction(amount)
    rate = stake / per
    totals, players = outcome.totals, outcome.players
    if kind == "zero-sum":
        return {p: totals[p] * rate for p in players}
    if kind == "pairwise":
        return {p: sum(totals[p] - totals[q] for q in players) * rate for p in players}
    if kind == "partnership":
        diff = partnership_difference(outcome)
        first, _ = sides(players)
        return {p: (diff if p in first else -diff) * rate for p in players}
    if kind == "pegging":
        if not outcome.finished or not outcome.winners:
            return {p: Fraction(0) for p in players}
        losers = [p for p in players if p not in outcome.winners]
        share = stake * len(losers) / len(outcome.winners)
        return {p: share if p in outcome.winners else -stake for p in players}
    raise ValueError(f"unknown settlement kind {kind!r}")


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
