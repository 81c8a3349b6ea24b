"""A group's state and types: the kinds of change, the limits, the group as
stored now (members, matches, payments), a change of its log, and the reading
of both from the store."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from sqlite_utils import Database

from ..changelog import DEFAULT_DEVICE
from ..names import pick
from ..store import groups as group_rows
from ..store import journal
from ..store.journal import Journal

CREATE, RENAME, STAKE, ADD_MEMBER, RENAME_MEMBER, ORDER = (
    "create",
    "rename",
    "stake",
    "add_member",
    "rename_member",
    "order",
)
NEW_MATCH, ADD_MATCH, REMOVE_MATCH, PAY, UNDO = (
    "new_match",
    "add_match",
    "remove_match",
    "pay",
    "undo",
)
ADD_MATCHES = "add_matches"  # the matches of a group file, each with its mapping
RETIRE, BRING_BACK, REMAP = "retire", "bring_back", "remap"
MAX_MEMBERS = 40
MAX_GROUP_CHANGES = 20_000  # a weekly group's lifetime many times over
# The most a group file holds (groupfile.py): a group stops at them, so its own
# file can always be imported back.
MAX_GROUP_MATCHES = 500
MAX_GROUP_PAYMENTS = 2000
FORMAT = "scorekeeper-group/1"
NEW = "new"  # a mapping's choice: the player becomes a new member of that name
GUEST = "guest"  # a mapping's choice: the player plays this match without joining (stored None)
EVERY_GAME = "*"


@dataclass(frozen=True)
class Member:
    id: int
    name: str
    position: int
    retired: bool = False  # out of the member list and of new matches; kept in past ones

    def value(self, **changed: Any) -> dict[str, Any]:
        """The member as its part stores it ("retired" only when retired)."""
        value = {"name": self.name, "position": self.position, "retired": self.retired}
        value.update(changed)
        if not value["retired"]:
            del value["retired"]
        return value


@dataclass(frozen=True)
class GroupMatch:
    match_id: str
    mapping: dict[str, int | None]  # player name in the match -> member id (None: a guest)
    added: str


@dataclass(frozen=True)
class Payment:
    id: int
    payer: int  # member ids
    payee: int
    amount: str  # "7.50"
    currency: str
    date: str  # YYYY-MM-DD
    device: str
    created: str


@dataclass(frozen=True)
class GroupChange:
    revision: int
    kind: str
    asked: dict[str, Any]
    before: dict[str, Any]
    after: dict[str, Any]
    undoes: int | None
    summary: str
    device: str
    created: str
    submission: str | None


@dataclass
class GroupState:
    """A group as stored now."""

    id: str
    watch: str
    name: str
    stakes: dict[str, dict[str, Any]]
    revision: int
    serial: int
    created: str
    updated: str
    members: list[Member] = field(default_factory=list)  # in the chosen order, retired too
    matches: dict[str, GroupMatch] = field(default_factory=dict)  # oldest added first
    payments: list[Payment] = field(default_factory=list)

    def member(self, member_id: int) -> Member | None:
        return next((m for m in self.members if m.id == member_id), None)

    @property
    def active(self) -> list[Member]:
        """The member list: the members not retired, in the chosen order."""
        return [m for m in self.members if not m.retired]

    def member_named(self, name: str) -> Member | None:
        """The member `name` names (names.pick: written so, else alike), retired or not."""
        chosen = pick(name, (m.name for m in self.members))
        return next((m for m in self.members if m.name == chosen), None)

    def names_in(self, match_id: str) -> dict[str, str]:
        """Each player name of a match of the group -> its member's name now (a
        guest keeps the name played with)."""
        joined = self.matches[match_id]
        return {
            player: player if mid is None else self.member(mid).name
            for player, mid in joined.mapping.items()
        }

    def guests_in(self, match_id: str) -> list[str]:
        """The players of a match of the group who played it as guests, seating order."""
        return [p for p, mid in self.matches[match_id].mapping.items() if mid is None]

    def stake_for(self, game: str) -> dict[str, Any] | None:
        """The group's stake for `game` (its own, else the one for every game)."""
        return self.stakes.get(game) or self.stakes.get(EVERY_GAME)

    def part(self, key: str) -> Any:
        """The value of one part as a change stores it (None: there is none)."""
        kind, _colon, ident = key.partition(":")
        if kind == "name":
            return self.name
        if kind == "stake":
            return self.stakes.get(ident)
        if kind == "member":
            found = self.member(int(ident))
            return found.value() if found else None
        if kind == "match":
            joined = self.matches.get(ident)
            return {"mapping": joined.mapping, "added": joined.added} if joined else None
        if kind == "payment":
            pay = next((p for p in self.payments if p.id == int(ident)), None)
            if pay is None:
                return None
            return {k: getattr(pay, k) for k in PAYMENT_FIELDS}
        raise ValueError(key)


