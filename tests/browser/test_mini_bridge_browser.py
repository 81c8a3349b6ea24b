"""Mini Bridge through the UI in Chromium: HCP typed, a 20–20 redeal, a scrapped deal."""

import datetime as dt
import re

from playwright.sync_api import expect

from .conftest import PHONE, Table, shown

FOLD_MS = 400  # mini_bridge.js: how long the pad keeps its place after the last announcement


def announce(table, *hcp: int) -> None:
    """Tap the HCP on the pad in announcement order, one tap each: the pad moves
    on by itself (and the last of four is filled in)."""
    page = table.page
    page.evaluate(FOLDING_SEEN)
    for position, points in enumerate(hcp, 1):
        assert page.evaluate("document.querySelector('.pad-target input').id") == f"hcp{position}"
        assert page.inner_text("#pad-for").endswith("points")
        table.tap(f'#hcp-pad [data-points="{points}"]')
    # Every announcement in: the pad keeps its place (empty) for a moment, so a
    # quick extra tap hits nothing, then folds away. The moment is 400 ms: a
    # busy machine's check can come after it, so the page records that it came.
    page.locator("#hcp-pad[hidden]").wait_for(state="attached")
    assert page.evaluate("window.__padFolding") is True


# Records whether the pad took its "folding" class (kept a moment, then hidden).
FOLDING_SEEN = """() => {
  const pad = document.getElementById("hcp-pad");
  window.__padFolding = false;
  new MutationObserver(() => {
    if (pad.classList.contains("folding")) window.__padFolding = true;
  }).observe(pad, { attributes: true, attributeFilter: ["class"] });
}"""


def type_in(table, *hcp: int) -> None:
    """Type the HCP instead: a tap on the dealer's box, then one key per digit with
    no tap between the boxes (the form moves on by itself)."""
    page = table.page
    table.tap("#hcp1")
    for position, points in enumerate(hcp, 1):
        assert page.evaluate("document.activeElement.id") == f"hcp{position}"
        page.keyboard.type(str(points))
        table.taps += len(str(points))


def play_hand(table, hcp, game, strain, tricks, enter=announce):
    """The HCP, GAME or not, strain, tricks, save: taps, keys and scrolls."""
    table.new_hand()
    enter(table, *hcp)
    table.tap_button("game", "yes" if game else "no")
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    table.save()
    return table.taps + table.scrolls


