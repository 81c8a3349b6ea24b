"""Starting a match in Chromium (issue 24, point 7): the inputs the page hides for
the chosen game never block Start and never become players or options."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_groups_browser import start_group


def test_a_three_player_game_starts_from_a_four_member_group(table, server):
    page = table.page
    address = start_group(table, server, "Friday four", ["Ann", "Bob", "Cy", "Di"])
    with page.expect_navigation():
        page.click("#group-new-match")
    assert [page.input_value(f"#player{i}") for i in (1, 2, 3, 4)] == ["Ann", "Bob", "Cy", "Di"]
    page.check('input[name=variant][value="top-game"]')
    expect(page.locator("#player4")).to_be_hidden()
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    assert re.search(r"/m/[\w-]{16}/hand/new$", page.url), page.url
    match_id = re.search(r"/m/([\w-]{16})", page.url).group(1)
    stored = page.request.get(f"{server}/m/{match_id}/match.json").json()
    assert stored["players"] == ["Ann", "Bob", "Cy"]
    page.goto(address)
    expect(page.locator(".group-matches li").first).to_contain_text("Ann, Bob, Cy")
    expect(page.locator(".member-name")).to_have_text(["Ann", "Bob", "Cy", "Di"])


def test_an_option_typed_for_one_game_is_read_for_it_alone(table, server):
    """Mini Bridge for three shares "hands" with two other games: the number typed
    in the input shown is the one stored."""
    page = table.page
    page.goto(f"{server}/new")
    page.check('input[name=variant][value="mini-bridge-3"]')
    for seat, name in enumerate(["Ann", "Bob", "Cy"], 1):
        page.fill(f"#player{seat}", name)
    hands = page.locator('.option:visible [name="opt_hands"]')
    expect(hands).to_have_count(1)
    hands.fill("12")
    expect(page.locator(".option:visible label").first).to_contain_text("9 when no target")
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    match_id = re.search(r"/m/([\w-]{16})", page.url).group(1)
    stored = page.request.get(f"{server}/m/{match_id}/match.json").json()
    assert (stored["players"], stored["options"]) == (["Ann", "Bob", "Cy"], {"hands": 12})
