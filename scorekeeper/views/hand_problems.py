"""What a refused hand form says, and on which field: the rules' problems put on
the form's buttons and boxes, in the words of the screen ("choose the level")."""

from __future__ import annotations

from dataclasses import replace

from flask_babel import lazy_gettext as _l
from wtforms import RadioField

from ..entry import HandEntry
from ..games.common import NextHand, Problem
from .commands import blank, place_problems

# What to do about a button group left empty, in the words of the screen (and its
# language: each said with str() when the form is answered).
CHOOSE = {
    "declarer": _l("choose the declarer"),
    "level": _l("choose the level"),
    "strain": _l("choose a strain"),
    "tricks": _l("choose the number of tricks won"),
    "game": _l("choose GAME or No GAME"),
    "chooser": _l("choose the Chooser"),
    "partner": _l("choose the Partner"),
    "bid": _l("choose the final bid"),
    "dummy_tops": _l("choose the tops in dummy"),
}


def _on_buttons(form, problems: list[Problem]) -> list[Problem]:
    """A contract is built from the level and strain buttons: a contract problem
    with either left empty becomes "choose …" on the empty group (or both)."""
    said: list[Problem] = []
    for problem in problems:
        empty = [
            part
            for part in ("level", "strain")
            if problem.field == "contract"
            and getattr(form, part, None) is not None
            and blank(getattr(form, part))
        ]
        said += [replace(problem, field=part, message=str(CHOOSE[part])) for part in empty] or [
            problem
        ]
    return said


def show_problems(
    entry: HandEntry, form, problems: list[Problem], number: int, upcoming: NextHand | None
) -> list[Problem]:
    """The rules' problems of hand `number` put on the form's fields, said in the
    words of the screen; the others, to be shown as lines."""

    def field_for(name: str):
        field = getattr(form, entry.form_field(name), None)
        return None if field is None or field.name == "quick" else field

    def words(problem: Problem, field) -> str | None:
        """A button group left empty, said as what to tap; otherwise the entry's
        own words (Mini Bridge's empty HCP boxes), or the rules' (a doubler…)."""
        if isinstance(field, RadioField) and blank(field):
            choose = CHOOSE.get(field.name)
            return str(choose) if choose is not None else None
        return entry.words(problem, form, upcoming)

    return place_problems(_on_buttons(form, problems), field_for, number, words)
