"""Members and mappings on two phones in Chromium: who played a match changed
on one phone (a player made a guest) and a member retired and brought back
show on the other phone's group page live, without a reload. Every tap that
leaves the page is awaited before the page is read."""

from __future__ import annotations

from playwright.sync_api import expect

from .conftest import click_and_wait
from .test_groups_browser import LIVE_WAIT_MS, start_group, two_phones  # noqa: F401


def test_a_mapping_change_and_a_retire_show_live_on_another_phone(two_phones, server):  # noqa: F811
    ann, bob = two_phones
    address = start_group(ann, server, "Friday four", ["Ann", "Bob", "Cy", "Dee"])
    page = ann.page
    page.goto(server + "/new")
    page.check('input[name=variant][value="top-game"]')
    for seat, name in enumerate(("Ann", "Bob", "Zed"), 1):
        page.fill(f"#player{seat}", name)
    click_and_wait(page, "form#new-match button.primary")
    page.goto(address + "/add")
    click_and_wait(page, ".match-list a")
    page.select_option("#map3", "3")  # Zed sat in for Cy
    click_and_wait(page, "#add-to-group")
    expect(page.locator(".group-matches li").first).to_contain_text("Ann, Bob, Cy (Zed)")

    bob.page.goto(address)
    matches = bob.page.locator(".group-matches li").first
    expect(matches).to_contain_text("Ann, Bob, Cy (Zed)")

    # Ann: that was not Cy, Zed was a guest.
    click_and_wait(page, ".group-matches li .remap")
    expect(page.locator("h1")).to_have_text("Who played this match")
    expect(page.locator("#map3")).to_have_value("3")
    ann.no_horizontal_scroll(360)
    ann.screenshot("members-who-played")
    page.select_option("#map3", "guest")
    click_and_wait(page, "#save-mapping")
    expect(page.locator(".flash").first).to_contain_text("Mapping changed: The Top Game")

    # Bob's page was not reloaded: the live poll redraws the match line.
    expect(matches).to_contain_text("Ann, Bob, Zed (guest)", timeout=LIVE_WAIT_MS)

    # Ann retires Dee: Bob sees Dee leave the member list, live.
    page.click("#retire-members summary")
    click_and_wait(page, "form[action$='/members/4/retire'] button")
    expect(page.locator(".flash").first).to_contain_text("Member retired: Dee.")
    retired = bob.page.locator(".retired-list")
    expect(retired).to_contain_text("Dee", timeout=LIVE_WAIT_MS)
    expect(bob.page.locator("#members ol.member-list .member-name")).to_have_text(
        ["Ann", "Bob", "Cy"]
    )
    expect(bob.page.locator("#live-region > p.muted").first).to_have_text("Group · Ann · Bob · Cy")
    bob.no_horizontal_scroll(360)
    bob.screenshot("members-retired")

    # Bob brings Dee back from the page the live poll drew: Ann sees it live.
    page.goto(address)
    expect(page.locator(".retired-list")).to_contain_text("Dee")
    click_and_wait(bob.page, "form[action$='/members/4/back'] button")
    expect(bob.page.locator(".flash").first).to_contain_text("Member back: Dee.")
    expect(page.locator(".retired-list")).to_have_count(0, timeout=LIVE_WAIT_MS)
    expect(page.locator("#members ol.member-list .member-name")).to_have_text(
        ["Ann", "Bob", "Cy", "Dee"]
    )
