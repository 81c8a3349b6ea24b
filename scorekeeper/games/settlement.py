"""How a game's totals are settled: one strategy object per kind of settlement.

A game names its kind in its `GameKit` (scorekeeper/games/<family>/__init__.py);
the settlement (scorekeeper/settle.py), the score line above the hand form, the
totals of the match page and the settle page ask that object instead of
comparing the kind's name. Rules: docs/settlement.md. Pure Python.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..model import Stake
from ..speech import _
from ..words import minus, signed, stake_money, stake_words
from .common import Outcome, Summary, partnerships

HUNDRED = 100


def round_to_hundreds(points: int) -> int:
    """Nearest 100, a half rounding away from zero: +560 -> 600, +550 -> 600, −550 -> −600."""
    sign = -1 if points < 0 else 1
    return sign * ((abs(points) + HUNDRED // 2) // HUNDRED) * HUNDRED


class Settlement:
    """Points -> exact balances, and how the totals are shown. Subclasses say how."""

    # The name of the kind (docs/settlement.md), and the page explaining it
    # (templates/settlement/<name>.html).
    name: str = ""
    totals_heading = _("Totals")
    # Said on the settle page while the match is not finished.
    unfinished_note = _("this is what everyone would pay if you stopped now.")

    @property
    def explanation_template(self) -> str:
        return f"settlement/{self.name.replace('-', '_')}.html"

    def balances(self, outcome: Outcome, stake: Fraction, rate: Fraction) -> dict[str, Fraction]:
        """Each player's exact balance; positive receives, negative pays."""
        raise NotImplementedError

    def total(self, points: int) -> str:
        """A total as the match page prints it."""
        return signed(points)

    def score_line(self, players: list[str], totals: dict[str, int]) -> list[str]:
        """The running score above the next hand's form, one item per player or side."""
        return [f"{p} {signed(totals[p])}" for p in players]

    def rounded_units(self, outcome: Outcome) -> Summary | None:
        """The rubbers (rounds) settled one by one after rounding, or None."""
        return None

    def basis(self, outcome: Outcome) -> dict[str, str] | None:
        """What each player settles on, when it is not their points (None: points)."""
        return None

    def stake_words(self, stake: Stake) -> str:
        """The stake in words: 0.50 EUR per point, 1.00 EUR per 3 points."""
        return stake_words(stake)

    def empty_note(self, outcome: Outcome) -> str:
        """Said where the payments would be when nobody pays."""
        return _("Nobody owes anything.")


class ZeroSum(Settlement):
    """The totals add up to zero: each player wins or pays their own total."""

    name = "zero-sum"

    def balances(self, outcome: Outcome, stake: Fraction, rate: Fraction) -> dict[str, Fraction]:
        return {p: outcome.totals[p] * rate for p in outcome.players}


class Pairwise(Settlement):
    """Every two players settle the gap between their totals."""

    name = "pairwise"

    def balances(self, outcome: Outcome, stake: Fraction, rate: Fraction) -> dict[str, Fraction]:
        totals, players = outcome.totals, outcome.players
        return {p: sum(totals[p] - totals[q] for q in players) * rate for p in players}


class Partnership(Settlement):
    """Partners share one score; each player wins or pays the sides' difference."""

    name = "partnership"

    def difference(self, outcome: Outcome) -> int:
        """Points of players[0]'s side minus the other side's, rounded per unit when asked."""
        summary = self.rounded_units(outcome)
        if summary is not None:
            return sum(round_to_hundreds(diff) for diff in summary.unit_differences)
        first, second = partnerships(outcome.players)
        return outcome.totals[first[0]] - outcome.totals[second[0]]

    def balances(self, outcome: Outcome, stake: Fraction, rate: Fraction) -> dict[str, Fraction]:
        diff = self.difference(outcome)
        first, _ = partnerships(outcome.players)
        return {p: (diff if p in first else -diff) * rate for p in outcome.players}

    def score_line(self, players: list[str], totals: dict[str, int]) -> list[str]:
        return [f"{' & '.join(side)} {totals[side[0]]}" for side in partnerships(players)]


class RoundedPartnership(Partnership):
    """Rubber scoring: each rubber (round) may be rounded to the nearest 100 first,
    when the match's `round_to_hundreds` option asks for it."""

    def rounded_units(self, outcome: Outcome) -> Any:
        summary = outcome.summary
        if outcome.options.get("round_to_hundreds") and hasattr(summary, "unit_differences"):
            return summary
        return None


class Pegging(Settlement):
    """Only a won game is settled: each player who did not win pays the stake once."""

    name = "pegging"
    totals_heading = _("Pegs")
    unfinished_note = _("nothing is owed until someone wins the game.")

    def balances(self, outcome: Outcome, stake: Fraction, rate: Fraction) -> dict[str, Fraction]:
        players = outcome.players
        if not outcome.finished or not outcome.winners:
            return {p: Fraction(0) for p in players}
        losers = [p for p in players if p not in outcome.winners]
        share = stake * len(losers) / len(outcome.winners)
        return {p: share if p in outcome.winners else -stake for p in players}

    def total(self, points: int) -> str:
        return minus(points)

    def score_line(self, players: list[str], totals: dict[str, int]) -> list[str]:
        return [f"{p} {minus(totals[p])}" for p in players]

    def basis(self, outcome: Outcome) -> dict[str, str]:
        if not outcome.finished:
            return dict.fromkeys(outcome.players, _("game not won yet"))
        won, lost = _("won"), _("did not win")
        return {p: won if p in outcome.winners else lost for p in outcome.players}

    def stake_words(self, stake: Stake) -> str:
        return _("%(money)s a game from each player who does not win", money=stake_money(stake))

    def empty_note(self, outcome: Outcome) -> str:
        if not outcome.finished:
            return _("Settled when the game is won.")
        return _("Nobody owes anything.")


ZERO_SUM = ZeroSum()
PAIRWISE = Pairwise()
PARTNERSHIP = Partnership()
ROUNDED_PARTNERSHIP = RoundedPartnership()
PEGGING = Pegging()
