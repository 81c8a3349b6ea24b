"""The rules of undo both change logs share (scorekeeper/undo.py), table-driven:
a log as a list of changes (revision 1 the start; `("undo", n)` takes back
change n), what "Undo the last change" takes back, what an Undo drawn for
change n does, what a form must not overlook, the one-time keys. Then the
match's log and the group's, each answering through them."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from scorekeeper import changelog
from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.undo import (
    EVERYTHING,
    NotUndone,
    form_keys,
    in_the_way,
    newest_or_nothing,
    newest_standing,
    undo_target,
    undone_by,
)

from .test_groups_store import cmd


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


@dataclass(frozen=True)
class Step:
    revision: int
    kind: str
    undoes: int | None = None
    parts: tuple[str, ...] = ()


def log(*kinds: str | tuple[str, int]) -> list[Step]:
    """("create", "edit", ("undo", 2), …) as changes numbered from 1."""
    steps = []
    for revision, kind in enumerate(kinds, 1):
        if isinstance(kind, tuple):
            steps.append(Step(revision, "edit", undoes=kind[1]))
        else:
            steps.append(Step(revision, kind))
    return steps


@pytest.mark.parametrize(
    ("kinds", "newest"),
    [
        (["create"], None),  # the start is never undone
        (["create", "append"], 2),
        (["create", "append", "edit"], 3),
        (["create", "append", "edit", ("undo", 3)], 2),  # a second Undo goes one step back
        (["create", "append", "edit", ("undo", 3), ("undo", 2)], None),
        (["create", "append", ("undo", 2), "edit"], 4),  # an undo is never undone
        (["create", "append", "edit", ("undo", 3), "settings"], 5),
        (["create", "append", "edit", ("undo", 2)], 3),  # only what was undone is skipped
    ],
)
def test_the_newest_change_not_undone_is_what_undo_the_last_change_takes_back(kinds, newest):
    found = newest_standing(log(*kinds))
    assert (found.revision if found else None) == newest


@pytest.mark.parametrize(
    ("kinds", "wanted", "target"),
    [
        (["create", "append", "edit"], 3, 3),
        (["create", "append", "edit", ("undo", 3)], 2, 2),
        (["create", "append", ("undo", 2), "edit", "settings"], 5, 5),
    ],
)
def test_an_undo_takes_back_the_change_it_was_drawn_for_while_it_is_the_newest(
    kinds, wanted, target
):
    assert undo_target(log(*kinds), wanted).revision == target


NOTHING = "There is nothing to undo."
NO_SUCH = "There is no such change to undo."


@pytest.mark.parametrize(
    ("kinds", "wanted", "message", "stale", "target"),
    [
        # another phone's newer change stands: never taken back in its place
        (["create", "append", "edit"], 2, "newer", [3], 2),
        # the changes in the way are those still standing (3 was undone by 4)
        (["create", "append", "edit", ("undo", 3), "settings"], 2, "newer", [5], 2),
        # a second tap on the same Undo: the undo that took it back is named
        (["create", "append", "edit", ("undo", 3)], 3, "undone", [4], 3),
        (["create", "append", ("undo", 2)], 2, "undone", [3], 2),
        (["create", "append", ("undo", 2)], 3, NO_SUCH, [], None),  # an undo is not undone
        (["create", "append"], 9, NO_SUCH, [], None),
        (["create", "append"], None, NO_SUCH, [], None),
        (["create", "append"], 1, NO_SUCH, [], None),  # the start, while a change stands
        (["create"], 1, NOTHING, [], None),
        (["create", "append", ("undo", 2)], 1, NOTHING, [], None),
    ],
)
def test_an_undo_is_refused_with_what_stands_in_its_way(kinds, wanted, message, stale, target):
    with pytest.raises(NotUndone) as refused:
        undo_target(log(*kinds), wanted)
    found = refused.value
    assert found.message == message
    assert [s.revision for s in found.stale] == stale
    assert (found.target.revision if found.target else None) == target


def test_undo_the_last_change_with_only_the_start_says_there_is_nothing_to_undo():
    assert newest_or_nothing(log("create", "append")).revision == 2
    with pytest.raises(NotUndone) as refused:
        newest_or_nothing(log("create", "append", ("undo", 2)))
    assert (refused.value.message, refused.value.stale) == (NOTHING, [])


def test_each_undone_change_is_named_with_the_undo_that_took_it_back():
    assert undone_by(log("create", "append", "edit", ("undo", 3), ("undo", 2))) == {3: 4, 2: 5}


def touched(step: Step) -> tuple[str, ...]:
    return step.parts


SINCE = [
    Step(4, "rename", parts=("name",)),
    Step(5, "add_member", parts=("member:4",)),
    Step(6, "pay", parts=("payment:3",)),
    Step(7, "remove_match", parts=("match:ab12",)),
]


@pytest.mark.parametrize(
    ("parts", "prefixes", "in_way"),
    [
        ({"name"}, (), [4]),  # another rename: the name the form showed moved
        ({"member:4", "member:5"}, (), [5]),
        ({"stake:*"}, (), []),  # nothing it changes was touched: stored
        ({"payment:9"}, ("payment:", "match:"), [6, 7]),  # the balances it showed moved
        (EVERYTHING, (), [4, 5, 6, 7]),  # an Undo overlooks nothing
    ],
)
def test_a_form_must_not_overlook_a_change_of_what_it_changes(parts, prefixes, in_way):
    assert [s.revision for s in in_the_way(SINCE, touched, parts, prefixes)] == in_way


def test_nothing_made_since_the_form_is_nothing_in_its_way():
    assert in_the_way([], touched, EVERYTHING) == []
    assert in_the_way([], touched, {"name"}) == []


def test_a_form_is_stored_under_its_key_and_its_key_with_a_digest_of_what_it_asks():
    # sha256(b"x") = 2d711642b726b044…
    assert form_keys("k" * 22, b"x") == ["k" * 22, "k" * 22 + ".2d711642b726b044"]
    assert form_keys("k" * 22, b"y")[1] != form_keys("k" * 22, b"x")[1]
    assert form_keys(None, b"x") == []
    assert form_keys("", b"x") == []


# --- the two logs answer through the shared rules ---------------------------------------


def test_a_matchs_log_entries_are_read_by_the_shared_rules():
    state = changelog.MatchState("m", "rubber", ["A", "B", "C", "D"], {}, "t", "w")
    changes = [
        changelog.Change(1, changelog.CREATE, settings={}),
        changelog.Change(2, changelog.SETTINGS, settings={"title": "One"}),
        changelog.Change(3, changelog.SETTINGS, settings={"title": "Two"}),
        changelog.Change(4, changelog.SETTINGS, settings={"title": "One"}, undoes=3),
    ]
    changelog.fold(state, changes)
    assert state.undoable() is state.log[1]
    assert undo_target(state.log, 2) is state.log[1]
    with pytest.raises(NotUndone) as refused:
        undo_target(state.log, 3)
    assert (refused.value.message, refused.value.stale) == ("undone", [state.log[3]])


def test_a_group_change_undone_already_is_refused_naming_the_undo(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    g.apply_group(db, group, cmd(g.RENAME, 1, name="Tuesday"))  # 2
    g.apply_group(db, group, cmd(g.UNDO, 2, undoes=2))  # 3
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.UNDO, 3, undoes=2))
    assert refused.value.message == "undone"
    assert [(c.revision, c.summary) for c in refused.value.stale] == [
        (3, "Undone: Group renamed: Friday → Tuesday")
    ]
    assert (g.load_group(db, group).name, g.load_group(db, group).revision) == ("Friday", 3)


def test_the_match_and_the_group_keep_their_forms_under_the_same_keys():
    assert store.form_keys is form_keys
    asked = {"name": "Tuesday"}
    assert g.form_keys("k" * 22, g.RENAME, asked) == form_keys(
        "k" * 22, b'["rename",{"name":"Tuesday"}]'
    )
