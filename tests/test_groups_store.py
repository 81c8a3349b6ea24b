"""A group's one write path: members, matches mapped to members, payments,
stale and repeated forms, undo, all through `groups.apply_group`."""

from __future__ import annotations

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.matchfile import from_document
from scorekeeper.model import MATCH_FORMAT


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


def start(db, players, variant="top-game", group=None, key=None):
    match = from_document(
        {"format": MATCH_FORMAT, "variant": variant, "players": players, "options": {}, "hands": []}
    )
    join = g.joiner(group, "Ann's phone", key) if group else None
    return store.create_match(db, match, submission=key, join=join).match_id


def cmd(kind, revision, key=None, **asked):
    return g.GroupCommand(kind, asked, revision, key, "Bob's phone")


def test_a_group_starts_with_its_members_in_order_and_its_stakes(db):
    stake = {"amount": "0.50", "per": 1, "currency": "EUR"}
    made = g.create_group(db, "Friday trio", ["Ann", "Bob", " Cy "], {"top-game": stake})
    state = made.state
    assert (state.name, state.revision) == ("Friday trio", 1)
    assert [(m.id, m.name, m.position) for m in state.members] == [
        (1, "Ann", 1),
        (2, "Bob", 2),
        (3, "Cy", 3),
    ]
    assert state.stake_for("top-game") == stake
    assert state.stake_for("chicago") is None
    assert made.change.summary == "Group started: Friday trio (Ann, Bob, Cy)"
    assert len(state.id) == 16 and len(state.watch) >= 20
    assert g.group_for_watch(db, state.watch) == state.id


@pytest.mark.parametrize(
    ("name", "members", "field", "words"),
    [
        ("", ["Ann"], "name", "Give the group a name"),
        ("X" * 101, ["Ann"], "name", "at most 100"),
        ("Friday", ["Ann", "ann"], "member2", "ann reads the same as Ann"),
        ("Friday", ["Ann", "B\u200bob"], "member2", "invisible"),
        ("Friday", ["Ann", "Z" * 41], "member2", "at most 40"),
    ],
)
def test_a_bad_group_names_the_field_and_stores_nothing(db, name, members, field, words):
    with pytest.raises(g.GroupRefused) as refused:
        g.create_group(db, name, members)
    assert refused.value.field == field
    assert words in refused.value.message
    assert db["groups"].count == 0 and db["group_changes"].count == 0


def test_the_same_create_form_twice_makes_one_group(db):
    first = g.create_group(db, "Friday", ["Ann", "Bob"], submission="k" * 16)
    again = g.create_group(db, "Friday", ["Ann", "Bob"], submission="k" * 16)
    assert again.repeated and again.group_id == first.group_id
    assert db["groups"].count == 1


def test_a_match_started_in_the_group_maps_its_players_and_a_new_name_becomes_a_member(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id
    match_id = start(db, ["ann", "Bob", "Dan"], group=group, key="m" * 16)
    state = g.load_group(db, group)
    assert state.revision == 2
    assert state.matches[match_id].mapping == {"ann": 1, "Bob": 2, "Dan": 3}
    assert [m.name for m in state.members] == ["Ann", "Bob", "Dan"]
    assert state.names_in(match_id) == {"ann": "Ann", "Bob": "Bob", "Dan": "Dan"}
    # The same start form again: one match, joined once.
    assert start(db, ["ann", "Bob", "Dan"], group=group, key="m" * 16) == match_id
    assert db["matches"].count == 1 and g.load_group(db, group).revision == 2


def test_a_start_the_group_refuses_stores_no_match(db):
    group = g.create_group(db, "Friday", [f"P{i}" for i in range(g.MAX_MEMBERS)]).group_id
    with pytest.raises(g.GroupRefused):
        start(db, ["New1", "New2", "New3"], group=group)
    assert db["matches"].count == 0
    assert g.load_group(db, group).revision == 1


def test_renaming_a_member_renames_them_in_every_match_without_touching_the_match(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    match_id = start(db, ["Annie", "Bob", "Cy"], group=None)
    added = g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"Annie": 1}))
    assert added.state.names_in(match_id) == {"Annie": "Ann", "Bob": "Bob", "Cy": "Cy"}
    before = store.revision(db, match_id)
    renamed = g.apply_group(db, group, cmd(g.RENAME_MEMBER, 2, member=1, name="Anna"))
    assert renamed.state.names_in(match_id)["Annie"] == "Anna"
    assert renamed.change.summary == "Member renamed: Ann → Anna"
    assert store.revision(db, match_id) == before
    assert store.load_match(db, match_id).players == ["Annie", "Bob", "Cy"]


def test_adding_a_match_already_in_the_group_is_refused(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    match_id = start(db, ["Ann", "Bob", "Cy"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id))
    assert refused.value.message == "This match is already in the group."
    assert g.load_group(db, group).revision == 2


@pytest.mark.parametrize(
    ("mapping", "field", "words"),
    [
        ({"Annie": 1, "Bob": 1}, "map:Bob", "Annie and Bob are both mapped to Ann"),
        ({"Annie": 99}, "map:Annie", "Choose a member of the group for Annie"),
        ({"Zed": 1}, "mapping", "Zed does not play in this match"),
    ],
)
def test_a_bad_mapping_names_the_player_and_stores_nothing(db, mapping, field, words):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    match_id = start(db, ["Annie", "Bob", "Cy"])
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping=mapping))
    assert (refused.value.field, words in refused.value.message) == (field, True)
    state = g.load_group(db, group)
    assert (state.revision, state.matches, len(state.members)) == (1, {}, 3)


