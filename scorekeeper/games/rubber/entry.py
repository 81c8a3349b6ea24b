"""Rubber, Honeymoon and Chicago entry: declarer, level, strain, tricks.

Doubling and honours sit behind a details panel; a passed-out hand is one tap.
The hand screen shows who deals, who is vulnerable, the games and part scores
so far (and in Chicago the deal's number in the round) before anything is typed.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l

from ...entry import HandEntry, HandForm, as_int, choice_field, player_choices, refuse_by
from .. import contract as contract_fields
from ..common import STRAINS, NextHand, Outcome
from .rules import DEALS_IN_ROUND, HONOURS, NT_HONOURS, RubberNext, honours_refused

DOUBLING = [("", _l("No")), ("X", _l("Doubled")), ("XX", _l("Redoubled"))]
HONOURS_LABEL = {100: _l("100 · four of five"), 150: _l("150 · all five / four aces")}


class RubberForm(HandForm):
    declarer = choice_field(_l("Declarer"))
    level = contract_fields.level_field()
    strain = contract_fields.strain_field()
    tricks = contract_fields.tricks_field(_l("Tricks won by declarer's side"))
    doubling = contract_fields.doubling_field(_l("Doubled?"), DOUBLING)
    honours_holder = choice_field(_l("Honours held by"))
    honours_points = choice_field(_l("Honours worth"), [(p, HONOURS_LABEL[p]) for p in HONOURS])


def side_label(names: list[str], side_players: list[str]) -> str:
    """`We (Ann & Cy)`; in Honeymoon the side is the player, named once."""
    if len(side_players) == 1:
        return side_players[0]
    return f"{names} ({' & '.join(side_players)})"


class RubberEntry(HandEntry):
    form = RubberForm
    field_for = {
        "contract": "strain",
        "honors": "honours_holder",
        "passed_out": "quick",
    }
    quick_actions = {"passed_out": _l("Passed out")}

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        form.declarer.choices = player_choices(players)
        form.honours_holder.choices = [("", _l("Nobody")), *player_choices(players)]
        # 100 for honours at no trumps: refused with its reason once NT is tapped.
        refuse_by(form.honours_points, form.strain, {s: honours_refused(s) for s in STRAINS})

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if form.declarer.data:
            record["declarer"] = form.declarer.data
        level, strain = form.level.data or "", form.strain.data or ""
        if level or strain:
            # A half-given contract goes to the rules as it is, so they name what is missing.
            record["contract"] = contract_fields.joined(level, strain, form.doubling.data)
        if form.tricks.data not in (None, ""):
            record["tricks"] = as_int(form.tricks.data)
        holder, points = form.honours_holder.data, form.honours_points.data
        if holder or points:
            honours: dict[str, Any] = {}
            if holder:
                honours["holder"] = holder
            if points:
                honours["points"] = as_int(points)
            elif strain == "NT":
                honours["points"] = NT_HONOURS  # the four aces: the only honours at NT
            record["honors"] = honours
        return record

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        data = {k: record[k] for k in ("declarer", "tricks") if k in record}
        honours = record.get("honors")
        if isinstance(honours, dict):
            data["honours_holder"] = honours.get("holder", "")
            data["honours_points"] = honours.get("points", "")
        data.update(contract_fields.split(record))
        return data

    def context(self, outcome: Outcome, upcoming: NextHand | None) -> dict[str, Any]:
        if not isinstance(upcoming, RubberNext):
            return {}
        names, sides = upcoming.side_names, upcoming.sides
        vulnerable = upcoming.vulnerable
        columns = [
            {
                "name": names[i],
                "players": " & ".join(sides[i]) if len(sides[i]) > 1 else "",
                "vulnerable": names[i] in vulnerable,
                "games": upcoming.games[i],
                "part_score": upcoming.part_scores[i],
            }
            for i in (0, 1)
        ]
        if not vulnerable:
            vulnerable_text = _("Nobody is vulnerable")
        elif len(vulnerable) == 2:
            vulnerable_text = _("Both sides are vulnerable")
        else:
            i = names.index(vulnerable[0])
            who = side_label(names[i], sides[i])
            vulnerable_text = (
                _("%(side)s is vulnerable", side=who)
                if len(sides[i]) == 1
                else _("%(side)s are vulnerable", side=who)
            )
        return {
            "columns": columns,
            "vulnerable_text": vulnerable_text,
            "passed_dealer": upcoming.dealer_after_passed_out,
            "deals_in_round": DEALS_IN_ROUND,
        }
