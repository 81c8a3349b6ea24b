"""Members and mappings through the group's one write path (`groups.apply_group`):
a member retired and brought back, a guest who plays a match without joining,
a match's mapping changed in place; each with its history words, its undo, and
the stale and repeated forms of two phones."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.groupfile import from_group_document, import_group, loads
from scorekeeper.ledger import ledger, members_only
from scorekeeper.matchfile import from_document
from scorekeeper.report import match_summary
from scorekeeper.variants import MatchError
from tests.test_groups_store import cmd, start
from tests.test_ledger import RUBBER


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


@pytest.fixture
def group(db):
    return g.create_group(db, "Friday", ["Ann", "Bob", "Cy", "Dee"]).group_id


def members(state):
    return [(m.name, m.retired) for m in state.members]


def test_a_retired_member_leaves_the_member_list_but_keeps_their_matches(db, group):
    match_id = start(db, ["Ann", "Bob", "Cy"], group=group, key="m" * 16)
    done = g.apply_group(db, group, cmd(g.RETIRE, 2, member=3))
    state = done.state
    assert done.change.summary == "Member retired: Cy"
    assert members(state) == [("Ann", False), ("Bob", False), ("Cy", True), ("Dee", False)]
    assert [m.name for m in state.active] == ["Ann", "Bob", "Dee"]
    assert state.names_in(match_id) == {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy"}
    assert done.change.before == {"member:3": {"name": "Cy", "position": 3}}
    assert done.change.after == {"member:3": {"name": "Cy", "position": 3, "retired": True}}
    # kept when the group is read again from its tables
    assert members(g.load_group(db, group))[2] == ("Cy", True)


def test_a_retired_member_is_brought_back_by_undo_or_by_bring_back(db, group):
    g.apply_group(db, group, cmd(g.RETIRE, 1, member=3))
    undone = g.apply_group(db, group, cmd(g.UNDO, 2, undoes=2))
    assert undone.change.summary == "Undone: Member retired: Cy"
    assert members(undone.state)[2] == ("Cy", False)
    g.apply_group(db, group, cmd(g.RETIRE, 3, member=3))
    back = g.apply_group(db, group, cmd(g.BRING_BACK, 4, member=3))
    assert back.change.summary == "Member back: Cy"
    assert members(back.state)[2] == ("Cy", False)
    assert [m.name for m in back.state.active] == ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize(
    ("kind", "asked", "field", "said"),
    [
        (g.RETIRE, {"member": 9}, "member", "There is no such member in this group."),
        (g.RETIRE, {"member": "3"}, "member", "There is no such member in this group."),
        (g.BRING_BACK, {"member": 3}, "member", "Cy is not retired: Cy is on the member list."),
    ],
)
def test_a_bad_retire_or_bring_back_names_the_field_and_stores_nothing(
    db, group, kind, asked, field, said
):
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, g.GroupCommand(kind, asked, 1))
    assert (refused.value.field, refused.value.message) == (field, said)
    assert g.group_revision(db, group) == 1


def test_retiring_a_retired_member_again_is_refused(db, group):
    g.apply_group(db, group, cmd(g.RETIRE, 1, member=3))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.RETIRE, 2, member=3))
    assert refused.value.message == "Cy is retired already."
    assert refused.value.field == "member"


def test_a_member_added_with_a_retired_members_name_is_told_to_bring_them_back(db, group):
    g.apply_group(db, group, cmd(g.RETIRE, 1, member=3))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.ADD_MEMBER, 2, name="cy"))
    assert refused.value.message == "cy reads the same as Cy, a retired member: bring Cy back."
    assert refused.value.field == "name"


def test_a_new_match_with_a_retired_members_name_brings_them_back(db, group):
    g.apply_group(db, group, cmd(g.RETIRE, 1, member=3))
    match_id = start(db, ["Ann", "Bob", "Cy"], group=group, key="n" * 16)
    state = g.load_group(db, group)
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Cy": 3}
    assert members(state)[2] == ("Cy", False)
    # the start's undo retires Cy again along with taking the match out
    g.apply_group(db, group, cmd(g.UNDO, 3, undoes=3))
    assert members(g.load_group(db, group))[2] == ("Cy", True)


def test_a_retire_from_a_stale_form_is_refused_and_the_same_form_twice_is_stored_once(db, group):
    g.apply_group(db, group, cmd(g.RENAME_MEMBER, 1, member=3, name="Cyril"))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.RETIRE, 1, "r" * 16, member=3))
    assert [c.summary for c in refused.value.stale] == ["Member renamed: Cy → Cyril"]
    first = g.apply_group(db, group, cmd(g.RETIRE, 2, "s" * 16, member=3))
    again = g.apply_group(db, group, cmd(g.RETIRE, 2, "s" * 16, member=3))
    assert (first.repeated, again.repeated) == (False, True)
    assert again.change.revision == first.change.revision == 3
    assert g.group_revision(db, group) == 3


def test_a_guest_plays_a_match_without_becoming_a_member(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    done = g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"Zed": g.GUEST}))
    state = done.state
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": None}
    assert state.guests_in(match_id) == ["Zed"]
    assert state.names_in(match_id) == {"Ann": "Ann", "Bob": "Bob", "Zed": "Zed"}
    assert [m.name for m in state.members] == ["Ann", "Bob", "Cy", "Dee"]
    assert done.change.summary.endswith("; Zed as a guest")
    assert members(g.load_group(db, group)) == members(state)


def test_a_mapping_is_changed_in_place_and_undone(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id))
    state = g.load_group(db, group)
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": 5}
    added = state.matches[match_id].added
    done = g.apply_group(
        db, group, cmd(g.REMAP, 2, match=match_id, mapping={"Zed": 4, "Ann": 1, "Bob": 2})
    )
    assert done.state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": 4}
    assert done.state.matches[match_id].added == added
    assert done.change.summary.startswith("Mapping changed: The Top Game, ")
    assert done.change.summary.endswith(": Zed → Dee (was Zed)")
    guest = g.apply_group(db, group, cmd(g.REMAP, 3, match=match_id, mapping={"Zed": g.GUEST}))
    assert guest.state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": None}
    assert guest.change.summary.endswith(": Zed → a guest (was Dee)")
    undone = g.apply_group(db, group, cmd(g.UNDO, 4, undoes=4))
    assert undone.state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": 4}


@pytest.mark.parametrize(
    ("mapping", "field", "said"),
    [
        ({}, "mapping", "That is already the mapping: nothing to change."),
        (
            {"Zed": 1},
            "map:Zed",
            "Ann and Zed are both mapped to Ann: a member plays once in a match.",
        ),
        ({"Zed": 77}, "map:Zed", "Choose a member of the group for Zed."),
        ({"Max": 1}, "mapping", "Max does not play in this match."),
        (
            {"Zed": "new"},
            "map:Zed",
            "Zed cannot be a new member: it reads the same as the member Zed. Choose Zed for Zed.",
        ),
    ],
)
def test_a_bad_mapping_change_names_the_field_and_stores_nothing(db, group, mapping, field, said):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.REMAP, 2, match=match_id, mapping=mapping))
    assert (refused.value.field, refused.value.message) == (field, said)
    assert g.group_revision(db, group) == 2


def test_a_mapping_change_of_a_match_not_in_the_group_is_refused(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.REMAP, 1, match=match_id, mapping={"Zed": 4}))
    assert (refused.value.field, refused.value.message) == (
        "match",
        "That match is not in this group.",
    )


def test_two_phones_changing_one_mapping_the_second_is_stale_and_a_repeat_is_stored_once(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"Zed": 4}))
    first = g.apply_group(db, group, cmd(g.REMAP, 2, "a" * 16, match=match_id, mapping={"Zed": 3}))
    again = g.apply_group(db, group, cmd(g.REMAP, 2, "a" * 16, match=match_id, mapping={"Zed": 3}))
    assert again.repeated and again.change.revision == first.change.revision == 3
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.REMAP, 2, "b" * 16, match=match_id, mapping={"Zed": 4}))
    assert [c.kind for c in refused.value.stale] == [g.REMAP]
    assert g.load_group(db, group).matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": 3}


def test_a_payment_form_drawn_before_a_mapping_change_is_stale(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"Zed": 4}))
    g.apply_group(db, group, cmd(g.REMAP, 2, match=match_id, mapping={"Zed": 3}))
    pay = {"payer": 1, "payee": 2, "amount": "1.00", "currency": "", "date": "2026-11-27"}
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.PAY, 2, payments=[pay]))
    assert [c.kind for c in refused.value.stale] == [g.REMAP]


def rubber_summary():
    doc = {k: v for k, v in RUBBER.items() if k != "played"}
    return match_summary(from_document(doc), played=date(2026, 11, 13))


def test_a_guests_money_is_settled_at_the_table_and_the_members_share_the_rest():
    # Rubber, Ann & Cy −0.70 each, Bob & Dee +0.70: the table's payments are
    # Ann → Bob 0.70 and Cy → Dee 0.70. With Dee a guest, Cy paid Dee at the
    # table: in the group Ann owes Bob 0.70 and Cy is square.
    summary = rubber_summary()
    kept = members_only(summary, ["Dee"])
    assert [(s.player, s.money) for s in kept.seats] == [
        ("Ann", Decimal("-0.70")),
        ("Bob", Decimal("0.70")),
        ("Cy", Decimal("0.00")),
    ]
    book = ledger([kept])
    assert book.balances == {
        "GBP": {"Ann": Decimal("-0.70"), "Bob": Decimal("0.70"), "Cy": Decimal("0.00")}
    }
    assert [(t.payer, t.payee, t.amount) for t in book.settle_up] == [
        ("Ann", "Bob", Decimal("0.70"))
    ]
    assert members_only(summary, []) is summary


def test_a_guest_and_a_retired_member_travel_in_the_group_file_and_import_back(db, group):
    match_id = start(db, ["Ann", "Bob", "Zed"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"Zed": g.GUEST}))
    g.apply_group(db, group, cmd(g.RETIRE, 2, member=3))
    doc = g.group_document(db, g.load_group(db, group))
    assert doc["members"] == ["Ann", "Bob", "Cy", "Dee"]
    assert doc["retired"] == ["Cy"]
    assert list(doc) == ["format", "name", "members", "retired", "stakes", "matches", "payments"]
    assert doc["matches"][0]["mapping"] == {"Ann": "Ann", "Bob": "Bob", "Zed": None}
    copied = import_group(db, loads(g.dumps(doc)), copy=True).state
    assert [(m.name, m.retired) for m in copied.members] == [
        ("Ann", False),
        ("Bob", False),
        ("Cy", True),
        ("Dee", False),
    ]
    (joined,) = copied.matches.values()
    assert joined.mapping == {"Ann": 1, "Bob": 2, "Zed": None}
    assert g.dumps(g.group_document(db, copied)) == g.dumps(doc)


@pytest.mark.parametrize(
    ("retired", "where", "said"),
    [
        (["Max"], "retired[0]", "'Max' is not one of the members (each once)"),
        (["Cy", "Cy"], "retired[1]", "'Cy' is not one of the members (each once)"),
        ("Cy", "retired", 'give the retired members\' names: ["Cy"]'),
    ],
)
def test_a_bad_retired_list_in_a_group_file_is_said_where(retired, where, said):
    doc = {
        "format": g.FORMAT,
        "name": "Friday",
        "members": ["Ann", "Bob", "Cy"],
        "retired": retired,
    }
    with pytest.raises(MatchError) as refused:
        from_group_document(doc)
    assert [(p.field, p.message) for p in refused.value.problems] == [(where, said)]
