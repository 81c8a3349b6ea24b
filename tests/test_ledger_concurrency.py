"""Two phones marking the same payment at once, as real HTTP clients of a real
waitress server (CSRF on): one payment is stored, the other phone is told the
group changed; the same tap sent twice at once is stored once. Each round is
undone so the next starts from the same balances; no answer is ever 500."""

from __future__ import annotations

import re

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.app import create_app
from scorekeeper.matchfile import from_document
from tests.phones import at_once, watched_table
from tests.test_ledger import NEED_A_FOURTH, TOP_GAME
from tests.webtools import visible_text

ROUNDS = 10


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    path = str(tmp_path_factory.mktemp("ledger") / "l.db")
    app = create_app({"DATABASE": path, "SECRET_KEY": "phones"})
    db = store.connect(path)
    group_id = g.create_group(db, "Friday trio", ["Ann", "Bob", "Cy"]).group_id
    for doc in (TOP_GAME, NEED_A_FOURTH):  # EUR: Ann −29.50, Bob +23.00, Cy +6.50
        match_id = store.create_match(db, from_document(doc)).match_id
        g.apply_group(db, group_id, g.GroupCommand(g.ADD_MATCH, {"match": match_id}))
    db.close()
    with watched_table(app) as phone:
        yield phone, group_id, path


def payments(path: str, group_id: str) -> list[tuple[int, int, str]]:
    db = store.connect(path)
    try:
        return [(p.payer, p.payee, p.amount) for p in g.load_group(db, group_id).payments]
    finally:
        db.close()


def undo_last(phone, group_id: str) -> None:
    form = phone.form(f"/g/{group_id}", f"/g/{group_id}/undo")
    assert phone.submit(form).status == 302


def test_two_phones_marking_all_as_paid_at_once_store_it_once(table):
    phone, group_id, path = table
    ann, bob = phone("Ann's phone"), phone("Bob's phone")
    page = visible_text(ann.get(f"/g/{group_id}").text)
    assert "Ann pays Bob 23.00 EUR Ann pays Cy 6.50 EUR" in page
    for _ in range(ROUNDS):
        form_a = ann.form(f"/g/{group_id}", f"/g/{group_id}/pay")
        form_b = bob.form(f"/g/{group_id}", f"/g/{group_id}/pay")
        assert form_a.fields["all"] == "1"
        a, b = at_once((ann, form_a, {}), (bob, form_b, {}))
        assert sorted([a.status, b.status]) == [302, 409]
        loser = b if a.status == 302 else a
        assert "Not saved: the" in loser.text and "Nothing was stored" in loser.text
        assert payments(path, group_id) == [(1, 2, "23.00"), (1, 3, "6.50")]
        assert "Nobody owes anybody anything" in bob.get(f"/g/{group_id}").text
        undo_last(ann, group_id)
        assert payments(path, group_id) == []


def test_two_phones_typing_the_same_payment_at_once_store_one(table):
    phone, group_id, path = table
    ann, bob = phone("Ann's phone"), phone("Bob's phone")
    typed = {"payer": "1", "payee": "3", "amount": "6.50", "currency": "EUR"}
    for _ in range(ROUNDS):
        form_a = ann.forms(f"/g/{group_id}")
        form_b = bob.forms(f"/g/{group_id}")
        pick = [f for f in form_a if f.action == f"/g/{group_id}/pay" and "all" not in f.fields]
        other = [f for f in form_b if f.action == f"/g/{group_id}/pay" and "all" not in f.fields]
        a, b = at_once((ann, pick[0], typed), (bob, other[0], typed))
        assert sorted([a.status, b.status]) == [302, 409]
        loser = b if a.status == 302 else a
        assert "another phone may have marked it paid" in loser.text
        assert re.search(r"Paid: Ann paid Cy 6.50 EUR — from (Ann|Bob)&#39;s phone", loser.text)
        assert payments(path, group_id) == [(1, 3, "6.50")]
        undo_last(ann, group_id)


def test_one_tap_sent_twice_at_once_stores_once(table):
    phone, group_id, path = table
    ann = phone("Ann's phone")
    for _ in range(ROUNDS):
        form = ann.form(f"/g/{group_id}", f"/g/{group_id}/pay")
        a, b = at_once((ann, form, {}), (ann, form, {}))
        assert (a.status, b.status) == (302, 302)
        assert payments(path, group_id) == [(1, 2, "23.00"), (1, 3, "6.50")]
        undo_last(ann, group_id)
