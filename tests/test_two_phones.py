"""Two phones, one deal: a hand form refused because another phone saved that
hand first shows the two versions side by side in the form's words, offers
"Same deal — keep theirs, discard mine" (stores nothing) before "Save mine as
the next hand" (the normal write path: its own key, checked against the match
as stored then), and says so when both phones entered the very same hand."""

from __future__ import annotations

import re

import pytest

from tests.webtools import by_id, checked, items, visible_text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
FOUR_SPADES = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
SCRIPT = {"X-Requested-With": "fetch"}  # how static/save.js sends a form
REFUSED = "Not saved: the match changed since this form was drawn."
# Four tallies that account for the 208 cards of four decks (examples/calypso.json).
CALYPSO = {
    f"p{seat}_{count}": value
    for seat, tally in enumerate([("1", "7", "31"), ("2", "3", "25"), ("1", "10", "46")], 1)
    for count, value in zip(("calypsos", "incomplete", "discards"), tally, strict=True)
} | {"p4_calypsos": "0", "p4_incomplete": "9", "p4_discards": "25"}


def keys_and_revisions(page: str) -> dict[str, tuple[str, str]]:
    """form id -> (revision, one-time key) of each form that changes the match."""
    found = {}
    for attrs, inner in re.findall(r"<form\b([^>]*)>(.*?)</form>", page, re.S):
        form_id = re.search(r'id="([^"]+)"', attrs)
        revision = re.search(r'name="revision" value="(\d+)"', inner)
        key = re.search(r'name="key" value="([^"]+)"', inner)
        if form_id and revision and key:
            found[form_id.group(1)] = (revision.group(1), key.group(1))
    return found


def refused_after_theirs(
    actions, client, variant, players, theirs, mine, headers=None, options=None
):
    """Both phones drew the form for the next hand; the other phone saved `theirs`
    first; this phone's `mine` comes back refused (409), nothing stored."""
    match_id = actions.start(variant, players, options=options)
    revision = actions.revision(match_id)
    actions.save_hand(match_id, {**theirs, "revision": str(revision)})
    stored = actions.hands(match_id)
    answer = client.post(
        f"/m/{match_id}/hand/new",
        data={**mine, "revision": str(revision), "key": "mine-refused-key-1"},
        headers=headers or {},
    )
    assert answer.status_code == 409
    assert actions.hands(match_id) == stored
    return match_id, answer


def test_the_same_deal_with_another_trick_count_shows_where_they_differ(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {**FOUR_SPADES, "tricks": "9"}
    )
    box = by_id(answer, "changed")
    assert box.find_all("strong")[0].text() == REFUSED
    assert items(answer, "same-deal-differences") == [
        "Tricks won by declarer's side: theirs 10 · yours 9"
    ]
    assert by_id(answer, "same-deal-words").text() == (
        "Nothing was stored. Your entries are kept below."
        " The same deal? Theirs and yours differ in:"
    )
    # Keep theirs comes first and is the main action; save mine second.
    buttons = [b for b in box.find_all("button")]
    assert [b.text() for b in buttons] == [
        "Same deal — keep theirs, discard mine",
        "Save mine as the next hand",
    ]
    assert buttons[0].attrs["class"] == "button primary big"
    assert buttons[1].attrs["form"] == "hand-form"
    assert by_id(answer, "keep-theirs-form").attrs["data-discard"] == "mine-refused-key-1"
    # The form below keeps this phone's entries, drawn for hand 2; its Save is
    # no longer the main action.
    save = by_id(answer, "save")
    assert (save.text(), save.attrs["class"]) == ("Save mine as hand 2", "button big")
    assert checked(answer, "tricks") == ["9"]
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]


def test_keep_theirs_stores_nothing_and_goes_on_to_the_next_hand(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {**FOUR_SPADES, "tricks": "9"}
    )
    revision = actions.revision(match_id)
    theirs = re.search(r'name="theirs" value="(\d+)"', answer.get_data(as_text=True)).group(1)
    kept = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": theirs})
    assert kept.status_code == 302
    assert kept.location == f"/m/{match_id}/hand/new"
    page = client.get(kept.location)
    assert "Kept hand 1 as another phone saved it; yours was not saved." in visible_text(page)
    assert by_id(page, "save").text() == "Save hand 2"
    assert actions.revision(match_id) == revision
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 10}]
    # Sent twice (a double tap), still nothing stored.
    again = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": theirs})
    assert again.status_code == 302 and actions.revision(match_id) == revision


