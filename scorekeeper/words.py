"""Words for what happened, shared by the sheets, the hand log and the change log:
a hand in a few words (`4♠X by Bob, down 1`), and points as they are written on
paper (+5, −4) or pegged on the board (−3). Pure Python, below the sheets and
the change log, so the change log never leans on presentation code.
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from . import formats
from .games.common import HandResult, _is_int, contract_text, parse_contract
from .model import Stake
from .speech import N_, Said, Shown, _, ngettext


def hand_words(record: dict[str, Any], result: HandResult | None) -> str:
    """What happened in a hand, in a few words: `4♠X by Bob, down 1`, `all passed`."""
    if record.get("end"):
        return _("stopped here")
    if record.get("passed_out"):
        return _("all passed")
    if record.get("scrapped"):
        return _("scrapped")
    if isinstance(record.get("contract"), str):
        return _contract_words(record)
    if "tallies" in record:
        return _("tallies entered")
    # The rules write ASCII for the CSV and the match file; a person reads −4.
    return minus_signs(result.explanation[0]) if result and result.explanation else _("entered")


def said_by_record(record: dict[str, Any]) -> bool:
    """Whether `hand_words` says this hand from its record alone (not from the
    rules' first explanation line): a stored summary can then be said again."""
    return bool(
        record.get("end")
        or record.get("passed_out")
        or record.get("scrapped")
        or isinstance(record.get("contract"), str)
        or "tallies" in record
    )


REDEAL_MARK = "↻"


def hand_label(result: HandResult | None) -> str:
    """The hand's number where a sheet or a list shows one: "6"; a redeal is not a
    hand and shows the mark instead (its row belongs to the hand dealt again);
    the end marker shows nothing."""
    if result is None or result.hand is None:
        return ""
    return str(result.hand) if result.counted else REDEAL_MARK


def hand_title(result: HandResult | None, noun: str = "Hand") -> str:
    """A hand named in a sentence: "Hand 6", or "Redeal of hand 6" for an entry
    the rules do not count (the same hand is dealt again)."""
    if result is None or result.hand is None:
        return ""
    return named_hand(result.hand, result.counted, noun)


# What one entry of `hands` is called (a kit's noun), named with its number.
_NAMED = {
    "Hand": (N_("Hand %(number)s"), N_("Redeal of hand %(number)s")),
    "Game": (N_("Game %(number)s"), N_("Redeal of game %(number)s")),
}


def named_hand(number: int | None, counted: bool, noun: str = "Hand") -> str:
    """ "Hand 6", or for an entry that is not a hand "Redeal of hand 6". Said at
    once, in the reader's language (only pages name a hand, and they cut and
    lower it: "Edit hand 6")."""
    if noun in _NAMED:
        return str(_(_NAMED[noun][0 if counted else 1], number=number))
    return f"{noun} {number}" if counted else f"Redeal of {noun.lower()} {number}"


def tricks_needed(contract: str) -> int | None:
    """Tricks the contract needs (level + 6), None when it is not a contract."""
    try:
        return parse_contract(contract, max_level=None).needed
    except ValueError:
        return None


def _contract_words(record: dict[str, Any]) -> str:
    contract = record["contract"]
    needed = tricks_needed(contract)
    if needed is None:
        return contract
    text = contract_text(contract)
    who = record.get("declarer") or record.get("chooser")
    tricks = record.get("tricks")
    if not _is_int(tricks):
        return (
            _("%(contract)s by %(declarer)s", contract=text, declarer=who)
            if isinstance(who, str)
            else text
        )
    named = {"contract": text, "down": needed - tricks}
    if isinstance(who, str):
        if tricks >= needed:
            return _("%(contract)s by %(declarer)s, made", contract=text, declarer=who)
        return _("%(contract)s by %(declarer)s, down %(down)d", **named, declarer=who)
    if tricks >= needed:
        return _("%(contract)s, made", contract=text)
    return _("%(contract)s, down %(down)d", **named)


def minus(n: int) -> str:
    """Pegs and holes as on the board: no plus sign, a real minus sign (−3)."""
    return formats.minus(n)


def signed(points: int | Decimal) -> str:
    """Scores as on paper: +5, −4, 0 (a real minus sign); money keeps its cents:
    +8.00, −8.00, 0.00. (In the reader's language: `formats.signed`.)"""
    return formats.signed(points)


# A hyphen-minus starting a number, not inside a word or a name ("Ann-Marie 4").
_ASCII_MINUS = re.compile(r"(?<![\w-])-(?=\d)")


def minus_signs(line: str) -> str:
    """An explanation line as the page prints it: "Ann −4", not "Ann -4" (the
    rules write ASCII for the command line and the CSV); a sentence of the
    rules keeps being said in the reader's language."""
    if isinstance(line, Said):
        return line.then(_real_minus)
    return _real_minus(line)


def _real_minus(line: str) -> str:
    return _ASCII_MINUS.sub("−", line)


def _stake_money(value: tuple[Decimal, str], locale: str) -> str:
    return formats.stake_money(value[0], value[1], locale)


def said_money(amount: Decimal, currency: str = "") -> str:
    """An amount and its currency: "0.50 EUR" (as the match file and the
    history keep it), written the reader's way on a page ("0,50 €")."""
    english = formats.stake_money(amount, currency)
    return Shown(english, _stake_money, (amount, currency))


def stake_money(stake: Stake) -> str:
    """A stake's amount and currency: "0.50 EUR" (as the match file has it),
    written the reader's way on a page ("0,50 €")."""
    return said_money(stake.amount, stake.currency)


def stake_words(stake: Stake) -> str:
    """The stake in words, the one wording of it: "0.50 EUR per point",
    "1.00 EUR per 3 points" (`Stake.words` in English), said in the reader's
    language."""
    amount = stake_money(stake)
    return ngettext(
        "%(amount)s per point", "%(amount)s per %(num)d points", stake.per, amount=amount
    )
