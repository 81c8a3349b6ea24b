"""An Undo takes back the change it was offered for, or is refused.

Phone A makes a change; before A's page (with "… Undo") has loaded, phone B makes
another. A's Undo must not take back B's change: it carries the revision of A's
change and the write path refuses it while a newer change stands, naming that
change; once B's change is undone, the same Undo takes back A's exactly.
Every kind of answer with an Undo is covered, through the test client and with
two real phones under waitress.
"""

from __future__ import annotations

import html
import re

import pytest

from scorekeeper.app import create_app
from tests.phones import Phone, served
from tests.webtools import Actions, visible_text

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
H1 = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
H2 = {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "7"}
H3 = {"declarer": "Cy", "level": "1", "strain": "C", "tricks": "5"}
SETTINGS = {"stake_amount": "", "stake_per": "", "stake_currency": ""}

_UNDO_FORM = re.compile(
    r'<form method="post" action="(/m/[\w-]{16}/undo)" class="inline">(.*?)</form>', re.S
)
_HIDDEN = re.compile(r'<input type="hidden" name="([a-z_]+)" value="([^"]*)">')


def flash_undo(page: str) -> tuple[str, dict[str, str]]:
    """The Undo of the answer shown on `page`: where it posts and its fields."""
    found = _UNDO_FORM.search(page)
    assert found, "no Undo in the answer"
    return found.group(1), {k: html.unescape(v) for k, v in _HIDDEN.findall(found.group(2))}


def stored(actions, match_id: str) -> tuple:
    document = actions.document(match_id)
    return document["hands"], document.get("title"), in_list(actions, match_id)


def in_list(actions, match_id: str) -> bool:
    return f"/m/{match_id}" in actions.page("/").split("Deleted matches")[0]


def undo_last(client, match_id: str):
    """Tap "Undo the last change" on the match page as drawn now."""
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    button = re.search(r'class="inline undo-last">(.*?)</form>', page, re.S).group(1)
    fields = {k: html.unescape(v) for k, v in _HIDDEN.findall(button)}
    return client.post(f"/m/{match_id}/undo", data=fields)


# Each: (what A does, its answer) starting from a match with hand 1 saved.
def save_hand(a, m):
    return a.client.post(f"/m/{m}/hand/new", data=H2)


def passed_out(a, m):
    return a.client.post(f"/m/{m}/hand/new", data={"quick": "passed_out"})


def edit_hand(a, m):
    return a.client.post(f"/m/{m}/hand/1", data=H3)


def stop_here(a, m):
    return a.client.post(f"/m/{m}/end")


def delete_hand(a, m):
    return a.client.post(f"/m/{m}/hand/1/delete")


def settings(a, m):
    return a.client.post(f"/m/{m}/settings", data={**SETTINGS, "title": "Friday"})


def bring_back(a, m):
    a.followed(a.client.post(f"/m/{m}/hand/1", data=H3))  # change 3; its earlier version back
    return a.client.post(f"/m/{m}/history/3/restore", data={"version": "before"})


def undo_again(a, m):
    a.client.post(f"/m/{m}/settings", data={**SETTINGS, "title": "Friday"})
    page = a.page(f"/m/{m}")
    action, fields = flash_undo(page)
    return a.client.post(action, data=fields)  # "Undone: title …", whose Undo goes further back


def delete_match(a, m):
    return a.client.post(f"/m/{m}/delete")


def b_names_the_match(b, m):
    return b.post(f"/m/{m}/settings", data={**SETTINGS, "title": "Late"})


def b_brings_it_back(b, m):
    return b.post(f"/m/{m}/restore")


