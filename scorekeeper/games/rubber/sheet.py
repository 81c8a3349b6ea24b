"""The We/They score pad of rubber bridge, Honeymoon bridge and Chicago.

One block per rubber (Chicago: per round), drawn as on paper: two columns,
bonuses above the line (the first one nearest the line, read upwards), trick
scores below it with a rule under each game won, then each side's total and
the difference (rounded to hundreds when the match settles that way).
Chicago blocks also list the deals with their dealer and vulnerability.
"""

from __future__ import annotations

from typing import Any

from ...model import Match
from ...sheets import hand_rows
from ...speech import _
from ...words import REDEAL_MARK
from ..common import HandResult, Outcome, parse_contract
from ..common import contract_text as written
from ..settlement import round_to_hundreds
from .rules import RubberDeal, RubberDetails

# What an entry is, in the few letters that fit under it on a phone.
WHAT_LABEL = {
    "tricks": _("tricks"),
    "overtricks": _("over"),
    "undertricks": _("down"),
    "insult": _("insult"),
    "slam": _("slam"),
    "honours": _("honours"),
    "rubber": _("rubber"),
    "game bonus": _("game"),
    "part score": _("part score"),
    "unfinished": _("unfinished"),
}

# The rows of figures (entries, games' rows, a round's deals) a pad may have and
# still fit whole on one printed page beside another pad (A4 or Letter, the PDF's
# row height); a taller pad is printed across the page and runs on over the next.
TALL_PAD_LINES = 22


def _entry(number: int, entry: dict[str, Any], deal: int | None) -> dict[str, Any]:
    """One figure on the pad, citing what players count: the hand (rubber) or,
    in Chicago, the deal of the round (a passed-out deal is dealt again as the
    same deal, so hand numbers run ahead of it)."""
    return {
        "hand": number,
        "cite": _("deal %(number)s ·", number=deal) if deal is not None else f"#{number}",
        "points": entry["points"],
        "what": WHAT_LABEL.get(entry["what"], entry["what"]),
    }


def _rows(columns: list[list[dict[str, Any]]], bottom_up: bool) -> list[list[Any]]:
    """Two stacks of entries side by side. Bottom-up stacks sit on the line:
    the shorter column is padded at the top and its first entry is lowest."""
    height = max(len(c) for c in columns)
    laid = []
    for column in columns:
        if bottom_up:
            laid.append([None] * (height - len(column)) + list(reversed(column)))
        else:
            laid.append(list(column) + [None] * (height - len(column)))
    return [[laid[0][i], laid[1][i]] for i in range(height)]


def contract_text(contract: str, tricks: int, declarer: str) -> str:
    """`4♠X Ann +1`: the contract as players write it, and how it went."""
    diff = tricks - parse_contract(contract).needed
    result = "=" if diff == 0 else f"+{diff}" if diff > 0 else f"−{-diff}"
    return f"{written(contract)} {declarer} {result}"


def vulnerable_text(vulnerable: list[str]) -> str:
    if not vulnerable:
        return "—"
    return _("both") if len(vulnerable) == 2 else vulnerable[0]


def _difference(totals: list[int], side_names: list[str], rounding: bool) -> dict[str, Any]:
    difference = totals[0] - totals[1]
    return {
        "totals": totals,
        "difference": difference,
        "leader": None if difference == 0 else side_names[0 if difference > 0 else 1],
        "margin": abs(difference),
        "rounded": abs(round_to_hundreds(difference)) if rounding else None,
    }


