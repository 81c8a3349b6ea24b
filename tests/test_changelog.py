"""The change log, pure: folding changes into the match, deciding a command
against the state read in the transaction, undo as a stack, plain words."""

from __future__ import annotations

import pytest

from scorekeeper.changelog import (
    APPEND,
    CREATE,
    DELETE,
    DELETE_MATCH,
    EDIT,
    RESTORE,
    RESTORE_MATCH,
    SETTINGS,
    Change,
    Command,
    MatchState,
    Refused,
    conflicts,
    decide,
    describe,
    fold,
    hand_summary,
    undo_command,
)
from scorekeeper.variants import replay

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
H1 = {"declarer": "Ann", "contract": "4S", "tricks": 10}
H2 = {"declarer": "Bob", "contract": "2H", "tricks": 7}
H3 = {"declarer": "Cy", "contract": "3NT", "tricks": 9}


def empty() -> MatchState:
    return MatchState(1, "rubber", list(PLAYERS), {}, "2026-11-23T20:00:00", "watch-token")


def run(*commands: Command, hands=()) -> MatchState:
    """A match built by deciding each command in turn, as the write path does."""
    state = fold(empty(), [Change(1, CREATE, hands=list(hands), settings={"title": "Fri"})])
    for command in commands:
        change, _ = decide(state, command, f"2026-11-23T20:{state.revision:02d}:00")
        fold(state, [change])
    return state


def test_fold_keeps_hands_in_first_saved_order_and_deleted_ones_aside():
    state = run(
        Command(APPEND, record=H1),
        Command(APPEND, record=H2),
        Command(DELETE, hand=1),
        Command(APPEND, record=H3),
        Command(RESTORE, hand=1),
    )
    assert state.keys == [1, 2, 3]
    assert state.records == [H1, H2, H3]
    assert state.removed == {}
    assert state.revision == 6
    assert state.title == "Fri"


def test_a_new_hand_never_reuses_the_key_of_a_deleted_one():
    state = run(Command(APPEND, record=H1), Command(DELETE, hand=1), Command(APPEND, record=H2))
    assert state.live == {2: H2}
    assert state.removed == {1: H1}


def test_an_edit_or_delete_of_a_deleted_hand_is_refused_never_saved():
    state = run(Command(APPEND, record=H1), Command(DELETE, hand=1))
    with pytest.raises(Refused) as refused:
        decide(state, Command(EDIT, hand=1, record=H2), "t")
    assert refused.value.message == (
        "That hand was deleted, so nothing was saved. Bring it back from the history first."
    )
    with pytest.raises(Refused):
        decide(state, Command(DELETE, hand=1), "t")


def test_a_change_that_breaks_the_rules_is_refused_with_the_rules_lines():
    state = run(Command(APPEND, record=H1))
    with pytest.raises(Refused) as refused:
        decide(
            state, Command(APPEND, record={"declarer": "Zed", "contract": "4S", "tricks": 10}), "t"
        )
    assert refused.value.lines == ["hand 2: declarer: 'Zed' is not one of Ann, Bob, Cy, Dee"]


@pytest.mark.parametrize(
    "form_kind, between, stale",
    [
        # a hand form overlooks nothing about the hands
        (APPEND, Command(APPEND, record=H2), True),
        (EDIT, Command(DELETE, hand=1), True),
        # … but a title or stake change does not touch the hand it draws
        (APPEND, Command(SETTINGS, settings={"title": "Sat", "stake": None}), False),
        # a settings form must not undo another phone's settings
        (SETTINGS, Command(SETTINGS, settings={"title": "Sat", "stake": None}), True),
        (SETTINGS, Command(APPEND, record=H2), False),
    ],
)
def test_which_changes_make_a_form_stale(form_kind, between, stale):
    state = run(Command(APPEND, record=H1))
    drawn_at = state.revision
    fold(state, [decide(state, between, "t")[0]])
    form = Command(form_kind, hand=1, record=H3, settings={"title": "x"}, revision=drawn_at)
    assert bool(conflicts(state, form)) is stale


def test_a_stale_command_is_refused_listing_what_changed_since():
    state = run(Command(APPEND, record=H1))
    fold(state, [decide(state, Command(APPEND, record=H2), "t")[0]])
    with pytest.raises(Refused) as refused:
        decide(state, Command(APPEND, record=H3, revision=2), "t")
    assert [e.change.revision for e in refused.value.stale] == [3]
    assert describe(refused.value.stale[0]) == ("Hand 2 saved: 2♥ by Bob, down 1 · Ann +50, Cy +50")


