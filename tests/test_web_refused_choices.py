"""Issue 19, point 3: a hand form never offers a choice the rules would refuse for
the state it shows. The refused buttons are drawn disabled with the reason in words
under their group, from what the server says (the scripts only look it up), and a
Mini Bridge announcement no hand can hold is flagged under its box before Save.
The rules still refuse the same entries on Save."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.webtools import Element, by_id, parse, visible_text

FOUR = ["Ann", "Bob", "Cy", "Dee"]


def group(page, name: str) -> Element:
    return by_id(page, f"group-{name}")


def refused(page, name: str) -> list[str]:
    """The values of the buttons of group `name` drawn disabled (and shown)."""
    return [
        i.attrs.get("value") or ""
        for i in group(page, name).find_all("input")
        if "disabled" in i.attrs and "hidden" not in i.attrs
    ]


def left_out(page, name: str) -> list[str]:
    """The values of the buttons of group `name` left out of the page (hidden)."""
    return [
        i.attrs.get("value") or ""
        for i in group(page, name).find_all("input")
        if "hidden" in i.attrs and "disabled" in i.attrs
    ]


def note(page, name: str) -> str | None:
    """The reason under group `name`, or None when the note is hidden."""
    element = by_id(page, f"group-{name}-refused")
    return None if "hidden" in element.attrs else element.text()


def refused_by(page, name: str) -> dict:
    """The table the page carries for group `name` (what app.js looks up)."""
    return json.loads(group(page, name).attrs["data-refused-by"])


def rules_facts(page: str) -> dict:
    """The #rules-facts JSON block (a script element: its text is not "visible")."""
    start = page.index('id="rules-facts">') + len('id="rules-facts">')
    return json.loads(page[start : page.index("</script>", start)])


TOP_GAME_PN_11 = {
    "declarer": "Ann",
    "bid": "5",
    "dummy_tops": "6",
    "strain": "S",
    "doubling": "X",
    "doubler": "Bob",
    "tricks": "9",
}
NO_DOUBLE = "X, XX: playnumber 11 is above 10, so nobody may double"


# -- Top Game ------------------------------------------------------------------


def test_top_game_x_is_disabled_with_its_reason_at_playnumber_11(actions):
    """5 + 6 tops = pn 11: the form sent with X comes back with X and XX disabled
    and the reason under them; nothing is stored (the rules still refuse it)."""
    match_id = actions.start()
    page = actions.refuse_hand(match_id, TOP_GAME_PN_11)
    assert "the contract cannot be doubled" in visible_text(page)  # the rules, on Save
    assert refused(page, "doubling") == ["X", "XX"]
    assert note(page, "doubling") == NO_DOUBLE
    doubled = [i for i in group(page, "doubling").find_all("input") if i.attrs["value"] == "X"]
    assert doubled[0].attrs["aria-disabled"] == "true"
    assert doubled[0].attrs["aria-describedby"] == "group-doubling-refused"
    assert "checked" not in doubled[0].attrs  # a refused choice is never drawn chosen


def test_top_game_x_is_offered_at_playnumber_10(actions):
    match_id = actions.start()
    page = actions.refuse_hand(match_id, {**TOP_GAME_PN_11, "bid": "4", "tricks": ""})
    assert refused(page, "doubling") == []
    assert note(page, "doubling") is None


def test_top_game_edit_of_a_hand_at_playnumber_12_refuses_the_double(actions):
    match_id = actions.start()
    actions.save_hand(match_id, declarer="Ann", bid="6", dummy_tops="6", strain="NT", tricks="10")
    [hand] = actions.hand_ids(match_id)
    page = actions.page(f"/m/{match_id}/hand/{hand}")
    assert refused(page, "doubling") == ["X", "XX"]
    assert note(page, "doubling") == "X, XX: playnumber 12 is above 10, so nobody may double"


def test_top_game_page_carries_the_refused_doubles_of_every_playnumber(actions):
    """What the script shows while the bid and the tops are tapped: the server's words."""
    page = actions.page(f"/m/{actions.start()}/hand/new")
    table = rules_facts(page)["doubling_refused"]
    assert table["10"] == {}
    assert table["11"] == {
        "X": "playnumber 11 is above 10, so nobody may double",
        "XX": "playnumber 11 is above 10, so nobody may double",
    }
    assert table["25"]["X"] == "playnumber 25 is above 10, so nobody may double"
    assert set(table) == {str(pn) for pn in range(2, 26)}
    # A fresh form refuses nothing yet: no bid, no tops.
    assert refused(page, "doubling") == []
    assert note(page, "doubling") is None


def test_top_game_declarer_tops_beyond_the_deck_are_refused(actions):
    """Dummy holds 6 of the 12 tops: declarer cannot hold 7 or more."""
    match_id = actions.start()
    page = actions.refuse_hand(match_id, {**TOP_GAME_PN_11, "declarer_tops": "8"})
    assert refused(page, "declarer_tops") == ["7", "8", "9", "10", "11", "12"]
    assert note(page, "declarer_tops") == (
        "7, 8, 9, 10, 11, 12: dummy holds 6 of the 12 tops, so declarer at most 6"
    )
    table = refused_by(page, "declarer_tops")
    assert table["fields"] == ["dummy_tops"]
    assert table["table"]["0"] == []
    assert table["table"]["12"] == [
        ["dummy holds 12 of the 12 tops, so declarer at most 0", [str(n) for n in range(1, 13)]]
    ]