PAYMENT_FIELDS = ("payer", "payee", "amount", "currency", "date", "device", "created")


@dataclass(frozen=True)
class GroupCommand:
    """What a phone asks of a group: `asked` holds the form's content (JSON)."""

    kind: str
    asked: dict[str, Any]
    revision: int | None = None
    submission: str | None = None
    device: str = DEFAULT_DEVICE


@dataclass(frozen=True)
class GroupApplied:
    group_id: str
    change: GroupChange
    state: GroupState
    repeated: bool = False


class GroupRefused(Exception):
    """Nothing was stored: `message` (on the form field `field` when given), or
    the changes made since the form was drawn (`stale`)."""

    def __init__(self, message: str, *, field: str | None = None, stale: list[GroupChange] = ()):
        super().__init__(message)
        self.message = message
        self.field = field
        self.stale = list(stale)


# --- reading -------------------------------------------------------------------


def loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_group(db: Database, group_id: str) -> GroupState | None:
    row = group_rows.group_row(db, group_id)
    if row is None:
        return None
    state = GroupState(
        id=row["id"],
        watch=row["watch"],
        name=row["name"],
        stakes=loads(row["stakes"]) or {},
        revision=row["revision"],
        serial=row["serial"] or 0,
        created=row["created"],
        updated=row["updated"],
    )
    state.members = [
        Member(r["id"], r["name"], r["position"], bool(r.get("retired")))
        for r in group_rows.member_rows(db, group_id)
    ]
    state.matches = {
        r["match_id"]: GroupMatch(r["match_id"], json.loads(r["mapping"]), r["added"])
        for r in group_rows.match_rows(db, group_id)
    }
    state.payments = [
        Payment(r["id"], *(r[k] for k in PAYMENT_FIELDS))
        for r in group_rows.payment_rows(db, group_id)
    ]
    return state


def _change_from_row(row: dict[str, Any]) -> GroupChange:
    return GroupChange(
        revision=row["revision"],
        kind=row["kind"],
        asked=loads(row["asked"]) or {},
        before=loads(row["before"]) or {},
        after=loads(row["after"]) or {},
        undoes=row["undoes"],
        summary=row["summary"] or "",
        device=row["device"] or DEFAULT_DEVICE,
        created=row["created"],
        submission=row["submission"],
    )


def _change_row(group_id: str, change: GroupChange) -> dict[str, Any]:
    return {
        "group_id": group_id,
        "revision": change.revision,
        "kind": change.kind,
        "asked": dump(change.asked),
        "before": dump(change.before),
        "after": dump(change.after),
        "undoes": change.undoes,
        "summary": change.summary,
        "device": change.device,
        "created": change.created,
        "submission": change.submission,
    }


GROUP_LOG = Journal("group_changes", "group_id", _change_from_row, _change_row)


def group_changes(db: Database, group_id: str, since: int = 0) -> list[GroupChange]:
    """The group's changes after revision `since`, oldest first."""
    return journal.since(db, GROUP_LOG, group_id, since)


def recent_changes(db: Database, group_id: str, count: int = 200) -> list[GroupChange]:
    """The group's newest `count` changes, oldest first (what its page shows:
    the newest change not undone is almost always among them)."""
    return journal.newest(db, GROUP_LOG, group_id, count)


def group_revision(db: Database, group_id: str) -> int | None:
    """The group's revision (None: no such group): the cheap live check."""
    return group_rows.group_revision(db, group_id)


def group_for_watch(db: Database, token: str) -> str | None:
    return group_rows.group_for_watch(db, token)


def list_groups(db: Database, ids: list[str]) -> list[GroupState]:
    """The groups of `ids` that exist, most recently changed first."""
    found = [g for g in (load_group(db, i) for i in ids) if g is not None]
    return sorted(found, key=lambda g: (g.updated, g.id), reverse=True)


def groups_of_match(db: Database, match_id: str) -> list[str]:
    return group_rows.groups_of_match(db, match_id)


@dataclass
class Plan:
    """What a command changes: the parts' values after, and the history words."""

    after: dict[str, Any]
    summary: str
    serial: int
    undoes: int | None = None
