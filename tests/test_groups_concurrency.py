"""Phones on one group, as real HTTP clients of a real waitress server (CSRF on):
two phones adding the same match at once store it once and the other is told;
two phones renaming a member at once store one name and the other is told the
form is stale; one form sent twice at once stores once. Each test runs many
rounds and pins each round's outcome; no answer is ever 500 or above."""

from __future__ import annotations

import re

import pytest

from scorekeeper.app import create_app
from tests.phones import Phone, at_once, watched_table

ROUNDS = 20


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("groups") / "g.db"), "SECRET_KEY": "phones"}
    )
    with watched_table(app) as phone:
        yield phone


def start_group(phone: Phone, members: list[str]) -> str:
    form = phone.forms("/groups/new")[0]
    data = {**form.fields, "name": "Friday", "stake_game": "*", "stake_per": "1"}
    data.update({f"member{i}": m for i, m in enumerate(members, 1)})
    answer = phone.post("/groups/new", data)
    assert answer.status == 302, answer.text[:300]
    return re.search(r"/g/([\w-]{16})$", answer.location).group(1)


def revision(phone: Phone, group_id: str) -> int:
    return phone.get(f"/g/{group_id}/live").json()["revision"]


def test_two_phones_adding_the_same_match_at_once_store_it_once(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    group_id = start_group(ann, ["Ann", "Bob", "Cy"])
    for i in range(ROUNDS):
        match_id = ann.start("top-game", ["Ann", "Bob", f"Guest{i}"])
        add = f"/g/{group_id}/add?match={match_id}"
        form_a = ann.form(add, f"/g/{group_id}/add")
        form_b = bob.form(add, f"/g/{group_id}/add")
        a, b = at_once((ann, form_a, {}), (bob, form_b, {}))
        assert sorted([a.status, b.status]) == [302, 400]
        loser = a if a.status == 400 else b
        assert "This match is already in the group." in loser.text
        assert revision(ann, group_id) == 2 + i
        page = ann.get(f"/g/{group_id}").text
        assert f"Matches ({i + 1})" in page
        assert page.count(f'href="/m/{match_id}"') == 1
    members = re.findall(
        r'<span class="member-name">([^<]*)</span>', ann.get(f"/g/{group_id}").text
    )
    assert members == ["Ann", "Bob", "Cy", *(f"Guest{i}" for i in range(ROUNDS))]


def test_two_phones_renaming_a_member_at_once_store_one_and_tell_the_other(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    group_id = start_group(ann, ["Ann", "Bob", "Cy"])
    action = f"/g/{group_id}/members/3"
    for i in range(ROUNDS):
        form_a = ann.form(f"/g/{group_id}", action)
        form_b = bob.form(f"/g/{group_id}", action)
        a, b = at_once((ann, form_a, {"name": f"Cyril{i}"}), (bob, form_b, {"name": f"Cyd{i}"}))
        assert sorted([a.status, b.status]) == [302, 409]
        winner = f"Cyril{i}" if a.status == 302 else f"Cyd{i}"
        loser = b if a.status == 302 else a
        assert "Not saved: the group changed since this page was drawn." in loser.text
        assert f"→ {winner} — from" in loser.text
        assert revision(ann, group_id) == 2 + i
        page = ann.get(f"/g/{group_id}").text
        assert re.findall(r'<span class="member-name">([^<]*)</span>', page) == [
            "Ann",
            "Bob",
            winner,
        ]


def test_one_form_sent_twice_at_once_stores_once(table):
    ann = table("Ann's phone")
    group_id = start_group(ann, ["Ann", "Bob"])
    for i in range(ROUNDS):
        form = ann.form(f"/g/{group_id}", f"/g/{group_id}/members")
        a, b = at_once((ann, form, {"name": f"Guest{i}"}), (ann, form, {"name": f"Guest{i}"}))
        assert (a.status, b.status) == (302, 302)
        assert revision(ann, group_id) == 2 + i
    page = ann.get(f"/g/{group_id}").text
    assert re.findall(r'<span class="member-name">([^<]*)</span>', page) == [
        "Ann",
        "Bob",
        *(f"Guest{i}" for i in range(ROUNDS)),
    ]


def test_a_payment_tapped_twice_at_once_is_stored_once_and_another_with_its_key_is_kept(table):
    """Mark as paid tapped twice stores one payment; then Back, another amount
    typed and tapped twice with the same page's key: refused as stale on both
    answers, the amount typed kept on the page; never "recorded" and dropped."""
    ann = table("Ann's phone")
    group_id = start_group(ann, ["Ann", "Bob"])
    pay = f"/g/{group_id}/pay"
    for i in range(ROUNDS):
        # The form to record one payment (the settle-up form posts there too).
        [form] = [
            f for f in ann.forms(f"/g/{group_id}") if f.action == pay and "all" not in f.fields
        ]
        first = {"payer": "1", "payee": "2", "amount": f"{i + 1}.50", "currency": "EUR",
                 "date": "2026-11-01"}  # fmt: skip
        a, b = at_once((ann, form, first), (ann, form, first))
        assert (a.status, b.status) == (302, 302)
        assert revision(ann, group_id) == 2 + i
        other = {**first, "amount": f"{i + 1}.25"}
        c, d = at_once((ann, form, other), (ann, form, other))
        assert (c.status, d.status) == (409, 409)
        for answer in (c, d):
            assert "Not saved: the group changed since this page was drawn" in answer.text
            assert f'name="amount" inputmode="decimal" autocomplete="off" value="{i + 1}.25"' in (
                answer.text
            )
        assert revision(ann, group_id) == 2 + i
    again = ann.submit(form, **first)  # the last round's first payment, sent once more
    assert again.status == 302
    page = ann.get(f"/g/{group_id}").text
    assert f"Already recorded, stored once: Paid: Ann paid Bob {ROUNDS}.50 EUR." in page
    paid = ann.get(f"/g/{group_id}/group.json").json()["payments"]
    assert [p["amount"] for p in paid] == [f"{i + 1}.50" for i in range(ROUNDS)]
