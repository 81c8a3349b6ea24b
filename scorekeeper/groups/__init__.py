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

This package's modules: `state` (the kinds, limits and types, the group and
its log read), `checks` (names, stakes, amounts), `mapping` (a match's players
to members), `plans` (what each kind of change does, undo and stale forms by
undo.py's rules, the match's too), `said` (the history's lines in the
reader's language), `document` (the group file and its size);
here the write path. Callers write `from scorekeeper import groups as g`: the
names they use are here too.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from sqlite_utils import Database

from ..changelog import DEFAULT_DEVICE
from ..db import new_match_id, new_token, now, write, writing
from ..games.catalog import VARIANTS
from ..names import normal
from ..speech import _
from ..store import groups as group_rows
from ..store import journal
from ..undo import form_keys as keys_of
from ..undo import newest_standing
from .checks import (
    AMOUNT,
    STAKE_FIELDS,
    amount_problem,
    game_name,
    group_name_problem,
    match_words,
    member_name_problem,
    members_refused,
    played_day,
    stake_refusal,
    stake_words,
)
from .document import dumps, group_document, group_file_bytes, size_words
from .mapping import new_members
from .plans import overlooked, plan_for, undo_plan
from .said import said_line
from .state import (
    ADD_MATCH,
    ADD_MATCHES,
    ADD_MEMBER,
    BRING_BACK,
    CREATE,
    EVERY_GAME,
    FORMAT,
    GROUP_LOG,
    GUEST,
    MAX_GROUP_CHANGES,
    MAX_GROUP_MATCHES,
    MAX_GROUP_PAYMENTS,
    MAX_MEMBERS,
    NEW,
    NEW_MATCH,
    ORDER,
    PAY,
    PAYMENT_FIELDS,
    REMAP,
    REMOVE_MATCH,
    RENAME,
    RENAME_MEMBER,
    RETIRE,
    STAKE,
    UNDO,
    GroupApplied,
    GroupChange,
    GroupCommand,
    GroupMatch,
    GroupRefused,
    GroupState,
    Member,
    Payment,
    Plan,
    dump,
    group_changes,
    group_for_watch,
    group_revision,
    groups_of_match,
    list_groups,
    load_group,
    recent_changes,
)

# Callers read these modules' names here, as `g.NAME` (pyproject.toml lets this
# file import names it does not use); undo.py's rule under the name they knew.
undoable = newest_standing


# A group file grows by the hands saved in its matches too, outside the group's
# write path, and a group of 500 matches of 500 entries each would be far too
# much to read back (benchmarks/bench_groupfile.py --worst). So a group also
# stops growing (a match added or started, a payment, a longer name) once its
# file has reached MAX_GROUP_BYTES, and the import takes a file of up to
# MAX_GROUP_FILE_BYTES: the room between is kept for the hands still saved in
# the matches already in the group, which are never refused for the group.
MAX_GROUP_BYTES = 3 * 1024 * 1024
MAX_GROUP_FILE_BYTES = 4 * 1024 * 1024


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


def form_keys(submission: str | None, kind: str, asked: Any) -> list[str]:
    """The keys a form may be stored under: its one-time key, and that key with
    a digest of what it asks. A page brought back (Back) sends its key again
    with other content: that change is stored under the second key, so it is a
    change of its own and a double tap of it is still stored once (as
    `db.create_match` does for a match's start)."""
    return keys_of(submission, dump([kind, asked]).encode("utf-8", "surrogatepass"))


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
    return json.loads(dump(asked))


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


def _change(state: GroupState, cmd: GroupCommand, plan: Plan, stamp: str) -> GroupChange:
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


def _keep(db: Database, state: GroupState, change: GroupChange, plan: Plan) -> GroupState:
    """Write what a change (appended to the log) makes of the group's tables:
    the parts it changes, the group's revision; the group as it is now."""
    for key, value in change.after.items():
        group_rows.write_part(db, state.id, key, value)
    group_rows.moved_on(db, state.id, change.revision, plan.serial, change.created)
    return load_group(db, state.id)


def _asked(cmd: GroupCommand) -> Any:
    """What the command asks, as stored (through JSON)."""
    return json.loads(dump(cmd.asked))


def _decide(
    db: Database, group_id: str, cmd: GroupCommand, state: GroupState, key: str | None
) -> tuple[GroupChange, Plan]:
    """The change `cmd` makes of the group as read inside the write transaction
    (stored under `key`), or GroupRefused: a form from a revision the group
    never had, a group full of changes, a refused plan, a stale form."""
    # The key with other content (a page brought back): a change of its own,
    # checked against the revision its page was drawn from like any other.
    sent = replace(cmd, submission=key)
    if sent.revision is not None and sent.revision > state.revision:
        raise GroupRefused(_("This form does not belong to this group as stored: reload the page."))
    if state.revision >= MAX_GROUP_CHANGES:
        raise GroupRefused(
            _(
                "This group has %(count)d changes, the most a group keeps: start a new group.",
                count=state.revision,
            )
        )
    stamp = now()
    if sent.kind == UNDO:
        planned = undo_plan(state, sent, group_changes(db, group_id))
    else:
        planned = plan_for(db, state, sent, stamp)
        if sent.revision is not None and sent.revision < state.revision:
            since = group_changes(db, group_id, sent.revision)
            in_the_way = overlooked(sent.kind, planned.after, since)
            if in_the_way:
                raise GroupRefused("stale", stale=in_the_way)
    return _change(state, sent, planned, stamp), planned


def apply_in(
    db: Database, group_id: str, cmd: GroupCommand, *, measure: bool = True
) -> GroupApplied:
    """`apply_group`, joining a write transaction the caller holds (a new match
    joined to its group in the transaction that starts it). `measure`: refuse
    a change that takes the group's file past MAX_GROUP_BYTES (a group file's
    import measures the whole group once, against MAX_GROUP_FILE_BYTES)."""

    def kept(state: GroupState, change: GroupChange, planned: Plan) -> GroupState:
        after = _keep(db, state, change, planned)
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
        decide=lambda state, key: _decide(db, group_id, cmd, state, key),
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


def _start_refused(name: str, members: list[str], stakes: dict | None) -> GroupRefused | None:
    """What is wrong with a new group's name, members or stakes (None: nothing)."""
    problem = group_name_problem(name)
    if problem:
        return GroupRefused(problem, field="name")
    for refused in members_refused(members):
        return refused
    if len(members) > MAX_MEMBERS:
        said = _("A group has at most %(most)d members.", most=MAX_MEMBERS)
        return GroupRefused(said, field="member1")
    for game, stake in (stakes or {}).items():
        if game != EVERY_GAME and game not in VARIANTS:
            return GroupRefused(_("Choose the game this stake is for."), field="stake_game")
        refused = stake_refusal(stake)
        if refused:
            return refused
    return None


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
    refused = _start_refused(name, members, stakes)
    if refused:
        raise refused
    with writing(db):
        made, submission = start_repeated(db, submission, asked)
        if made is not None:
            return made
        cmd = GroupCommand(CREATE, asked, None, submission, device)
        return _start(db, cmd, stakes)


def _start(db: Database, cmd: GroupCommand, stakes: dict | None) -> GroupApplied:
    """Store the new group `cmd` asks for, and its first change."""
    stamp = now()
    group_id = new_match_id()
    row = {"id": group_id, "watch": new_token(), "name": cmd.asked["name"], "stakes": dump({})}
    row.update(revision=0, serial=0, created=stamp, updated=stamp)
    group_rows.insert_group(db, row)
    state = load_group(db, group_id)
    parts, _ids, serial = new_members(state, cmd.asked["members"], 0)
    for game, stake in (stakes or {}).items():
        parts[f"stake:{game}"] = stake
    names = cmd.asked["members"]
    who = f" ({', '.join(names)})" if names else ""
    verb = "Group imported from a file" if "file" in cmd.asked else "Group started"
    planned = Plan(parts, f"{verb}: {cmd.asked['name']}{who}", serial)
    change = _change(state, cmd, planned, stamp)
    journal.append(db, GROUP_LOG, group_id, change)
    return GroupApplied(group_id, change, _keep(db, state, change, planned))
