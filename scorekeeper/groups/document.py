"""A group's file: the document a stored group is written as (groupfile.py
reads it back), its text, and its size, which is what a group may grow to."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from ..db import load_match
from ..games.catalog import VARIANTS
from ..model import played_key
from .checks import played_day
from .state import EVERY_GAME, FORMAT, GroupState


def group_document(db: Database, state: GroupState) -> dict[str, Any]:
    """The group file of a stored group. A deleted match of the group is left
    out (it counts in no ledger); each match names the day it was played."""
    names = {m.id: m.name for m in state.members}
    matches = []
    for match_id, joined in state.matches.items():
        stored = load_match(db, match_id)
        if stored is None or stored.deleted:
            continue
        match = stored.match
        if match.played is None:
            match = replace(match, played=played_day(stored.created))
        mapping = {
            player: None if member is None else names[member]
            for player, member in joined.mapping.items()
        }
        entry = {"mapping": mapping, "match": match.as_json()}
        matches.append(((played_key(match.played, stored.created), match_id), entry))
    matches.sort(key=lambda found: found[0])
    payments = [
        payment_asked(names[p.payer], names[p.payee], p, p.device, ("from", "to"))
        for p in state.payments
    ]
    doc: dict[str, Any] = {
        "format": FORMAT,
        "name": state.name,
        "members": [m.name for m in state.members],
    }
    retired = [m.name for m in state.members if m.retired]
    if retired:  # only then: a group file written before retiring reads the same
        doc["retired"] = retired
    doc["stakes"] = {game: state.stakes[game] for game in _game_order(state.stakes)}
    doc["matches"] = [entry for _key, entry in matches]
    doc["payments"] = payments
    return doc


def payment_asked(
    payer: Any, payee: Any, paid: Any, by: str, sides: tuple[str, str] = ("payer", "payee")
) -> dict[str, Any]:
    """One payment as a PAY command asks it (member ids as "payer" and "payee") or
    as a group file writes it (names as "from" and "to"): who paid whom, and the
    amount, currency and day of `paid` as recorded by `by`."""
    money = {"amount": paid.amount, "currency": paid.currency, "date": paid.date}
    return {sides[0]: payer, sides[1]: payee, **money, "by": by}


def _game_order(stakes: dict[str, Any]) -> list[str]:
    return [game for game in (EVERY_GAME, *VARIANTS) if game in stakes]


def dumps(doc: dict[str, Any]) -> str:
    """The group file as text: one line per match and per payment, so a long
    group stays readable and a change shows as one line in a diff."""

    def one(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = ["{"]
    keys = list(doc)
    for index, key in enumerate(keys):
        value = doc[key]
        comma = "," if index < len(keys) - 1 else ""
        if key in ("matches", "payments") and value:
            inner = ",\n".join(f"    {one(item)}" for item in value)
            lines.append(f"  {one(key)}: [\n{inner}\n  ]{comma}")
        else:
            lines.append(f"  {one(key)}: {one(value)}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def group_file_bytes(db: Database, state: GroupState) -> int:
    """The size of the group's file (`dumps(group_document(...))`) in bytes."""
    return len(dumps(group_document(db, state)).encode("utf-8"))


def size_words(size: int) -> str:
    """A file size as the limits say it: "4 MB", "3.5 MB", "35 kB"."""
    if size >= 1024 * 1024:
        return f"{size / (1024 * 1024):.1f}".removesuffix(".0") + " MB"
    return f"{size // 1024} kB"
