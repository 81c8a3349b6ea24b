"""Mini Bridge (`mini-bridge`, `mini-bridge-3`) through the web pages: the hand form
as its inputs and buttons post it, the derived declarer, 20–20 redeals and scrapped
deals in one POST, the sheet, editing, refusals and the rules pages."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.webtools import Element, by_id, checked, parse, texts, visible_text

FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]


def hcp(*points: int | str) -> dict[str, str]:
    """The HCP inputs in announcement order (hcp1 is the dealer)."""
    return {f"hcp{k}": str(p) for k, p in enumerate(points, 1)}


def played(*points: int, game: str = "no", strain: str = "NT", tricks: int = 7) -> dict[str, str]:
    return {**hcp(*points), "game": game, "strain": strain, "tricks": str(tricks)}


def hcp_inputs(page) -> list[Element]:
    """The HCP boxes of the hand form, in seating order (as on screen)."""
    return parse(page).find_all("input", "hcp-input")


def typed_hcp(page) -> list[str]:
    """What the HCP boxes hold, in seating order."""
    return [box.attrs.get("value") or "" for box in hcp_inputs(page)]


def sheet(actions, match_id: str) -> Element:
    return by_id(actions.page(f"/m/{match_id}"), "sheet")


def cells(actions, match_id: str) -> list[str]:
    """The first figure of every numeric cell of the sheet (a hand's points, a total),
    in reading order: which figure sits in which column is the point."""
    return [
        (cell.text().split() or [""])[0] for cell in sheet(actions, match_id).find_all("td", "num")
    ]


def headings(actions, match_id: str) -> list[str]:
    """The column headings of the sheet."""
    [head] = sheet(actions, match_id).find_all("thead")
    return [th.text() for th in head.find_all("th")]


def scrap_button(page) -> Element:
    return by_id(page, "scrap")


# -- what the hand page shows before anything is typed ------------------------


def test_four_hand_page_shows_dealer_order_and_sides(actions):
    match_id = actions.start("mini-bridge", FOUR)
    html = actions.page(f"/m/{match_id}/hand/new")
    text = visible_text(html)
    assert "Ann deals." in text
    assert "HCP announced Ann → Bob → Cy → Dee" in text
    assert "Sides: Ann & Cy against Bob & Dee" in text
    # each side in its own colour
    assert texts(html, "mb-side-0") == ["Ann & Cy"] and texts(html, "mb-side-1") == ["Bob & Dee"]
    assert "Counted hand 1 of 8." in text
    boxes = hcp_inputs(html)
    assert [box.attrs.get("data-player") for box in boxes] == FOUR
    assert all(box.attrs.get("inputmode") == "numeric" for box in boxes)
    assert "data-first" in boxes[0].attrs  # focused by the script on a mouse and keyboard
    assert 'id="scrap"' not in html


def test_three_hand_page_shows_dummy_box_and_hidden_default_button(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    html = actions.page(f"/m/{match_id}/hand/new")
    text = visible_text(html)
    assert "HCP announced Ann → Bob → Cy" in text
    assert "Counted hand 1 of 9." in text
    dummy = by_id(html, "dummy-hcp")
    assert (dummy.tag, dummy.attrs.get("class"), dummy.attrs.get("aria-live")) == (
        "output",
        "hcp-output",
        "polite",
    )
    assert dummy.text() == "–"
    # Enter in an HCP box presses the first button of the form: Save, never Scrap;
    # Scrap comes after Save, away from the choices a thumb goes for (issue 19).
    assert html.index('class="mb-default"') < html.index('id="save"') < html.index('id="scrap"')
    # It says what Save says: "Save hand 1", not "Save " (issue #26).
    hidden = '<button class="mb-default" tabindex="-1" aria-hidden="true">Save hand 1</button>'
    assert hidden in html


def test_target_is_shown_on_hand_page_and_sheet(actions):
    match_id = actions.start("mini-bridge", FOUR, options={"target": "500"})
    assert "Playing to 500: the leader needs 500 more." in actions.text(f"/m/{match_id}/hand/new")
    actions.save_hand(match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    assert "Playing to 500: the leader has 450, 50 to go." in sheet(actions, match_id).text()
    assert "the leader needs 50 more." in actions.text(f"/m/{match_id}/hand/new")


# -- typical hands --------------------------------------------------------------


def test_four_typical_hand_is_stored_and_drawn(actions):
    match_id = actions.start("mini-bridge", FOUR)
    # Ann 5, Bob 10, Cy 13, Dee 12: Bob & Dee 22, Dee declares GAME in hearts, 11 tricks.
    actions.save_hand(match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    assert actions.hands(match_id) == [
        {
            "hcp": {"Ann": 5, "Bob": 10, "Cy": 13, "Dee": 12},
            "game": True,
            "strain": "H",
            "tricks": 11,
        }
    ]
    drawn = sheet(actions, match_id)
    assert headings(actions, match_id) == ["#", "Contract", "Ann & Cy", "Bob & Dee"]
    assert "Dee: GAME ♥ 11 tricks, made" in drawn.text()
    assert [a.attrs.get("href") for a in drawn.find_all("a")] == ["#hand-1"]
    assert [a.text() for a in drawn.find_all("a")] == ["1"]
    assert cells(actions, match_id) == ["·", "+450", "0", "450"]
    assert "1 of 8 counted hands played, 7 left." in drawn.text()


def test_announcements_follow_the_dealer(actions):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(5, 10, 13, 12))
    text = actions.text(f"/m/{match_id}/hand/new")
    assert "Bob deals." in text
    assert "HCP announced Bob → Cy → Dee → Ann" in text
    # Bob 3, Cy 12, Dee 14, Ann 11: Ann & Cy 23; Cy declares, GAME in clubs, 9 tricks: 2 down.
    actions.save_hand(match_id, played(3, 12, 14, 11, game="yes", strain="C", tricks=9))
    assert actions.hands(match_id)[1]["hcp"] == {"Bob": 3, "Cy": 12, "Dee": 14, "Ann": 11}
    assert "Cy: GAME ♣ 9 tricks, 2 down" in sheet(actions, match_id).text()
    # Hand 1: no GAME in NT, 7 tricks = 40 for Bob & Dee; hand 2: 100 for Bob & Dee.
    assert cells(actions, match_id) == ["·", "+40", "·", "+100", "0", "140"]


def test_server_shows_the_declarer_after_a_submit(actions):
    match_id = actions.start("mini-bridge", FOUR)
    response = actions.refuse_hand(match_id, {**hcp(5, 10, 13, 12), "game": "yes", "strain": "H"})
    text = visible_text(response)
    assert "Bob & Dee declare, 22 HCP against 18." in text
    assert "Dee declares (12 HCP, more than Bob's 10); Bob is dummy." in text
    assert "choose the number of tricks won" in text
    assert typed_hcp(response) == ["5", "10", "13", "12"]  # the typed HCP are kept
    assert actions.hands(match_id) == []


def test_four_tie_within_the_side_goes_to_who_announced_first(actions):
    match_id = actions.start("mini-bridge", FOUR)
    response = actions.refuse_hand(match_id, hcp(8, 11, 10, 11))
    assert "Bob declares (11 HCP, tied with Dee, announced first)" in visible_text(response)
    actions.save_hand(match_id, played(8, 11, 10, 11, game="no", strain="S", tricks=9))
    assert "Bob: ♠, no GAME" in sheet(actions, match_id).text()
    assert cells(actions, match_id) == ["·", "+90", "0", "90"]


def test_three_typical_hand_defenders_each_score(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    # Ann 7, Bob 7, Cy 15: dummy 11; Cy declares GAME in NT and takes 7: two down.
    actions.save_hand(match_id, played(7, 7, 15, game="yes", strain="NT", tricks=7))
    assert actions.hands(match_id) == [
        {"hcp": {"Ann": 7, "Bob": 7, "Cy": 15}, "game": True, "strain": "NT", "tricks": 7}
    ]
    drawn = sheet(actions, match_id)
    assert headings(actions, match_id) == ["#", "Contract", *THREE]
    assert "Cy: GAME NT 7 tricks, 2 down" in drawn.text()
    assert cells(actions, match_id) == ["+100", "+100", "·", "100", "100", "0"]
    assert "1 of 9 counted hands played, 8 left." in drawn.text()


def test_three_server_shows_dummy_and_declarer_after_a_submit(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    response = actions.refuse_hand(match_id, hcp(7, 7, 15))
    assert by_id(response, "dummy-hcp").text() == "11"
    text = visible_text(response)
    assert "Cy declares (15 HCP, the most) with dummy: 15 + 11 = 26." in text
    assert "Ann and Bob defend." in text
    assert "hidden" in scrap_button(response).attrs  # 26: no scrapping
    response = actions.refuse_hand(match_id, hcp(12, 12, 8))
    text = visible_text(response)
    assert "(12 HCP, tied with Bob, announced first)" in text
    assert "Under 21: Ann may scrap the deal." in text
    shown = scrap_button(response)
    assert "hidden" not in shown.attrs and shown.text() == "Scrap the deal"
    assert actions.hands(match_id) == []


# -- redeals and scrapped deals: one POST --------------------------------------


def test_twenty_all_is_saved_as_a_redeal_and_the_dealer_stays(actions):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, hcp(9, 9, 11, 11))
    assert actions.hands(match_id) == [{"hcp": {"Ann": 9, "Bob": 9, "Cy": 11, "Dee": 11}}]
    drawn = sheet(actions, match_id)
    [row] = drawn.find_all("tr", "uncounted")  # drawn grey
    assert "20–20" in row.text() and "dealt again" in row.text()
    assert "0 of 8 counted hands played, 8 left." in drawn.text()
    text = actions.text(f"/m/{match_id}/hand/new")
    assert "Ann deals again. Counted hand 1 of 8." in text
    assert "Counted hand 1 of 8." in text


def test_twenty_all_with_a_contract_is_refused_with_the_notice(actions):
    match_id = actions.start("mini-bridge", FOUR)
    text = visible_text(actions.refuse_hand(match_id, played(9, 9, 11, 11, tricks=8)))
    assert "20–20: nobody plays; Ann deals again. Saving records the redeal." in text
    assert "must be left out when both sides hold 20: the same dealer deals again" in text
    assert actions.hands(match_id) == []


def test_scrap_is_one_post_and_the_dealer_stays(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    # Ann 9, Bob 12, Cy 11: dummy 8; Bob declares with 20 and scraps. GAME etc. are ignored.
    actions.save_hand(match_id, {**hcp(9, 12, 11), "scrapped": "y", "game": "yes"})
    assert actions.hands(match_id) == [{"hcp": {"Ann": 9, "Bob": 12, "Cy": 11}, "scrapped": True}]
    text = sheet(actions, match_id).text()
    assert "Bob scrapped" in text and "20 HCP with dummy" in text
    assert "0 of 9 counted hands played, 9 left." in text
    assert "Ann deals again" in actions.text(f"/m/{match_id}/hand/new")


def test_scrap_refused_at_21_or_more(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    actions.save_hand(match_id, played(7, 7, 15))
    response = actions.refuse_hand(match_id, {**hcp(7, 15, 7), "scrapped": "y"})
    text = visible_text(response)
    assert "Not saved." in text
    # Hand 2: Bob deals and announces first (7), then Cy 15, then Ann 7.
    assert "Cy and dummy hold 15 + 11 = 26; a deal may be scrapped only below 21" in text


# -- every kind of bad input: the message is shown and nothing is stored -------

# Hand 2 of the match: Bob deals, so hcp1 is Bob, hcp2 Cy, hcp3 Dee, hcp4 Ann.
FOUR_ERRORS = [
    ({**played(5, 10, 13, 12), "hcp2": "x"}, "Cy: 'x' is not a whole number; allowed 0–37"),
    (played(38, 0, 1, 1), "Bob: 38 is out of range; allowed 0–37"),
    (played(10, 10, 10, 11), "the four hands add up to 41, not 40; count again"),
    # Empty boxes: whose points to enter (the rules' words are "Ann is missing; give …").
    ({**played(5, 10, 13, 12), "hcp4": ""}, "HCP: enter the points of Ann"),
    ({"game": "no", "strain": "NT", "tricks": "7"}, "enter the points of Bob, Cy, Dee and Ann"),
    # A box holding something wrong beside an empty one: the rules' words, both said.
    ({**played(5, 45, 13, 12), "hcp4": ""}, "Ann is missing; give Ann, Bob, Cy, Dee; Cy: 45 is"),
    ({**played(5, 10, 13, 12), "hcp1": "12345"}, "give a whole number 0–37"),
    ({**hcp(5, 10, 13, 12), "strain": "NT", "tricks": "7"}, "choose GAME or No GAME"),
    ({**played(5, 10, 13, 12), "game": "maybe"}, "'maybe' is not true or false"),
    ({**hcp(5, 10, 13, 12), "game": "no", "tricks": "7"}, "choose a strain"),
    ({**played(5, 10, 13, 12), "strain": "Z"}, "'Z' is not a strain; allowed C, D, H, S, NT"),
    ({**played(5, 10, 13, 12), "tricks": "14"}, "14 is out of range; allowed 0–13"),
    ({**played(5, 10, 13, 12), "tricks": "many"}, "'many' is not a whole number"),
    ({**hcp(5, 10, 13, 12), "game": "no", "strain": "NT"}, "choose the number of tricks won"),
]


@pytest.mark.parametrize(("data", "message"), FOUR_ERRORS)
def test_four_bad_input_is_shown_and_not_stored(actions, data, message):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(5, 10, 13, 12))
    text = visible_text(actions.refuse_hand(match_id, data))
    assert "Not saved." in text
    assert message in text


THREE_ERRORS = [
    (played(0, 1, 1), "the three hold 2, leaving dummy 38; together they must hold 3–40"),
    (played(20, 20, 1), "the three hold 41, leaving dummy -1"),
    ({**played(7, 7, 15), "hcp3": "-3"}, "Cy: -3 is out of range; allowed 0–37"),
    ({**played(7, 7, 15), "scrapped": "y", "hcp1": ""}, "HCP: enter the points of Ann"),
]


@pytest.mark.parametrize(("data", "message"), THREE_ERRORS)
def test_three_bad_input_is_shown_and_not_stored(actions, data, message):
    match_id = actions.start("mini-bridge-3", THREE)
    text = visible_text(actions.refuse_hand(match_id, data))
    assert "Not saved." in text
    assert message in text
    assert actions.hands(match_id) == []


# -- editing, deleting, ending ---------------------------------------------------


def test_edit_shows_old_values_and_changes_the_sheet(actions):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    [hand_id] = actions.hand_ids(match_id)
    html = actions.page(f"/m/{match_id}/hand/{hand_id}")
    assert "Edit hand 1" in visible_text(html)
    assert [by_id(html, f"hcp{k}").attrs.get("value") for k in range(1, 5)] == [
        "5",
        "10",
        "13",
        "12",
    ]
    assert "data-first" not in html
    assert (checked(html, "game"), checked(html, "strain"), checked(html, "tricks")) == (
        ["yes"],
        ["H"],
        ["11"],
    )
    assert "Dee declares (12 HCP" in visible_text(html)
    # One trick fewer: 1 down, 50 to Ann & Cy.
    edit = played(5, 10, 13, 12, game="yes", strain="H", tricks=9)
    actions.save_hand(match_id, edit, hand_id)
    assert actions.hands(match_id)[0]["tricks"] == 9
    assert cells(actions, match_id) == ["+50", "·", "50", "0"]


def test_three_edit_of_a_scrapped_deal_shows_the_hcp(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    actions.save_hand(match_id, {**hcp(9, 12, 11), "scrapped": "y"})
    [hand_id] = actions.hand_ids(match_id)
    html = actions.page(f"/m/{match_id}/hand/{hand_id}")
    assert [by_id(html, f"hcp{k}").attrs.get("value") for k in range(1, 4)] == ["9", "12", "11"]
    assert "Under 21: Bob may scrap the deal." in visible_text(html)
    # Played after all: Bob takes 8 tricks without GAME in spades, 60.
    actions.save_hand(match_id, played(9, 12, 11, game="no", strain="S", tricks=8), hand_id)
    assert cells(actions, match_id) == ["·", "+60", "·", "0", "60", "0"]


def test_edit_that_breaks_a_later_hand_is_refused_naming_it(actions):
    match_id = actions.start("mini-bridge", FOUR, options={"hands": "2"})
    actions.save_hand(match_id, hcp(9, 9, 11, 11))  # 20–20, not counted
    actions.save_hand(match_id, played(5, 10, 13, 12))
    actions.save_hand(match_id, played(10, 13, 12, 5))
    assert "2 of 2 counted hands played: the match is over." in sheet(actions, match_id).text()
    first = actions.hand_ids(match_id)[0]
    text = visible_text(actions.refuse_hand(match_id, played(5, 10, 13, 12), first))
    assert "Not saved." in text
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in text


def test_delete_undo_and_end(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    actions.save_hand(match_id, played(7, 7, 15, game="yes", strain="NT", tricks=9))
    [hand_id] = actions.hand_ids(match_id)
    actions.client.post(f"/m/{match_id}/hand/{hand_id}/delete")
    assert actions.hands(match_id) == []
    actions.client.post(f"/m/{match_id}/undo")
    assert len(actions.hands(match_id)) == 1
    # GAME in NT with 9 tricks: 3 × 40 + 300 = 420 for Cy.
    assert cells(actions, match_id) == ["·", "·", "+420", "0", "0", "420"]
    actions.client.post(f"/m/{match_id}/end")
    assert actions.hands(match_id)[-1] == {"end": True}
    text = sheet(actions, match_id).text()
    assert "stopped" in text
    assert "1 of 9 counted hands played: the match is over." in text


def test_finished_by_target_says_so(actions):
    match_id = actions.start("mini-bridge-3", THREE, options={"target": "400"})
    actions.save_hand(match_id, played(7, 7, 15, game="yes", strain="NT", tricks=9))
    assert "Playing to 400: reached with 420." in sheet(actions, match_id).text()
    assert actions.client.get(f"/m/{match_id}/hand/new").status_code == 302


# -- rules pages ------------------------------------------------------------------

# In the words of docs/variants/mini-bridge.md and mini-bridge-3.md, which the
# rules pages show.
FOUR_DECISIONS = [
    "each player exactly once, each 0–37, and the four must add up to 40",
    "either for a number of hands or to a target, never both. Without a target it lasts 8 counted"
    " hands unless you choose another number (1–100); a target may be 1–100000",
    "dealt again on 20–20 is kept on the sheet but does not count",
    "reached by a total equal to it or higher. Points won by defending count",
    "Whether GAME was announced must be entered for every hand that is played",
    "A failed contract gives the declaring side 0, never a negative score",
    "A match file may name the declarer as a check",
    "If the two sides finish level, all four players are winners.",
    "Players may stop early",
]
THREE_DECISIONS = [
    "The three players' HCP are entered, each 0–37, and their total must leave the dummy 0–37",
    "either for a number of hands or to a target, never both. Without a target it lasts 9 counted"
    " hands unless you choose another number (1–100)",
    "A scrapped deal is kept on the sheet but does not count",
    "reached by a total equal to it or higher. Points won by defending count",
    "Whether GAME was announced must be entered for every hand that is played",
    "A failed contract gives the declarer 0, never a negative score",
    "The declarer is never entered: it always follows from the HCP, and the dummy never declares.",
    "Scrapping is the declarer's choice, never forced",
    "When several players share the highest total at the end, they are all winners.",
    "Players may stop early",
]


@pytest.mark.parametrize(
    ("variant", "decisions", "example"),
    [
        ("mini-bridge", FOUR_DECISIONS, "plus 300 for GAME = 450"),
        ("mini-bridge-3", THREE_DECISIONS, "12 + 8 = 20 is under 21, so Bob may scrap"),
    ],
)
def test_rules_page_lists_every_decision(actions, variant, decisions, example):
    html = actions.page(f"/rules/{variant}")
    found = texts(html, "decision", "li")
    assert len(found) == len(decisions)
    for decision, text in zip(decisions, found, strict=True):
        assert decision in text
    assert example in visible_text(html)


# -- the preview the hand form asks for while the HCP are typed -------------------------


def preview(actions, match_id: str, hand: int | None = None, **fields: str) -> dict[str, Any]:
    query = {**fields, **({"hand": str(hand)} if hand else {})}
    response = actions.client.get(f"/m/{match_id}/hand/preview", query_string=query)
    assert response.status_code == 200
    return response.json


@pytest.mark.parametrize(
    "fields, derived, live",
    [
        pytest.param(
            {**hcp(12, 8, 10, 10), "game": "no", "strain": "NT", "tricks": "8"},
            {"declarer": "Ann", "dummy": "Cy", "needed": 7, "ours": 22, "theirs": 18},
            "Ann & Cy declare, 22 HCP against 18.",
            id="made",
        ),
        pytest.param(
            {**hcp(14, 6, 9, 11), "game": "yes", "strain": "C", "tricks": "10"},
            {"declarer": "Ann", "dummy": "Cy", "needed": 11, "ours": 23, "theirs": 17},
            "Ann declares (14 HCP, more than Cy's 9); Cy is dummy.",
            id="one-down",
        ),
        pytest.param(
            hcp(10, 10, 10, 10),
            {"redeal": True},
            "20–20: nobody plays; Ann deals again.",
            id="redeal",
        ),
        pytest.param(
            hcp(10, 10, 10, 9), {"wrong_sum": 39}, "Nobody declares until the points fit.", id="sum"
        ),
        pytest.param(hcp(12, 8), {"typed": 20}, "So far 20 of 40.", id="half-typed"),
    ],
)
def test_preview_says_what_the_rules_say_for_four(actions, fields, derived, live):
    match_id = actions.start("mini-bridge", FOUR)
    answer = preview(actions, match_id, **fields)
    assert {k: answer["derived"][k] for k in derived} == derived
    assert live in visible_text(answer["live"])
    assert actions.hands(match_id) == []  # asking stores nothing


@pytest.mark.parametrize(
    "fields, result",
    [
        (
            {**hcp(12, 8, 10, 10), "game": "no", "strain": "NT", "tricks": "8"},
            "No GAME in NT, 8 tricks: made, Ann & Cy score 80.",
        ),
        (
            {**hcp(15, 5, 11, 9), "game": "yes", "strain": "H", "tricks": "11"},
            "GAME in ♥, 11 tricks: made, Ann & Cy score 150 + 300 = 450.",
        ),
        (
            {**hcp(14, 6, 9, 11), "game": "yes", "strain": "C", "tricks": "10"},
            "GAME in ♣, 10 tricks: 1 down, Bob & Dee score 50.",
        ),
        ({**hcp(14, 6, 9, 11), "game": "yes", "strain": "C"}, "GAME in ♣: 11 tricks needed."),
    ],
)
def test_preview_result_line_is_the_scoring_rule(actions, fields, result):
    match_id = actions.start("mini-bridge", FOUR)
    assert preview(actions, match_id, **fields)["derived"]["result"] == result


def test_preview_for_three_offers_the_scrap_below_21(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    answer = preview(actions, match_id, **hcp(12, 11, 10))
    assert answer["derived"]["dummy_hcp"] == 7
    assert answer["derived"]["may_scrap"] is True
    assert "Under 21: Ann may scrap the deal." in visible_text(answer["live"])
    answer = preview(actions, match_id, **hcp(12, 11, 10), game="no", strain="S", tricks="5")
    assert (
        answer["derived"]["result"] == "No GAME in ♠, 5 tricks: 2 down, Bob and Cy score 100 each."
    )


def test_preview_of_an_edited_hand_is_for_that_hand(actions):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(12, 8, 10, 10))
    actions.save_hand(match_id, played(8, 12, 10, 10))
    first = actions.hand_ids(match_id)[0]
    # Hand 1 was dealt by Ann: hcp1 is Ann's announcement, not Bob's.
    answer = preview(actions, match_id, hand=first, **hcp(12, 8, 10, 10))
    assert answer["derived"]["declarer"] == "Ann"
    assert (
        preview(actions, match_id, **hcp(12, 8, 10, 10))["derived"]["declarer"] == "Cy"
    )  # hand 3 is Cy's deal


def test_only_a_variant_with_a_preview_answers_it(actions):
    match_id = actions.start("rubber", FOUR)
    assert actions.client.get(f"/m/{match_id}/hand/preview").status_code == 404


def test_the_form_script_applies_no_scoring_rule():
    """The page's script asks the preview; it holds no trick values, bonuses or
    tricks needed of its own (issue 9: each rule once, on the server)."""
    script = (
        Path(__file__).resolve().parent.parent
        / "scorekeeper/games/mini_bridge/static/mini_bridge.js"
    ).read_text()
    for rule in ("trick_value", "for_game", "undertrick", "bonus", "scrap_below", "300"):
        assert rule not in script


def test_hcp_boxes_keep_seating_order_while_the_dealer_moves(actions):
    """Each player's box keeps its place every hand; the inputs are named by
    announcement position, and the dealer's (hcp1) is the one the script focuses."""
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(12, 8, 10, 10))
    boxes = hcp_inputs(actions.page(f"/m/{match_id}/hand/new"))  # Bob deals hand 2
    assert [box.attrs.get("data-player") for box in boxes] == FOUR
    assert [box.attrs.get("name") for box in boxes] == ["hcp4", "hcp1", "hcp2", "hcp3"]
    assert [box.attrs.get("data-player") for box in boxes if "data-first" in box.attrs] == ["Bob"]
