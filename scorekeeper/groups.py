"""Groups in the store: the players who meet every Friday, their matches (each
player name of a match mapped to a member), the payments between them.

A group's current state is kept in its tables (`groups`, `group_members`,
`group_matches`, `group_payments`); every change of it goes through the write
path of a match's (`db.write`, here `apply_group`): one `BEGIN IMMEDIATE`
transaction that reads the group, answers a form sent again as the first time
(its one-time key), checks the command against what it read (revision),
appends a row to the group's change log (`group_changes`, read and written
through `store/journal.py` like a match's) holding each changed part's value
before and after, and writes the parts it changes. Undo writes the values
before back, as a new change. The SQL is `store/groups.py`'s.

A part is one thing a change can touch: "name", "stake:<game>" (a game's
default stake, "*" for every game), "member:<id>", "match:<match id>",
"payment:<id>". Two changes touching the same part conflict: a form drawn
before another phone changed a part it changes is refused as stale.

Members are kept by number: a match's mapping names member numbers, so
renaming a member renames them everywhere in the group without rewriting a
match. No balances or settle-up here (that is the ledger's arithmetic).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from sqlite_utils import Database

from . import formats
from .changelog import DEFAULT_DEVICE, MAX_DEVICE, played_on
from .db import load_match, new_match_id, new_token, now, write, writing
from .games.catalog import VARIANTS
from .matchfile import MAX_CURRENCY, MAX_TITLE, parse_stake
from .model import played_key
from .names import alike, name_problem, normal, pick, text_problem
from .speech import N_, Shown, _, english, ngettext
from .speech import joined as said_together
from .store import groups as group_rows
from .store import journal
from .store.journal import Journal
from .variants import MAX_NAME
from .words import said_money

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
# A group file grows by the hands saved in its matches too, outside the group's
# write path, and a group of 500 matches of 500 entries each would be far too
# much to read back (benchmarks/bench_groupfile.py --worst). So a group also
# stops growing (a match added or started, a payment, a longer name) once its
# file has reached MAX_GROUP_BYTES, and the import takes a file of up to
# MAX_GROUP_FILE_BYTES: the room between is kept for the hands still saved in
# the matches already in the group, which are never refused for the group.
MAX_GROUP_BYTES = 3 * 1024 * 1024
MAX_GROUP_FILE_BYTES = 4 * 1024 * 1024
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


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def load_group(db: Database, group_id: str) -> GroupState | None:
    row = group_rows.group_row(db, group_id)
    if row is None:
        return None
    state = GroupState(
        id=row["id"],
        watch=row["watch"],
        name=row["name"],
        stakes=_loads(row["stakes"]) or {},
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
        asked=_loads(row["asked"]) or {},
        before=_loads(row["before"]) or {},
        after=_loads(row["after"]) or {},
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
        "asked": _dump(change.asked),
        "before": _dump(change.before),
        "after": _dump(change.after),
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


def undoable(changes: list[GroupChange]) -> GroupChange | None:
    """The newest change not yet undone (an undo is not undone: a second Undo
    goes one step further back; the group's start is never undone)."""
    undone: set[int] = set()
    for change in reversed(changes):
        if change.undoes is not None:
            undone.add(change.undoes)
        elif change.revision not in undone and change.kind != CREATE:
            return change
    return None


# --- checking what a form asks -------------------------------------------------------


def member_name_problem(name: Any, field: str) -> str | None:
    """Why `name` cannot name a member (None: it can)."""
    if not isinstance(name, str) or not normal(name):
        return _("Write the member's name.")
    name = normal(name)
    if len(name) > MAX_NAME:
        return _(
            "%(name)s… has %(count)d characters; a name has at most %(most)d.",
            name=name[:20],
            count=len(name),
            most=MAX_NAME,
        )
    unusable = name_problem(name)
    return _("This name %(problem)s.", problem=unusable) if unusable else None


def members_refused(members: list[str]) -> list[GroupRefused]:
    """What is wrong with the members of a new group, each on its own input
    ("member2": the second name given): an unusable name, a name twice."""
    found = []
    kept: list[str] = []
    for index, member in enumerate(members, 1):
        problem = member_name_problem(member, f"member{index}")
        if problem:
            found.append(GroupRefused(problem, field=f"member{index}"))
            continue
        name = normal(member)
        twin = next((m for m in kept if alike(m, name)), None)
        if twin:
            found.append(
                GroupRefused(
                    _(
                        "%(name)s reads the same as %(twin)s: give each member a different name.",
                        name=name,
                        twin=twin,
                    ),
                    field=f"member{index}",
                )
            )
        kept.append(name)
    return found


def group_name_problem(name: Any) -> str | None:
    if not isinstance(name, str) or not name.strip():
        return _("Give the group a name, like “Friday trio”.")
    name = name.strip()
    if len(name) > MAX_TITLE:
        return _(
            "The name has %(count)d characters; a group's name has at most %(most)d.",
            count=len(name),
            most=MAX_TITLE,
        )
    turned = name_problem(name)
    return _("The name %(problem)s.", problem=turned) if turned else None


STAKE_FIELDS = {"amount": "stake_amount", "per": "stake_per", "currency": "stake_currency"}


def stake_refusal(stake: Any) -> GroupRefused | None:
    """What is wrong with a stake, on the input to fix (None: nothing)."""
    if stake is None:
        return None
    _parsed, problems = parse_stake(stake)
    if not problems:
        return None
    problem = problems[0]
    field = STAKE_FIELDS.get(problem.field or "", "stake_amount")
    message = problem.message
    if field == "stake_currency" and message.startswith("has "):  # names.text_problem
        return GroupRefused(_("The currency %(problem)s.", problem=message), field=field)
    if field == "stake_amount" and "decimal string" in message:
        said = _(
            "%(typed)s is not an amount: write it like 0.50 or 0,50, with no thousands separator.",
            typed=repr(stake.get("amount")),
        )
        return GroupRefused(said, field=field)
    return GroupRefused(f"{message[:1].upper()}{message[1:]}.", field=field)


def _stake_words(stake: dict[str, Any] | None) -> str:
    if not stake:
        return "no stake"
    currency = f" {stake['currency']}" if stake.get("currency") else ""
    per = stake.get("per", 1)
    return f"{stake['amount']}{currency} per {'point' if per == 1 else f'{per} points'}"


def game_name(game: str) -> str:
    if game == EVERY_GAME:
        return "every game"
    return VARIANTS[game].name if game in VARIANTS else game


# An amount as written at the table: ASCII digits with a decimal point (its
# sign and decimals checked below). Decimal() alone takes "٣" (Arabic-Indic
# 3) and "1E+2", which no one at the table means as 3 or 100.
AMOUNT = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def amount_problem(text: Any) -> str | None:
    if not isinstance(text, str):
        return _("Write the amount, like 7.50.")
    typed = repr(text)[:40]  # as typed, quoted, cut short
    if not AMOUNT.fullmatch(text):
        return _("%(typed)s is not an amount: write digits 0–9, like 7.50.", typed=typed)
    try:
        amount = Decimal(text)
    except InvalidOperation:  # pragma: no cover - the pattern admits only decimals
        return _("%(typed)s is not an amount: write it like 7.50.", typed=typed)
    if not amount.is_finite() or amount <= 0 or amount.as_tuple().exponent < -2:
        return _("Write an amount above 0 with at most two decimals, like 7.50.")
    if amount >= 10**9:
        return _("That amount is too large for a card table.")
    return None


def match_words(db: Database, match_id: str) -> str:
    """A match in a few words for the history: "Chicago, 25 Nov (Ann, Bob, Cy, Dan)"."""
    stored = load_match(db, match_id)
    if stored is None:
        return "a match"
    name = english(game_name(stored.variant))  # kept with the change: the history's English
    day = stored.played or played_day(stored.created)
    return f"{stored.title or name}, {day:%-d %b %Y} ({', '.join(stored.players)})"


# --- the history's lines, said in the reader's language -----------------------------
#
# A change's line is kept in English as it was written (the group file and other
# programs read it); a page says it again in the phone's language from that text,
# piece by piece, and shows it as kept when a piece does not read as expected.

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
    """ "Chicago: 0.50 EUR per point" (the words of _stake_words), said."""
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


def played_day(created: str) -> date:
    """The day a match started at `created` counts for (the evening rule), for
    a match that names no day."""
    return played_on(created)


# --- deciding a change ---------------------------------------------------------------


# --- the group file's text (groupfile.py reads it; a group's size is its length) -----


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


def group_full_message() -> str:
    return _(
        "This group's file has reached %(size)s, the most a group holds so that its file"
        " can always be imported back. Start a new group for the next ones.",
        size=size_words(MAX_GROUP_BYTES),
    )


def _check_size(db: Database, before: GroupState, after: GroupState) -> None:
    """Refuse a change that leaves the group's file past MAX_GROUP_BYTES and
    larger than it was (a change that makes it smaller is never refused)."""
    size = group_file_bytes(db, after)
    if size > MAX_GROUP_BYTES and size > group_file_bytes(db, before):
        raise GroupRefused(group_full_message())


@dataclass
class _Plan:
    """What a command changes: the parts' values after, and the history words."""

    after: dict[str, Any]
    summary: str
    serial: int
    undoes: int | None = None


def _new_members(state: GroupState, names: list[str], serial: int) -> tuple[dict, list[int], int]:
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


def _mapping(
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
    chosen: dict[str, Any] = {}
    for player in stored.players:
        pick = asked.get(player)
        if pick in (None, ""):
            if current is not None and player in current:
                pick = GUEST if current[player] is None else current[player]
            else:
                same = state.member_named(player)
                pick = same.id if same else NEW
        chosen[player] = pick
    unknown = [p for p in asked if p not in stored.players]
    if unknown:
        said = _("%(player)s does not play in this match.", player=unknown[0])
        raise GroupRefused(said, field="mapping")
    fresh = [p for p, pick in chosen.items() if pick == NEW]
    for player in fresh:
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
    parts, ids, serial = _new_members(state, fresh, serial)
    mapping = {p: None if pick == GUEST else pick for p, pick in chosen.items() if pick != NEW}
    mapping.update(zip(fresh, ids, strict=True))
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
    ordered = {p: mapping[p] for p in stored.players}
    return parts, ordered, serial


def _plan(db: Database, state: GroupState, cmd: GroupCommand, stamp: str) -> _Plan:
    """The parts `cmd` changes, checked against `state`; or GroupRefused."""
    asked, serial = cmd.asked, state.serial
    kind = cmd.kind
    if kind == RENAME:
        problem = group_name_problem(asked.get("name"))
        if problem:
            raise GroupRefused(problem, field="name")
        name = asked["name"].strip()
        return _Plan({"name": name}, f"Group renamed: {state.name} → {name}", serial)
    if kind == STAKE:
        game, stake = asked.get("game"), asked.get("stake")
        if game != EVERY_GAME and game not in VARIANTS:
            raise GroupRefused(_("Choose the game this stake is for."), field="game")
        refused = stake_refusal(stake)
        if refused:
            raise refused
        words = _stake_words(stake)
        return _Plan(
            {f"stake:{game}": stake}, f"Stake for {english(game_name(game))}: {words}", serial
        )
    if kind == ADD_MEMBER:
        problem = member_name_problem(asked.get("name"), "name")
        if problem:
            raise GroupRefused(problem, field="name")
        name = normal(asked["name"])
        taken = state.member_named(name)
        if taken and taken.retired:
            said = _(
                "%(name)s reads the same as %(member)s, a retired member: bring %(member)s back.",
                name=name,
                member=taken.name,
            )
            raise GroupRefused(said, field="name")
        if taken:
            raise GroupRefused(
                _(
                    "%(name)s reads the same as the member %(member)s.",
                    name=name,
                    member=taken.name,
                ),
                field="name",
            )
        parts, _ids, serial = _new_members(state, [name], serial)
        return _Plan(parts, f"Member added: {name}", serial)
    if kind == RENAME_MEMBER:
        member = _member_asked(state, asked)
        problem = member_name_problem(asked.get("name"), "name")
        if problem:
            raise GroupRefused(problem, field="name")
        name = normal(asked["name"])
        taken = next((m for m in state.members if m.id != member.id and alike(m.name, name)), None)
        if taken:
            raise GroupRefused(
                _(
                    "%(name)s reads the same as the member %(member)s.",
                    name=name,
                    member=taken.name,
                ),
                field="name",
            )
        parts = {f"member:{member.id}": member.value(name=name)}
        return _Plan(parts, f"Member renamed: {member.name} → {name}", serial)
    if kind == ORDER:
        order = asked.get("order")
        if sorted(order or []) != sorted(m.id for m in state.members) or len(set(order)) != len(
            order
        ):
            raise GroupRefused(_("Give each member one place in the order."), field="order")
        parts = {}
        for position, member_id in enumerate(order, 1):
            member = state.member(member_id)
            if member.position != position:
                parts[f"member:{member_id}"] = member.value(position=position)
        if not parts:
            raise GroupRefused(_("That is already the order."), field="order")
        names = ", ".join(state.member(i).name for i in order)
        return _Plan(parts, f"Members in order: {names}", serial)
    if kind in (ADD_MATCH, NEW_MATCH):
        _room(len(state.matches), 1, MAX_GROUP_MATCHES, "matches")
        match_id = asked.get("match")
        if not isinstance(match_id, str):
            raise GroupRefused(_("Give the match's address."), field="match")
        parts, mapping, serial = _mapping(db, state, match_id, asked.get("mapping") or {}, serial)
        parts[f"match:{match_id}"] = {"mapping": mapping, "added": stamp}
        verb = "Match started" if kind == NEW_MATCH else "Match added"
        words = [f"{verb}: {match_words(db, match_id)}"]
        if kind == NEW_MATCH:
            # Playing again brings a retired member back (undoing the start retires them again).
            for member_id in mapping.values():
                member = state.member(member_id) if member_id is not None else None
                if member is not None and member.retired:
                    parts[f"member:{member.id}"] = member.value(retired=False)
                    words.append(f"{member.name} back on the member list")
        words += [f"{p} as a guest" for p, mid in mapping.items() if mid is None]
        return _Plan(parts, "; ".join(words), serial)
    if kind == REMAP:
        return _remap(db, state, asked, serial)
    if kind in (RETIRE, BRING_BACK):
        member = _member_asked(state, asked)
        if kind == RETIRE and member.retired:
            raise GroupRefused(
                _("%(member)s is retired already.", member=member.name), field="member"
            )
        if kind == BRING_BACK and not member.retired:
            said = _(
                "%(member)s is not retired: %(member)s is on the member list.", member=member.name
            )
            raise GroupRefused(said, field="member")
        parts = {f"member:{member.id}": member.value(retired=kind == RETIRE)}
        verb = "Member retired" if kind == RETIRE else "Member back"
        return _Plan(parts, f"{verb}: {member.name}", serial)
    if kind == ADD_MATCHES:
        # A group file's matches, joined at once: one change, one Undo.
        parts: dict[str, Any] = {}
        for joined in asked.get("matches") or []:
            match_id = joined.get("match")
            if not isinstance(match_id, str) or f"match:{match_id}" in parts:
                raise GroupRefused(_("Give each match's address once."), field="match")
            found, mapping, serial = _mapping(
                db, state, match_id, joined.get("mapping") or {}, serial
            )
            parts.update(found)
            parts[f"match:{match_id}"] = {"mapping": mapping, "added": stamp}
        if not parts:
            raise GroupRefused(_("Give at least one match."), field="match")
        count = sum(1 for key in parts if key.startswith("match:"))
        _room(len(state.matches), count, MAX_GROUP_MATCHES, "matches")
        words = f"{count} match{'' if count == 1 else 'es'}"
        return _Plan(parts, f"Matches added from a group file: {words}", serial)
    if kind == REMOVE_MATCH:
        match_id = asked.get("match")
        if match_id not in state.matches:
            raise GroupRefused(_("That match is not in this group."), field="match")
        return _Plan(
            {f"match:{match_id}": None}, f"Match taken out: {match_words(db, match_id)}", serial
        )
    if kind == PAY:
        return _pay(state, asked, serial, cmd.device, stamp)
    raise ValueError(f"unknown group command {kind!r}")


def _member_asked(state: GroupState, asked: dict[str, Any]) -> Member:
    """The member a form names by number (`asked["member"]`), or GroupRefused."""
    ident = asked.get("member")
    member = state.member(ident) if isinstance(ident, int) and not isinstance(ident, bool) else None
    if member is None:
        raise GroupRefused(_("There is no such member in this group."), field="member")
    return member


def _remap(db: Database, state: GroupState, asked: dict[str, Any], serial: int) -> _Plan:
    """A match's mapping changed in place (`asked`: match, mapping as ADD_MATCH's;
    a player not named keeps their member): the match is counted again everywhere
    with the new mapping. When it was added is kept."""
    match_id = asked.get("match")
    joined = state.matches.get(match_id) if isinstance(match_id, str) else None
    if joined is None:
        raise GroupRefused(_("That match is not in this group."), field="match")
    parts, mapping, serial = _mapping(
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
    return _Plan(parts, summary, serial)


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


def _pay(state: GroupState, asked: dict[str, Any], serial: int, device: str, stamp: str) -> _Plan:
    """Payments recorded: `asked["payments"]`, each {payer, payee, amount,
    currency, date} (member ids; amount as text with two decimals at most);
    a group file's payments also name the phone that recorded each (`by`)."""
    payments = asked.get("payments")
    if not isinstance(payments, list) or not payments:
        raise GroupRefused(_("Give at least one payment."), field="payments")
    _room(len(state.payments), len(payments), MAX_GROUP_PAYMENTS, "payments")
    parts: dict[str, Any] = {}
    words = []
    for pay in payments:
        payer, payee = state.member(pay.get("payer")), state.member(pay.get("payee"))
        if payer is None or payee is None:
            raise GroupRefused(
                _("Choose who paid and who was paid among the members."), field="payer"
            )
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
            raise GroupRefused(
                _("Give the day it was paid, like 2026-11-25."), field="date"
            ) from None
        by = pay.get("by", device)
        if not isinstance(by, str) or not by.strip() or len(by) > MAX_DEVICE or name_problem(by):
            said = _("Name the phone in 1–%(most)d characters.", most=MAX_DEVICE)
            raise GroupRefused(said, field="by")
        serial += 1
        amount = f"{Decimal(pay['amount']):.2f}"
        parts[f"payment:{serial}"] = {
            "payer": payer.id,
            "payee": payee.id,
            "amount": amount,
            "currency": currency.strip(),
            "date": day,
            "device": by.strip(),
            "created": stamp,
        }
        words.append(f"{payer.name} paid {payee.name} {amount} {currency}".strip())
    if len(words) > MAX_PAID_WORDS:  # a group file's payments: the history stays short
        more = len(words) - MAX_PAID_WORDS
        words = [*words[:MAX_PAID_WORDS], f"and {more} more payment{'' if more == 1 else 's'}"]
    return _Plan(parts, "Paid: " + "; ".join(words), serial)


MAX_PAID_WORDS = 40  # payments named in one change's summary (a settle-up has fewer)


def _conflicts(kind: str, after: dict[str, Any], since: list[GroupChange]) -> list[GroupChange]:
    """Changes made since the form was drawn that it must not overlook: any that
    touched a part it changes; for payments, any change of a payment or of the
    matches (the balances the form showed moved)."""
    touched = set(after)
    money = ("payment:", "match:") if kind == PAY else ()
    return [
        change
        for change in since
        if set(change.after) & touched or any(k.startswith(money) for k in change.after if money)
    ]


def _undo_plan(state: GroupState, cmd: GroupCommand, changes: list[GroupChange]) -> _Plan:
    """Take back the change an Undo button was drawn for, while it is still the
    newest change not undone; never another phone's newer change."""
    wanted = cmd.asked.get("undoes")
    target = undoable(changes)
    if target is None:
        raise GroupRefused(_("There is nothing to undo."))
    if wanted != target.revision:
        at = next((c for c in changes if c.revision == wanted), None)
        if at is None or at.kind == CREATE or at.undoes is not None:
            raise GroupRefused(_("There is no such change to undo."))
        newer = [c for c in changes if c.revision > wanted and c.undoes is None]
        raise GroupRefused("newer", stale=newer or [target])
    return _Plan(dict(target.before), f"Undone: {target.summary}", state.serial, target.revision)


def form_keys(submission: str | None, kind: str, asked: Any) -> list[str]:
    """The keys a form may be stored under: its one-time key, and that key with
    a digest of what it asks. A page brought back (Back) sends its key again
    with other content: that change is stored under the second key, so it is a
    change of its own and a double tap of it is still stored once (as
    `db.create_match` does for a match's start)."""
    return journal.form_keys(submission, _dump([kind, asked]).encode("utf-8", "surrogatepass"))


def _this_form(group_id: str, cmd: GroupCommand) -> Callable[[str, GroupChange], bool]:
    """Whether a stored change is the one `cmd` asks for (the same group, kind and content)."""
    asked = _asked(cmd)
    return lambda owner, change: (owner, change.kind, change.asked) == (group_id, cmd.kind, asked)


def _keys(cmd: GroupCommand) -> list[str]:
    return form_keys(cmd.submission, cmd.kind, _asked(cmd))


def repeated(db: Database, group_id: str, cmd: GroupCommand) -> GroupChange | None:
    """The change this very form already stored (the same key and content), if any."""
    found, _earlier = journal.earlier(db, GROUP_LOG, _keys(cmd), _this_form(group_id, cmd))
    return found[1] if found else None


def start_asked(
    name: str, members: list[str], stakes: dict | None, imported: str | None
) -> dict[str, Any]:
    """What a new group's form (or group file) asks, as its first change keeps it."""
    asked: dict[str, Any] = {"name": (name or "").strip(), "members": [normal(m) for m in members]}
    if stakes:
        asked["stakes"] = stakes
    if imported:
        asked["file"] = imported
    return json.loads(_dump(asked))


def start_repeated(
    db: Database, submission: str | None, asked: dict[str, Any]
) -> tuple[GroupApplied | None, str | None]:
    """The group this very start form (or file) already made, as a repeated
    answer; else None and the key its start is to be stored under."""
    keys = form_keys(submission, CREATE, asked)
    found, free = journal.earlier(
        db,
        GROUP_LOG,
        keys,
        lambda at, change: (
            change.kind == CREATE and change.asked == asked and load_group(db, at) is not None
        ),
    )
    if found is None:
        return None, free
    return GroupApplied(found[0], found[1], load_group(db, found[0]), repeated=True), None


def _change(state: GroupState, cmd: GroupCommand, plan: _Plan, stamp: str) -> GroupChange:
    """The change `plan` makes of the group as read: each part's value before and after."""
    return GroupChange(
        revision=state.revision + 1,
        kind=cmd.kind,
        asked=cmd.asked,
        before={key: state.part(key) for key in plan.after},
        after=plan.after,
        undoes=plan.undoes,
        summary=plan.summary,
        device=cmd.device,
        created=stamp,
        submission=cmd.submission,
    )


def _keep(db: Database, state: GroupState, change: GroupChange, plan: _Plan) -> GroupState:
    """Write what a change (appended to the log) makes of the group's tables:
    the parts it changes, the group's revision; the group as it is now."""
    for key, value in change.after.items():
        group_rows.write_part(db, state.id, key, value)
    group_rows.moved_on(db, state.id, change.revision, plan.serial, change.created)
    return load_group(db, state.id)


def _asked(cmd: GroupCommand) -> Any:
    """What the command asks, as stored (through JSON)."""
    return json.loads(_dump(cmd.asked))


def apply_in(
    db: Database, group_id: str, cmd: GroupCommand, *, measure: bool = True
) -> GroupApplied:
    """`apply_group`, joining a write transaction the caller holds (a new match
    joined to its group in the transaction that starts it). `measure`: refuse
    a change that takes the group's file past MAX_GROUP_BYTES (a group file's
    import measures the whole group once, against MAX_GROUP_FILE_BYTES)."""

    def decided(state: GroupState, key: str | None) -> tuple[GroupChange, _Plan]:
        # The key with other content (a page brought back): a change of its own,
        # checked against the revision its page was drawn from like any other.
        sent = replace(cmd, submission=key)
        if sent.revision is not None and sent.revision > state.revision:
            raise GroupRefused(
                _("This form does not belong to this group as stored: reload the page.")
            )
        if state.revision >= MAX_GROUP_CHANGES:
            raise GroupRefused(
                _(
                    "This group has %(count)d changes, the most a group keeps: start a new group.",
                    count=state.revision,
                )
            )
        stamp = now()
        if sent.kind == UNDO:
            plan = _undo_plan(state, sent, group_changes(db, group_id))
        else:
            plan = _plan(db, state, sent, stamp)
            if sent.revision is not None and sent.revision < state.revision:
                since = group_changes(db, group_id, sent.revision)
                stale = _conflicts(sent.kind, plan.after, since)
                if stale:
                    raise GroupRefused("stale", stale=stale)
        return _change(state, sent, plan, stamp), plan

    def kept(state: GroupState, change: GroupChange, plan: _Plan) -> GroupState:
        after = _keep(db, state, change, plan)
        if measure and cmd.kind != REMOVE_MATCH:  # taking a match out only shrinks the file
            _check_size(db, state, after)  # a refusal rolls the whole change back
        return after

    done = write(
        db,
        GROUP_LOG,
        group_id,
        _keys(cmd),
        load=lambda: load_group(db, group_id),
        same=_this_form(group_id, cmd),
        decide=decided,
        keep=kept,
    )
    return GroupApplied(group_id, done.change, done.after, done.repeated)


def apply_group(db: Database, group_id: str, cmd: GroupCommand) -> GroupApplied:
    """Check `cmd` against the group as stored now and store its change, in one
    write transaction. Raises LookupError (no such group), GroupRefused (nothing
    stored) or StoreBusy. A form sent again answers as the first time."""
    with writing(db):
        return apply_in(db, group_id, cmd)


def joiner(group_id: str, device: str, submission: str | None) -> Callable[[Database, str], None]:
    """What `db.create_match` calls inside its transaction to join the new match
    to the group: its players mapped to the members of the same name, a new
    name becoming a member. GroupRefused rolls the start back."""

    def join(db: Database, match_id: str) -> None:
        cmd = GroupCommand(NEW_MATCH, {"match": match_id}, None, submission, device)
        apply_in(db, group_id, cmd)

    return join


def create_group(
    db: Database,
    name: str,
    members: list[str],
    stakes: dict[str, dict[str, Any]] | None = None,
    *,
    device: str = DEFAULT_DEVICE,
    submission: str | None = None,
    imported: str | None = None,
) -> GroupApplied:
    """Store a new group with its members in this order (names checked by the
    caller's form, checked again here) and its default stakes. `imported`: the
    digest of the group file it comes from (kept in its first change, so the
    same file imported again is known)."""
    asked = start_asked(name, members, stakes, imported)
    problem = group_name_problem(name)
    if problem:
        raise GroupRefused(problem, field="name")
    for refused in members_refused(members):
        raise refused
    if len(members) > MAX_MEMBERS:
        raise GroupRefused(
            _("A group has at most %(most)d members.", most=MAX_MEMBERS), field="member1"
        )
    for game, stake in (stakes or {}).items():
        if game != EVERY_GAME and game not in VARIANTS:
            raise GroupRefused(_("Choose the game this stake is for."), field="stake_game")
        refused = stake_refusal(stake)
        if refused:
            raise refused
    with writing(db):
        made, submission = start_repeated(db, submission, asked)
        if made is not None:
            return made
        stamp = now()
        group_id = new_match_id()
        group_rows.insert_group(
            db,
            {
                "id": group_id,
                "watch": new_token(),
                "name": asked["name"],
                "stakes": _dump({}),
                "revision": 0,
                "serial": 0,
                "created": stamp,
                "updated": stamp,
            },
        )
        state = load_group(db, group_id)
        parts, _ids, serial = _new_members(state, asked["members"], 0)
        for game, stake in (stakes or {}).items():
            parts[f"stake:{game}"] = stake
        who = f" ({', '.join(asked['members'])})" if members else ""
        verb = "Group imported from a file" if imported else "Group started"
        plan = _Plan(parts, f"{verb}: {asked['name']}{who}", serial)
        change = _change(state, GroupCommand(CREATE, asked, None, submission, device), plan, stamp)
        journal.append(db, GROUP_LOG, group_id, change)
        return GroupApplied(group_id, change, _keep(db, state, change, plan))
