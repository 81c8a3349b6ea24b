"""Flask-WTF forms: starting a match, its settings, importing a match file.

The hand forms of each game live in scorekeeper/games/<family>/entry.py.
"""

from __future__ import annotations

import re
import sys
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf.file import FileField, FileRequired
from wtforms import BooleanField, HiddenField, RadioField, SelectField, StringField
from wtforms.validators import DataRequired, Length, Optional, StopValidation

from .entry import Form, whole_number
from .formats import typed_amount
from .games.catalog import VARIANTS
from .games.common import OptionSpec
from .matchfile import MAX_CURRENCY, MAX_TITLE, parse_played
from .model import MATCH_FORMAT
from .names import normal
from .speech import capitalised
from .variants import MAX_NAME

MAX_PLAYERS = 5
ALL_SPECS = [spec for cls in VARIANTS.values() for spec in cls.option_specs]
INT_OPTIONS = sorted({spec.name for spec in ALL_SPECS if spec.kind == "int"})
BOOL_OPTIONS = sorted({spec.name for spec in ALL_SPECS if spec.kind == "bool"})
# Each option has one input on the new-match page, whichever games share it
# ("hands", "rubbers"…): two inputs of one name would send two values, and the
# form would read the first, perhaps another game's. Each game's spec of each, in order.
OPTION_GAMES: dict[str, list[tuple[Any, OptionSpec]]] = {}
for _cls in VARIANTS.values():
    for _spec in _cls.option_specs:
        OPTION_GAMES.setdefault(_spec.name, []).append((_cls, _spec))


def money_text(text: str) -> str:
    """An amount as the match file writes it: a decimal comma becomes a point;
    anything that is not an amount is passed on unchanged for the check to name."""
    return typed_amount(text)


def strip(text: Any) -> Any:
    """Names and titles are kept without the spaces around them: measure them so."""
    return text.strip() if isinstance(text, str) else text


class Sent:
    """The input must be in the form (it may be blank): a form that lost an input
    must not erase what is stored."""

    field_flags = {}

    def __call__(self, form: Any, field: Any) -> None:
        if not field.raw_data:
            # Stop here: Optional() would clear the error of a missing input.
            raise StopValidation(_("This input was missing from the form: reload the page."))


_SEAT = re.compile(r"player(\d+)")


def named_field(field: Any) -> Any:
    """What a sentence calls an input: its label up to any "(…)" after it, and
    "Player 1" for the first seat (its label adds "(deals first)", and the
    words around it differ by language)."""
    seat = _SEAT.fullmatch(field.name or "")
    if seat:
        return _l("Player %(num)s", num=int(seat[1]))
    return str(field.label.text).split(" (")[0]


class AtMost:
    """At most `most` characters, said in the words of the form ("Player 2 has 45
    characters; a name has at most 40"). Unlike Length it sets no `maxlength` on
    the input: a phone would silently cut the extra characters off instead."""

    field_flags: dict[str, Any] = {}

    def __init__(self, most: int, what: Any = None, hint: Any = None):
        self.most = most
        self.what = what or _l("a name")
        self.hint = hint or _l("a nickname will do")

    def __call__(self, form: Any, field: Any) -> None:
        length = len(field.data or "")
        if length > self.most:
            who = named_field(field)
            raise StopValidation(
                _(
                    "%(field)s has %(length)s characters; %(what)s has at most %(most)s."
                    " Shorten it (%(hint)s).",
                    field=who,
                    length=length,
                    what=self.what,
                    most=self.most,
                    hint=self.hint,
                )
            )


def option_field_name(option: str) -> str:
    return f"opt_{option}"


def points_per(text: str) -> int | str:
    """The `per` typed: a whole number of any length Python converts (a match
    file may say 1000000 or more), else the text for the stake check to name."""
    text = text.strip()
    number = whole_number(text)
    if number is not None:
        return number
    if text.isascii() and text.isdigit() and len(text) <= sys.get_int_max_str_digits():
        return int(text)
    return text