def test_keep_theirs_names_the_phone_that_saved_it(actions, client):
    match_id = actions.start("rubber", PLAYERS)
    client.post("/phone", data={"name": "Bob's phone", "next": "/"})
    actions.save_hand(match_id, FOUR_SPADES)
    client.post("/phone", data={"name": "Ann's phone", "next": "/"})
    revision = actions.revision(match_id)
    kept = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": str(revision)})
    text = visible_text(client.get(kept.location))
    assert "Kept hand 1 as Bob's phone saved it; yours was not saved." in text


def test_keep_theirs_of_the_last_hand_goes_to_the_sheet(actions, client):
    """Mini Bridge of one hand: nothing follows the hand the other phone saved."""
    hand = {"hcp1": "10", "hcp2": "10", "hcp3": "12", "hcp4": "8"}
    hand.update(game="no", strain="H", tricks="8")
    match_id = actions.start("mini-bridge", PLAYERS, options={"hands": "1"})
    revision = actions.revision(match_id)
    actions.save_hand(match_id, {**hand, "revision": str(revision)})
    answer = client.post(
        f"/m/{match_id}/hand/new", data={**hand, "revision": str(revision), "tricks": "9"}
    )
    assert answer.status_code == 302  # the match is over: the sheet says so
    assert answer.location == f"/m/{match_id}"
    text = visible_text(client.get(answer.location))
    assert (
        "To keep yours, edit hand 1: theirs and yours differ in Tricks won: theirs 8 · yours 9."
        in text
    )
    assert len(actions.hands(match_id)) == 1
    kept = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": str(revision + 1)})
    assert kept.location == f"/m/{match_id}"


def test_both_phones_entered_the_same_hand(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, FOUR_SPADES
    )
    assert by_id(answer, "changed").attrs["class"] == "flash flash-info same-deal"
    assert by_id(answer, "same-deal-words").text() == ("They saved the same hand — nothing to do.")
    assert items(answer, "same-deal-differences") == []
    box = by_id(answer, "changed")
    [main] = [b for b in box.find_all("button") if "primary" in b.attrs["class"].split()]
    assert main.text() == "Same deal — keep theirs, discard mine"
    assert len(actions.hands(match_id)) == 1


def test_save_mine_as_the_next_hand_stores_it_once(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {**FOUR_SPADES, "tricks": "9"}
    )
    revision, key = keys_and_revisions(answer.get_data(as_text=True))["hand-form"]
    mine = {**FOUR_SPADES, "tricks": "9", "revision": revision, "key": key}
    first = client.post(f"/m/{match_id}/hand/new", data=mine)
    again = client.post(f"/m/{match_id}/hand/new", data=mine)  # a double tap
    assert (first.status_code, again.status_code) == (302, 302)
    assert actions.hands(match_id) == [
        {"declarer": "Ann", "contract": "4S", "tricks": 10},
        {"declarer": "Ann", "contract": "4S", "tricks": 9},
    ]


def test_save_mine_after_a_third_phone_saved_is_refused_again(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {**FOUR_SPADES, "tricks": "9"}
    )
    revision, key = keys_and_revisions(answer.get_data(as_text=True))["hand-form"]
    third = {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "8"}
    actions.save_hand(match_id, third)
    mine = {**FOUR_SPADES, "tricks": "9", "revision": revision, "key": key}
    refused = client.post(f"/m/{match_id}/hand/new", data=mine)
    assert refused.status_code == 409
    assert items(refused, "same-deal-differences") == [
        "Declarer: theirs Bob · yours Ann",
        "Level: theirs 2 · yours 4",
        "Strain: theirs ♥ · yours ♠",
        "Tricks won by declarer's side: theirs 8 · yours 9",
    ]
    assert len(actions.hands(match_id)) == 2
    # The form drawn with that refusal saves it, once.
    revision, key = keys_and_revisions(refused.get_data(as_text=True))["hand-form"]
    mine = {**mine, "revision": revision, "key": key}
    assert client.post(f"/m/{match_id}/hand/new", data=mine).status_code == 302
    assert client.post(f"/m/{match_id}/hand/new", data=mine).status_code == 302
    assert [h["tricks"] for h in actions.hands(match_id)] == [10, 8, 9]


