"""Read, validate, write and import the group file (`scorekeeper-group/1`).

A group file is one group whole: its name, members in order, default stakes,
every match as its own match file (docs/match-file.md, with the day it was
played) with each player mapped to a member, and the payments recorded.
docs/group-file.md is its public description.

Importing one is one write transaction through the groups' and matches' own
write paths: the group is started (`groups.create_group`), each match is
started like an imported match (`db.create_match`) and joined to the group in
that transaction (`groups.apply_in`, its players mapped), then the payments
are recorded (`groups.apply_in`, PAY). A problem anywhere stores nothing.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from .backup import _own_folder, slug, write_file
from .changelog import DEFAULT_DEVICE, MAX_DEVICE
from .db import create_match, set_started, writing
from .games.catalog import VARIANTS
from .games.common import Problem, key_name
from .groups import (
    MAX_GROUP_FILE_BYTES,
    apply_in,
    create_group,
    start_asked,
    start_repeated,
)
from .groups.checks import amount_problem, group_name_problem, member_name_problem, stake_refusal
from .groups.document import dumps, group_document, group_file_bytes, payment_asked, size_words
from .groups.state import (
    ADD_MATCHES,
    CREATE,
    EVERY_GAME,
    FORMAT,
    GUEST,
    MAX_GROUP_MATCHES,
    MAX_GROUP_PAYMENTS,
    MAX_MEMBERS,
    PAY,
    RETIRE,
    GroupApplied,
    GroupCommand,
    GroupRefused,
    GroupState,
    load_group,
)
from .matchfile import (
    MAX_CURRENCY,
    MAX_DEPTH,
    MAX_ENTRIES,
    from_document,
    nested_deeper,
    parse_played,
)
from .model import Match
from .names import alike, name_problem, normal, pick, text_problem
from .speech import _
from .store.groups import group_ids, groups_named, groups_started_with
from .variants import MatchError

TOP_LEVEL_KEYS = ("format", "name", "members", "retired", "stakes", "matches", "payments")
MATCH_KEYS = ("mapping", "match")
PAYMENT_KEYS = ("from", "to", "amount", "currency", "date", "by")
# The file, its matches, an entry, then a match file's own nesting.
MAX_GROUP_DEPTH = MAX_DEPTH + 3


@dataclass(frozen=True)
class GroupMatchEntry:
    mapping: dict[str, str | None]  # player name in the match -> member name (None: a guest)
    match: Match


@dataclass(frozen=True)
class GroupPayment:
    payer: str  # member names
    payee: str
    amount: str  # "7.50"
    currency: str
    date: str  # YYYY-MM-DD
    by: str  # the phone that recorded it


@dataclass(frozen=True)
class GroupFile:
    """A checked group file; `digest` names its content (the same file, however
    spaced, has the same digest)."""

    name: str
    members: list[str]
    stakes: dict[str, dict[str, Any]]
    matches: list[GroupMatchEntry]
    payments: list[GroupPayment]
    digest: str
    retired: list[str] = field(default_factory=list)  # members off the member list


class GroupHere(Exception):
    """The group of this file is already in the store: nothing was stored.
    `state` is that group now; `imported`: it came from this file (otherwise it
    is the group the file was exported from)."""

    def __init__(self, state: GroupState, imported: bool):
        super().__init__(state.id)
        self.state = state
        self.imported = imported


# --- writing ----------------------------------------------------------------------


GROUPS_FOLDER = "groups"  # where `scorekeeper export` writes the group files


def export_groups(db: Database, folder: Path) -> int:
    """Write every group into `folder`/groups as a group file; return how many.
    A file of the same name is replaced, a symbolic link too (never followed)."""
    ids = group_ids(db)
    if not ids:
        return 0
    target = folder / GROUPS_FOLDER
    _own_folder(target)
    for group_id in ids:
        state = load_group(db, group_id)
        write_file(target / group_filename(state), dumps(group_document(db, state)))
    return len(ids)


def group_filename(state: GroupState) -> str:
    """`<name>-<id>.group.json`: readable, unique by the id."""
    return f"{slug(state.name) or 'group'}-{state.id}.group.json"


# --- reading ----------------------------------------------------------------------


def digest_of(doc: Any) -> str:
    canonical = json.dumps(doc, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def names_group(raw: bytes) -> bool:
    """Whether uploaded bytes are meant as a group file (its format key says so),
    also when they are too large or not valid JSON: then the group file's own
    checks say what is wrong."""
    head = raw.lstrip()[:1]
    if head != b"{":
        return False
    try:
        doc = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError):
        return b'"format": "scorekeeper-group/' in raw or b'"format":"scorekeeper-group/' in raw
    return isinstance(doc, dict) and str(doc.get("format", "")).startswith("scorekeeper-group/")


def read_group_file(raw: bytes) -> GroupFile:
    """A group file as the app imports it (web or command line). Raises
    MatchError, each problem one line naming where it is."""
    if len(raw) > MAX_GROUP_FILE_BYTES:
        message = _(
            "larger than %(size)s; a group file holds at most %(members)d members,"
            " %(matches)d matches and %(payments)d payments, in a file of at most %(size)s",
            size=size_words(MAX_GROUP_FILE_BYTES),
            members=MAX_MEMBERS,
            matches=MAX_GROUP_MATCHES,
            payments=MAX_GROUP_PAYMENTS,
        )
        raise MatchError([Problem(message, "file")])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise MatchError([Problem(_("not a UTF-8 text file"), "file")]) from None
    return loads(text)


def loads(text: str) -> GroupFile:
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        message = _(
            "not valid JSON: %(what)s at line %(line)d column %(column)d",
            what=exc.msg,
            line=exc.lineno,
            column=exc.colno,
        )
        raise MatchError([Problem(message, "file")]) from None
    except (RecursionError, ValueError) as exc:
        what = _("nested too deeply") if isinstance(exc, RecursionError) else str(exc)
        raise MatchError([Problem(_("not valid JSON: %(what)s", what=what), "file")]) from None
    return from_group_document(doc)


def _bad_text(value: Any) -> bool:
    return isinstance(value, str) and any(0xD800 <= ord(ch) <= 0xDFFF for ch in value)


def from_group_document(doc: Any) -> GroupFile:
    """Check a parsed group document, every match replayed. Raises MatchError
    listing every problem (`matches[2]: hand 3: contract: …`)."""
    if not isinstance(doc, dict):
        raise MatchError([Problem(_("the group file must be a JSON object"), "file")])
    if nested_deeper(doc, MAX_GROUP_DEPTH):
        message = _(
            "nested too deeply: a group file nests lists and objects at most %(most)d levels",
            most=MAX_GROUP_DEPTH,
        )
        raise MatchError([Problem(message, "file")])
    problems = [
        Problem(_("unknown key; allowed: %(keys)s", keys=", ".join(TOP_LEVEL_KEYS)), key_name(key))
        for key in doc
        if key not in TOP_LEVEL_KEYS
    ]
    if doc.get("format") != FORMAT:
        typed = repr(doc.get("format"))[:60]
        problems.append(
            Problem(_("%(typed)s is not %(format)s", typed=typed, format=repr(FORMAT)), "format")
        )
    name = doc.get("name")
    turned = _("is not valid text; retype it") if _bad_text(name) else group_name_problem(name)
    if turned:
        problems.append(Problem(turned, "name"))
    members, named = _members(doc.get("members"), problems)
    retired = _retired(doc.get("retired", []), members, problems)
    stakes = _stakes(doc.get("stakes", {}), problems)
    # Mappings and payments are checked against every name listed, a refused
    # one too: its own line says what is wrong with it.
    matches = _matches(doc.get("matches", []), named, problems)
    payments = _payments(doc.get("payments", []), named, problems)
    if problems:
        raise MatchError(problems)
    return GroupFile(name.strip(), members, stakes, matches, payments, digest_of(doc), retired)


def _retired(value: Any, members: list[str], problems: list[Problem]) -> list[str]:
    """The retired members: names of `members`, each once."""
    if not isinstance(value, list):
        problems.append(Problem(_('give the retired members\' names: ["Cy"]'), "retired"))
        return []
    kept: list[str] = []
    for index, name in enumerate(value):
        if not isinstance(name, str) or name not in members or name in kept:
            said = _("%(typed)s is not one of the members (each once)", typed=repr(name)[:60])
            problems.append(Problem(said, f"retired[{index}]"))
            continue
        kept.append(name)
    return kept


def _members(value: Any, problems: list[Problem]) -> tuple[list[str], list[str] | None]:
    """The members that can be stored, and every name listed (None: no list
    to check the mappings and payments against)."""
    if not isinstance(value, list):
        problems.append(Problem(_('give the members\' names in order: ["Ann", "Bob"]'), "members"))
        return [], None
    if len(value) > MAX_MEMBERS:
        problems.append(
            Problem(
                _(
                    "%(count)d members; a group has at most %(most)d",
                    count=len(value),
                    most=MAX_MEMBERS,
                ),
                "members",
            )
        )
        return [], None
    kept: list[str] = []
    for index, member in enumerate(value):
        where = f"members[{index}]"
        problem = (
            _("is not valid text; retype it")
            if _bad_text(member)
            else member_name_problem(member, where)
        )
        if problem:
            problems.append(Problem(problem.rstrip("."), where))
            continue
        if normal(member) != member:
            problems.append(
                Problem(
                    _(
                        "%(typed)s: write the name without spaces around it",
                        typed=repr(member)[:60],
                    ),
                    where,
                )
            )
            continue
        twin = next((m for m in kept if alike(m, member)), None)
        if twin:
            said = _("%(name)s reads the same as the member %(member)s", name=member, member=twin)
            problems.append(Problem(said, where))
            continue
        kept.append(member)
    return kept, [m for m in value if isinstance(m, str)]


def _stakes(value: Any, problems: list[Problem]) -> dict[str, dict[str, Any]]:
    if not isinstance(value, dict):
        problems.append(Problem(_('give an object of stakes per game: {"*": {…}}'), "stakes"))
        return {}
    kept = {}
    for game, stake in value.items():
        where = f"stakes: {game if game == EVERY_GAME else key_name(game)}"
        if game != EVERY_GAME and game not in VARIANTS:
            problems.append(
                Problem(
                    _('not a game id; give "*" or one of %(ids)s', ids=", ".join(VARIANTS)), where
                )
            )
            continue
        refused = stake_refusal(stake) if stake is not None else None
        if stake is None:
            problems.append(Problem(_('give a stake like {"amount": "0.50", "per": 1}'), where))
            continue
        if refused is not None:
            problems.append(Problem(refused.message.rstrip("."), where))
            continue
        kept[game] = stake
    return kept


def _matches(
    value: Any, members: list[str] | None, problems: list[Problem]
) -> list[GroupMatchEntry]:
    if not isinstance(value, list):
        problems.append(Problem(_('give a list of {"mapping": …, "match": …}'), "matches"))
        return []
    if len(value) > MAX_GROUP_MATCHES:
        problems.append(
            Problem(
                _(
                    "%(count)d matches; a group file holds at most %(most)d",
                    count=len(value),
                    most=MAX_GROUP_MATCHES,
                ),
                "matches",
            )
        )
        return []
    kept = []
    for index, entry in enumerate(value):
        where = f"matches[{index}]"
        if not isinstance(entry, dict):
            problems.append(Problem(_('give an object {"mapping": …, "match": …}'), where))
            continue
        unknown = [key_name(k) for k in entry if k not in MATCH_KEYS]
        for key in unknown:
            problems.append(
                Problem(_("%(key)s: unknown key; allowed: mapping, match", key=key), where)
            )
        try:
            match = from_document(entry.get("match"), max_entries=MAX_ENTRIES)
        except MatchError as exc:
            problems += [Problem(line, where) for line in exc.lines]
            continue
        mapping = _mapping(entry.get("mapping", {}), match, members, where, problems)
        if mapping is not None and not unknown:
            kept.append(GroupMatchEntry(mapping, match))
    return kept


def _mapping(
    value: Any, match: Match, members: list[str] | None, where: str, problems: list[Problem]
) -> dict[str, str] | None:
    """Each player of `match` -> the member they are: as the file maps them,
    else the member of the same name."""
    if not isinstance(value, dict):
        problems.append(Problem(_('give an object {"player": "member"}'), f"{where}: mapping"))
        return None
    before = len(problems)
    for player in value:
        if player not in match.players:
            problems.append(
                Problem(
                    _("%(player)s: does not play in this match", player=key_name(player)),
                    f"{where}: mapping",
                )
            )
    chosen: dict[str, str | None] = {}
    for player in match.players:
        wanted = value.get(player, player)
        if wanted is None:  # a guest: plays this match without joining the group
            chosen[player] = None
            continue
        if members is None:
            chosen[player] = wanted
            continue
        member = pick(wanted, members) if isinstance(wanted, str) else None
        if member is None:
            said = (
                _("%(typed)s is not one of the members", typed=repr(wanted)[:60])
                if player in value
                else _("is not a member; map the player to one")
            )
            problems.append(Problem(said, f"{where}: mapping: {player}"))
            continue
        twin = next((p for p, m in chosen.items() if m == member), None)
        if twin is not None:
            problems.append(
                Problem(
                    _(
                        "%(one)s and %(other)s are both %(member)s: a member plays once in a match",
                        one=twin,
                        other=player,
                        member=member,
                    ),
                    f"{where}: mapping",
                )
            )
            continue
        chosen[player] = member
    return chosen if len(problems) == before else None


def _payments(value: Any, members: list[str] | None, problems: list[Problem]) -> list[GroupPayment]:
    if not isinstance(value, list):
        problems.append(Problem(_('give a list of {"from", "to", "amount", …}'), "payments"))
        return []
    if len(value) > MAX_GROUP_PAYMENTS:
        message = _(
            "%(count)d payments; a group file holds at most %(most)d",
            count=len(value),
            most=MAX_GROUP_PAYMENTS,
        )
        problems.append(Problem(message, "payments"))
        return []
    kept = []
    for index, pay in enumerate(value):
        where = f"payments[{index}]"
        if not isinstance(pay, dict):
            problems.append(Problem(_('give an object {"from", "to", "amount", …}'), where))
            continue
        before = len(problems)
        for key in pay:
            if key not in PAYMENT_KEYS:
                allowed = ", ".join(PAYMENT_KEYS)
                problems.append(
                    Problem(
                        _("unknown key; allowed: %(keys)s", keys=allowed),
                        f"{where}: {key_name(key)}",
                    )
                )
        who = {}
        for key in ("from", "to"):
            wanted = pay.get(key)
            who[key] = (
                wanted if members is None or not isinstance(wanted, str) else pick(wanted, members)
            )
            if members is not None and who[key] is None:
                problems.append(
                    Problem(
                        _("%(typed)s is not one of the members", typed=repr(wanted)[:60]),
                        f"{where}: {key}",
                    )
                )
        if who["from"] == who["to"] and isinstance(who["from"], str):
            problems.append(
                Problem(_("a member pays another member, not themselves"), f"{where}: to")
            )
        problem = amount_problem(pay.get("amount"))
        if problem:
            problems.append(Problem(problem.rstrip("."), f"{where}: amount"))
        currency = pay.get("currency", "")
        if not isinstance(currency, str) or len(currency) > MAX_CURRENCY:
            message = _("give text of at most %(most)d characters", most=MAX_CURRENCY)
            problems.append(Problem(message, f"{where}: currency"))
        elif text_problem(currency):
            problems.append(Problem(text_problem(currency), f"{where}: currency"))
        day, wrong = parse_played(pay.get("date"))
        if wrong:
            problems.append(Problem(wrong[0].message, f"{where}: date"))
        by = pay.get("by", DEFAULT_DEVICE)
        if not isinstance(by, str) or not by.strip() or len(by) > MAX_DEVICE or name_problem(by):
            message = _("give the phone's name, text of 1–%(most)d characters", most=MAX_DEVICE)
            problems.append(Problem(message, f"{where}: by"))
        if len(problems) == before:
            amount = f"{Decimal(pay['amount']):.2f}"
            kept.append(
                GroupPayment(
                    who["from"], who["to"], amount, currency.strip(), day.isoformat(), by.strip()
                )
            )
    return kept


# --- importing --------------------------------------------------------------------


def _started_on(day: date, place: int) -> str:
    """A match's start stamp on the day it was played: noon there, so the day
    reads the same in any time zone the server may be moved to, and a
    millisecond more for each match before it in the file, so matches of one
    day keep the file's order."""
    noon = datetime.combine(day, time(12)) + timedelta(milliseconds=place)
    try:
        here = noon.astimezone()
    except (OverflowError, ValueError):
        # The first or last day of the calendar: the zone's offset today (its
        # offset for noon of that day cannot be computed without leaving it).
        here = noon.replace(tzinfo=datetime.now().astimezone().tzinfo)
    return here.isoformat(timespec="milliseconds")


