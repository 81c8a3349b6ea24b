"""Members and mappings through the group's pages: retire and bring back, a
guest at a match, who played a match changed in place, and the refused,
stale and repeated forms of two phones (what was typed kept, stored once)."""

from __future__ import annotations

import re

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from tests.test_ledger import RUBBER
from tests.test_web_groups import group_of, start_group, start_match
from tests.test_web_ledger import make_group, section
from tests.webtools import visible_text


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def test_a_retired_member_leaves_the_list_and_new_match_and_comes_back(client, db):
    group_id = group_of(start_group(client))
    answer = client.post(f"/g/{group_id}/members/3/retire", data={"revision": "1"})
    assert answer.status_code == 302 and answer.location.endswith(f"/g/{group_id}#members")
    page = client.get(f"/g/{group_id}")
    text = visible_text(page)
    assert "Member retired: Cy." in text
    assert "Group · Ann · Bob New match" in text
    assert "Member Played Won Ann 0 0 Bob 0 0 No money" in text  # retired, played nothing
    assert section(page, "Members Ann", "Group") == (
        "Members Ann Bob ↑ Up Retired Kept in the matches they played; not offered for new"
        " ones. Cy Bring back "
    )
    new = client.get(f"/g/{group_id}/new")
    assert 'value="Ann"' in new.text and 'value="Bob"' in new.text
    assert 'value="Cy"' not in new.text
    back = client.post(f"/g/{group_id}/members/3/back", data={"revision": "2"})
    assert back.status_code == 302
    assert "Member back: Cy." in visible_text(client.get(f"/g/{group_id}"))
    assert [m.retired for m in g.load_group(db, group_id).members] == [False, False, False]


def test_moving_a_member_up_keeps_the_retired_member_retired(client, db):
    group_id = group_of(start_group(client, members=("Ann", "Bob", "Cy", "Dee")))
    client.post(f"/g/{group_id}/members/2/retire", data={"revision": "1"})
    page = client.get(f"/g/{group_id}").text
    # Dee's ↑ button: Ann, Dee, Cy, then Bob (retired) last
    assert re.search(
        r'name="order" value="1"><input type="hidden" name="order" value="4">'
        r'<input type="hidden" name="order" value="3"><input type="hidden" name="order" value="2">',
        page,
    )
    order = {"revision": "2", "order": ["1", "4", "3", "2"]}
    assert client.post(f"/g/{group_id}/order", data=order).status_code == 302
    state = g.load_group(db, group_id)
    assert [(m.name, m.retired) for m in state.members] == [
        ("Ann", False),
        ("Dee", False),
        ("Cy", False),
        ("Bob", True),
    ]


def test_a_retire_from_a_stale_page_is_409_and_a_double_tap_is_stored_once(client, db):
    group_id = group_of(start_group(client))
    first = client.post(f"/g/{group_id}/members/3/retire", data={"revision": "1", "key": "r" * 16})
    again = client.post(f"/g/{group_id}/members/3/retire", data={"revision": "1", "key": "r" * 16})
    assert (first.status_code, again.status_code) == (302, 302)
    text = visible_text(client.get(f"/g/{group_id}"))
    assert "Member retired: Cy. Already recorded, stored once: Member retired: Cy." in text
    assert g.group_revision(db, group_id) == 2
    # another phone's page drawn at revision 1 renames Cy: refused, typed name kept
    stale = client.post(
        f"/g/{group_id}/members/3", data={"revision": "1", "name": "Cyril", "key": "c" * 16}
    )
    assert stale.status_code == 409
    assert "Member retired: Cy — from another phone" in visible_text(stale)
    assert 'value="Cyril"' in stale.text
    assert g.group_revision(db, group_id) == 2


def test_a_bad_retire_names_what_is_wrong_and_stores_nothing(client, db):
    group_id = group_of(start_group(client))
    answer = client.post(f"/g/{group_id}/members/9/retire", data={"revision": "1"})
    assert answer.status_code == 400
    assert "There is no such member in this group." in visible_text(answer)
    answer = client.post(f"/g/{group_id}/members/2/back", data={"revision": "1"})
    assert answer.status_code == 400
    assert "Bob is not retired: Bob is on the member list." in visible_text(answer)
    assert g.group_revision(db, group_id) == 1


def test_a_guest_added_with_a_match_shows_in_that_match_only(client, db):
    group_id = group_of(start_group(client))
    match_id = start_match(client, ["Ann", "Bob", "Zed"])
    form = client.get(f"/g/{group_id}/add?match={match_id}")
    assert '<option value="guest" >Guest: Zed, not a member</option>' in form.text
    answer = client.post(
        f"/g/{group_id}/add",
        data={"revision": "1", "match": match_id, "map1": "1", "map2": "2", "map3": "guest"},
    )
    assert answer.status_code == 302
    state = g.load_group(db, group_id)
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Zed": None}
    page = client.get(f"/g/{group_id}")
    text = visible_text(page)
    assert "Ann, Bob, Zed (guest)" in text
    assert "Group · Ann · Bob · Cy New match" in text
    assert "Member Played Won Ann 1 0 Bob 1 0 Cy 0 0 No money" in text


def rubber_group(db):
    group_id, (match_id,) = make_group(db, [(RUBBER, "2026-11-13", {})])
    return group_id, match_id


