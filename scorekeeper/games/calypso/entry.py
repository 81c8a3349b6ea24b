"""Calypso entry: one entry per game, three counts for each of the four players.

The form's fields are numbered by seat (p1 … p4) because player names change
from match to match; `prepare` remembers the names so the record can use them.
"""

from __future__ import annotations

from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, StringField
from wtforms.validators import Length, Optional

from ...entry import HandEntry, HandForm, as_int, choice_field, number_choices
from ..common import NextHand, Outcome
from .rules import (
    CALYPSO_POINTS,
    CARDS_PER_CALYPSO,
    DECK_CARDS,
    DISCARD_CARD_POINTS,
    INCOMPLETE_CARD_POINTS,
    MAX_CALYPSOS,
    MAX_INCOMPLETE,
    TALLY_FIELDS,
    tally_problems,
)

SEATS = 4


def count_field(label: str) -> StringField:
    """A typed count; anything that is not a whole number goes on to the rules as it is."""
    return StringField(label, validators=[Optional(), Length(max=6)])


def seat_field(seat: int, count: str) -> str:
    return f"p{seat}_{count}"


class CalypsoForm(HandForm):
    # No input of its own: carries the rules' problems with the whole tally (the card count),
    # and, when editing, the stored tallies until `prepare` spreads them over the seats.
    tallies = HiddenField(_l("Tallies"))


for _seat in range(1, SEATS + 1):
    setattr(
        CalypsoForm,
        seat_field(_seat, "calypsos"),
        choice_field(_l("Calypsos"), number_choices(0, MAX_CALYPSOS)),
    )
    setattr(CalypsoForm, seat_field(_seat, "incomplete"), count_field(_l("Incomplete")))
    setattr(CalypsoForm, seat_field(_seat, "discards"), count_field(_l("Discards")))


class CalypsoEntry(HandEntry):
    form = CalypsoForm
    # The counts the rules refuse, flagged under their box as they are typed: the
    # script asks the preview (the rules stay here).
    preview_template = "games/calypso/_flags.html"

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        form.players = list(players)  # type: ignore[attr-defined]
        stored = form.tallies.data
        if isinstance(stored, dict):  # editing: from_record handed over the stored tallies
            for seat, player in enumerate(players, 1):
                tally = stored.get(player)
                for count in TALLY_FIELDS:
                    if isinstance(tally, dict) and count in tally:
                        field = getattr(form, seat_field(seat, count))
                        field.data = str(tally[count])
            form.tallies.data = ""

    def field_words(self, form: HandForm, upcoming: NextHand | None) -> dict[str, str]:
        """Each count by its player: "Ann's calypsos"."""
        return {
            seat_field(seat, count): _(
                "%(player)s's %(count)s",
                player=player,
                count=getattr(form, seat_field(seat, count)).label.text.lower(),
            )
            for seat, player in enumerate(form.players, 1)  # type: ignore[attr-defined]
            for count in TALLY_FIELDS
        }

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        tallies: dict[str, dict[str, Any]] = {}
        for seat, player in enumerate(form.players, 1):  # type: ignore[attr-defined]
            tally: dict[str, Any] = {}
            for count in TALLY_FIELDS:
                value = getattr(form, seat_field(seat, count)).data
                if isinstance(value, str):
                    value = value.strip()
                # A count left empty stays out of the record: the rules refuse it, never 0.
                if value not in (None, ""):
                    tally[count] = as_int(value)
            tallies[player] = tally
        return {"tallies": tallies}

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        return {"tallies": record.get("tallies")}

    def flags(self, form: HandForm) -> dict[str, str]:
        """What the rules refuse in each count typed so far, by input name
        ("Ann, incomplete: 13 is out of range; allowed 0–12"); blanks are not flagged."""
        found: dict[str, str] = {}
        for seat, player in enumerate(form.players, 1):  # type: ignore[attr-defined]
            typed: dict[str, Any] = {}
            for count in TALLY_FIELDS:
                value = getattr(form, seat_field(seat, count)).data
                if isinstance(value, str):
                    value = value.strip()
                if value not in (None, ""):
                    typed[count] = as_int(value)
            for count, message in tally_problems(typed).items():
                label = getattr(form, seat_field(seat, count)).label.text.lower()
                found[seat_field(seat, count)] = _(
                    "%(player)s, %(count)s: %(problem)s",
                    player=player,
                    count=label,
                    problem=message,
                )
        return found

    def context(self, outcome: Outcome, upcoming: NextHand | None) -> dict[str, Any]:
        players = outcome.players
        summary = outcome.summary
        return {
            "seats": [
                {
                    "seat": seat,
                    "player": player,
                    "partner": summary.partner[player],
                    "fields": {c: seat_field(seat, c) for c in TALLY_FIELDS},
                }
                for seat, player in enumerate(players, 1)
            ],
            "sides": [list(side) for side in summary.sides],
            "deck_cards": DECK_CARDS,
            "derive": lambda form: {"flags": self.flags(form)},
            # For the live card count and points (its static/calypso.js).
            "facts": {
                "deck": DECK_CARDS,
                "perCalypso": CARDS_PER_CALYPSO,
                "calypsoPoints": list(CALYPSO_POINTS),
                "incomplete": INCOMPLETE_CARD_POINTS,
                "discard": DISCARD_CARD_POINTS,
                "maxIncomplete": MAX_INCOMPLETE,
            },
        }
