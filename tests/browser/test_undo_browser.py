"""Every one-tap change answers with an Undo in the same place, and the Undo
gives back the match exactly as it was (the match file before and after);
a refused Start shows what to fix on its first screen."""

from __future__ import annotations

import re

import pytest

from .conftest import PHONE

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def match_file(table, match_id: str) -> dict:
    return table.page.request.get(f"{table.server}/m/{match_id}/match.json").json()


def rubber_with_one_hand(table) -> str:
    match_id = table.start_match("rubber", PLAYERS)
    for field, value in (("declarer", "Ann"), ("level", "2"), ("strain", "H"), ("tricks", "8")):
        table.tap_button(field, value)
    table.save()
    return match_id


def undo_in_view(table) -> None:
    """The answer's Undo is on the first screen, without scrolling: tap it."""
    undo = table.page.locator(".flash-undo button")
    assert table.in_reach(".flash-undo button"), "the Undo is off screen"
    with table.page.expect_navigation():
        undo.click()


def passed_out(table, match_id: str) -> None:
    table.save("#quick-passed_out")


def stop_here(table, match_id: str) -> None:
    table.page.goto(f"{table.server}/m/{match_id}")
    table.save("text=Stop here (end the match)")


def delete_hand(table, match_id: str) -> None:
    page = table.page
    page.goto(f"{table.server}/m/{match_id}#hand-1")
    with page.expect_navigation():
        page.click("#hand-1 .actions button.danger")


def delete_match(table, match_id: str) -> None:
    table.page.goto(f"{table.server}/m/{match_id}")
    table.save("#delete-match")


@pytest.mark.parametrize(
    "action, said",
    [
        (passed_out, "Hand 2 saved."),
        (stop_here, "The match is stopped here."),
        (delete_hand, "Hand 1 deleted."),
        (delete_match, "Match deleted"),
    ],
    ids=["passed-out", "stop-here", "delete-hand", "delete-match"],
)
def test_one_tap_change_is_undone_exactly(table, action, said):
    match_id = rubber_with_one_hand(table)
    before = match_file(table, match_id)
    action(table, match_id)
    assert said in table.page.inner_text(".flash-undo")
    if action is delete_match:  # the match file is the same; the match left the list
        assert not in_play(table, match_id)
    else:
        assert match_file(table, match_id) != before
    undo_in_view(table)
    assert "Undone:" in table.page.inner_text("main")
    assert match_file(table, match_id) == before
    assert in_play(table, match_id)


def in_play(table, match_id: str) -> bool:
    """Listed on the home page among the matches in play (not under Deleted)."""
    home = table.page.request.get(f"{table.server}/").text()
    return f"/m/{match_id}" in home.split("Deleted matches")[0]


def test_a_stopped_match_can_be_resumed_later(table):
    match_id = rubber_with_one_hand(table)
    before = match_file(table, match_id)
    stop_here(table, match_id)
    table.page.goto(f"{table.server}/m/{match_id}")  # later: the Undo is gone
    assert table.page.locator(".flash-undo").count() == 0
    table.save("#resume")
    assert match_file(table, match_id) == before
    assert "New hand" in table.page.inner_text("#new-hand")


def test_refused_start_shows_what_to_fix_on_the_first_screen(table):
    page = table.page
    page.set_viewport_size(PHONE)
    page.goto(f"{table.server}/new")
    page.check('input[name=variant][value="rubber"]')
    page.fill("#player1", "Ann")
    page.fill("#player2", "ann")
    page.fill("#player3", "Cy")
    page.fill("#stake_amount", "0,50")
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    summary = page.locator("#error-summary")
    assert page.evaluate("document.activeElement.id") == "error-summary"
    assert table.in_reach("#error-summary")
    box = summary.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
    items = [re.sub(r"\s+", " ", t) for t in summary.locator("li").all_inner_texts()]
    assert items == [
        "Player 2: ann is already Player 1: give each player a different name"
        " (capitals do not count).",
        "Player 4: Rubber bridge needs 4 players: fill in Player 4.",
    ]
    # Each item leads to its field.
    with page.expect_navigation(url=re.compile(r"#player2$")):
        summary.locator("li a").first.click()
