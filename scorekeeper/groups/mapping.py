"""A match's players mapped to a group's members: the member of the same name
by default, else a new member of that name; a member chosen, a new member or
a guest for each player; a mapping changed in place. And the members a form
names or adds."""

from __future__ import annotations

from typing import Any

from sqlite_utils import Database

from ..db import load_match
from ..speech import _
from .checks import match_words
from .state import GUEST, MAX_MEMBERS, NEW, GroupRefused, GroupState, Member, Plan


def new_members(state: GroupState, names: list[str], serial: int) -> tuple[dict, list[int], int]:
    """Parts adding members called `names` at the end of the order."""
    parts: dict[str, Any] = {}
    ids: list[int] = []
    position = max((m.position for m in state.members), default=0)
    for name in names:
        serial += 1
        position += 1
        parts[f"member:{serial}"] = {"name": name, "position": position}
        ids.append(serial)
    if len(state.members) + len(ids) > MAX_MEMBERS:
        raise GroupRefused(
            _("A group has at most %(most)d members.", most=MAX_MEMBERS), field="name"
        )
    return parts, ids, serial


def member_asked(state: GroupState, asked: dict[str, Any]) -> Member:
    """The member a form names by number (`asked["member"]`), or GroupRefused."""
    ident = asked.get("member")
    member = state.member(ident) if isinstance(ident, int) and not isinstance(ident, bool) else None
    if member is None:
        raise GroupRefused(_("There is no such member in this group."), field="member")
    return member


def mapping_parts(
    db: Database,
    state: GroupState,
    match_id: str,
    asked: dict[str, Any],
    serial: int,
    current: dict[str, int | None] | None = None,
) -> tuple[dict[str, Any], dict[str, int | None], int]:
    """The parts and mapping that join match `match_id`: each player mapped to
    the member chosen (`asked`: player -> member id, NEW or GUEST), by default
    the member of the same name, else a new member of that name. `current`: the
    mapping of a match already in the group, changed in place (by default each
    player keeps their member)."""
    stored = load_match(db, match_id)
    if stored is None:
        raise GroupRefused(_("There is no match at that address."), field="match")
    if current is None and match_id in state.matches:
        raise GroupRefused(_("This match is already in the group."), field="match")
    if not isinstance(asked, dict):
        raise GroupRefused(
            _("Choose a member, a new member or a guest for each player."), field="mapping"
        )
    chosen = _chosen(state, stored.players, asked, current)
    _check_choices(state, stored.players, asked, chosen)
    fresh = [p for p, pick in chosen.items() if pick == NEW]
    parts, ids, serial = new_members(state, fresh, serial)
    mapping = {p: None if pick == GUEST else pick for p, pick in chosen.items() if pick != NEW}
    mapping.update(zip(fresh, ids, strict=True))
    _once_each(state, mapping)
    ordered = {p: mapping[p] for p in stored.players}
    return parts, ordered, serial


def _chosen(
    state: GroupState,
    players: list[str],
    asked: dict[str, Any],
    current: dict[str, int | None] | None,
) -> dict[str, Any]:
    """Each player's choice: the one asked, else the member they had, else the
    member of the same name, else a new member."""
    chosen: dict[str, Any] = {}
    for player in players:
        pick = asked.get(player)
        if pick in (None, ""):
            if current is not None and player in current:
                pick = GUEST if current[player] is None else current[player]
            else:
                same = state.member_named(player)
                pick = same.id if same else NEW
        chosen[player] = pick
    return chosen


def _check_choices(
    state: GroupState, players: list[str], asked: dict[str, Any], chosen: dict[str, Any]
) -> None:
    """Refuse a player not in the match, a new member whose name reads as a
    member's, a choice that is no member of the group."""
    unknown = [p for p in asked if p not in players]
    if unknown:
        said = _("%(player)s does not play in this match.", player=unknown[0])
        raise GroupRefused(said, field="mapping")
    for player in (p for p, pick in chosen.items() if pick == NEW):
        taken = state.member_named(player)
        if taken is not None:
            said = _(
                "%(player)s cannot be a new member: it reads the same as the member"
                " %(member)s. Choose %(member)s for %(player)s.",
                player=player,
                member=taken.name,
            )
            raise GroupRefused(said, field=f"map:{player}")
    for player, pick in chosen.items():
        if pick in (NEW, GUEST):
            continue
        if isinstance(pick, bool) or not isinstance(pick, int) or state.member(pick) is None:
            said = _("Choose a member of the group for %(player)s.", player=player)
            raise GroupRefused(said, field=f"map:{player}")


def _once_each(state: GroupState, mapping: dict[str, int | None]) -> None:
    """Refuse a member mapped to two players of one match."""
    by_member: dict[int, str] = {}
    for player, member_id in mapping.items():
        if member_id is None:
            continue
        if member_id in by_member:
            name = state.member(member_id).name
            said = _(
                "%(one)s and %(other)s are both mapped to %(member)s: a member plays once in"
                " a match.",
                one=by_member[member_id],
                other=player,
                member=name,
            )
            raise GroupRefused(said, field=f"map:{player}")
        by_member[member_id] = player


def remap(db: Database, state: GroupState, asked: dict[str, Any], serial: int) -> Plan:
    """A match's mapping changed in place (`asked`: match, mapping as ADD_MATCH's;
    a player not named keeps their member): the match is counted again everywhere
    with the new mapping. When it was added is kept."""
    match_id = asked.get("match")
    joined = state.matches.get(match_id) if isinstance(match_id, str) else None
    if joined is None:
        raise GroupRefused(_("That match is not in this group."), field="match")
    parts, mapping, serial = mapping_parts(
        db, state, match_id, asked.get("mapping") or {}, serial, current=joined.mapping
    )
    if mapping == joined.mapping:
        raise GroupRefused(_("That is already the mapping: nothing to change."), field="mapping")
    fresh = {int(key.partition(":")[2]) for key in parts}

    def named(member_id: int | None, player: str) -> str:
        if member_id is None:
            return "a guest"
        if member_id in fresh:
            return f"{player} (new member)"
        return state.member(member_id).name

    moved = [
        f"{player} → {named(member_id, player)} (was {named(joined.mapping.get(player), player)})"
        for player, member_id in mapping.items()
        if member_id != joined.mapping.get(player)
    ]
    parts[f"match:{match_id}"] = {"mapping": mapping, "added": joined.added}
    summary = f"Mapping changed: {match_words(db, match_id)}: {'; '.join(moved)}"
    return Plan(parts, summary, serial)
