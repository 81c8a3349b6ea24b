"""Mini Bridge entry: the HCP each player announces, then GAME or not, strain, tricks.

There is no auction: the HCP decide the declaring side, the declarer and the
dummy, so the form shows them as soon as the numbers are in. The HCP inputs
are named by announcement position (`hcp1` is the dealer), which the rules
derive for the hand, so the form never needs the seating order.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import BooleanField, HiddenField, StringField
from wtforms.validators import Length, Optional

from ...entry import HandEntry, HandForm, as_int, choice_field
from ...words import minus
from .. import contract as contract_fields
from ..common import HCP_IN_DECK, STRAIN_SYMBOL, NextHand, Outcome, Problem, partnerships
from .rules import (
    GAME_BONUS,
    MAX_HCP,
    NEEDED_FOR_GAME,
    SCRAP_BELOW,
    UNDERTRICK_PENALTY,
    MiniBridgeNext,
    announced_problem,
    announcement_problem,
    declaring,
    pick_declarer,
    trick_score,
    tricks_needed,
)

GAME_CHOICES = [("yes", _l("GAME")), ("no", _l("No GAME"))]
GAME_VALUE = {"yes": True, "no": False}


def hcp_field(position: int) -> StringField:
    """One announcement: typed on the phone's number pad."""
    return StringField(
        _l("Announcement %(num)s", num=position),
        validators=[Optional(), Length(max=4, message="give a whole number 0–37")],
        render_kw={
            "inputmode": "numeric",
            "pattern": "[0-9]*",
            "autocomplete": "off",
            "maxlength": 4,
        },
    )


class MiniBridgeForm(HandForm):
    # The record's `hcp` object when editing (spread over the inputs by
    # `prepare`), and where the rules' problems with the HCP are shown.
    hcp = HiddenField(_l("HCP"))
    hcp1 = hcp_field(1)
    hcp2 = hcp_field(2)
    hcp3 = hcp_field(3)
    game = choice_field(_l("GAME announced?"), GAME_CHOICES)
    strain = contract_fields.strain_field()
    tricks = contract_fields.tricks_field(_l("Tricks won"))


class MiniBridgeFourForm(MiniBridgeForm):
    hcp4 = hcp_field(4)


class MiniBridgeThreeForm(MiniBridgeForm):
    # Posted by the one-tap "Scrap" button inside the hand form (it needs the HCP).
    scrapped = BooleanField(_l("Scrap the deal"))


def hcp_inputs(form: HandForm, order: list[str]) -> list[tuple[str, Any]]:
    """(player, input) in announcement order."""
    return [(player, getattr(form, f"hcp{k}")) for k, player in enumerate(order, 1)]


def announced(form: HandForm, order: list[str]) -> dict[str, Any]:
    """The HCP typed so far by player; blanks left out, non-numbers kept for the rules."""
    hcp: dict[str, Any] = {}
    for player, field in hcp_inputs(form, order):
        text = (field.data or "").strip() if isinstance(field.data, str) else field.data
        if text not in (None, ""):
            hcp[player] = as_int(text)
    return hcp


def complete_hcp(form: HandForm, order: list[str]) -> dict[str, int] | None:
    """Every announcement, when each is a whole number 0–37; otherwise None."""
    hcp = announced(form, order)
    if len(hcp) != len(order):
        return None
    if not all(isinstance(v, int) and 0 <= v <= MAX_HCP for v in hcp.values()):
        return None
    return hcp


def flagged(form: HandForm, order: list[str]) -> dict[str, Any]:
    """What the rules refuse in the boxes already typed, before Save: `flags` by
    input name ("Ann: 38 is more than one hand holds; allowed 0–37"), and `over`
    when the announcements so far hold more than the deck."""
    typed = announced(form, order)
    flags = {}
    for player, field in hcp_inputs(form, order):
        problem = announcement_problem(typed[player]) if player in typed else None
        if problem:
            flags[field.name] = _("%(player)s: %(problem)s", player=player, problem=problem)
    found: dict[str, Any] = {"flags": flags}
    if not flags and len(typed) < len(order):
        over = announced_problem(list(typed.values()))
        if over:
            found["over"] = _("So far %(over)s: count again.", over=over)
    return found