def pad_units(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """Every rubber (round) that has a hand in it, in order."""
    game = outcome.summary
    unit_key = game.unit_word
    names = game.side_names
    rounding = bool(outcome.options.get("round_to_hundreds"))
    chicago = unit_key == "round"
    units: dict[int, dict[str, Any]] = {}
    for result in outcome.hands:
        details = result.details
        deal = details if isinstance(details, RubberDeal) else None
        if not isinstance(details, RubberDetails) or (deal is None and not details.entries):
            continue  # nothing to draw for a bare end marker
        # The end marker books into the rubber (round) in progress.
        number = deal.unit if deal is not None else len(game.unit_points)
        unit = units.setdefault(
            number,
            {"number": number, "above": [[], []], "games": {}, "passed": [], "deals": []},
        )
        if deal is not None:
            unit["deals"].append(_deal_row(match, result, deal, chicago))
            if deal.passed_out:
                unit["passed"].append(result.number)
                continue
        below_game = None
        if deal is not None:
            below_game = unit["games"].setdefault(
                deal.game, {"number": deal.game, "below": [[], []], "won_by": None}
            )
        deal_number = deal.deal if chicago and deal is not None else None
        for entry in details.entries:
            if entry["where"] == "below" and below_game is not None:
                below_game["below"][entry["side"]].append(_entry(result.number, entry, deal_number))
            else:
                unit["above"][entry["side"]].append(_entry(result.number, entry, deal_number))
        if deal is None:
            continue
        if below_game is not None and deal.game_won is not None:
            below_game["won_by"] = names[deal.game_won]
            below_game["hand"] = result.number
        if deal.rubber_won is not None:
            unit["won_by"] = names[deal.rubber_won]
        if deal.round_over:
            unit["complete"] = True

    # "Stop here" ends the match: the rubber (round) it left unfinished was
    # stopped, not still in progress.
    stopped = (
        bool(match.hands) and isinstance(match.hands[-1], dict) and bool(match.hands[-1].get("end"))
    )
    last = max(units, default=0)
    laid_out = []
    for number in sorted(units):
        unit = units[number]
        games = [unit["games"][g] for g in sorted(unit["games"])]
        won = [sum(1 for g in games if g["won_by"] == names[side]) for side in (0, 1)]
        complete = "won_by" in unit or unit.get("complete", False)
        totals = list(game.unit_points[number - 1])
        above_rows = _rows(unit["above"], bottom_up=True)
        below = [
            {
                "number": g["number"],
                "rows": _rows(g["below"], bottom_up=False),
                "won_by": g["won_by"],
                "hand": g.get("hand"),
            }
            for g in games
        ]
        lines = len(above_rows) + sum(len(g["rows"]) for g in below)
        lines += len(unit["deals"]) if chicago else 0
        laid_out.append(
            {
                "number": number,
                "above_rows": above_rows,
                "games": below,
                # Taller than a page holds: on paper it runs on over the next page
                # instead of standing whole beside another pad.
                "tall": lines > TALL_PAD_LINES,
                "games_won": won,
                "won_by": unit.get("won_by"),
                "complete": complete,
                "stopped": stopped and number == last and not complete,
                # The rubber still going shows who is vulnerable now; Chicago's
                # vulnerability changes every deal and is listed by deal instead.
                "vulnerable": (
                    list(game.vulnerable) if not chicago and not complete else [False, False]
                ),
                "passed": unit["passed"],
                "deals": unit["deals"] if chicago else [],
                **_difference(totals, names, rounding),
            }
        )
    return laid_out


def _deal_row(match: Match, result: HandResult, deal: RubberDeal, chicago: bool) -> dict[str, Any]:
    record = match.hands[result.number - 1]
    if deal.passed_out:
        if chicago:
            what = _("passed out, %(dealer)s deals again", dealer=result.dealer)
        else:
            what = _("passed out")
    else:
        what = contract_text(deal.contract, deal.tricks, record["declarer"])
    return {
        "hand": result.number,
        "deal": deal.deal,
        # A passed-out Chicago deal is not a deal: the same deal is dealt again.
        "label": str(deal.deal) if result.counted else REDEAL_MARK,
        "dealer": result.dealer,
        "vulnerable": vulnerable_text(deal.vulnerable),
        "counted": result.counted,
        "what": what,
    }


def chicago_rows(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """The hand log of a Chicago match: each hand's explanation opens with the
    deal it was ("Round 1, deal 2"), the number players count by, since a
    passed-out deal is dealt again and hand numbers run ahead of the deals."""
    rows = hand_rows(match, outcome)
    for row in rows:
        details = row["details"]
        if isinstance(details, RubberDeal) and details.deal is not None:
            where = _("Round %(round)d, deal %(deal)d", round=details.round, deal=details.deal)
            row["explanation"] = [where, *row["explanation"]]
    return rows


def chart_sides(match: Match, outcome: Outcome) -> list[tuple[str, list[str]]]:
    """The chart's two lines, one per side as the pad heads it: "We (Ann & Cy)";
    Honeymoon's sides are the two players."""
    game = outcome.summary
    named = []
    for name, players in zip(game.side_names, game.sides, strict=True):
        together = " & ".join(players)
        named.append((name if name == together else f"{name} ({together})", list(players)))
    return named


def build(match: Match, outcome: Outcome) -> dict[str, Any]:
    game = outcome.summary
    names = game.side_names
    units = pad_units(match, outcome)
    rounding = bool(outcome.options.get("round_to_hundreds"))
    grand = None
    if len(units) > 1:
        totals = [sum(u["totals"][side] for u in units) for side in (0, 1)]
        grand = _difference(totals, names, rounding=False)
        settled = sum(round_to_hundreds(u["difference"]) for u in units)
        grand["settled"] = abs(settled) if rounding else None
        grand["settled_leader"] = None if settled == 0 else names[0 if settled > 0 else 1]
    chicago = game.unit_word == "round"
    return {
        **({"rows": chicago_rows(match, outcome)} if chicago else {}),
        "pad_sides": [
            {
                "name": names[i],
                "players": " & ".join(game.sides[i]) if len(game.sides[i]) > 1 else "",
            }
            for i in (0, 1)
        ],
        "unit_word": "Round" if game.unit_word == "round" else "Rubber",
        "units": units,
        "grand": grand,
        "round_to_hundreds": rounding,
        "chicago": chicago,
    }
