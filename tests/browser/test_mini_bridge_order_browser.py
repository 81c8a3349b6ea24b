"""Mini Bridge's HCP boxes in Chromium (issue 24, point 8): the pad fills them in
the order the table announces, from the dealer; each box names its player and
turn, the pad names the order and marks whose points come next, and a total
that does not fit is flagged under the boxes before Save (Save still refuses it)."""

from __future__ import annotations

from playwright.sync_api import expect

from .test_mini_bridge_browser import announce


def test_the_pad_says_the_order_and_a_total_that_does_not_fit_is_flagged(table):
    table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    table.new_hand()
    announce(table, 12, 8, 10)
    table.tap_button("game", "no")
    table.tap_button("strain", "NT")
    table.tap_button("tricks", "8")
    table.save()

    # Hand 2, Bob deals: the pad aims at Bob's box (the second seat) and says so.
    expect(page.locator("#pad-for")).to_have_text("Bob’s points")
    expect(page.locator("#pad-order")).to_have_text("From the dealer: Bob → Cy → Di → Ann")
    expect(page.locator("#pad-order .now")).to_have_text("Bob")
    expect(page.locator('label[for="hcp1"]')).to_have_text("1 Bob deals")
    expect(page.locator('label[for="hcp4"]')).to_have_text("4 Ann")
    assert page.locator(".hcp-cell label").all_text_contents() == [
        "4 Ann", "1 Bob deals", "2 Cy", "3 Di",
    ]  # fmt: skip
    table.tap('#hcp-pad [data-points="10"]')
    expect(page.locator("#pad-order .now")).to_have_text("Cy")
    expect(page.locator("#pad-for")).to_have_text("Cy’s points")
    assert page.input_value("#hcp1") == "10"  # Bob's box

    # Cy 10, Di 10; Ann's 10 suggested, then typed over as 11: flagged in place.
    table.tap('#hcp-pad [data-points="10"]')
    table.tap('#hcp-pad [data-points="10"]')
    expect(page.locator("#hcp4")).to_have_value("10")
    page.fill("#hcp4", "11")
    page.dispatch_event("#hcp4", "input")
    flag = page.locator("#hcp-total-flag")
    expect(flag).to_have_text("The four add up to 41, not 40: count again.")
    expect(flag).to_be_visible()
    expect(page.locator("#hcp4")).to_have_attribute("aria-describedby", "hcp-total-flag")
    expect(page.locator("#group-hcp")).to_have_class("hcp-group has-error")
    expect(page.locator("#mb-live")).to_have_text("Nobody declares until the points fit.")
    table.screenshot("mini-bridge-total-flag")
    # Fixed: the flag goes.
    page.fill("#hcp4", "10")
    page.dispatch_event("#hcp4", "input")
    expect(page.locator("#mb-live")).to_contain_text("20–20")
    expect(flag).to_be_hidden()
    expect(page.locator("#group-hcp")).to_have_class("hcp-group")