def test_a_new_member_that_reads_as_a_member_is_refused(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    match_id = start(db, ["ANN", "Bob", "Cy"])
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id, mapping={"ANN": g.NEW}))
    assert refused.value.field == "map:ANN"
    assert "reads the same as the member Ann" in refused.value.message


def test_two_renames_of_one_member_from_forms_of_the_same_revision_store_one(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id
    g.apply_group(db, group, cmd(g.RENAME_MEMBER, 1, member=1, name="Anne"))
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.RENAME_MEMBER, 1, member=1, name="Annie"))
    assert refused.value.message == "stale"
    assert [c.summary for c in refused.value.stale] == ["Member renamed: Ann → Anne"]
    # Another member's rename from the same old form is no conflict.
    g.apply_group(db, group, cmd(g.RENAME_MEMBER, 1, member=2, name="Bobby"))
    assert [m.name for m in g.load_group(db, group).members] == ["Anne", "Bobby"]


def test_a_resent_form_stores_once_and_a_reused_key_with_other_content_stores_anew(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id
    first = g.apply_group(db, group, cmd(g.ADD_MEMBER, 1, "x" * 16, name="Cy"))
    again = g.apply_group(db, group, cmd(g.ADD_MEMBER, 1, "x" * 16, name="Cy"))
    assert again.repeated and again.change == first.change
    other = g.apply_group(db, group, cmd(g.ADD_MEMBER, 2, "x" * 16, name="Dan"))
    assert not other.repeated
    assert [m.name for m in g.load_group(db, group).members] == ["Ann", "Bob", "Cy", "Dan"]


def test_order_rename_and_stake(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    state = g.apply_group(db, group, cmd(g.ORDER, 1, order=[3, 1, 2])).state
    assert [m.name for m in state.members] == ["Cy", "Ann", "Bob"]
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.ORDER, 2, order=[3, 1]))
    assert refused.value.field == "order"
    state = g.apply_group(db, group, cmd(g.RENAME, 2, name="Tuesday four")).state
    assert state.name == "Tuesday four"
    stake = {"amount": "1.00", "per": 100, "currency": "GBP"}
    state = g.apply_group(db, group, cmd(g.STAKE, 3, game="chicago", stake=stake)).state
    assert state.stake_for("chicago") == stake
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.STAKE, 4, game="chicago", stake={"amount": "x", "per": 1}))
    assert refused.value.field == "stake_amount"


def test_undo_takes_back_the_newest_change_only_and_steps_back(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob", "Cy"]).group_id
    match_id = start(db, ["Ann", "Bob", "Dan"])
    g.apply_group(db, group, cmd(g.ADD_MATCH, 1, match=match_id))  # 2: Dan joins
    g.apply_group(db, group, cmd(g.RENAME_MEMBER, 2, member=4, name="Daniel"))  # 3
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.UNDO, 3, undoes=2))
    assert refused.value.message == "newer"
    state = g.apply_group(db, group, cmd(g.UNDO, 3, undoes=3)).state
    assert [m.name for m in state.members] == ["Ann", "Bob", "Cy", "Dan"]
    state = g.apply_group(db, group, cmd(g.UNDO, 4, undoes=2)).state
    assert (state.matches, [m.name for m in state.members]) == ({}, ["Ann", "Bob", "Cy"])
    assert state.revision == 5
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.UNDO, 5, undoes=1))
    assert refused.value.message == "There is nothing to undo."
    assert [c.summary for c in g.group_changes(db, group)][-1] == (
        "Undone: Match added: " + g.match_words(db, match_id)
    )


def test_payments_are_stored_signed_and_a_stale_payment_form_is_refused(db):
    group = g.create_group(db, "Friday", ["Ann", "Bob"]).group_id
    pay = {"payer": 2, "payee": 1, "amount": "7.5", "currency": "EUR", "date": "2026-11-20"}
    state = g.apply_group(db, group, cmd(g.PAY, 1, payments=[pay])).state
    assert state.payments == [
        g.Payment(3, 2, 1, "7.50", "EUR", "2026-11-20", "Bob's phone", state.payments[0].created)
    ]
    with pytest.raises(g.GroupRefused) as refused:
        g.apply_group(db, group, cmd(g.PAY, 1, payments=[pay]))  # the same suggestion again
    assert refused.value.message == "stale"
    for bad, field in (
        ({**pay, "amount": "-1"}, "amount"),
        ({**pay, "amount": "1.005"}, "amount"),
        ({**pay, "payee": 2}, "payee"),
        ({**pay, "date": "yesterday"}, "date"),
    ):
        with pytest.raises(g.GroupRefused) as refused:
            g.apply_group(db, group, cmd(g.PAY, 2, payments=[bad]))
        assert refused.value.field == field
    state = g.apply_group(db, group, cmd(g.UNDO, 2, undoes=2)).state
    assert state.payments == []