def test_changing_a_mapping_recounts_the_match_in_the_ledger(client, db):
    # Rubber: Ann & Cy −0.70 GBP each, Bob & Dee +0.70; at the table Ann pays
    # Bob 0.70 and Cy pays Dee 0.70. Dee as a guest: Cy paid Dee at the table.
    group_id, match_id = rubber_group(db)
    page = client.get(f"/g/{group_id}")
    assert "Ann −0.70 Bob +0.70 Cy −0.70 Dee +0.70" in visible_text(page)
    form = client.get(f"/g/{group_id}/mapping/{match_id}")
    assert form.status_code == 200
    assert "Who played this match" in visible_text(form)
    assert re.search(r'<option value="4" selected>Dee</option>', form.text)
    answer = client.post(
        f"/g/{group_id}/mapping/{match_id}",
        data={"revision": "2", "map1": "1", "map2": "2", "map3": "3", "map4": "guest"},
    )
    assert answer.status_code == 302 and answer.location.endswith(f"/g/{group_id}#ledger")
    page = client.get(f"/g/{group_id}")
    text = visible_text(page)
    assert "Mapping changed: Rubber bridge" in text
    assert "Dee → a guest (was Dee)" in text
    assert section(page, "Balances · GBP", "A plus") == (
        "Balances · GBP Member Net (GBP) Ann −0.70 Bob +0.70 Cy 0.00 "
    )
    assert "Ann pays Bob 0.70 GBP" in text and "Cy pays" not in text
    # the match line still shows the night's settlement, the guest's part too
    assert "Ann −0.70 · Bob (won) +0.70 · Cy −0.70 · Dee (guest) (won) +0.70 GBP" in text
    # Undo: counted as before
    undo = client.post(f"/g/{group_id}/undo", data={"revision": "3", "undoes": "3"})
    assert undo.status_code == 302
    assert "Ann −0.70 Bob +0.70 Cy −0.70 Dee +0.70" in visible_text(client.get(f"/g/{group_id}"))


def test_a_mapping_form_from_a_stale_page_is_409_with_the_choices_kept(client, db):
    group_id, match_id = rubber_group(db)
    url = f"/g/{group_id}/mapping/{match_id}"
    sent = {"revision": "2", "map1": "1", "map2": "2", "map3": "3", "map4": "guest"}
    first = client.post(url, data={**sent, "key": "a" * 16})
    again = client.post(url, data={**sent, "key": "a" * 16})
    assert (first.status_code, again.status_code) == (302, 302)
    assert g.group_revision(db, group_id) == 3
    other = {**sent, "map4": "4", "map1": "guest", "key": "b" * 16}
    stale = client.post(url, data=other)
    assert stale.status_code == 409
    text = visible_text(stale)
    assert "Not saved: the group changed since this form was drawn." in text
    assert "Mapping changed: Rubber bridge" in text
    assert re.search(
        r'<option value="guest" selected>Guest: Ann, not a member</option>', stale.text
    )
    assert re.search(r'<option value="4" selected>Dee</option>', stale.text)
    assert g.group_revision(db, group_id) == 3


def test_a_bad_mapping_change_names_the_player_and_stores_nothing(client, db):
    group_id, match_id = rubber_group(db)
    url = f"/g/{group_id}/mapping/{match_id}"
    answer = client.post(
        url, data={"revision": "2", "map1": "1", "map2": "1", "map3": "3", "map4": "4"}
    )
    assert answer.status_code == 400
    said = "Ann and Bob are both mapped to Ann: a member plays once in a match."
    assert said in visible_text(answer)
    assert 'aria-describedby="map2-error"' in answer.text
    unchanged = client.post(url, data={"revision": "2"})
    assert unchanged.status_code == 400
    assert "That is already the mapping: nothing to change." in visible_text(unchanged)
    assert client.get(f"/g/{group_id}/mapping/{'x' * 16}").status_code == 404
    assert g.group_revision(db, group_id) == 2


# Ann and Cy were partners; Bob's partner was the guest: no record of it.
PARTNER_ROWS = [
    'Ann,partners,partner:matches,Cy,1,0,"1 match as partners, 0 won",',
    'Cy,partners,partner:matches,Ann,1,0,"1 match as partners, 0 won",',
]


def test_a_guest_is_neither_rated_nor_anyones_partner(client, db):
    # Rubber: Ann & Cy lost to Bob & Dee. Dee a guest: Bob is a side alone.
    group_id, match_id = rubber_group(db)
    sent = {"revision": "2", "map4": "guest"}
    assert client.post(f"/g/{group_id}/mapping/{match_id}", data=sent).status_code == 302
    rows = client.get(f"/g/{group_id}/ratings.csv").text.splitlines()
    assert [row.split(",")[0:3] for row in rows[1:]] == [
        ["Ann", "all games", "1"],
        ["Bob", "all games", "1"],
        ["Cy", "all games", "1"],
        ["Ann", "Rubber bridge", "1"],
        ["Bob", "Rubber bridge", "1"],
        ["Cy", "Rubber bridge", "1"],
    ]
    stats = client.get(f"/g/{group_id}/statistics.csv").text
    assert "Dee" not in stats
    partners = [line for line in stats.splitlines() if ",partner:" in line]
    assert partners == PARTNER_ROWS
