"""Mini Bridge's HCP boxes (issue 24, point 8): the table announces from the
dealer clockwise (mini-bridge.md), so the pad fills the boxes in that order;
each box says whose it is and its turn, the pad says the order where the thumb
is, and a total the rules refuse is flagged under the boxes before Save (the
server still refuses it on Save)."""

from __future__ import annotations

import pytest

from tests.webtools import by_id, parse, visible_text

from .test_web_mini_bridge import FOUR, THREE, hcp, played, preview


def box_labels(page) -> list[str]:
    """The label of each HCP box, in seating order (as on screen)."""
    return [cell.find_all("label")[0].text() for cell in parse(page).find_all("div", "hcp-cell")
            if cell.find_all("label")]  # fmt: skip


def test_each_box_names_its_player_and_turn_when_bob_deals(actions):
    match_id = actions.start("mini-bridge", FOUR)
    actions.save_hand(match_id, played(5, 10, 13, 12))
    page = actions.page(f"/m/{match_id}/hand/new")
    # Seats stay in place; the number is the turn to announce, Bob first.
    assert box_labels(page) == ["4 Ann", "1 Bob deals", "2 Cy", "3 Dee"]
    assert [by_id(page, f"hcp{k}").attrs["data-player"] for k in (1, 2, 3, 4)] == [
        "Bob", "Cy", "Dee", "Ann",
    ]  # fmt: skip
    assert by_id(page, "pad-order").text() == ("From the dealer: Bob → Cy → Dee → Ann")


def test_three_players_boxes_name_their_turn(actions):
    match_id = actions.start("mini-bridge-3", THREE)
    page = actions.page(f"/m/{match_id}/hand/new")
    assert box_labels(page) == ["1 Ann deals", "2 Bob", "3 Cy"]
    assert by_id(page, "pad-order").text() == ("From the dealer: Ann → Bob → Cy")


@pytest.mark.parametrize(
    ("variant", "fields", "flag"),
    [
        ("mini-bridge", hcp(10, 10, 10, 11), "The four add up to 41, not 40: count again."),
        ("mini-bridge", hcp(10, 10, 10, 9), "The four add up to 39, not 40: count again."),
        (
            "mini-bridge-3",
            hcp(20, 15, 10),
            "That leaves dummy −5; dummy holds 0–37: count again.",
        ),
        (
            "mini-bridge-3",
            hcp(30, 15),
            "So far 30 + 15 = 45, more than the 40 in the deck: count again.",
        ),
    ],
    ids=["four-41", "four-39", "three-dummy-minus-5", "three-over-so-far"],
)
def test_a_total_that_does_not_fit_is_flagged_under_the_boxes(actions, variant, fields, flag):
    match_id = actions.start(variant, FOUR if variant == "mini-bridge" else THREE)
    answer = preview(actions, match_id, **fields)
    assert answer["derived"]["total_flag"] == flag
    # The live panel does not say it twice: it says nobody declares yet.
    assert visible_text(answer["live"]) == "Nobody declares until the points fit."
    # Drawn by the server too (a refused form, a page without the script).
    refused = actions.refuse_hand(match_id, **fields, game="no", strain="NT", tricks="7")
    note = by_id(refused, "hcp-total-flag")
    assert (note.text(), "hidden" in note.attrs) == (flag, False)
    assert all(
        box.attrs.get("aria-describedby") == "hcp-total-flag"
        for box in parse(refused).find_all("input", "hcp-input")
        if box.attrs.get("value")
    )
    assert actions.hands(match_id) == []


def test_a_total_that_fits_flags_nothing(actions):
    match_id = actions.start("mini-bridge", FOUR)
    answer = preview(actions, match_id, **hcp(12, 8, 10, 10))
    assert "total_flag" not in answer["derived"]
    page = actions.page(f"/m/{match_id}/hand/new")
    note = by_id(page, "hcp-total-flag")
    assert (note.text(), "hidden" in note.attrs) == ("", True)
