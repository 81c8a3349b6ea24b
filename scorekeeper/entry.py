"""Hand entry: each game's `entry.py` turns taps into a hand record.

Each `HandEntry` knows its Flask-WTF form, fills in the legal choices from what
the rules derive for the next hand (`Outcome.upcoming`), builds the match file's
hand record from the form, and fills the form back from a record for editing.
The record is then checked by replaying the whole match: the rules code is the
only judge of what is allowed.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, ClassVar

from babel import support
from flask import has_request_context
from flask_babel import get_locale
from flask_wtf import FlaskForm
from wtforms import HiddenField, RadioField
from wtforms.i18n import messages_path
from wtforms.validators import Optional

from .games.common import NextHand, Outcome, Problem

# Numbers as typed on a phone: ASCII digits only ("²" or "٣" are digits to
# Python's isdigit() but not numbers anyone meant) and a minus.
_WHOLE = re.compile(r"-?[0-9]{1,9}")


def whole_number(text: Any) -> int | None:
    """The whole number typed in `text`, or None when it is anything else."""
    if isinstance(text, str) and _WHOLE.fullmatch(text.strip()):
        return int(text.strip())
    return None


def choice_field(
    label: str, choices: list[tuple[Any, str]] | None = None, coerce: Any = str
) -> RadioField:
    """A group of large buttons; the rules, not the form, say when one is missing."""
    return RadioField(
        label, choices=choices or [], coerce=coerce, validators=[Optional()], validate_choice=False
    )


def number_choices(low: int, high: int) -> list[tuple[int, str]]:
    return [(n, str(n)) for n in range(low, high + 1)]


def player_choices(players: list[str]) -> list[tuple[str, str]]:
    return [(p, p) for p in players]


def refuse(field: Any, refused: dict[Any, str]) -> None:
    """Mark the choices of a button group that the rules would refuse for the
    state the form shows, each with its reason: the page draws them disabled with
    the reason next to them (templates/macros.html `buttons`). Save still checks."""
    field.refused = {str(value): reason for value, reason in refused.items()}


def refuse_by(field: Any, other: Any, table: dict[Any, dict[Any, str]], hide: bool = False) -> None:
    """Choices of `field` the rules refuse once `other` (a button group of the same
    form, or a tuple of them) holds a value: `table` maps that value (a tuple of
    values) to {choice: reason}. The page carries the table, so its script follows
    the other groups' taps without knowing the rule (app.js); the form's own state
    is drawn refused already. `hide`: the refused choice is left out, where the
    group's hint says why."""
    others = other if isinstance(other, tuple) else (other,)

    def page_key(key: Any) -> str:  # several groups' values: one key, tab-joined
        return "\t".join(map(str, key)) if isinstance(key, tuple) else str(key)

    # On the page each row is said once per reason: [[reason, [choice, ...]], ...].
    rows: dict[str, list[list[Any]]] = {}
    for key, row in table.items():
        said: dict[str, list[str]] = {}
        for value, reason in row.items():
            said.setdefault(reason, []).append(str(value))
        rows[page_key(key)] = [[reason, values] for reason, values in said.items()]
    field.refused_by = {"fields": [o.name for o in others], "table": rows, "hide": hide}
    # The other groups' values as the form holds them: text from a tap, a number
    # or a name from a stored hand (anything else matches no row).
    held = [o.data if isinstance(o.data, (str, int)) else None for o in others]
    now = rows.get(page_key(tuple(held) if len(held) > 1 else held[0]), [])
    if not now and len(held) == 1:
        now = rows.get(str(whole_number(str(held[0]))), [])
    refused = {value: reason for reason, values in now for value in values}
    if hide:
        field.hidden_choices = list(refused)
    else:
        refuse(field, refused)


@lru_cache(maxsize=32)
def wtforms_catalog(locale: str) -> support.NullTranslations:
    """WTForms' own catalog in `locale`, read once in a process."""
    return support.Translations.load(messages_path(), [locale], domain="wtforms")


class _WTFormsWords:
    """WTForms' own messages (a text too long for its field) in the page's
    language. Flask-WTF reads WTForms' catalog from disk in every request that
    builds a form (0.23 ms of CPU each time, as every refused save does)."""

    def gettext(self, string: str) -> str:
        if not has_request_context():
            return string
        return wtforms_catalog(str(get_locale())).ugettext(string)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        if not has_request_context():
            return singular if n == 1 else plural
        return wtforms_catalog(str(get_locale())).ungettext(singular, plural, n)


_WTFORMS_WORDS = _WTFormsWords()


class Form(FlaskForm):
    """Every form of the app: Flask-WTF's, with WTForms' words read once per language."""

    class Meta:
        def get_translations(self, form):
            return _WTFORMS_WORDS


class HandForm(Form):
    """Base of every variant's hand form: `quick` carries one-tap actions."""

    quick = HiddenField()


def as_int(value: Any) -> Any:
    """Form values arrive as strings; keep anything that is not a number as it is
    so the rules report it (never guess)."""
    number = whole_number(value)
    return value if number is None else number


class HandEntry:
    """How one variant's hand is entered. Subclasses set `form`; the game's kit
    (scorekeeper/games/<family>/__init__.py) names the variant and the page."""

    form: ClassVar[type[HandForm]]
    # Record field -> form field, where a rules problem should be shown.
    field_for: ClassVar[dict[str, str]] = {}
    # One-tap actions: name -> button label; `quick_record` builds the record.
    quick_actions: ClassVar[dict[str, str]] = {}
    # A partial the page's script asks for while a hand is typed (Mini Bridge's
    # HCP), drawn from `context(...)["derive"](form)` as `d`; None: no preview.
    preview_template: ClassVar[str | None] = None

    def __init__(self, variant: str, template: str, noun: str = "Hand", *, family: str):
        self.variant = variant  # the id of the variant this entry serves
        self.template = template  # games/<family>/hand.html, in the game's templates/
        # The family's name: its hand form says it (data-game), so that only its
        # script (its static/ folder) sets the form up.
        self.family = family
        self.noun = noun  # what one entry of `hands` is called: the kit's word

    def prepare(self, form: HandForm, players: list[str], upcoming: NextHand | None) -> None:
        """Set the choices that depend on the players and the state of the match."""

    def to_record(self, form: HandForm, upcoming: NextHand | None) -> dict[str, Any]:
        raise NotImplementedError

    def from_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """Form data that shows `record` again, for editing."""
        return dict(record)

    def quick_record(
        self, action: str, form: HandForm, upcoming: NextHand | None
    ) -> dict[str, Any]:
        """The record a one-tap action stands for; every variant's "all passed" is the same."""
        if action == "passed_out" and action in self.quick_actions:
            return {"passed_out": True}
        raise KeyError(action)

    def words(self, problem: Problem, form: HandForm, upcoming: NextHand | None) -> str | None:
        """A rules problem said in the words of this form (what to tap or type),
        or None to keep the rules' words."""
        return None

    def field_words(self, form: HandForm, upcoming: NextHand | None) -> dict[str, str]:
        """What the table calls fields whose label is only a place on the form
        (Mini Bridge's announcement boxes are players' HCP); the label otherwise."""
        return {}

    def form_field(self, record_field: str) -> str:
        return self.field_for.get(record_field, record_field)

    def context(self, outcome: Outcome, upcoming: NextHand | None) -> dict[str, Any]:
        """Extra template values (what the rules derive before anything is typed)."""
        return {}
