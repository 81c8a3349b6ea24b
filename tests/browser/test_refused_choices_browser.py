"""Issue 19, points 3 and 6 in Chromium: a choice the rules refuse cannot be tapped
and says why, a Mini Bridge announcement no hand holds is flagged under its box
before Save, and the fourth announcement box is the player's once touched."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from .test_mini_bridge_browser import announce

NO_DOUBLE = "X, XX: playnumber {pn} is above 10, so nobody may double"


def chosen(page, field: str) -> str | None:
    return page.evaluate("(name) => window.Scorekeeper.value(name)", field)


def test_top_game_x_cannot_be_tapped_above_playnumber_10(table):
    match_id = table.start_match("top-game", ["Ann", "Bob", "Cy"])
    page = table.page
    table.tap_button("declarer", "Ann")
    table.tap_button("bid", "5")
    table.tap_button("dummy_tops", "6")
    table.tap_button("strain", "S")
    expect(page.locator("#pn-line")).to_have_text(
        "pn = 5 + 6 = 11 → 8S needs 14 tricks (cannot be doubled)"
    )
    page.click("#group-doubling >> xpath=ancestor::details/summary")
    x = page.locator('#group-doubling input[value="X"]')
    expect(x).to_be_disabled()
    expect(x).to_have_attribute("aria-disabled", "true")
    note = page.locator("#group-doubling-refused")
    expect(note).to_be_visible()
    expect(note).to_have_text(NO_DOUBLE.format(pn=11))
    # A tap where X and XX are drawn (their labels, the big buttons) does nothing.
    for mark in ("X", "XX"):
        box = page.locator(f'#group-doubling input[value="{mark}"] + label').bounding_box()
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    assert chosen(page, "doubling") is None
    expect(page.locator("#group-doubler")).to_be_hidden()

    # Bid 4: playnumber 10, the double is offered again and can be tapped.
    table.tap_button("bid", "4")
    expect(x).to_be_enabled()
    expect(note).to_be_hidden()
    table.tap_button("doubling", "X")
    assert chosen(page, "doubling") == "X"
    expect(page.locator("#group-doubler")).to_be_visible()
    expect(page.locator('#group-doubler input[value="Ann"] + label')).to_be_hidden()  # declarer

    # Back to 5: the double just tapped is taken back, and the reason says why.
    table.tap_button("bid", "5")
    assert chosen(page, "doubling") is None
    expect(x).to_be_disabled()
    expect(note).to_have_text(NO_DOUBLE.format(pn=11))
    expect(page.locator("#group-doubler")).to_be_hidden()

    # Dummy's 6 tops leave declarer at most 6.
    seven = page.locator('#group-declarer_tops input[value="7"]')
    expect(seven).to_be_disabled()
    expect(page.locator('#group-declarer_tops input[value="6"]')).to_be_enabled()
    expect(page.locator("#group-declarer_tops-refused")).to_have_text(
        "7, 8, 9, 10, 11, 12: dummy holds 6 of the 12 tops, so declarer at most 6"
    )
    table.tap_button("tricks", "8")
    table.save()
    [hand] = table.exported_score(match_id)["hands"]
    assert hand["counted"] is True
    # The next hand's form, as the save's answer drew it: the same refusals.
    table.tap_button("bid", "7")
    table.tap_button("dummy_tops", "4")
    page.click("#group-doubling >> xpath=ancestor::details/summary")
    expect(x).to_be_disabled()
    expect(note).to_have_text(NO_DOUBLE.format(pn=11))
    expect(page.locator('#group-declarer_tops input[value="9"]')).to_be_disabled()
    expect(page.locator('#group-declarer_tops input[value="8"]')).to_be_enabled()
    assert table.outside == []


def test_rubber_honours_at_no_trumps_are_worth_150_only(table):
    table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    table.tap_button("declarer", "Ann")
    table.tap_button("level", "3")
    table.tap_button("strain", "S")
    page.click("#group-honours_points >> xpath=ancestor::details/summary")
    table.tap_button("honours_points", "100")
    table.tap_button("strain", "NT")
    hundred = page.locator('#group-honours_points input[value="100"]')
    expect(hundred).to_be_disabled()
    assert chosen(page, "honours_points") is None  # 100 taken back at NT
    expect(page.locator("#group-honours_points-refused")).to_have_text(
        "100 · four of five: at no trumps only the four aces count, for 150"
    )
    table.tap_button("honours_holder", "Ann")
    assert chosen(page, "honours_points") == "150"  # the one worth left
    table.tap_button("strain", "H")
    expect(hundred).to_be_enabled()
    expect(page.locator("#group-honours_points-refused")).to_be_hidden()


def test_mini_bridge_38_is_flagged_in_place_before_save(table):
    match_id = table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    page.click("#hcp1")
    page.keyboard.type("38")
    flag = page.locator("#hcp1-flag")
    expect(flag).to_be_visible()
    expect(flag).to_have_text("Ann: 38 is more than one hand holds; allowed 0–37")
    expect(page.locator("#hcp1")).to_have_attribute("aria-invalid", "true")
    expect(page.locator("#mb-live")).to_contain_text("Check the marked box")
    expect(page.locator("#mb-live")).not_to_contain_text("of 40")
    assert re.search(r"/hand/new$", page.url)  # before any Save
    assert table.exported_score(match_id)["hands"] == []
    # Put right: the flag goes.
    page.fill("#hcp1", "12")
    page.dispatch_event("#hcp1", "input")
    expect(flag).to_be_hidden()
    expect(page.locator("#hcp1")).not_to_have_attribute("aria-invalid", "true")


def test_backspace_in_the_fourth_box_then_12_keeps_12(table):
    table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    announce(table, 14, 6, 8)
    fourth = page.locator("#hcp4")
    expect(fourth).to_have_value("12")  # suggested: 40 minus the others
    expect(page.locator("#hcp-hint")).to_have_text(
        "Di: 12 suggested, 40 minus the others; type over it to change it."
    )
    page.click("#hcp4")
    page.keyboard.press("Backspace")
    expect(fourth).to_have_value("")
    # The preview of the three boxes has come back, and the box is still empty.
    expect(page.locator("#mb-live")).to_contain_text("So far 28 of 40.")
    expect(fourth).to_have_value("")
    page.keyboard.type("12")
    expect(page.locator("#mb-live")).to_contain_text("Ann & Cy declare, 22 HCP against 18.")
    expect(fourth).to_have_value("12")
    # A box the player typed is theirs: a change elsewhere does not overwrite it.
    page.fill("#hcp3", "9")
    page.dispatch_event("#hcp3", "input")
    expect(page.locator("#hcp-total-flag")).to_have_text(
        "The four add up to 41, not 40: count again."
    )
    expect(fourth).to_have_value("12")


def test_calypso_count_over_12_is_flagged_in_place_before_save(table):
    match_id = table.start_match("calypso", ["Ann", "Bob", "Cy", "Dan"])
    page = table.page
    page.click("#p1_incomplete")
    page.keyboard.type("13")
    flag = page.locator("#p1_incomplete-flag")
    expect(flag).to_be_visible()
    expect(flag).to_have_text("Ann, incomplete: 13 is out of range; allowed 0–12")
    expect(page.locator("#p1_incomplete")).to_have_attribute("aria-invalid", "true")
    # Four calypsos leave no calypso in progress: tapping 4 flags the 3 typed beside it.
    page.fill("#p1_incomplete", "3")
    page.dispatch_event("#p1_incomplete", "input")
    expect(flag).to_be_hidden()
    table.tap_button("p1_calypsos", "4")
    expect(flag).to_contain_text("Ann, incomplete: 4 calypsos use every trump card")
    assert table.exported_score(match_id)["hands"] == []


def test_need_a_fourth_declarer_cannot_be_tapped_as_redoubler(table):
    table.start_match("need-a-fourth", ["Ann", "Bob", "Cy"])
    page = table.page
    table.tap_button("chooser", "Cy")
    expect(page.locator('#group-partner input[value="Cy"] + label')).to_be_hidden()
    table.tap_button("partner", "Ann")
    page.click("#doubled-panel summary")
    table.tap_button("doubling", "XX")
    expect(page.locator("#group-redoubled_by")).to_be_visible()
    expect(page.locator('#group-redoubled_by input[value="Bob"] + label')).to_be_hidden()
    expect(page.locator('#group-redoubled_by input[value="Ann"] + label')).to_be_visible()
    # Cy chooses Bob instead: Ann is now the Declarer.
    table.tap_button("partner", "Bob")
    expect(page.locator('#group-redoubled_by input[value="Ann"] + label')).to_be_hidden()
    expect(page.locator('#group-redoubled_by input[value="Bob"] + label')).to_be_visible()