def test_top_game_declarer_is_left_out_of_doubler_and_informer(actions):
    match_id = actions.start()
    page = actions.refuse_hand(match_id, TOP_GAME_PN_11)
    assert left_out(page, "doubler") == ["Ann"]
    assert left_out(page, "informer") == ["Ann"]
    assert refused_by(page, "doubler")["table"]["Cy"] == [["the declarer", ["Cy"]]]


# -- rubber, Chicago, Honeymoon --------------------------------------------------


@pytest.mark.parametrize("variant", ["rubber", "chicago"])
def test_rubber_honours_100_refused_at_no_trumps(actions, variant):
    match_id = actions.start(variant, FOUR)
    page = actions.refuse_hand(
        match_id,
        declarer="Ann",
        level="3",
        strain="NT",
        tricks="9",
        honours_holder="Ann",
        honours_points="100",
    )
    assert "at NT only the four aces count" in visible_text(page)  # the rules, on Save
    assert refused(page, "honours_points") == ["100"]
    assert note(page, "honours_points") == (
        "100 · four of five: at no trumps only the four aces count, for 150"
    )
    table = refused_by(page, "honours_points")["table"]
    assert table["S"] == []
    assert table["NT"] == [["at no trumps only the four aces count, for 150", ["100"]]]


def test_rubber_honours_100_offered_in_a_suit(actions):
    match_id = actions.start("rubber", FOUR)
    page = actions.refuse_hand(match_id, declarer="Ann", level="4", strain="S")
    assert refused(page, "honours_points") == []
    assert note(page, "honours_points") is None


# -- Bridge for Three, Need a Fourth? ---------------------------------------------


def test_bridge_for_three_declarer_is_left_out_of_the_doublers(actions):
    match_id = actions.start("bridge-for-three", FOUR)
    page = actions.refuse_hand(match_id, declarer="Bob", level="2", strain="H")
    assert left_out(page, "doubler") == ["Bob"]
    assert refused_by(page, "doubler")["fields"] == ["declarer"]
    # Redoubling is not a choice at all in this game.
    assert [i.attrs.get("value") or "" for i in group(page, "doubled").find_all("input")] == [
        "",
        "X",
    ]


def test_need_a_fourth_chooser_is_left_out_of_the_partners(actions):
    match_id = actions.start("need-a-fourth", ["Ann", "Bob", "Cy"])
    page = actions.refuse_hand(match_id, chooser="Cy", level="2", strain="S")
    assert left_out(page, "partner") == ["Cy"]


def test_need_a_fourth_declarer_is_left_out_of_the_redoublers(actions):
    """Cy chooses Ann: Bob is the Declarer, who may only double."""
    match_id = actions.start("need-a-fourth", ["Ann", "Bob", "Cy"])
    page = actions.refuse_hand(
        match_id, chooser="Cy", partner="Ann", level="2", strain="S", doubling="XX"
    )
    assert left_out(page, "redoubled_by") == ["Bob"]
    table = refused_by(page, "redoubled_by")
    assert table["fields"] == ["chooser", "partner"]
    assert table["table"]["Ann\tCy"] == [["the Declarer may only double", ["Bob"]]]
    assert table["table"]["Bob\tCy"] == [["the Declarer may only double", ["Ann"]]]


# -- Mini Bridge -------------------------------------------------------------------


def preview(actions, match_id: str, **fields: str) -> dict:
    response = actions.client.get(f"/m/{match_id}/hand/preview", query_string=fields)
    assert response.status_code == 200
    return response.json


def test_mini_bridge_38_is_flagged_in_place_by_the_preview(actions):
    """The issue's 38: no longer "40 of 40" but the box named and what is allowed."""
    match_id = actions.start("mini-bridge", FOUR)
    answer = preview(actions, match_id, hcp1="38", hcp2="1", hcp3="1")
    flag = "Ann: 38 is more than one hand holds; allowed 0–37"
    assert answer["derived"]["flags"] == {"hcp1": flag}
    assert "Check the marked box: one hand holds 0–37 HCP." in visible_text(answer["live"])
    assert "40 of 40" not in visible_text(answer["live"])
    assert actions.hands(match_id) == []


@pytest.mark.parametrize(
    "fields, flags",
    [
        ({"hcp2": "abc"}, {"hcp2": "Bob: 'abc' is not a whole number; allowed 0–37"}),
        ({"hcp3": "-3"}, {"hcp3": "Cy: -3 is below 0; allowed 0–37"}),
        ({"hcp1": "37", "hcp4": "0"}, {}),
    ],
)
def test_mini_bridge_flags_each_impossible_box(actions, fields, flags):
    match_id = actions.start("mini-bridge", FOUR)
    assert preview(actions, match_id, **fields)["derived"]["flags"] == flags