def test_the_refusal_sent_by_the_script_is_the_same_page(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {**FOUR_SPADES, "tricks": "9"}, SCRIPT
    )
    assert items(answer, "same-deal-differences") == [
        "Tricks won by declarer's side: theirs 10 · yours 9"
    ]
    kept = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": "2"}, headers=SCRIPT)
    assert kept.status_code == 302 and kept.location == f"/m/{match_id}/hand/new"


def test_a_one_tap_hand_against_a_contract_is_said_as_two_hands(actions, client):
    match_id, answer = refused_after_theirs(
        actions, client, "rubber", PLAYERS, FOUR_SPADES, {"quick": "passed_out"}
    )
    assert items(answer, "same-deal-differences") == [
        "Hand: theirs 4♠ by Ann, made · yours all passed"
    ]
    # Save mine goes through the one-tap form it came from.
    save_mine = by_id(answer, "save-mine")
    assert (save_mine.attrs["form"], save_mine.attrs["name"], save_mine.attrs["value"]) == (
        "quick-form",
        "quick",
        "passed_out",
    )
    revision, key = keys_and_revisions(answer.get_data(as_text=True))["quick-form"]
    data = {"quick": "passed_out", "revision": revision, "key": key}
    assert client.post(f"/m/{match_id}/hand/new", data=data).status_code == 302
    assert actions.hands(match_id)[1] == {"passed_out": True}


@pytest.mark.parametrize(
    "variant, players, theirs, mine, differences",
    [
        (
            "top-game",
            ["Ann", "Bob", "Cy"],
            {"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "S", "tricks": "10"},
            {"declarer": "Ann", "bid": "4", "dummy_tops": "2", "strain": "S", "tricks": "10"},
            ["Tops in dummy: theirs 3 · yours 2"],
        ),
        (
            "need-a-fourth",
            ["Ann", "Bob", "Cy"],
            {"chooser": "Ann", "partner": "Bob", "level": "2", "strain": "H", "tricks": "8"},
            {"chooser": "Ann", "partner": "Cy", "level": "2", "strain": "H", "tricks": "8"},
            ["Partner: theirs Bob · yours Cy"],
        ),
        (
            "mini-bridge",
            PLAYERS,
            {"hcp1": "10", "hcp2": "10", "hcp3": "12", "hcp4": "8", "game": "no"}
            | {"strain": "H", "tricks": "8"},
            {"hcp1": "11", "hcp2": "10", "hcp3": "12", "hcp4": "7", "game": "no"}
            | {"strain": "H", "tricks": "8"},
            ["HCP Ann: theirs 10 · yours 11", "HCP Dee: theirs 8 · yours 7"],
        ),
        (
            "chicago",
            PLAYERS,
            {**FOUR_SPADES, "doubling": "X"},
            FOUR_SPADES,
            ["Doubled?: theirs Doubled · yours No"],
        ),
        (
            "mini-bridge-3",
            ["Ann", "Bob", "Cy"],
            {"hcp1": "10", "hcp2": "10", "hcp3": "12", "game": "no", "strain": "H"}
            | {"tricks": "8"},
            {"hcp1": "10", "hcp2": "10", "hcp3": "12", "scrapped": "y"},
            ["Hand: theirs HCP Ann 10, Bob 10, Cy 12, dummy 40 − 32 = 8 · yours scrapped"],
        ),
        (
            "calypso",
            PLAYERS,
            CALYPSO,
            {**CALYPSO, "p1_calypsos": "2", "p3_calypsos": "0"},
            ["Ann's calypsos: theirs 1 · yours 2", "Cy's calypsos: theirs 1 · yours 0"],
        ),
    ],
    ids=["top-game", "need-a-fourth", "mini-bridge", "chicago", "mini-bridge-3", "calypso"],
)
def test_differences_are_said_in_each_games_words(
    actions, client, variant, players, theirs, mine, differences
):
    options = {"games": "2"} if variant == "calypso" else None
    _, answer = refused_after_theirs(
        actions, client, variant, players, theirs, mine, options=options
    )
    assert items(answer, "same-deal-differences") == differences


def test_an_edit_refused_because_another_phone_changed_that_hand(actions, client):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, FOUR_SPADES)
    [hand] = actions.hand_ids(match_id)
    revision = actions.revision(match_id)
    actions.save_hand(match_id, {**FOUR_SPADES, "tricks": "11"}, hand=hand)
    answer = client.post(
        f"/m/{match_id}/hand/{hand}",
        data={**FOUR_SPADES, "tricks": "9", "revision": str(revision), "key": "edit-key-1"},
    )
    assert answer.status_code == 409
    assert by_id(answer, "same-deal-words").text() == (
        "Nothing was stored. Your version is kept below. Theirs and yours differ in:"
    )
    assert items(answer, "same-deal-differences") == [
        "Tricks won by declarer's side: theirs 11 · yours 9"
    ]
    box = by_id(answer, "changed")
    assert [b.text() for b in box.find_all("button")] == [
        "Keep theirs, discard mine",
        "Save mine instead",
    ]
    assert by_id(answer, "save").text() == "Save mine instead"
    # Keep theirs: back to that hand on the sheet, nothing stored.
    theirs = re.search(r'name="theirs" value="(\d+)"', answer.get_data(as_text=True)).group(1)
    kept = client.post(
        f"/m/{match_id}/hand/keep-theirs", data={"theirs": theirs, "hand": str(hand)}
    )
    assert kept.location == f"/m/{match_id}?hand={hand}"
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 11}]
    # Save mine instead: the form drawn with the refusal replaces theirs.
    revision, key = keys_and_revisions(answer.get_data(as_text=True))["hand-form"]
    mine = {**FOUR_SPADES, "tricks": "9", "revision": revision, "key": key}
    assert client.post(f"/m/{match_id}/hand/{hand}", data=mine).status_code == 302
    assert actions.hands(match_id) == [{"declarer": "Ann", "contract": "4S", "tricks": 9}]