@pytest.mark.parametrize(
    "act, said, b_acts, b_said",
    [
        (save_hand, "Hand 2 saved.", b_names_the_match, "Title “Late”, no stake"),
        (passed_out, "Hand 2 saved.", b_names_the_match, "Title “Late”, no stake"),
        (edit_hand, "Hand 1 saved.", b_names_the_match, "Title “Late”, no stake"),
        (stop_here, "The match is stopped here.", b_names_the_match, "Title “Late”"),
        (delete_hand, "Hand 1 deleted.", b_names_the_match, "Title “Late”"),
        (settings, "Title and stake saved.", b_names_the_match, "Title “Late”"),
        (bring_back, "Brought back.", b_names_the_match, "Title “Late”"),
        (undo_again, "Undone: Title “Friday”", b_names_the_match, "Title “Late”"),
        (delete_match, "Match deleted", b_brings_it_back, "The match was brought back"),
    ],
    ids=[
        "hand-saved",
        "passed-out",
        "hand-edited",
        "stop-here",
        "delete-hand",
        "settings",
        "brought-back",
        "undo-of-undo",
        "delete-match",
    ],
)
def test_an_undo_is_refused_once_another_phone_changed_the_match(
    app, actions, act, said, b_acts, b_said
):
    match_id = actions.start("rubber", PLAYERS)
    actions.followed(actions.save_hand(match_id, H1))  # its answer read: no Undo left over
    reader = Actions(app.test_client())  # reads what is stored without taking A's answer
    reader.page(f"/m/{match_id}")  # listed on its home page from now on
    before, drawn = stored(reader, match_id), reader.revision(match_id)
    answer = act(actions, match_id)
    assert answer.status_code == 302
    after_a = stored(reader, match_id)
    assert reader.revision(match_id) > drawn
    bob = app.test_client()
    assert b_acts(bob, match_id).status_code == 302  # before A's page loads
    after_b = stored(reader, match_id)
    page = actions.page(answer.location)
    assert said in visible_text(page)
    action, fields = flash_undo(page)
    refused = actions.followed(actions.client.post(action, data=fields))
    assert "Not undone: “" in refused and "” is no longer the last change." in refused
    assert b_said in refused  # the change in the way, named
    assert stored(reader, match_id) == after_b  # nothing undone: not B's, not A's
    # B takes its own change back; A's same Undo then takes back exactly A's change.
    assert undo_last(bob, match_id).status_code == 302
    assert stored(reader, match_id) == after_a
    done = actions.followed(actions.client.post(action, data=fields))
    assert "Undone: " in done
    # Bringing back undone: hand 1 as edited. The Undo after an undo offers the
    # change before it: hand 1 goes, and the title stays gone.
    edited = [{"declarer": "Cy", "contract": "1C", "tricks": 5}]
    expected = {bring_back: (edited, None, True), undo_again: ([], None, True)}.get(act, before)
    assert stored(reader, match_id) == expected


def test_a_second_undo_of_the_same_change_says_it_was_already_undone(app, actions):
    match_id = actions.start("rubber", PLAYERS)
    answer = actions.save_hand(match_id, H1)
    page = actions.page(answer.location)
    action, fields = flash_undo(page)
    assert "Undone: Hand 1 saved" in actions.followed(actions.client.post(action, data=fields))
    again = actions.followed(actions.client.post(action, data={**fields, "key": "x" * 22}))
    assert "Not undone: “Hand 1 saved: 4♠ by Ann, made" in again
    assert "was already undone." in again
    assert actions.hands(match_id) == []


def test_the_undo_last_change_button_names_its_change_and_is_refused_after_a_newer_one(
    app, actions
):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, H1)
    page = actions.page(f"/m/{match_id}")
    button = re.search(r'class="inline undo-last">(.*?)</form>', page, re.S).group(1)
    fields = {k: html.unescape(v) for k, v in _HIDDEN.findall(button)}
    assert fields["undoes"] == "2"
    app.test_client().post(f"/m/{match_id}/hand/new", data=H2)  # Bob's phone
    # Drawn at revision 2: refused as stale whatever it names.
    refused = actions.followed(actions.client.post(f"/m/{match_id}/undo", data=fields))
    assert "Not undone" in refused
    assert len(actions.hands(match_id)) == 2


# --- two real phones under waitress -------------------------------------------------


@pytest.fixture
def served_app(store_path):
    app = create_app({"DATABASE": store_path, "SECRET_KEY": "phones"})
    with served(app) as base:
        yield base


def test_two_phones_a_undo_never_removes_b_hand(served_app):
    """A saves hand 3, B saves hand 4 before A's page loads; A's Undo is refused,
    naming Bob's hand 4, and removes nothing; after B undoes hand 4, A's Undo
    removes hand 3 and nothing else."""
    ann, bob = Phone(served_app, "Ann's phone"), Phone(served_app, "Bob's phone")
    match_id = ann.start("rubber", list(PLAYERS))
    hand_form = f"/m/{match_id}/hand/new"
    for hand in (H1, H2):
        assert ann.submit(ann.form(hand_form), **hand).status == 302
    saved = ann.submit(ann.form(hand_form), **H3)  # hand 3
    assert saved.status == 302
    assert bob.submit(bob.form(hand_form), **H2).status == 302  # hand 4, before A's page
    undo = ann.form(saved.location, f"/m/{match_id}/undo")  # A's page: "Hand 3 saved. Undo"
    assert undo.fields["undoes"] == "4"
    refused = ann.submit(undo)
    assert refused.status == 302
    shown = html.unescape(ann.get(refused.location).text)
    assert "Not undone: “Hand 3 saved: 1♣ by Cy, down 2" in shown
    assert "Hand 4 saved: 2♥ by Bob, down 1" in shown and "from Bob's phone" in shown
    four = [
        {"declarer": d, "contract": c, "tricks": t}
        for d, c, t in [("Ann", "4S", 10), ("Bob", "2H", 7), ("Cy", "1C", 5), ("Bob", "2H", 7)]
    ]
    assert ann.hands(match_id) == four
    # Bob takes back his own hand 4 from his answer's Undo; then A's Undo works.
    bob_undo = bob.form(f"/m/{match_id}", f"/m/{match_id}/undo")
    assert bob.submit(bob_undo, undoes="5").status == 302
    assert ann.hands(match_id) == four[:3]
    assert ann.submit(undo).status == 302
    assert ann.hands(match_id) == four[:2]