def test_mini_bridge_four_players_with_a_redeal(table):
    # Sides: Ann & Cy against Bob & Di.
    match_id = table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"], hands="3")
    page = table.page
    taps = {}

    # Hand 1, Ann deals: 12, 8, 10 typed; Di's 10 is filled in as 40 minus the others.
    table.new_hand()
    table.no_horizontal_scroll()
    announce(table, 12, 8, 10)
    assert page.input_value("#hcp4") == "10"
    expect(page.locator("#mb-live")).to_contain_text("Ann & Cy declare, 22 HCP against 18.")
    expect(page.locator("#mb-live")).to_contain_text(
        "Ann declares (12 HCP, more than Cy's 10); Cy is dummy."
    )
    table.tap_button("game", "no")
    table.tap_button("strain", "NT")
    table.tap_button("tricks", "8")
    expect(page.locator("#mb-result")).to_have_text(
        "No GAME in NT, 8 tricks: made, Ann & Cy score 80."
    )
    table.save()
    taps["1NT-type, 8 tricks"] = table.taps + table.scrolls

    # Hand 2, Bob deals: 20–20, nobody plays and Bob deals again.
    table.new_hand()
    announce(table, 10, 10, 10)
    expect(page.locator("#mb-live")).to_contain_text("20–20: nobody plays; Bob deals again.")
    expect(page.locator("#save")).to_have_text("Save: Bob deals again")
    table.save()
    taps["20–20 redeal"] = table.taps + table.scrolls

    # Hand 3, Bob again: Bob & Di 26 against 14, Bob declares GAME in hearts.
    taps["GAME in H, 11 tricks"] = play_hand(table, (15, 5, 11), True, "H", 11)
    # Hand 4, Cy deals: Cy & Ann 23 against 17, GAME in clubs goes one down.
    # Typed instead of tapped: the keyboard works as well.
    taps["GAME in C, 10 tricks"] = play_hand(table, (14, 6, 9), True, "C", 10, type_in)
    # Three taps on the pad, GAME, strain, tricks, Save; typed: a tap on the first
    # box and one key per digit.
    assert taps == {
        "1NT-type, 8 tricks": 7,
        "20–20 redeal": 4,
        "GAME in H, 11 tricks": 7,
        "GAME in C, 10 tricks": 9,
    }

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Bob", "Di"]
    assert [h["counted"] for h in scored["hands"]] == [True, False, True, True]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Hand 1: no GAME, NT, 8 tricks: 2 × 40 = 80 to Ann & Cy. Hand 2: 20–20, not counted.
    # Hand 3: GAME in H, 11 tricks: 5 × 30 + 300 = 450 to Bob & Di.
    # Hand 4: GAME in C needs 11, 10 tricks: 1 down, 50 to Bob & Di.
    # Ann & Cy 80; Bob & Di 450 + 50 = 500.
    assert scored["totals"] == {"Ann": 80, "Bob": 500, "Cy": 80, "Di": 500}
    assert "Match finished" in page.content()
    table.no_horizontal_scroll()
    table.screenshot("mini-bridge-sheet")
    assert table.outside == []


def test_mini_bridge_three_players_scrap_a_deal(table):
    match_id = table.start_match("mini-bridge-3", ["Ann", "Bob", "Cy"], hands="2")
    page = table.page

    # Hand 1, Ann deals: 12, 11, 10 leave dummy 7; Ann with dummy has 19, under 21.
    table.new_hand()
    table.no_horizontal_scroll()
    announce(table, 12, 11, 10)
    expect(page.locator("#dummy-hcp")).to_have_text("7")
    expect(page.locator("#mb-live")).to_contain_text("Under 21: Ann may scrap the deal.")
    table.save("#scrap")
    assert table.taps + table.scrolls == 4  # three on the pad, scrap
    assert "Ann deals" in page.inner_text(".derived")

    # Hand 2, Ann deals again: 13, 10, 9 leave dummy 8; 21 may not be scrapped.
    table.new_hand()
    announce(table, 13, 10, 9)
    expect(page.locator("#scrap")).to_be_hidden()
    table.tap_button("game", "no")
    table.tap_button("strain", "S")
    table.tap_button("tricks", "9")
    table.save()
    assert table.taps + table.scrolls == 7  # three on the pad, GAME, strain, tricks, save

    scored = table.exported_score(match_id)
    assert [h["counted"] for h in scored["hands"]] == [False, True]
    page.goto(f"{table.server}/m/{match_id}")  # one of two counted hands: not over yet
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Hand 1 scrapped: nothing. Hand 2: no GAME in S, 9 tricks: 3 × 30 = 90 to Ann alone.
    assert scored["totals"] == {"Ann": 90, "Bob": 0, "Cy": 0}
    table.no_horizontal_scroll()
    table.screenshot("mini-bridge-3-sheet")
    assert table.outside == []


# -- the pad: where it points, what a stray tap does, the keyboard, a touch screen ----


def pad_points_at(page) -> str:
    return page.evaluate("document.querySelector('.pad-target input').id")