def total_flag(found: dict[str, Any]) -> str | None:
    """Why the announcements together do not fit the deck, said under the boxes
    before Save (Save is still refused by the rules): four that do not make 40,
    three that leave dummy an impossible hand, or more than the deck so far."""
    if "wrong_sum" in found:
        return _(
            "The four add up to %(sum)s, not %(deck)s: count again.",
            sum=found["wrong_sum"],
            deck=HCP_IN_DECK,
        )
    if "wrong_dummy" in found:
        dummy = minus(found["wrong_dummy"])
        return _(
            "That leaves dummy %(dummy)s; dummy holds 0–%(most)s: count again.",
            dummy=dummy,
            most=MAX_HCP,
        )
    return found.get("over")


class _MiniBridgeEntry(HandEntry):
    preview_template = "games/mini_bridge/_live.html"
    field_for = {"declarer": "hcp", "scrapped": "hcp"}

    def words(self, problem: Problem, form: HandForm, upcoming: NextHand | None) -> str | None:
        """Boxes left empty: whose points are still to enter (the rules name each
        missing player, in the match file's words)."""
        if problem.field != "hcp":
            return None
        order = upcoming.announcement_order if isinstance(upcoming, MiniBridgeNext) else []
        typed = announced(form, order)
        missing = [player for player in order if player not in typed]
        # A box holding something wrong keeps the rules' words for every HCP problem.
        wrong = any(not isinstance(v, int) or not 0 <= v <= MAX_HCP for v in typed.values())
        if not missing or wrong:
            return None
        names = (
            _("%(first)s and %(second)s", first=", ".join(missing[:-1]), second=missing[-1])
            if len(missing) > 1
            else missing[0]
        )
        return _("enter the points of %(names)s", names=names)

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        """When editing, put the stored announcements into their inputs."""
        stored = form.hcp.data
        if not isinstance(stored, dict):
            return
        for player, field in hcp_inputs(
            form, upcoming.announcement_order if isinstance(upcoming, MiniBridgeNext) else players
        ):
            if field.data in (None, "") and player in stored:
                field.data = str(stored[player])

    def field_words(self, form: HandForm, upcoming: NextHand | None) -> dict[str, str]:
        order = upcoming.announcement_order if isinstance(upcoming, MiniBridgeNext) else []
        return {
            field.name: _("HCP %(player)s", player=player)
            for player, field in hcp_inputs(form, order)
        }

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        record: dict[str, Any] = {}
        # No next hand: a form sent after another phone saved the last one (refused).
        order = upcoming.announcement_order if isinstance(upcoming, MiniBridgeNext) else []
        hcp = announced(form, order)
        if hcp:
            record["hcp"] = hcp
        if getattr(form, "scrapped", None) is not None and form.scrapped.data:
            # The Scrap button is a one-tap action: the deal is not played.
            record["scrapped"] = True
            return record
        if form.game.data not in (None, ""):
            record["game"] = GAME_VALUE.get(form.game.data, form.game.data)
        if form.strain.data:
            record["strain"] = form.strain.data
        if form.tricks.data not in (None, ""):
            record["tricks"] = as_int(form.tricks.data)
        return record

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {}
        if isinstance(record.get("hcp"), dict):
            data["hcp"] = record["hcp"]
        if "game" in record:
            data["game"] = {True: "yes", False: "no"}.get(record["game"], record["game"])
        for name in ("strain", "tricks"):
            if name in record:
                data[name] = record[name]
        return data

    def derive(self, players: list[str], order: list[str], form: HandForm) -> dict[str, Any]:
        """What the typed HCP say (declarer, dummy…); empty until all are in."""
        raise NotImplementedError

    def derived(self, players: list[str], order: list[str], form: HandForm) -> dict[str, Any]:
        """`derive` plus what the chosen GAME, strain and tricks give: the tricks
        needed and the result line. The page draws it and the preview sends it."""
        found = {"typed": sum(v for v in announced(form, order).values() if isinstance(v, int))}
        found |= flagged(form, order)
        found |= self.derive(players, order, form)
        misfit = total_flag(found)
        if misfit:
            found["total_flag"] = misfit
        game = GAME_VALUE.get(form.game.data)
        strain = form.strain.data if form.strain.data in NEEDED_FOR_GAME else None
        if game is None or strain is None or found.get("redeal"):
            return found
        needed = tricks_needed(game, strain)
        symbol = STRAIN_SYMBOL[strain]
        contract = (
            _("GAME in %(strain)s", strain=symbol)
            if game
            else _("No GAME in %(strain)s", strain=symbol)
        )
        found["needed"] = needed
        found["result"] = _(
            "%(contract)s: %(tricks)s tricks needed.", contract=contract, tricks=needed
        )
        tricks = as_int(form.tricks.data) if form.tricks.data not in (None, "") else None
        if not isinstance(tricks, int) or "declarer" not in found:
            return found
        if tricks < needed:
            down = needed - tricks
            four = "side" in found
            defenders = (" & " if four else " and ").join(found["defenders"])
            said = (
                _("%(contract)s, %(tricks)s tricks: %(down)s down, %(defenders)s score %(points)s.")
                if four
                else _(
                    "%(contract)s, %(tricks)s tricks: %(down)s down,"
                    " %(defenders)s score %(points)s each."
                )
            )
            found["result"] = said % {
                "contract": contract,
                "tricks": tricks,
                "down": down,
                "defenders": defenders,
                "points": down * UNDERTRICK_PENALTY,
            }
        else:
            made = trick_score(strain, tricks)
            total = f"{made} + {GAME_BONUS} = {made + GAME_BONUS}" if game else f"{made}"
            declarers = " & ".join(found["side"]) if "side" in found else found["declarer"]
            found["result"] = _(
                "%(contract)s, %(tricks)s tricks: made, %(declarers)s score %(total)s.",
                contract=contract,
                tricks=tricks,
                declarers=declarers,
                total=total,
            )
        return found

    def context(self, outcome: Outcome, upcoming: NextHand | None) -> dict[str, Any]:
        players = list(outcome.players)
        order = upcoming.announcement_order if isinstance(upcoming, MiniBridgeNext) else players
        four = len(players) == 4
        sides = [list(side) for side in partnerships(players)] if four else []
        rules = {"deck": HCP_IN_DECK, "max_hcp": MAX_HCP, "scrap_below": SCRAP_BELOW}
        return {
            "players": players,
            "order": order,
            "sides": sides,
            "derive": lambda form: self.derived(players, order, form),
            "rules": rules,
            # The script fills in the fourth announcement and asks the preview
            # for everything else: it needs only these.
            "facts": {
                "four": four,
                "order": order,
                "dealer": upcoming.dealer if upcoming else None,
                "rules": {"deck": HCP_IN_DECK, "max_hcp": MAX_HCP},
            },
        }