def test_an_edit_refused_for_a_change_of_another_hand_keeps_the_plain_refusal(actions, client):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, FOUR_SPADES)
    [hand] = actions.hand_ids(match_id)
    revision = actions.revision(match_id)
    actions.save_hand(match_id, {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "8"})
    answer = client.post(
        f"/m/{match_id}/hand/{hand}",
        data={**FOUR_SPADES, "tricks": "9", "revision": str(revision)},
    )
    assert answer.status_code == 409
    assert "Your version is kept below: tap Save to replace what is stored now." in (
        by_id(answer, "changed").text()
    )
    assert "keep-theirs" not in answer.get_data(as_text=True)


def test_after_a_deletion_the_plain_refusal_stays(actions, client):
    """The hands moved under the form (a hand deleted): there is no one hand to set
    beside it, so the refusal names the changes and offers Save, as before."""
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, FOUR_SPADES)
    [hand] = actions.hand_ids(match_id)
    revision = actions.revision(match_id)
    assert client.post(f"/m/{match_id}/hand/{hand}/delete").status_code == 302
    answer = client.post(f"/m/{match_id}/hand/new", data={**FOUR_SPADES, "revision": str(revision)})
    assert answer.status_code == 409
    assert (
        by_id(answer, "changed")
        .text()
        .endswith(
            "Nothing was stored. Your entries are kept below: tap Save to store them as hand 1."
        )
    )


@pytest.mark.parametrize("theirs", ["", "abc", "0", "-1", "99999999999999999999"])
def test_keep_theirs_with_a_garbled_field_stores_nothing(actions, client, theirs):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, FOUR_SPADES)
    revision = actions.revision(match_id)
    kept = client.post(f"/m/{match_id}/hand/keep-theirs", data={"theirs": theirs, "hand": theirs})
    assert kept.status_code == 302
    assert "Your entries were not saved." in visible_text(client.get(kept.location))
    assert actions.revision(match_id) == revision
