"""A group's history lines, said in the reader's language.

A change's line is kept in English as it was written (the group file and other
programs read it); a page says it again in the phone's language from that text,
piece by piece, and shows it as kept when a piece does not read as expected."""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from .. import formats
from ..games.catalog import VARIANTS
from ..speech import N_, Shown, _, english, ngettext
from ..speech import joined as said_together
from ..words import said_money
from .checks import game_name
from .state import EVERY_GAME

_WORDS = {
    "Group started: ": N_("Group started: %(what)s"),
    "Group imported from a file: ": N_("Group imported from a file: %(what)s"),
    "Group renamed: ": N_("Group renamed: %(what)s"),
    "Member added: ": N_("Member added: %(what)s"),
    "Member renamed: ": N_("Member renamed: %(what)s"),
    "Member retired: ": N_("Member retired: %(what)s"),
    "Member back: ": N_("Member back: %(what)s"),
    "Members in order: ": N_("Members in order: %(what)s"),
}
_MATCH_VERB = {
    "Match started: ": N_("Match started: %(what)s"),
    "Match added: ": N_("Match added: %(what)s"),
}
_MATCH = re.compile(r"(?P<name>.*), (?P<day>\d{1,2} [A-Z][a-z]{2} \d{4}) \((?P<players>.*)\)", re.S)
_STAKE = re.compile(
    r"(?P<amount>[0-9]+\.[0-9]+)(?: (?P<currency>.+?))? per (?:point|(?P<per>[0-9]+) points)"
)
_MOVE = re.compile(r"(?P<player>.+?) → (?P<now>.+) \(was (?P<was>.+)\)")
_PAID = re.compile(
    r"(?P<payer>.+?) paid (?P<payee>.+) (?P<amount>[0-9]+\.[0-9]{2})(?: (?P<currency>.+))?"
)
_MORE = re.compile(r"and ([0-9]+) more payments?")
_FROM_FILE = re.compile(r"Matches added from a group file: ([0-9]+) match(?:es)?")


def said_line(stored: str) -> str:
    """A group change's line as kept (English), said in the reader's language:
    "Member retired: Cy" -> "Membre retiré : Cy". As kept when it cannot be."""
    try:
        said = _said_line(stored)
    except (KeyError, ValueError):
        return stored
    return said if english(said) == stored else stored


def _said_line(text: str) -> str:
    if text.startswith("Undone: "):
        return _("Undone: %(what)s", what=said_line(text[len("Undone: ") :]))
    for prefix in _WORDS:
        if text.startswith(prefix):
            return _(_WORDS[prefix], what=text[len(prefix) :])
    for prefix in _MATCH_VERB:
        if text.startswith(prefix):
            return _match_started(prefix, text[len(prefix) :])
    if text.startswith("Match taken out: "):
        return _("Match taken out: %(what)s", what=_said_match(text[len("Match taken out: ") :]))
    if text.startswith("Stake for "):
        return _said_stake(text[len("Stake for ") :])
    if text.startswith("Mapping changed: "):
        return _said_mapping(text[len("Mapping changed: ") :])
    if text.startswith("Paid: "):
        return _(
            "Paid: %(what)s",
            what=said_together("; ", [_said_paid(p) for p in text[6:].split("; ")]),
        )
    found = _FROM_FILE.fullmatch(text)
    if found:
        count = int(found.group(1))
        return ngettext(
            "Matches added from a group file: %(num)d match",
            "Matches added from a group file: %(num)d matches",
            count,
        )
    return text


def _said_match(words: str) -> str:
    """match_words' "Chicago, 25 Nov 2026 (Ann, Bob, Cy, Dan)", said."""
    if words == "a match":  # a match no longer in the store
        return _("a match")
    found = _MATCH.fullmatch(words)
    if not found:
        return words
    day = datetime.strptime(found["day"], "%d %b %Y").date()
    name = found["name"]
    game = next((g.name for g in VARIANTS.values() if english(g.name) == name), name)
    shown_day = Shown(found["day"], formats.day, day)
    return _(
        "%(match)s, %(day)s (%(players)s)",
        match=game,
        day=shown_day,
        players=found["players"],
    )


def _match_started(verb: str, rest: str) -> str:
    """ "Chicago, 25 Nov 2026 (Ann, …); Cy back on the member list; Eve as a guest"."""
    pieces = rest.split("; ")
    tail: list[str] = []
    while len(pieces) > 1:
        last = pieces[-1]
        if last.endswith(" back on the member list"):
            member = last[: -len(" back on the member list")]
            tail.insert(0, _("%(member)s back on the member list", member=member))
        elif last.endswith(" as a guest"):
            tail.insert(0, _("%(player)s as a guest", player=last[: -len(" as a guest")]))
        else:
            break
        pieces.pop()
    started = _(_MATCH_VERB[verb], what=_said_match("; ".join(pieces)))
    return said_together("; ", [started, *tail]) if tail else started


def _said_stake(rest: str) -> str:
    """ "Chicago: 0.50 EUR per point" (the words of checks.stake_words), said."""
    for game in [EVERY_GAME, *VARIANTS]:
        name = english(game_name(game))
        if rest.startswith(f"{name}: "):
            words = rest[len(name) + 2 :]
            said_game = _("every game") if game == EVERY_GAME else game_name(game)
            return _(
                "Stake for %(game)s: %(stake)s", game=said_game, stake=_said_stake_words(words)
            )
    return rest


def _said_stake_words(words: str) -> str:
    if words == "no stake":
        return _("no stake")
    found = _STAKE.fullmatch(words)
    if not found:
        return words
    per = int(found["per"] or 1)
    amount = said_money(Decimal(found["amount"]), found["currency"] or "")
    return ngettext("%(amount)s per point", "%(amount)s per %(num)d points", per, amount=amount)


def _said_mapping(rest: str) -> str:
    """ "Chicago, 25 Nov 2026 (Ann, Bob): Ann → Dee (was Ann); Bob → a guest (was Bob)"."""
    at = rest.find("): ")
    if at < 0:
        return rest
    match, moves = rest[: at + 1], rest[at + 3 :]
    said_moves = []
    for move in moves.split("; "):
        found = _MOVE.fullmatch(move)
        if not found:
            raise ValueError(move)
        said_moves.append(
            _(
                "%(player)s → %(member)s (was %(before)s)",
                player=found["player"],
                member=_said_mapped(found["now"], found["player"]),
                before=_said_mapped(found["was"], found["player"]),
            )
        )
    return _(
        "Mapping changed: %(match)s: %(moves)s",
        match=_said_match(match),
        moves=said_together("; ", said_moves),
    )


def _said_mapped(words: str, player: str) -> str:
    if words == "a guest":
        return _("a guest")
    if words == f"{player} (new member)":
        return _("%(player)s (new member)", player=player)
    return words


def _said_paid(words: str) -> str:
    more = _MORE.fullmatch(words)
    if more:
        count = int(more.group(1))
        return ngettext("and %(num)d more payment", "and %(num)d more payments", count)
    found = _PAID.fullmatch(words)
    if not found:
        raise ValueError(words)
    amount = said_money(Decimal(found["amount"]), found["currency"] or "")
    return _(
        "%(payer)s paid %(payee)s %(amount)s",
        payer=found["payer"],
        payee=found["payee"],
        amount=amount,
    )