class MiniBridgeEntry(_MiniBridgeEntry):
    form = MiniBridgeFourForm

    def derive(self, players: list[str], order: list[str], form: HandForm) -> dict[str, Any]:
        hcp = complete_hcp(form, order)
        if hcp is None:
            return {}
        held = sum(hcp.values())
        if held != HCP_IN_DECK:
            return {"wrong_sum": held}
        plays = declaring(players, order, hcp)
        if plays is None:
            return {"redeal": True}
        return {
            "side": plays.side,
            "defenders": plays.defenders,
            "ours": plays.ours,
            "theirs": plays.theirs,
            "declarer": plays.declarer,
            "declarer_hcp": hcp[plays.declarer],
            "dummy": plays.dummy,
            "dummy_hcp": hcp[plays.dummy],
        }


class MiniBridgeThreeEntry(_MiniBridgeEntry):
    form = MiniBridgeThreeForm

    def derive(self, players: list[str], order: list[str], form: HandForm) -> dict[str, Any]:
        hcp = complete_hcp(form, order)
        if hcp is None:
            return {}
        dummy_hcp = HCP_IN_DECK - sum(hcp.values())
        if not 0 <= dummy_hcp <= MAX_HCP:
            return {"wrong_dummy": dummy_hcp}
        declarer = pick_declarer(hcp, players, order)
        ours = hcp[declarer] + dummy_hcp
        return {
            "declarer": declarer,
            "declarer_hcp": hcp[declarer],
            "defenders": [p for p in order if p != declarer],
            "dummy_hcp": dummy_hcp,
            "ours": ours,
            "tied": [p for p in order if p != declarer and hcp[p] == hcp[declarer]],
            "may_scrap": ours < SCRAP_BELOW,
        }
