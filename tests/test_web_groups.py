"""Groups through the pages: starting one, its page and watch page, members,
matches started in it or added with their players mapped, take out, undo, and
every refused form (bad input, stale, repeated) storing nothing."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from scorekeeper import db as store
from scorekeeper import groups as g
from tests.webtools import match_id_in, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
GROUP_ID = re.compile(r"/g/([\w-]{16})$")


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def start_group(client, name="Friday trio", members=("Ann", "Bob", "Cy"), key="k" * 16, **extra):
    data = {"name": name, "key": key, "stake_game": "*", **extra}
    data.update({f"member{i}": m for i, m in enumerate(members, 1)})
    return client.post("/groups/new", data=data)


def group_of(answer) -> str:
    assert answer.status_code == 302, visible_text(answer)[:400]
    return GROUP_ID.search(answer.location).group(1)


def start_match(client, players, variant="top-game", key=None):
    data = {"variant": variant, "key": key or "s" * 16, "stake_per": "1"}
    data.update({f"player{i}": p for i, p in enumerate(players, 1)})
    return match_id_in(client.post("/new", data=data).location)


def test_a_group_started_on_the_home_page_is_listed_there_with_its_stake(client, db):
    home = visible_text(client.get("/"))
    assert "Start a group" in home
    group_id = group_of(
        start_group(
            client, stake_amount="0,50", stake_per="1", stake_currency="EUR", stake_game="*"
        )
    )
    state = g.load_group(db, group_id)
    assert [m.name for m in state.members] == ["Ann", "Bob", "Cy"]
    assert state.stakes == {"*": {"amount": "0.50", "per": 1, "currency": "EUR"}}
    home = visible_text(client.get("/"))
    assert "Friday trio Ann, Bob, Cy · 0 matches" in home
    page = visible_text(client.get(f"/g/{group_id}"))
    assert "Friday trio Group · Ann · Bob · Cy New match" in page
    assert "Stake: every game: 0.50 EUR per point" in page
    assert "No money in this period: no match here has a stake." in page
    assert "Matches (0) No matches in the group yet." in page
    # Another phone (no cookie) does not list it on its home page until it opens it.
    other = client.application.test_client()
    assert "Friday trio" not in visible_text(other.get("/"))
    other.get(f"/g/{group_id}")
    assert "Friday trio" in visible_text(other.get("/"))


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"name": ""}, "Group name: Give the group a name, like “Friday trio”."),
        (
            {"name": "", "members": ("Ann", "ann")},
            "Group name: Give the group a name, like “Friday trio”. Member 2: ann reads the"
            " same as Ann: give each member a different name.",
        ),
        (
            {"members": ("Ann", "ann")},
            "Member 2: ann reads the same as Ann: give each member a different name.",
        ),
        (
            {"members": ("Ann", "Z" * 41)},
            "Member 2: Member 2 has 41 characters; a name has at most 40. Shorten it"
            " (a nickname will do).",
        ),
        (
            {"stake_amount": "1,000"},
            "Stake: '1,000' is not an amount: write it like 0.50 or 0,50, with no thousands"
            " separator.",
        ),
    ],
)
def test_a_bad_new_group_names_the_field_and_stores_nothing(client, db, fields, said):
    answer = start_group(client, **fields)
    assert answer.status_code == 400
    assert "Not started." in visible_text(answer)
    assert said in visible_text(answer)
    assert db["groups"].count == 0
    assert 'value="Ann"' in answer.text  # what was typed is drawn again


def test_the_same_new_group_form_sent_twice_makes_one_group(client, db):
    first = group_of(start_group(client))
    assert group_of(start_group(client)) == first
    assert db["groups"].count == 1


def test_a_match_started_from_the_group_takes_the_members_and_the_stake(client, db):
    group_id = group_of(start_group(client, members=("Ann", "Bob", "Cy", "Dee")))
    client.post(
        f"/g/{group_id}/stake",
        data={
            "revision": "1",
            "stake_game": "chicago",
            "stake_amount": "0.10",
            "stake_per": "100",
            "stake_currency": "EUR",
        },
    )
    form = client.get(f"/g/{group_id}/new?variant=chicago").text
    for seat, name in enumerate(("Ann", "Bob", "Cy", "Dee"), 1):
        assert re.search(rf'name="player{seat}" [^>]*value="{name}"', form)
    assert re.search(r'name="stake_amount" [^>]*value="0.10"', form)
    assert re.search(r'name="stake_per" [^>]*value="100"', form)
    assert 'list="group-members"' in form and "Start a match in Friday trio" in visible_text(form)
    data = {
        "variant": "chicago",
        "player1": "Ann",
        "player2": "Bob",
        "player3": "Eve",
        "player4": "Dee",
        "stake_amount": "0.10",
        "stake_per": "100",
        "stake_currency": "EUR",
        "key": "n" * 16,
    }
    answer = client.post(f"/g/{group_id}/new", data=data)
    match_id = match_id_in(answer.location)
    again = client.post(f"/g/{group_id}/new", data=data)  # a double tap
    assert match_id_in(again.location) == match_id
    state = g.load_group(db, group_id)
    assert list(state.matches) == [match_id]
    assert state.matches[match_id].mapping == {"Ann": 1, "Bob": 2, "Eve": 5, "Dee": 4}
    assert [m.name for m in state.members] == ["Ann", "Bob", "Cy", "Dee", "Eve"]
    assert (db["matches"].count, state.revision) == (1, 3)
    page = visible_text(client.get(f"/g/{group_id}"))
    assert "Matches (1) Chicago" in page
    assert "Chicago Ann, Bob, Eve, Dee In progress · Ann deals next" in page


def test_a_refused_start_in_a_group_stores_neither_match_nor_member(client, db):
    group_id = group_of(start_group(client))
    answer = client.post(
        f"/g/{group_id}/new",
        data={"variant": "top-game", "player1": "Ann", "player2": "ann", "player3": "Zed"},
    )
    assert answer.status_code == 200
    assert "ann is already Player 1" in visible_text(answer)
    assert db["matches"].count == 0
    assert g.load_group(db, group_id).revision == 1


def test_an_existing_match_added_by_its_address_with_a_name_mapped(client, db):
    group_id = group_of(start_group(client))
    match_id = start_match(client, ["Annie", "Bob", "Cy"])
    form = client.get(f"/g/{group_id}/add?match=http://table.local/m/{match_id}/hand/new")
    text = visible_text(form)
    assert "Annie → Ann Bob Cy New member: Annie" in text
    assert re.search(r'<option value="new" selected>New member: Annie</option>', form.text)
    assert re.search(r'<option value="2" selected>Bob</option>', form.text)
    answer = client.post(
        f"/g/{group_id}/add",
        data={"revision": "1", "match": match_id, "map1": "1", "map2": "2", "map3": "3"},
    )
    assert answer.status_code == 302
    state = g.load_group(db, group_id)
    assert state.matches[match_id].mapping == {"Annie": 1, "Bob": 2, "Cy": 3}
    page = visible_text(client.get(f"/g/{group_id}"))
    assert "Ann (Annie), Bob, Cy" in page
    # Renamed: the group shows the new name, the match keeps its own.
    client.post(f"/g/{group_id}/members/1", data={"revision": "2", "name": "Anna"})
    assert "Anna (Annie), Bob, Cy" in visible_text(client.get(f"/g/{group_id}"))
    assert store.load_match(db, match_id).players == ["Annie", "Bob", "Cy"]
    # Added again: refused on the first step, and on the second.
    again = client.get(f"/g/{group_id}/add?match={match_id}")
    assert (again.status_code, "This match is already in the group." in visible_text(again)) == (
        400,
        True,
    )
    resent = client.post(
        f"/g/{group_id}/add",
        data={"revision": "3", "match": match_id, "map1": "1", "map2": "2", "map3": "3"},
    )
    assert resent.status_code == 400
    assert "This match is already in the group." in visible_text(resent)
    assert g.load_group(db, group_id).revision == 3


def test_a_bad_mapping_is_refused_naming_the_player_and_nothing_is_stored(client, db):
    group_id = group_of(start_group(client))
    match_id = start_match(client, ["Annie", "Bob", "Cy"])
    answer = client.post(
        f"/g/{group_id}/add",
        data={"revision": "1", "match": match_id, "map1": "1", "map2": "1", "map3": "3"},
    )
    assert answer.status_code == 400
    assert "Annie and Bob are both mapped to Ann: a member plays once in a match." in visible_text(
        answer
    )
    assert 'aria-invalid="true"' in answer.text  # on Bob's choice
    state = g.load_group(db, group_id)
    assert (state.revision, state.matches) == (1, {})


def test_an_unknown_address_is_said_plainly(client):
    group_id = group_of(start_group(client))
    answer = client.get(f"/g/{group_id}/add?match=nothing-here")
    assert answer.status_code == 400
    assert "There is no match at that address" in visible_text(answer)


def test_a_match_file_imported_for_the_group_goes_to_the_mapping_form(client, db):
    group_id = group_of(start_group(client, members=("Ann", "Bob", "Cy", "Dee")))
    document = (EXAMPLES / "chicago.json").read_bytes()
    answer = client.post(
        f"/g/{group_id}/import",
        data={"match_file": (io.BytesIO(document), "chicago.json"), "key": "i" * 16},
        content_type="multipart/form-data",
    )
    assert answer.status_code == 302 and "/add?match=" in answer.location
    match_id = answer.location.rsplit("=", 1)[1]
    page = client.get(answer.location)
    assert "Ann → Ann Bob Cy Dee" in visible_text(page)
    client.post(
        f"/g/{group_id}/add",
        data={
            "revision": "1",
            "match": match_id,
            "map1": "1",
            "map2": "2",
            "map3": "3",
            "map4": "4",
        },
    )
    assert g.load_group(db, group_id).matches[match_id].mapping == {
        "Ann": 1,
        "Bob": 2,
        "Cy": 3,
        "Dee": 4,
    }
    bad = client.post(
        f"/g/{group_id}/import",
        data={"match_file": (io.BytesIO(b'{"format": 9}'), "x.json"), "key": "j" * 16},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "Not imported: " in visible_text(bad)
    assert db["matches"].count == 1


def test_a_match_taken_out_leaves_the_group_and_stays_a_match(client, db):
    group_id = group_of(start_group(client))
    match_id = start_match(client, ["Ann", "Bob", "Cy"])
    client.post(f"/g/{group_id}/add", data={"revision": "1", "match": match_id})
    answer = client.post(f"/g/{group_id}/remove/{match_id}", data={"revision": "2"})
    assert answer.status_code == 302
    assert g.load_group(db, group_id).matches == {}
    assert store.load_match(db, match_id) is not None
    page = visible_text(client.get(f"/g/{group_id}"))
    assert "Match taken out: The Top Game" in page and "Matches (0)" in page


def test_renaming_a_member_from_a_stale_form_is_refused_and_keeps_what_was_typed(client, db):
    group_id = group_of(start_group(client))
    first = client.post(
        f"/g/{group_id}/members/1", data={"revision": "1", "name": "Anne", "key": "a" * 16}
    )
    assert first.status_code == 302
    again = client.post(
        f"/g/{group_id}/members/1", data={"revision": "1", "name": "Anne", "key": "a" * 16}
    )
    assert again.status_code == 302  # the same form again: stored once
    stale = client.post(
        f"/g/{group_id}/members/1", data={"revision": "1", "name": "Annie", "key": "b" * 16}
    )
    assert stale.status_code == 409
    text = visible_text(stale)
    assert "Not saved: the group changed since this page was drawn." in text
    assert "Member renamed: Ann → Anne — from another phone, a moment ago" in text
    assert 'value="Annie"' in stale.text
    assert "data-live-url" not in stale.text  # drawn at the POST address: no redraw from it
    state = g.load_group(db, group_id)
    assert (state.revision, state.members[0].name) == (2, "Anne")


@pytest.mark.parametrize(
    ("url", "data", "said"),
    [
        ("members/1", {"name": "Bob"}, "Bob reads the same as the member Bob."),
        ("members/1", {"name": "  "}, "Write the member's name."),
        ("members", {"name": "b\u200dob"}, "This name has a joiner that joins nothing here"),
        ("rename", {"name": ""}, "Give the group a name, like “Friday trio”."),
        ("order", {"order": ["1", "2"]}, "Give each member one place in the order."),
        ("undo", {"undoes": "1"}, "There is nothing to undo."),
    ],
)
def test_bad_group_changes_say_what_is_wrong_and_store_nothing(client, db, url, data, said):
    group_id = group_of(start_group(client))
    answer = client.post(f"/g/{group_id}/{url}", data={"revision": "1", **data})
    assert answer.status_code == 400
    assert said in visible_text(answer)
    assert g.load_group(db, group_id).revision == 1


def test_a_form_without_its_revision_stores_nothing(client, db):
    group_id = group_of(start_group(client))
    answer = client.post(f"/g/{group_id}/members", data={"name": "Dee"})
    assert answer.status_code == 400
    assert "This form is incomplete" in visible_text(answer)
    assert g.load_group(db, group_id).revision == 1


def test_members_added_moved_up_and_the_group_renamed(client, db):
    group_id = group_of(start_group(client))
    client.post(f"/g/{group_id}/members", data={"revision": "1", "name": "Dee"})
    page = client.get(f"/g/{group_id}").text
    # Dee's ↑ button carries the order with Dee before Cy.
    assert re.search(
        r'value="1"><input type="hidden" name="order" value="2"><input type="hidden"'
        r' name="order" value="4"><input type="hidden" name="order" value="3">',
        page,
    )
    client.post(f"/g/{group_id}/order", data={"revision": "2", "order": ["1", "2", "4", "3"]})
    client.post(f"/g/{group_id}/rename", data={"revision": "3", "name": "Tuesday four"})
    state = g.load_group(db, group_id)
    assert (state.name, [m.name for m in state.members]) == (
        "Tuesday four",
        ["Ann", "Bob", "Dee", "Cy"],
    )
    assert "Tuesday four Group · Ann · Bob · Dee · Cy" in visible_text(client.get(f"/g/{group_id}"))


def test_undo_takes_back_the_last_change_and_not_an_older_one(client, db):
    group_id = group_of(start_group(client))
    client.post(f"/g/{group_id}/members", data={"revision": "1", "name": "Dee"})
    client.post(f"/g/{group_id}/rename", data={"revision": "2", "name": "Four"})
    page = client.get(f"/g/{group_id}")
    assert "Undo the last change Group renamed: Friday trio → Four" in visible_text(page)
    older = client.post(f"/g/{group_id}/undo", data={"revision": "3", "undoes": "2"})
    assert older.status_code == 409
    assert "Group renamed: Friday trio → Four — from another phone" in visible_text(older)
    answer = client.post(f"/g/{group_id}/undo", data={"revision": "3", "undoes": "3"})
    assert answer.status_code == 302
    state = g.load_group(db, group_id)
    assert (state.name, state.revision) == ("Friday trio", 4)
    client.post(f"/g/{group_id}/undo", data={"revision": "4", "undoes": "2"})
    assert [m.name for m in g.load_group(db, group_id).members] == ["Ann", "Bob", "Cy"]


def test_a_bad_stake_names_the_field(client, db):
    group_id = group_of(start_group(client))
    answer = client.post(
        f"/g/{group_id}/stake",
        data={"revision": "1", "stake_game": "chicago", "stake_amount": "abc", "stake_per": "100"},
    )
    assert answer.status_code == 400
    assert "Stake: 'abc' is not an amount: write it like 0.50 or 0,50" in visible_text(answer)
    assert g.load_group(db, group_id).stakes == {}


def test_the_watch_page_shows_the_group_and_changes_nothing(client, db):
    group_id = group_of(start_group(client))
    match_id = start_match(client, ["Ann", "Bob", "Cy"])
    client.post(f"/g/{group_id}/add", data={"revision": "1", "match": match_id})
    state = g.load_group(db, group_id)
    watch = client.get(f"/gw/{state.watch}")
    assert watch.status_code == 200
    assert "<form" not in watch.text.split("<main>")[1]
    assert match_id not in watch.text and group_id not in watch.text  # no address that plays
    assert f'href="/w/{store.load_match(db, match_id).watch}"' in watch.text
    assert "Friday trio Group · Ann · Bob · Cy · read-only" in visible_text(watch)
    assert client.post(f"/gw/{state.watch}/members", data={"name": "X"}).status_code == 403
    assert client.get("/gw/not-a-token-at-all").status_code == 404
    assert client.get(f"/gw/{state.watch}/live?since=1").json["revision"] == 2


def test_the_live_poll_answers_304_until_the_group_changes(client):
    group_id = group_of(start_group(client))
    first = client.get(f"/g/{group_id}/live?since=1")
    assert first.json == {"revision": 1, "mark": "0-0", "changes": []}
    same = client.get(
        f"/g/{group_id}/live?since=1", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert same.status_code == 304
    client.post(f"/g/{group_id}/members", data={"revision": "1", "name": "Dee"})
    moved = client.get(
        f"/g/{group_id}/live?since=1", headers={"If-None-Match": first.headers["ETag"]}
    )
    assert moved.json["revision"] == 2
    assert moved.json["changes"] == ["Member added: Dee — from another phone, a moment ago"]
    assert client.get(f"/g/{group_id}/live?since=x").status_code == 400
    assert client.get("/g/AAAAAAAAAAAAAAAA/live").status_code == 404


def test_played_matches_gives_the_ledger_each_match_replayed_with_member_names(app, client, db):
    from datetime import date

    from scorekeeper.views.groups import played_matches

    group_id = group_of(start_group(client, members=("Ann", "Bob", "Cy", "Dee")))
    document = (EXAMPLES / "chicago.json").read_bytes()
    imported = client.post(
        "/import",
        data={"match_file": (io.BytesIO(document), "chicago.json"), "key": "i" * 16},
        content_type="multipart/form-data",
    )
    chicago = match_id_in(imported.location)
    top = start_match(client, ["Annie", "Bob", "Cy"])
    client.post(f"/g/{group_id}/add", data={"revision": "1", "match": chicago})
    client.post(f"/g/{group_id}/add", data={"revision": "2", "match": top, "map1": "1"})
    client.post(f"/g/{group_id}/members/1", data={"revision": "3", "name": "Anna"})
    # One match's day moved back (as if started a week ago): the oldest comes first.
    db.execute(
        "update matches set created = ?, played = ? where id = ?",
        ["2026-11-18T12:00:00+00:00", "2026-11-18", top],
    )
    with app.test_request_context():
        played = played_matches(g.load_group(db, group_id))
    assert [p.match_id for p in played] == [top, chicago]
    assert played[0].played == date(2026, 11, 18)
    assert played[0].members == {"Annie": "Anna", "Bob": "Bob", "Cy": "Cy"}
    assert played[1].members == {"Ann": "Anna", "Bob": "Bob", "Cy": "Cy", "Dee": "Dee"}
    assert played[1].outcome.finished and played[1].match.stake.currency == "EUR"
    assert (played[0].outcome.finished, played[0].state["state"]) == (False, "in progress")
    assert not any(p.deleted for p in played)


def test_a_refused_form_reloaded_goes_back_to_the_group_page(client):
    group_id = group_of(start_group(client))
    for path in ("rename", "members", "members/1", "order", "undo", "import"):
        answer = client.get(f"/g/{group_id}/{path}")
        assert (answer.status_code, answer.location) == (302, f"/g/{group_id}"), path
    assert client.get("/g/AAAAAAAAAAAAAAAA/members").status_code == 404
