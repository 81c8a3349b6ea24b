"""The contract fields the contract games share (scorekeeper/games/contract.py):
one level, strain, tricks and doubling group, one way to split and join a contract."""

from __future__ import annotations

import pytest

from scorekeeper.games import contract as contract_fields
from scorekeeper.registry import entry_for


@pytest.mark.parametrize(
    "record, fields",
    [
        ({"contract": "4S"}, {"level": 4, "strain": "S", "doubling": ""}),
        ({"contract": "3ntx"}, {"level": 3, "strain": "NT", "doubling": "X"}),
        ({"contract": "7HXX"}, {"level": 7, "strain": "H", "doubling": "XX"}),
        ({"contract": "8S"}, {}),  # above 7: the rules say so when it is saved
        ({"contract": "S4"}, {}),
        ({}, {}),
    ],
)
def test_a_contract_splits_into_the_form_fields(record, fields):
    assert contract_fields.split(record) == fields


def test_the_top_game_splits_any_level():
    assert contract_fields.split({"contract": "9DX"}, max_level=None) == {
        "level": 9,
        "strain": "D",
        "doubling": "X",
    }


@pytest.mark.parametrize(
    "parts, contract",
    [(("4", "S", "X"), "4SX"), ((3, "NT", None), "3NT"), (("", "H", ""), "H"), (("2", None), "2")],
)
def test_the_buttons_join_into_the_record_contract(parts, contract):
    assert contract_fields.joined(*parts) == contract


@pytest.mark.parametrize("entry", ["rubber", "bridge-for-three", "need-a-fourth"])
def test_every_contract_game_offers_the_same_level_and_strain_buttons(app, entry):
    with app.test_request_context():
        form = entry_for(entry).form(meta={"csrf": False})
    assert [label for _, label in form.level.choices] == ["1", "2", "3", "4", "5", "6", "7"]
    assert [label for _, label in form.strain.choices] == ["♣", "♦", "♥", "♠", "NT"]
    assert [value for value, _ in form.tricks.choices] == list(range(14))


def test_top_game_strain_buttons_are_the_same_too(app):
    with app.test_request_context():
        form = entry_for("top-game").form(meta={"csrf": False})
    assert [value for value, _ in form.strain.choices] == ["C", "D", "H", "S", "NT"]
    assert [label for _, label in form.doubling.choices] == ["—", "X", "XX"]


@pytest.mark.parametrize(
    "entry, record, fields",
    [
        ("rubber", {"contract": "4HX"}, {"level": 4, "strain": "H", "doubling": "X"}),
        ("need-a-fourth", {"contract": "2NT"}, {"level": 2, "strain": "NT", "doubling": ""}),
        ("bridge-for-three", {"contract": "3CX"}, {"level": 3, "strain": "C", "doubled": "X"}),
        ("top-game", {"contract": "9SXX"}, {"strain": "S", "doubling": "XX"}),
    ],
)
def test_each_game_fills_its_form_from_the_split_contract(entry, record, fields):
    assert entry_for(entry).from_record(record) == fields