class StakeFields:
    """The three stake inputs, shared by the new-match and settings forms. The
    amount and `per` take whatever a match file may hold (the stake check,
    `parse_stake`, says what is wrong), so the stake of any imported match can be
    saved again with its title."""

    stake_amount = StringField(
        _l("Stake"),
        validators=[Optional()],
        render_kw={"inputmode": "decimal", "placeholder": _l("e.g. 0.50")},
    )
    stake_per = StringField(
        _l("per points"),
        validators=[Optional()],
        default="1",
        render_kw={"inputmode": "numeric"},
    )
    stake_currency = StringField(
        _l("Currency"),
        validators=[Optional(), Length(max=MAX_CURRENCY)],
        render_kw={"placeholder": "EUR"},
    )

    def stake_json(self) -> dict[str, Any] | None:
        amount = money_text(self.stake_amount.data or "")
        if not amount:
            return None
        per = points_per((self.stake_per.data or "").strip() or "1")
        currency = (self.stake_currency.data or "").strip()
        return {"amount": amount, "per": per, "currency": currency}


class NewMatchForm(StakeFields, Form):
    variant = RadioField(
        _l("Game"),
        choices=[(cls.id, cls.name) for cls in VARIANTS.values()],
        validators=[DataRequired(message=_l("Choose the game you are playing."))],
    )
    title = StringField(
        _l("Title (optional)"),
        validators=[Optional(), AtMost(MAX_TITLE, _l("a title"), _l("a date or a place will do"))],
        filters=[strip],
    )

    def player_fields(self) -> list[Any]:
        return [getattr(self, f"player{i}") for i in range(1, MAX_PLAYERS + 1)]

    def chosen(self) -> type | None:
        """The game chosen, or None while none (or no known one) is."""
        variant = self.variant.data
        return VARIANTS.get(variant) if isinstance(variant, str) else None

    def seats(self) -> list[Any]:
        """The player inputs the page shows for the chosen game: as many as its
        largest table (every input while no game is chosen)."""
        cls = self.chosen()
        return self.player_fields()[: max(cls.player_counts) if cls else MAX_PLAYERS]

    def hidden_for_game(self) -> list[Any]:
        """The inputs the page hides for the chosen game (app.js): the players past
        its count and the options of other games. What they hold is kept for the
        page but never read, so it never blocks Start nor becomes a player."""
        cls = self.chosen()
        ours = {spec.name for spec in cls.option_specs} if cls else set()
        hidden = self.player_fields()[len(self.seats()) :]
        others = [name for name in OPTION_GAMES if name not in ours]
        return hidden + [getattr(self, option_field_name(name)) for name in others]

    def validate(self, extra_validators: Any = None) -> bool:
        super().validate(extra_validators)
        for field in self.hidden_for_game():
            field.errors = []
        return not self.errors

    def option_inputs(self) -> list[dict[str, Any]]:
        """Each option's one input with its label for each game that has it: the
        page shows the chosen game's label (the input is the same)."""
        inputs = []
        for name, specs in OPTION_GAMES.items():
            labels: dict[str, dict[str, Any]] = {}
            for cls, spec in specs:
                text = capitalised(spec.help)
                if spec.kind != "bool":
                    default = spec.default if spec.default is not None else _("none")
                    text = _("%(option)s (default %(default)s)", option=text, default=default)
                said = labels.setdefault(text, {"text": text, "games": []})
                said["games"].append(cls)
            inputs.append(
                {
                    "field": getattr(self, option_field_name(name)),
                    "kind": specs[0][1].kind,
                    "games": [cls.id for cls, _spec in specs],
                    "labels": list(labels.values()),
                }
            )
        return inputs

    def players(self) -> list[str]:
        """The names typed for the chosen game, composed (NFC: "Zoë" is one name
        however it was typed)."""
        return [normal(f.data) for f in self.seats() if f.data and f.data.strip()]

    def options_json(self) -> dict[str, Any]:
        """Only the options of the chosen variant that were filled in; blank means default."""
        cls = VARIANTS.get(self.variant.data)
        if cls is None:
            return {}
        options: dict[str, Any] = {}
        for spec in cls.option_specs:
            field = getattr(self, option_field_name(spec.name))
            if spec.kind == "bool":
                if field.data != spec.default:
                    options[spec.name] = bool(field.data)
            else:
                text = (field.data or "").strip()
                if text:
                    number = whole_number(text)
                    options[spec.name] = text if number is None else number
        return options

    def document(self) -> dict[str, Any]:
        doc: dict[str, Any] = {
            "format": MATCH_FORMAT,
            "variant": self.variant.data,
            "players": self.players(),
            "options": self.options_json(),
            "hands": [],
        }
        if self.title.data and self.title.data.strip():
            doc["title"] = self.title.data.strip()
        stake = self.stake_json()
        if stake is not None:
            doc["stake"] = stake
        return doc


