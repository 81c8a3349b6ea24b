"""Groups in Chromium: a group started on one phone, a match started from it
with the members as players, listed live on a second phone's group page; every
group page passes axe in light and dark, the CSP, and fits a 360 px phone with
44 px targets."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from .conftest import EXPECT_MS, PHONE, Table, click_and_wait
from .test_csp_browser import (  # noqa: F401 (fixtures used by name)
    Audited,
    Narrow,
    Watched,
    audited,
    narrow,
    report,
    watched_context,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
LIVE_WAIT_MS = EXPECT_MS  # live.js polls every 2 s, the redraw one more fetch, on a busy machine


@pytest.fixture
def two_phones(browser, server) -> Iterator[tuple[Table, Table]]:
    contexts = [browser.new_context(viewport=PHONE) for _ in range(2)]
    yield tuple(Table(c.new_page(), server) for c in contexts)
    for context in contexts:
        context.close()


def start_group(phone, server: str, name: str, members: list[str]) -> str:
    """Start a group from the home page, as a player does; its address."""
    page = phone.page
    page.goto(server + "/")
    with page.expect_navigation():
        page.click("#start-group")
    page.fill("#name", name)
    for seat, member in enumerate(members, 1):
        page.fill(f"#member{seat}", member)
    with page.expect_navigation():
        page.click("form#new-group button.primary")
    assert re.search(r"/g/[\w-]{16}$", page.url), page.url
    return page.url


def test_a_match_started_from_a_group_shows_live_on_another_phone(two_phones, server):
    ann, bob = two_phones
    address = start_group(ann, server, "Friday trio", ["Ann", "Bob", "Cy"])
    bob.page.goto(address)
    expect(bob.page.locator("#ledger-matches")).to_have_text("Matches (0)")

    # A stake for Chicago only: the new-match form fills it in for Chicago alone.
    ann.page.goto(address + "/stake")
    ann.page.select_option("#stake_game", "chicago")
    ann.page.fill("#stake_amount", "0.10")
    ann.page.fill("#stake_per", "100")
    ann.page.fill("#stake_currency", "EUR")
    with ann.page.expect_navigation():
        ann.page.click("form#group-stake button.primary")
    ann.page.click("#group-new-match")
    ann.page.wait_for_url(re.compile(r".*/g/[\w-]{16}/new$"))
    assert [ann.page.input_value(f"#player{i}") for i in (1, 2, 3)] == ["Ann", "Bob", "Cy"]
    stake = ["#stake_amount", "#stake_per", "#stake_currency"]
    ann.page.check('input[name=variant][value="chicago"]')
    assert [ann.page.input_value(s) for s in stake] == ["0.10", "100", "EUR"]
    ann.page.check('input[name=variant][value="top-game"]')
    assert [ann.page.input_value(s) for s in stake] == ["", "1", ""]
    with ann.page.expect_navigation():
        ann.page.click("form#new-match button.primary")
    assert re.search(r"/m/[\w-]{16}/hand/new$", ann.page.url), ann.page.url

    # Bob's page was not reloaded: the live poll brings the match in.
    expect(bob.page.locator("#ledger-matches")).to_have_text("Matches (1)", timeout=LIVE_WAIT_MS)
    listed = bob.page.locator(".group-matches li").first
    expect(listed).to_contain_text("The Top Game")
    expect(listed).to_contain_text("Ann, Bob, Cy")
    expect(listed).to_contain_text("In progress")

    # A member renamed on Bob's phone shows on Ann's group page too, live.
    ann.page.goto(address)
    bob.page.click("#rename-members summary")
    bob.page.fill("#member-3", "Cyril")
    with bob.page.expect_navigation():
        bob.page.click("form[action$='/members/3'] button")
    expect(ann.page.locator(".group-matches li").first).to_contain_text(
        "Ann, Bob, Cyril (Cy)", timeout=LIVE_WAIT_MS
    )


def group_pages(phone: Watched, server: str, look) -> None:
    """Each group page in the state that shows the most, `look(what)` on each."""
    page = phone.page
    page.goto(server + "/groups/new")
    look("new group")
    page.fill("#member1", "Ann")
    page.fill("#member2", "ann")
    with page.expect_navigation():
        page.click("form#new-group button.primary")  # no name, a name twice
    assert page.locator(".error-summary").count() == 1
    look("new group, refused")
    address = start_group(phone, server, "Friday four", ["Ann", "Bob", "Cy", "Dee"])
    page.goto(address + "/new")
    look("new match in a group")
    page.check('input[name=variant][value="chicago"]')
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    page.goto(address)
    page.click("#group-changes summary")
    page.click("#rename-members summary")
    page.click("#share summary")
    look("group page, opened")
    page.fill("#new-member", "bob")
    with page.expect_navigation():
        page.click("form[action$='/members'] button")
    assert page.locator("#new-member-error").count() == 1
    look("group page, refused")
    page.goto(server + "/new")
    page.check('input[name=variant][value="top-game"]')
    for seat, name in enumerate(("Annie", "Bob", "Zed"), 1):
        page.fill(f"#player{seat}", name)
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    page.goto(address + "/add")
    look("add a match")
    click_and_wait(page, ".match-list a")
    look("mapping form")
    page.select_option("#map1", "1")  # Annie → Ann
    page.select_option("#map2", "1")  # and Bob → Ann as well: refused
    with page.expect_navigation():
        page.click("#add-to-group")
    assert page.locator("#add-problem").count() == 1
    look("mapping form, refused")
    page.select_option("#map2", "2")
    page.select_option("#map3", "guest")  # Zed plays without joining
    click_and_wait(page, "#add-to-group")
    page.click("#retire-members summary")
    look("group page, retiring")
    click_and_wait(page, "form[action$='/members/4/retire'] button")
    look("group page, a guest and a retired member")
    click_and_wait(page, ".group-matches li .remap")
    look("who played")
    page.goto(address + "/stake")
    look("stake")
    ledger_pages(phone, address, look)
    page.goto(address)
    watch = page.eval_on_selector("#group-share-watch code", "c => c.textContent")
    page.goto(watch)
    look("watch")


def ledger_pages(phone: Watched, address: str, look) -> None:
    """The ledger with money to settle and its chart, a refused payment, the statistics."""
    page = phone.page
    page.goto(address + "/add")
    page.set_input_files("input[name=match_file]", str(EXAMPLES / "mini-bridge-3.json"))
    with page.expect_navigation():
        page.click("form[action$='/import'] button")
    with page.expect_navigation():
        page.click("#add-to-group")
    page.goto(address + "?period=between&from=2000-01-01")
    look("ledger, a period")
    page.click("#pay-one summary")
    page.select_option("#pay_payer", label="Cy")
    page.select_option("#pay_payee", label="Bob")
    page.fill("#pay_amount", "lots")
    page.click("#record-payment")
    expect(page.locator("#pay_amount-error")).to_have_count(1)
    look("ledger, a payment refused")
    page.goto(address + "/statistics")
    page.click(".stats-game summary >> nth=0")
    look("statistics")


def import_mini_bridge_3(phone: Table, address: str) -> None:
    page = phone.page
    page.goto(address + "/add")
    page.set_input_files("input[name=match_file]", str(EXAMPLES / "mini-bridge-3.json"))
    with page.expect_navigation():
        page.click("form[action$='/import'] button")
    with page.expect_navigation():
        page.click("#add-to-group")


def test_mark_as_paid_on_one_phone_shows_live_on_another(two_phones, server):
    ann, bob = two_phones
    address = start_group(ann, server, "Friday paid", ["Ann", "Bob", "Cy"])
    import_mini_bridge_3(ann, address)
    page = ann.page
    # Bob keeps all time: once settled, the page would open on the period since.
    bob.page.goto(address + "?period=all")
    # Mini Bridge for three: Ann −4.30, Bob +10.40, Cy −6.10 EUR.
    expect(bob.page.locator(".settle-list li")).to_have_text(
        ["Ann pays Bob 4.30 EUR", "Cy pays Bob 6.10 EUR"]
    )
    expect(bob.page.locator(".ledger-balances td")).to_have_text(["−4.30", "+10.40", "−6.10"])
    expect(bob.page.locator("#balance-chart-1")).to_have_count(1)
    chart_title = bob.page.locator("#balance-chart-1-title")
    owing = chart_title.text_content()
    assert owing.endswith("Ann −4.30, Bob 10.40, Cy −6.10."), owing
    page.goto(address)
    with page.expect_navigation():
        page.click("#mark-all-paid")
    expect(page.locator("#all-square")).to_be_visible()
    expect(page.locator("#period-words")).to_contain_text("Since the last settle-up")
    # Bob's page was not reloaded: the live poll brings the payments in, and
    # the chart of the running balance with them.
    expect(bob.page.locator("#all-square")).to_be_visible(timeout=LIVE_WAIT_MS)
    expect(bob.page.locator(".ledger-balances td")).to_have_text(["0.00", "0.00", "0.00"])
    expect(chart_title).to_have_text(re.compile(r"Ann 0\.00, Bob 0\.00, Cy 0\.00\.$"))
    expect(bob.page.locator(".paid-list li")).to_have_count(2)

    # A change of the match itself (no change of the group) reaches the ledger
    # live too: the match deleted at its table is counted nowhere, the payments stay.
    match_link = bob.page.locator(".group-matches li a").first.get_attribute("href")
    page.goto(server + match_link)
    with page.expect_navigation():
        page.click("#delete-match")
    expect(bob.page.locator("#deleted-matches")).to_have_text(
        "1 match deleted at its table is not listed: it counts nowhere unless it is"
        " brought back there.",
        timeout=LIVE_WAIT_MS,
    )
    expect(bob.page.locator(".group-matches li")).to_have_count(0)
    expect(bob.page.locator(".ledger-balances td")).to_have_text(["+4.30", "−10.40", "+6.10"])


def test_axe_finds_no_violation_on_the_group_pages(audited, server):  # noqa: F811
    group_pages(audited, server, audited.axe)
    assert audited.found == {}, "axe found:\n" + report(audited.found)
    assert audited.refused == {}, "refused:\n" + report(audited.refused)


def test_the_group_pages_fit_a_360_px_phone_with_44_px_targets(narrow, server):  # noqa: F811
    group_pages(narrow, server, narrow.measure)
    assert narrow.found == {}, "too small or too wide:\n" + report(narrow.found)
    assert narrow.refused == {}, "refused:\n" + report(narrow.refused)


def test_a_group_change_without_a_connection_changes_nothing_and_keeps_the_entry(
    two_phones, server
):
    ann, _ = two_phones
    page = ann.page
    address = start_group(ann, server, "Offline four", ["Ann", "Bob"])
    page.fill("#new-member", "Dee")
    page.context.set_offline(True)
    page.click("form[action$='/members'] button")
    expect(page.locator(".no-answer")).to_have_text(
        "Nothing was changed — no connection. Try again when it is back."
    )
    assert page.input_value("#new-member") == "Dee"  # still on the screen
    assert page.url == address
    page.context.set_offline(False)
    page.click("form[action$='/members'] button")
    expect(page.locator(".member-name")).to_have_text(["Ann", "Bob", "Dee"])
    page.goto(address)  # as stored: the tap without a connection stored nothing
    assert page.locator(".member-name").all_text_contents() == ["Ann", "Bob", "Dee"]
    live = page.request.get(address + "/live").json()
    assert live["revision"] == 2