def test_the_pad_comes_back_to_a_box_left_empty(table):
    table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    page.click("#hcp3")  # Cy's first, by choice
    page.click('#hcp-pad [data-points="9"]')
    assert pad_points_at(page) == "hcp4"
    page.click('#hcp-pad [data-points="5"]')
    # Di given, Ann and Bob still empty: back to Ann, then Bob.
    assert pad_points_at(page) == "hcp1"
    page.click('#hcp-pad [data-points="14"]')
    assert pad_points_at(page) == "hcp2"
    page.click('#hcp-pad [data-points="12"]')
    page.locator("#hcp-pad[hidden]").wait_for(state="attached")
    assert [page.input_value(f"#hcp{k}") for k in range(1, 5)] == ["14", "12", "9", "5"]


def test_a_quick_extra_tap_after_the_last_announcement_scraps_nothing(table):
    page = table.page
    # The page's timers run on a paused clock: the pad's moment (FOLD_MS, 400 ms in
    # mini_bridge.js) lasts until the test steps past it, however long a busy machine
    # takes between the two taps (0.6 s between them once let the second land on
    # what had moved up).
    page.clock.install()
    page.clock.pause_at(dt.datetime(2026, 11, 28, 20, 0, tzinfo=dt.UTC))
    match_id = table.start_match("mini-bridge-3", ["Ann", "Bob", "Cy"])
    page.click('#hcp-pad [data-points="19"]')
    page.click('#hcp-pad [data-points="2"]')
    # 18 makes a deal Ann may scrap; a second tap on the same spot follows at once.
    key = page.locator('#hcp-pad [data-points="18"]').bounding_box()
    middle = (key["x"] + key["width"] / 2, key["y"] + key["height"] / 2)
    page.mouse.click(*middle)
    # For a moment the spot still belongs to the HCP box, its pad invisible: the
    # GAME buttons or Scrap do not move up under the finger.
    under = "([x, y]) => !!document.elementFromPoint(x, y).closest('#group-hcp')"
    assert page.evaluate(under, middle)
    page.mouse.click(*middle)
    page.clock.run_for(FOLD_MS)
    expect(page.locator("#hcp-pad")).to_be_hidden()  # then the pad folds away
    assert not page.evaluate(under, middle)
    expect(page.locator("#scrap")).to_be_visible()  # offered, and not pressed
    assert re.search(r"/hand/new$", page.url)
    assert table.exported_score(match_id)["hands"] == []


def test_from_the_keyboard_the_pad_fills_the_boxes_in_order_then_goes_on_to_game(table):
    table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    assert page.evaluate("document.activeElement.id") == "hcp1"  # a mouse and keyboard
    for _ in range(4):
        page.keyboard.press("Tab")  # through the boxes into the pad, on its 0
    assert page.evaluate("document.activeElement.dataset.points") == "0"
    assert pad_points_at(page) == "hcp1"  # the first box still empty, not the last tabbed
    for points in ("12", "8", "10"):
        page.focus(f'#hcp-pad [data-points="{points}"]')
        page.keyboard.press("Enter")  # in place: a key of the pad (type=button)
    assert [page.input_value(f"#hcp{k}") for k in range(1, 5)] == ["12", "8", "10", "10"]
    assert page.evaluate("document.activeElement.name") == "game"


def test_a_refused_form_still_works_out_the_last_of_four(table):
    table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
    page = table.page
    announce(table, 12, 8, 10)
    table.save()  # no GAME, strain or tricks: refused, the HCP kept
    assert page.locator("#error-summary").is_visible()
    page.fill("#hcp2", "9")
    page.dispatch_event("#hcp2", "input")
    assert page.input_value("#hcp4") == "9"  # 40 − 12 − 9 − 10, not the 10 drawn


def test_on_a_touch_screen_no_box_takes_the_focus(browser, server):
    context = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        phone = Table(context.new_page(), server)
        phone.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"])
        page = phone.page
        page.wait_for_load_state("load")
        assert page.evaluate("document.activeElement.tagName") == "BODY"  # no phone keyboard
        assert pad_points_at(page) == "hcp1"
        expect(page.locator("#hcp-pad")).to_be_visible()
    finally:
        context.close()