def exported_here(db: Database, group: GroupFile) -> GroupState | None:
    """A group of the store whose group file is this one (it was exported from here)."""
    for group_id in groups_named(db, group.name):
        state = load_group(db, group_id)
        if state is not None and digest_of(group_document(db, state)) == group.digest:
            return state
    return None


def imported_here(db: Database, digest: str) -> GroupState | None:
    """The group first imported from the file of this digest, if still here."""
    for group_id in groups_started_with(db, CREATE, digest):
        state = load_group(db, group_id)
        if state is not None:
            return state
    return None


def import_group(
    db: Database,
    group: GroupFile,
    *,
    device: str = DEFAULT_DEVICE,
    submission: str | None = None,
    copy: bool = False,
) -> GroupApplied:
    """Store a checked group file as a new group with its matches, mappings and
    payments, in one write transaction. The same form sent again answers as
    the first time (`repeated`); a group already here (imported from this
    file, or the group it was exported from) raises GroupHere unless `copy`.
    Raises GroupRefused or StoreBusy with nothing stored."""
    with writing(db):
        # The same form sent again answers as the first time; its key sent with
        # another file (Back, another file chosen) imports that file as its own.
        asked = start_asked(group.name, group.members, group.stakes or None, group.digest)
        made, _started = start_repeated(db, submission, asked)
        if made is not None:
            return made
        if not copy:
            here = imported_here(db, group.digest)
            if here is not None:
                raise GroupHere(here, imported=True)
            here = exported_here(db, group)
            if here is not None:
                raise GroupHere(here, imported=False)
        made = create_group(
            db,
            group.name,
            group.members,
            group.stakes or None,
            device=device,
            submission=submission,
            imported=group.digest,
        )
        group_id = made.group_id
        ids = {m.name: m.id for m in made.state.members}
        joined = []
        for place, entry in enumerate(group.matches):
            started = create_match(db, entry.match, device=device, join=_on_its_day(entry, place))
            mapping = {
                player: GUEST if member is None else ids[member]
                for player, member in entry.mapping.items()
            }
            joined.append({"match": started.match_id, "mapping": mapping})
        if joined:
            cmd = GroupCommand(ADD_MATCHES, {"matches": joined}, None, None, device)
            apply_in(db, group_id, cmd, measure=False)
        for name in group.retired:
            cmd = GroupCommand(RETIRE, {"member": ids[name]}, None, None, device)
            apply_in(db, group_id, cmd, measure=False)
        if group.payments:
            paid = [payment_asked(ids[p.payer], ids[p.payee], p, p.by) for p in group.payments]
            cmd = GroupCommand(PAY, {"payments": paid}, None, None, device)
            apply_in(db, group_id, cmd, measure=False)
        state = load_group(db, group_id)
        # The group's own download must import back: as the app writes it (one
        # line per match, spaced) a file written tightly by hand can grow.
        size = group_file_bytes(db, state)
        if size > MAX_GROUP_FILE_BYTES:
            raise GroupRefused(
                f"As this app writes it, this group's file would be {size_words(size)},"
                f" more than the {size_words(MAX_GROUP_FILE_BYTES)} a group file holds."
            )
        return GroupApplied(group_id, made.change, state)


def _on_its_day(entry: GroupMatchEntry, place: int):
    """What `create_match` calls in its transaction: the match started on the
    day it was played (the ledger's periods go by it)."""

    def join(db: Database, match_id: str) -> None:
        if entry.match.played is not None:
            set_started(db, match_id, _started_on(entry.match.played, place))

    return join
