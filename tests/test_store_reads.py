"""A read of the store is one statement (db.Store): under a room of phones each
statement is a moment the thread lets go of the interpreter and waits to take
it back, so a kept page costs one, a poll four, a save or a refused form five;
a statement that is not a SELECT keeps sqlite-utils' guard."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from scorekeeper import db as store
from tests.test_drawn_once import PLAYERS, hand


@contextmanager
def statements(monkeypatch) -> Iterator[list[str]]:
    """Every statement the app's connections run inside the block."""
    ran: list[str] = []
    connect = store.connect

    def traced(path: str):
        database = connect(path)
        database.conn.set_trace_callback(ran.append)
        return database

    store.close_idle()  # the connections opened from here on are traced
    monkeypatch.setattr(store, "connect", traced)
    yield ran
    store.close_idle()


def test_a_select_is_one_statement_and_reads_every_row(tmp_path):
    database = store.connect(str(tmp_path / "s.db"))
    database.execute("create table t (a, b)")
    database.execute("insert into t values (1, 'x'), (2, 'y')")
    ran: list[str] = []
    database.conn.set_trace_callback(ran.append)
    rows = database.query("  SELECT a, b, a from t where a > ? order by a", [0])
    assert ran == ["  SELECT a, b, a from t where a > 0 order by a"]
    assert list(rows) == [{"a": 1, "b": "x", "a_2": 1}, {"a": 2, "b": "y", "a_2": 2}]
    assert not database.conn.in_transaction  # nothing left open on the connection


def test_a_statement_that_is_not_a_select_keeps_the_guard(tmp_path):
    database = store.connect(str(tmp_path / "s.db"))
    database.execute("create table t (a)")
    with pytest.raises(ValueError):
        database.query("insert into t values (1)")
    assert list(database.query("select count(*) as n from t")) == [{"n": 0}]  # rolled back
    with pytest.raises(sqlite3.OperationalError):
        list(database.query("select nothing from nowhere"))


def test_what_each_request_of_a_busy_table_asks_the_store(app, actions, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, hand("Ann", "1", "C", "7"))
    actions.page(f"/m/{match_id}")
    before = actions.revision(match_id)
    actions.save_hand(match_id, hand("Bob", "2", "H", "8"))
    actions.page(f"/m/{match_id}")
    actions.page(f"/m/{match_id}/hand/new")
    now = actions.revision(match_id)
    asked = {}
    with statements(monkeypatch) as ran:
        for label, ask in (
            ("a kept page", lambda: actions.page(f"/m/{match_id}")),
            ("a kept form", lambda: actions.page(f"/m/{match_id}/hand/new")),
            ("a poll", lambda: actions.client.get(f"/m/{match_id}/live?since={before}")),
            (
                "a refused form",
                lambda: actions.post_hand(
                    match_id, hand("Cy", "1", "D", "7"), revision=str(before)
                ),
            ),
            (
                "a save",
                lambda: actions.save_hand(match_id, hand("Cy", "1", "D", "7"), revision=str(now)),
            ),
        ):
            ran.clear()
            answer = ask()
            asked[label] = len(ran)
            if label == "a refused form":
                assert answer.status_code == 409
    assert asked == {
        "a kept page": 1,
        "a kept form": 1,
        "a poll": 4,
        "a refused form": 5,
        "a save": 5,
    }
