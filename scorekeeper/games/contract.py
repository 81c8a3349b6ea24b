"""The contract fields the contract games share: level, strain, tricks and
doubling as button groups, and a contract split into them for editing and
joined again for the hand record.

Rubber (with Honeymoon and Chicago), Bridge for Three, Need a Fourth?, the Top
Game and Mini Bridge use these, so a label or a range is said once.
"""

from __future__ import annotations

from typing import Any

from flask_babel import lazy_gettext as _l
from wtforms import RadioField

from ..entry import choice_field, number_choices
from .common import DOUBLING_SUFFIX, STRAIN_SYMBOL, STRAINS, parse_contract

LOWEST_LEVEL, HIGHEST_LEVEL = 1, 7
TRICKS_IN_A_DEAL = 13
# Doubling as the short marks of a contract (`4SX`); a game may name them in words.
DOUBLING_MARKS = [("", "—"), ("X", "X"), ("XX", "XX")]


def level_field(label: str = _l("Level")) -> RadioField:
    """1 to 7, one button each."""
    return choice_field(label, number_choices(LOWEST_LEVEL, HIGHEST_LEVEL))


def strain_field(label: str = _l("Strain")) -> RadioField:
    """♣ ♦ ♥ ♠ NT; the value is the strain's letter (`NT` for no trumps)."""
    return choice_field(label, [(s, STRAIN_SYMBOL[s]) for s in STRAINS])


def tricks_field(label: str) -> RadioField:
    """0 to 13 tricks; the label says whose."""
    return choice_field(label, number_choices(0, TRICKS_IN_A_DEAL))


def doubling_field(label: str, choices: list[tuple[str, str]] = DOUBLING_MARKS) -> RadioField:
    """Not doubled, doubled (`X`) or redoubled (`XX`), in the game's words."""
    return choice_field(label, choices)


def joined(level: Any, strain: Any, doubling: Any = "") -> str:
    """The record's contract from the form's buttons: `4`, `S`, `X` -> `4SX`. A
    half-given contract stays half given, so the rules name what is missing."""
    return f"{level or ''}{strain or ''}{doubling or ''}"


def split(record: dict[str, Any], max_level: int | None = HIGHEST_LEVEL) -> dict[str, Any]:
    """The form's `level`, `strain` and `doubling` for the record's contract; nothing
    when there is none or it cannot be read (the rules say why when it is saved)."""
    if "contract" not in record:
        return {}
    try:
        contract = parse_contract(record["contract"], max_level=max_level)
    except ValueError:
        return {}
    return {
        "level": contract.level,
        "strain": contract.strain,
        "doubling": DOUBLING_SUFFIX[contract.doubled],
    }