def test_mini_bridge_announcements_over_the_deck_are_flagged_before_the_last(actions):
    match_id = actions.start("mini-bridge-3", ["Ann", "Bob", "Cy"])
    answer = preview(actions, match_id, hcp1="30", hcp2="15")
    assert answer["derived"]["over"] == (
        "So far 30 + 15 = 45, more than the 40 in the deck: count again."
    )
    assert answer["derived"]["total_flag"] == answer["derived"]["over"]  # under the boxes
    assert visible_text(answer["live"]) == "Nobody declares until the points fit."


def test_mini_bridge_refused_form_shows_the_flag_under_the_box(actions):
    match_id = actions.start("mini-bridge", FOUR)
    page = actions.refuse_hand(
        match_id, hcp1="38", hcp2="1", hcp3="1", hcp4="0", game="no", strain="NT", tricks="7"
    )
    flag = by_id(page, "hcp1-flag")
    assert "hidden" not in flag.attrs
    assert flag.text() == "Ann: 38 is more than one hand holds; allowed 0–37"
    box = by_id(page, "hcp1")
    assert box.attrs["aria-invalid"] == "true"
    assert box.attrs["aria-describedby"] == "hcp1-flag"
    assert "hidden" in by_id(page, "hcp2-flag").attrs
    assert "aria-invalid" not in by_id(page, "hcp2").attrs


def test_mini_bridge_fresh_form_flags_nothing(actions):
    page = actions.page(f"/m/{actions.start('mini-bridge', FOUR)}/hand/new")
    for k in range(1, 5):
        assert "hidden" in by_id(page, f"hcp{k}-flag").attrs
    assert [e for e in parse(page).find_all("input") if "aria-invalid" in e.attrs] == []


# -- Calypso ---------------------------------------------------------------------

CALYPSO = ["Ann", "Bob", "Cy", "Dan"]


@pytest.mark.parametrize(
    "fields, flags",
    [
        (
            {"p3_incomplete": "13"},
            {"p3_incomplete": "Cy, incomplete: 13 is out of range; allowed 0–12"},
        ),
        (
            {"p1_incomplete": "seven"},
            {"p1_incomplete": "Ann, incomplete: 'seven' is not a whole number; allowed 0–12"},
        ),
        (
            {"p4_discards": "209"},
            {"p4_discards": "Dan, discards: 209 is out of range; allowed 0–208"},
        ),
        (
            {"p2_calypsos": "4", "p2_incomplete": "3"},
            {
                "p2_incomplete": "Bob, incomplete: 4 calypsos use every trump card of the four "
                "decks, so no calypso can be in progress; give 0"
            },
        ),
        ({"p1_incomplete": "12", "p1_discards": "", "p2_calypsos": "4"}, {}),
    ],
)
def test_calypso_flags_each_impossible_count_as_typed(actions, fields, flags):
    match_id = actions.start("calypso", CALYPSO)
    answer = preview(actions, match_id, **fields)
    assert answer["derived"]["flags"] == flags
    assert ("Check the marked count" in visible_text(answer["live"])) == bool(flags)
    assert actions.hands(match_id) == []


def test_calypso_form_flags_nothing_twice(actions):
    """A fresh form flags nothing; a refused Save says the rules' words under the
    box, and the flag (the preview's) does not repeat them."""
    match_id = actions.start("calypso", CALYPSO)
    page = actions.page(f"/m/{match_id}/hand/new")
    assert "hidden" in by_id(page, "p1_incomplete-flag").attrs
    assert "aria-invalid" not in by_id(page, "p1_incomplete").attrs
    page = actions.refuse_hand(match_id, p1_calypsos="0", p1_incomplete="13")
    # The rules' own words are shown under the box on Save: the flag does not repeat them.
    assert "hidden" in by_id(page, "p1_incomplete-flag").attrs
    assert "13 is out of range; allowed 0–12" in visible_text(page)


GAMES_FOLDER = Path(__file__).resolve().parent.parent / "scorekeeper" / "games"


@pytest.mark.parametrize(
    "script, rules",
    [
        # The doubles above playnumber 10 and the declarer as doubler or misinformer.
        ("games/top_game/top_game.js", ["> 10", ">= 11", 'hideChoices("doubler"', "informer"]),
        # 100 honours at no trumps.
        ("games/rubber/rubber.js", ['"100"', '"150"', '=== "NT"']),
        ("games/bridge_for_three/bridge_for_three.js", ['hideChoices("doubler"']),
        (
            "games/need_a_fourth/need_a_fourth.js",
            ['hideChoices("partner"', 'hideChoices("redoubled_by"'],
        ),
        # What a hand or the deck holds.
        ("games/mini_bridge/mini_bridge.js", ["37", "max_hcp) {", "more than one hand"]),
        ("games/calypso/calypso.js", ["12", "out of range"]),
    ],
)
def test_scripts_hold_no_refusal_rule_of_their_own(script, rules):
    """What is refused and why comes from the server; the scripts only show it."""
    _, family, name = script.split("/")  # served as games/<family>/<file>, from its folder
    text = (GAMES_FOLDER / family / "static" / name).read_text()
    for rule in rules:
        assert rule not in text, f"{script} holds {rule!r}"