def test_a_form_from_a_revision_the_match_never_had_is_refused():
    state = run(Command(APPEND, record=H1))
    with pytest.raises(Refused) as refused:
        decide(state, Command(APPEND, record=H2, revision=state.revision + 1), "t")
    assert refused.value.message == (
        "This form does not belong to this match as stored: reload the page."
    )


def test_undo_is_a_stack_over_every_kind_of_change():
    state = run(
        Command(APPEND, record=H1),
        Command(EDIT, hand=1, record=H2),
        Command(SETTINGS, settings={"title": "Sat", "stake": {"amount": "1", "per": 1}}),
        Command(DELETE, hand=1),
    )
    undone = []
    while (target := state.undoable()) is not None:
        undone.append(target.change.kind)
        fold(state, [decide(state, undo_command(state, target), "t")[0]])
    assert undone == [DELETE, SETTINGS, EDIT, APPEND]
    assert state.live == {} and state.removed == {1: H1}
    assert (state.title, state.stake) == ("Fri", None)
    assert [e.undone_by for e in state.log[1:5]] == [9, 8, 7, 6]


@pytest.mark.parametrize(
    "kind, expected",
    [
        (APPEND, (DELETE, 1, None)),
        (EDIT, (EDIT, 1, H1)),
        (DELETE, (RESTORE, 1, H2)),
    ],
)
def test_undo_command_of_each_hand_change(kind, expected):
    commands = {
        APPEND: [Command(APPEND, record=H1)],
        EDIT: [Command(APPEND, record=H1), Command(EDIT, hand=1, record=H2)],
        DELETE: [Command(APPEND, record=H2), Command(DELETE, hand=1)],
    }[kind]
    state = run(*commands)
    undo = undo_command(state, state.undoable())
    assert (undo.kind, undo.hand, undo.record) == expected
    assert undo.undoes == state.revision


def test_deleting_and_bringing_back_a_match():
    state = run(Command(APPEND, record=H1), Command(DELETE_MATCH))
    assert state.deleted
    with pytest.raises(Refused) as refused:
        decide(state, Command(APPEND, record=H2), "t")
    assert refused.value.message == "The match was deleted; bring it back first."
    fold(state, [decide(state, Command(RESTORE_MATCH), "t")[0]])
    assert not state.deleted and state.records == [H1]


@pytest.mark.parametrize(
    "commands, words",
    [
        ([Command(APPEND, record=H1)], "Hand 1 saved: 4♠ by Ann, made · Ann +120, Cy +120"),
        (
            [Command(APPEND, record=H1), Command(EDIT, hand=1, record=H2)],
            "Hand 1 changed to 2♥ by Bob, down 1 · Ann +50, Cy +50"
            " (was: 4♠ by Ann, made · Ann +120, Cy +120)",
        ),
        (
            [Command(APPEND, record=H1), Command(DELETE, hand=1)],
            "Hand 1 deleted (it was: 4♠ by Ann, made · Ann +120, Cy +120)",
        ),
        ([Command(APPEND, record={"end": True})], "The match was stopped after hand 0"),
        (
            [
                Command(APPEND, record=H1),
                Command(APPEND, record={"end": True}),
                Command(DELETE, hand=2),
            ],
            "The match was resumed (the stop was taken back)",
        ),
        (
            [Command(SETTINGS, settings={"title": "", "stake": {"amount": "0.5", "per": 10}})],
            "No title, stake 0.50 per 10 points",
        ),
    ],
)
def test_every_change_in_plain_words(commands, words):
    state = run(*commands)
    assert describe(state.log[-1]) == words


def test_hands_of_an_imported_file_are_described_as_imported():
    state = run(Command(EDIT, hand=1, record=H2), hands=[H1])
    assert describe(state.log[-1]) == (
        "Hand 1 changed to 2♥ by Bob, down 1 · Ann +50, Cy +50 (was: as imported)"
    )


@pytest.mark.parametrize(
    "variant, players, hands, expected",
    [
        ("top-game", ["Ann", "Bob", "Cy"],
         [{"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}],
         "4♦ by Ann, made · Ann +10, Bob −5, Cy −5"),
        ("rubber", PLAYERS, [{"passed_out": True}], "all passed"),
        ("chicago", PLAYERS, [{"passed_out": True}], "all passed · not counted"),
        ("rubber", PLAYERS, [{"declarer": "Dee", "contract": "6HXX", "tricks": 9}],
         "6♥XX by Dee, down 3 · Ann +1000, Cy +1000"),
    ],
)  # fmt: skip
def test_hand_summary(variant, players, hands, expected):
    outcome = replay(variant, players, {}, hands)
    assert hand_summary(hands[-1], outcome.hands[-1]) == expected
