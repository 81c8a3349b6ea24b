"""What each kind of group change does: the parts a command changes, checked
against the group as read inside the write transaction, with the history's
words (`Plan`); the changes made since its form was drawn that it must not
overlook; and an Undo's plan. The rules of undo and of "what changed since"
are the match's too (undo.py)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import date
from decimal import Decimal
from typing import Any

from sqlite_utils import Database

from ..changelog import MAX_DEVICE
from ..games.catalog import VARIANTS
from ..matchfile import MAX_CURRENCY
from ..names import alike, name_problem, normal, text_problem
from ..speech import N_, _, english
from ..undo import NotUndone, in_the_way, undo_target
from .checks import (
    amount_problem,
    game_name,
    group_name_problem,
    match_words,
    member_name_problem,
    stake_refusal,
    stake_words,
)
from .mapping import mapping_parts, member_asked, new_members, remap
from .state import (
    ADD_MATCH,
    ADD_MATCHES,
    ADD_MEMBER,
    BRING_BACK,
    EVERY_GAME,
    MAX_GROUP_MATCHES,
    MAX_GROUP_PAYMENTS,
    NEW_MATCH,
    ORDER,
    PAY,
    REMAP,
    REMOVE_MATCH,
    RENAME,
    RENAME_MEMBER,
    RETIRE,
    STAKE,
    GroupChange,
    GroupCommand,
    GroupRefused,
    GroupState,
    Plan,
)


def _rename(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    problem = group_name_problem(cmd.asked.get("name"))
    if problem:
        raise GroupRefused(problem, field="name")
    name = cmd.asked["name"].strip()
    return Plan({"name": name}, f"Group renamed: {state.name} → {name}", state.serial)


def _stake(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    game, stake = cmd.asked.get("game"), cmd.asked.get("stake")
    if game != EVERY_GAME and game not in VARIANTS:
        raise GroupRefused(_("Choose the game this stake is for."), field="game")
    refused = stake_refusal(stake)
    if refused:
        raise refused
    summary = f"Stake for {english(game_name(game))}: {stake_words(stake)}"
    return Plan({f"stake:{game}": stake}, summary, state.serial)


def _add_member(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    problem = member_name_problem(cmd.asked.get("name"), "name")
    if problem:
        raise GroupRefused(problem, field="name")
    name = normal(cmd.asked["name"])
    taken = state.member_named(name)
    if taken and taken.retired:
        said = _(
            "%(name)s reads the same as %(member)s, a retired member: bring %(member)s back.",
            name=name,
            member=taken.name,
        )
        raise GroupRefused(said, field="name")
    if taken:
        said = _("%(name)s reads the same as the member %(member)s.", name=name, member=taken.name)
        raise GroupRefused(said, field="name")
    parts, _ids, serial = new_members(state, [name], state.serial)
    return Plan(parts, f"Member added: {name}", serial)


def _rename_member(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    member = member_asked(state, cmd.asked)
    problem = member_name_problem(cmd.asked.get("name"), "name")
    if problem:
        raise GroupRefused(problem, field="name")
    name = normal(cmd.asked["name"])
    taken = next((m for m in state.members if m.id != member.id and alike(m.name, name)), None)
    if taken:
        said = _("%(name)s reads the same as the member %(member)s.", name=name, member=taken.name)
        raise GroupRefused(said, field="name")
    parts = {f"member:{member.id}": member.value(name=name)}
    return Plan(parts, f"Member renamed: {member.name} → {name}", state.serial)


def _order(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    order = cmd.asked.get("order")
    if sorted(order or []) != sorted(m.id for m in state.members) or len(set(order)) != len(order):
        raise GroupRefused(_("Give each member one place in the order."), field="order")
    parts = {}
    for position, member_id in enumerate(order, 1):
        member = state.member(member_id)
        if member.position != position:
            parts[f"member:{member_id}"] = member.value(position=position)
    if not parts:
        raise GroupRefused(_("That is already the order."), field="order")
    names = ", ".join(state.member(i).name for i in order)
    return Plan(parts, f"Members in order: {names}", state.serial)


def _add_match(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    """A match joined (added, or started from the group's page)."""
    _room(len(state.matches), 1, MAX_GROUP_MATCHES, "matches")
    match_id = cmd.asked.get("match")
    if not isinstance(match_id, str):
        raise GroupRefused(_("Give the match's address."), field="match")
    mapping_asked = cmd.asked.get("mapping") or {}
    parts, mapping, serial = mapping_parts(db, state, match_id, mapping_asked, state.serial)
    parts[f"match:{match_id}"] = {"mapping": mapping, "added": stamp}
    verb = "Match started" if cmd.kind == NEW_MATCH else "Match added"
    words = [f"{verb}: {match_words(db, match_id)}"]
    if cmd.kind == NEW_MATCH:
        # Playing again brings a retired member back (undoing the start retires them again).
        for member_id in mapping.values():
            member = state.member(member_id) if member_id is not None else None
            if member is not None and member.retired:
                parts[f"member:{member.id}"] = member.value(retired=False)
                words.append(f"{member.name} back on the member list")
    words += [f"{p} as a guest" for p, mid in mapping.items() if mid is None]
    return Plan(parts, "; ".join(words), serial)


def _remap(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    return remap(db, state, cmd.asked, state.serial)


def _retire(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    """A member retired (RETIRE) or brought back (BRING_BACK)."""
    member = member_asked(state, cmd.asked)
    if cmd.kind == RETIRE and member.retired:
        said = _("%(member)s is retired already.", member=member.name)
        raise GroupRefused(said, field="member")
    if cmd.kind == BRING_BACK and not member.retired:
        said = _("%(member)s is not retired: %(member)s is on the member list.", member=member.name)
        raise GroupRefused(said, field="member")
    parts = {f"member:{member.id}": member.value(retired=cmd.kind == RETIRE)}
    verb = "Member retired" if cmd.kind == RETIRE else "Member back"
    return Plan(parts, f"{verb}: {member.name}", state.serial)


def _add_matches(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    """A group file's matches, joined at once: one change, one Undo."""
    parts: dict[str, Any] = {}
    serial = state.serial
    for joined in cmd.asked.get("matches") or []:
        match_id = joined.get("match")
        if not isinstance(match_id, str) or f"match:{match_id}" in parts:
            raise GroupRefused(_("Give each match's address once."), field="match")
        found, mapping, serial = mapping_parts(
            db, state, match_id, joined.get("mapping") or {}, serial
        )
        parts.update(found)
        parts[f"match:{match_id}"] = {"mapping": mapping, "added": stamp}
    if not parts:
        raise GroupRefused(_("Give at least one match."), field="match")
    count = sum(1 for key in parts if key.startswith("match:"))
    _room(len(state.matches), count, MAX_GROUP_MATCHES, "matches")
    words = f"{count} match{'' if count == 1 else 'es'}"
    return Plan(parts, f"Matches added from a group file: {words}", serial)


def _remove_match(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    match_id = cmd.asked.get("match")
    if match_id not in state.matches:
        raise GroupRefused(_("That match is not in this group."), field="match")
    summary = f"Match taken out: {match_words(db, match_id)}"
    return Plan({f"match:{match_id}": None}, summary, state.serial)


ROOM = {
    "matches": N_(
        "This group has %(have)d matches, and its group file holds at most %(most)d:"
        " it cannot take %(adding)d more. Start a new group for the next ones."
    ),
    "payments": N_(
        "This group has %(have)d payments, and its group file holds at most %(most)d:"
        " it cannot take %(adding)d more. Start a new group for the next ones."
    ),
}


def _room(have: int, adding: int, most: int, what: str) -> None:
    """Refuse what would take the group past what its group file holds."""
    if have + adding > most:
        raise GroupRefused(_(ROOM[what], have=have, most=most, adding=adding))


def _pay(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    """Payments recorded: `asked["payments"]`, each {payer, payee, amount,
    currency, date} (member ids; amount as text with two decimals at most);
    a group file's payments also name the phone that recorded each (`by`)."""
    payments = cmd.asked.get("payments")
    if not isinstance(payments, list) or not payments:
        raise GroupRefused(_("Give at least one payment."), field="payments")
    _room(len(state.payments), len(payments), MAX_GROUP_PAYMENTS, "payments")
    parts: dict[str, Any] = {}
    words = []
    serial = state.serial
    for pay in payments:
        serial += 1
        part = _payment(state, pay, cmd.device, stamp)
        parts[f"payment:{serial}"] = part
        payer, payee = state.member(part["payer"]).name, state.member(part["payee"]).name
        currency = pay.get("currency") or ""  # as typed: the history kept it so
        words.append(f"{payer} paid {payee} {part['amount']} {currency}".strip())
    if len(words) > MAX_PAID_WORDS:  # a group file's payments: the history stays short
        more = len(words) - MAX_PAID_WORDS
        words = [*words[:MAX_PAID_WORDS], f"and {more} more payment{'' if more == 1 else 's'}"]
    return Plan(parts, "Paid: " + "; ".join(words), serial)


MAX_PAID_WORDS = 40  # payments named in one change's summary (a settle-up has fewer)


def _payment(state: GroupState, pay: dict[str, Any], device: str, stamp: str) -> dict[str, Any]:
    """One payment's part, checked (who paid whom, amount, currency, day, phone)."""
    payer, payee = state.member(pay.get("payer")), state.member(pay.get("payee"))
    if payer is None or payee is None:
        raise GroupRefused(_("Choose who paid and who was paid among the members."), field="payer")
    if payer.id == payee.id:
        raise GroupRefused(_("Someone pays another member, not themselves."), field="payee")
    problem = amount_problem(pay.get("amount"))
    if problem:
        raise GroupRefused(problem, field="amount")
    currency = pay.get("currency") or ""
    if not isinstance(currency, str) or len(currency) > MAX_CURRENCY:
        said = _("A currency has at most %(most)d characters.", most=MAX_CURRENCY)
        raise GroupRefused(said, field="currency")
    if text_problem(currency):
        said = _("The currency %(problem)s.", problem=text_problem(currency))
        raise GroupRefused(said, field="currency")
    try:
        day = date.fromisoformat(pay.get("date") or "").isoformat()
    except (TypeError, ValueError):
        said = _("Give the day it was paid, like 2026-11-25.")
        raise GroupRefused(said, field="date") from None
    by = pay.get("by", device)
    if not isinstance(by, str) or not by.strip() or len(by) > MAX_DEVICE or name_problem(by):
        said = _("Name the phone in 1–%(most)d characters.", most=MAX_DEVICE)
        raise GroupRefused(said, field="by")
    return {
        "payer": payer.id,
        "payee": payee.id,
        "amount": f"{Decimal(pay['amount']):.2f}",
        "currency": currency.strip(),
        "date": day,
        "device": by.strip(),
        "created": stamp,
    }


PLANS: dict[str, Callable[[Database, GroupState, GroupCommand, str], Plan]] = {
    RENAME: _rename,
    STAKE: _stake,
    ADD_MEMBER: _add_member,
    RENAME_MEMBER: _rename_member,
    ORDER: _order,
    ADD_MATCH: _add_match,
    NEW_MATCH: _add_match,
    REMAP: _remap,
    RETIRE: _retire,
    BRING_BACK: _retire,
    ADD_MATCHES: _add_matches,
    REMOVE_MATCH: _remove_match,
    PAY: _pay,
}


def plan_for(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> Plan:
    """The parts `cmd` changes, checked against `state`; or GroupRefused."""
    if cmd.kind not in PLANS:
        raise ValueError(f"unknown group command {cmd.kind!r}")
    return PLANS[cmd.kind](db, state, cmd, stamp)


def overlooked(kind: str, after: dict[str, Any], since: list[GroupChange]) -> list[GroupChange]:
    """Changes made since the form was drawn that it must not overlook (undo.py):
    any that touched a part it changes; for payments, any change of a payment or
    of the matches (the balances the form showed moved)."""
    money = ("payment:", "match:") if kind == PAY else ()
    return in_the_way(since, lambda change: change.after, after, money)


def undo_plan(state: GroupState, cmd: GroupCommand, changes: list[GroupChange]) -> Plan:
    """Take back the change an Undo button was drawn for, while it is still the
    newest change not undone (undo.py); never another phone's newer change."""
    try:
        target = undo_target(changes, cmd.asked.get("undoes"))
    except NotUndone as refused:
        raise GroupRefused(refused.message, stale=refused.stale) from None
    return Plan(dict(target.before), f"Undone: {target.summary}", state.serial, target.revision)
