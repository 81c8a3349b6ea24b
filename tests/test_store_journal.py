"""One write path for matches and groups (`db.write`), one way to read and
append their change logs (`store/journal.py`), and a group's tables that are
what its change log makes them (never a second truth)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.changelog import Command
from scorekeeper.matchfile import from_document
from scorekeeper.model import MATCH_FORMAT
from scorekeeper.store import journal

PACKAGE = Path(__file__).resolve().parent.parent / "scorekeeper"
LOG_TABLES = {"changes", "group_changes"}
LOG_WRITE = re.compile(
    r"\b(insert\s+(or\s+\w+\s+)?into|update|delete\s+from)\s+(group_)?changes\b", re.I
)


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


def start(db, players, group=None, key=None):
    match = from_document(
        {
            "format": MATCH_FORMAT,
            "variant": "top-game",
            "players": players,
            "options": {},
            "hands": [],
        }
    )
    join = g.joiner(group, "Ann's phone", key) if group else None
    return store.create_match(db, match, submission=key, join=join).match_id


def cmd(kind, revision, key=None, **asked):
    return g.GroupCommand(kind, asked, revision, key, "Bob's phone")


def _calls(path: Path, function: str) -> set[str]:
    """The names that `function` in the module at `path` calls directly."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = next(
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == function
    )
    return {
        node.func.id
        for node in ast.walk(found)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
    }


def test_a_match_and_a_group_change_take_the_one_write_path():
    assert "write" in _calls(PACKAGE / "db.py", "apply")
    assert "write" in _calls(PACKAGE / "groups" / "__init__.py", "apply_in")


def _log_writes(path: Path) -> list[str]:
    """Where the module at `path` names a change log's table to write it: as
    `db["changes"]` or in an insert, update or delete statement."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
            if node.slice.value in LOG_TABLES:
                found.append(f"{path.name}:{node.lineno}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [f"{path.name}:{node.lineno}"] if LOG_WRITE.search(node.value) else []
    return found


def test_only_the_journal_writes_a_change_log():
    """Both logs are appended by `journal.append` (the migrations, frozen, aside)."""
    storage = [PACKAGE / "db.py", *sorted((PACKAGE / "store").glob("*.py"))]
    assert [place for path in storage for place in _log_writes(path)] == []
    assert any(  # the control: the journal's own statement, one INSERT
        isinstance(node, ast.Constant) and str(node.value).startswith("insert into")
        for node in ast.walk(ast.parse((PACKAGE / "store" / "journal.py").read_text()))
    )


def test_a_refusal_in_keep_rolls_the_appended_change_back(db):
    """What `keep` raises (a group grown past its file's size) leaves the log
    and the tables as they were: the change and its row go together."""
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id

    def refuse(state, change, plan):
        raise g.GroupRefused("too big")

    with pytest.raises(g.GroupRefused, match="too big"):
        store.write(
            db,
            g.GROUP_LOG,
            group,
            ["k" * 16],
            load=lambda: g.load_group(db, group),
            same=lambda owner, change: False,
            decide=lambda state, key: (
                g.GroupChange(2, g.RENAME, {}, {}, {"name": "X"}, None, "", "", "t", key),
                None,
            ),
            keep=refuse,
        )
    assert [c.revision for c in g.group_changes(db, group)] == [1]
    assert db["group_changes"].count == 1
    assert g.load_group(db, group).revision == 1


def test_a_form_sent_again_is_answered_from_the_log_for_both(db):
    """The one-time key is looked up the same way in both logs: the second
    send decides nothing and stores nothing."""
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id
    first = g.apply_group(db, group, cmd(g.RENAME, 1, "r" * 16, name="Friday four"))
    again = g.apply_group(db, group, cmd(g.RENAME, 1, "r" * 16, name="Friday four"))
    assert (first.repeated, again.repeated, again.change) == (False, True, first.change)
    match_id = start(db, ["Ann", "Bob", "Cy"])
    title = Command("settings", settings={"title": "Cup"}, revision=1, submission="s" * 16)
    saved = store.apply(db, match_id, title)
    twice = store.apply(db, match_id, title)
    assert (saved.repeated, twice.repeated, twice.change) == (False, True, saved.change)
    assert journal.stored(db, store.MATCH_LOG, "s" * 16) == (match_id, saved.change)
    assert journal.stored(db, g.GROUP_LOG, "r" * 16) == (group, first.change)
    assert (db["changes"].count, db["group_changes"].count) == (2, 2)


def _replayed(changes: list[g.GroupChange]) -> dict:
    """A group's parts as its change log makes them: the start's name, then
    each change's values after (an undo's are the values before it)."""
    parts = {"name": changes[0].asked["name"]}
    for change in changes:
        parts.update(change.after)
    return {key: value for key, value in parts.items() if value is not None}


def _parts(state: g.GroupState) -> dict:
    keys = ["name", *(f"stake:{game}" for game in state.stakes)]
    keys += [f"member:{m.id}" for m in state.members]
    keys += [f"match:{match_id}" for match_id in state.matches]
    keys += [f"payment:{p.id}" for p in state.payments]
    return {key: state.part(key) for key in keys}


def test_a_groups_tables_are_what_its_change_log_replays(db):
    stake = {"amount": "0.50", "per": 1, "currency": "EUR"}
    group = g.create_group(db, "Friday", ["Ann", "Bob"], {"*": stake}).group_id

    def do(kind, **asked):
        return g.apply_group(db, group, cmd(kind, None, **asked))

    do(g.ADD_MEMBER, name="Cy")
    do(g.RENAME, name="Friday four")
    first = start(db, ["Ann", "Bob", "Dan"], group=group)
    second = start(db, ["Cy", "Dan", "Eve"], group=group)
    do(g.RENAME_MEMBER, member=4, name="Dana")
    do(g.ORDER, order=[3, 1, 2, 4, 5])
    paid = {"payer": 1, "payee": 2, "amount": "7.50", "currency": "EUR", "date": "2026-11-27"}
    do(g.PAY, payments=[paid])
    do(g.REMOVE_MATCH, match=first)
    last = g.recent_changes(db, group, 1)[-1].revision
    do(g.UNDO, undoes=last)  # the first match back
    do(g.STAKE, game="top-game", stake={"amount": "1", "per": 10, "currency": ""})
    do(g.UNDO, undoes=last + 2)  # that stake taken back
    state = g.load_group(db, group)
    changes = g.group_changes(db, group)
    assert [c.kind for c in changes] == [
        "create",
        "add_member",
        "rename",
        "new_match",
        "new_match",
        "rename_member",
        "order",
        "pay",
        "remove_match",
        "undo",
        "stake",
        "undo",
    ]
    assert _replayed(changes) == _parts(state)
    assert sorted(state.matches) == sorted([first, second])
    assert [m.name for m in state.members] == ["Cy", "Ann", "Bob", "Dana", "Eve"]
    assert (state.name, state.stakes, state.revision) == ("Friday four", {"*": stake}, 12)
    assert (state.updated, state.serial) == (changes[-1].created, 6)