for _seat in range(1, MAX_PLAYERS + 1):
    setattr(
        NewMatchForm,
        f"player{_seat}",
        StringField(
            _l("Player 1 (deals first)") if _seat == 1 else _l("Player %(num)s", num=_seat),
            validators=[Optional(), AtMost(MAX_NAME)],
            filters=[strip],
        ),
    )
for _name in INT_OPTIONS:
    setattr(
        NewMatchForm,
        option_field_name(_name),
        StringField(
            _name, validators=[Optional(), Length(max=6)], render_kw={"inputmode": "numeric"}
        ),
    )
for _name in BOOL_OPTIONS:
    _default = any(spec.default for spec in ALL_SPECS if spec.name == _name)
    setattr(NewMatchForm, option_field_name(_name), BooleanField(_name, default=_default))


class RealDay:
    """A day written YYYY-MM-DD that is on the calendar (a date input sends it
    so). Left out of the form altogether, the day stays as it is."""

    field_flags: dict[str, Any] = {}

    def __call__(self, form: Any, field: Any) -> None:
        if field.raw_data and parse_played(field.data)[1]:
            raise StopValidation(f"{field.label.text}: give a real day, written like 2026-11-20.")


class SettingsForm(StakeFields, Form):
    title = StringField(
        _l("Title"),
        validators=[
            Sent(),
            Optional(),
            AtMost(MAX_TITLE, _l("a title"), _l("a date or a place will do")),
        ],
        filters=[strip],
    )
    played = StringField(_l("Day played"), validators=[RealDay()], filters=[strip])

    @property
    def played_day(self) -> str | None:
        """The day sent, "2026-11-20" (None: the form had no day input)."""
        return self.played.data if self.played.raw_data else None

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # The stake inputs may be blank (no stake) but must be in the form:
        # a form that lost one must not change the stake.
        for field in (self.stake_amount, self.stake_per, self.stake_currency):
            field.validators = [Sent(), *field.validators]


class ImportForm(Form):
    match_file = FileField(
        _l("Match file (.json)"), validators=[FileRequired(_l("Choose a match file."))]
    )


class ConfirmForm(Form):
    """A form with only the CSRF token, for buttons that change something."""

    next = HiddenField()


MAX_GROUP_INPUTS = 8  # member inputs on the new-group form (more are added on its page)


class GroupStakeForm(StakeFields, Form):
    """A group's default stake for one game (or every game)."""

    stake_game = SelectField(
        _l("Stake for"),
        choices=[("*", _l("Every game")), *((cls.id, cls.name) for cls in VARIANTS.values())],
        default="*",
    )


class NewGroupForm(GroupStakeForm):
    """A group: its name, its members in order, a default stake for a game."""

    name = StringField(
        _l("Group name"),
        validators=[
            DataRequired(message=_l("Give the group a name, like “Friday trio”.")),
            AtMost(MAX_TITLE, _l("a group's name"), _l("“Friday trio” will do")),
        ],
        filters=[strip],
        render_kw={"placeholder": _l("e.g. Friday trio")},
    )

    def member_fields(self) -> list[Any]:
        return [getattr(self, f"member{i}") for i in range(1, MAX_GROUP_INPUTS + 1)]

    def members(self) -> list[str]:
        return [normal(f.data) for f in self.member_fields() if f.data and f.data.strip()]


for _seat in range(1, MAX_GROUP_INPUTS + 1):
    setattr(
        NewGroupForm,
        f"member{_seat}",
        StringField(
            _l("Member %(num)s", num=_seat),
            validators=[Optional(), AtMost(MAX_NAME)],
            filters=[strip],
        ),
    )
