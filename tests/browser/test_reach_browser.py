"""Every variant's typical hand within reach of a thumb (issue 19): entered from
wherever the app leaves the phone after a save, at 390×844 and at 360×740 (and at
390×844 with large print at 125 %, the app's text size switch: issue 26), in a
fixed number of taps and without a single swipe. A target counts as in reach only
when it lies wholly inside the viewport and nothing covers its centre, so a
button under the sticky Save bar costs a scroll (`Table.in_reach`)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from .conftest import Table
from .test_mini_bridge_browser import announce

# (viewport, the app's text size switch in %): the two sizes the table uses most, and
# the usual phone with large print at 125 % (issue 26: its typical hand needs no swipe either).
PHONES = {
    "390x844": ({"width": 390, "height": 844}, "100"),
    "360x740": ({"width": 360, "height": 740}, "100"),
    "390x844-text-125": ({"width": 390, "height": 844}, "125"),
}
NO_SWIPE = 0


@pytest.fixture(params=list(PHONES), ids=list(PHONES))
def phone(request, browser, server):
    """A phone of one of the two sizes the table uses most, or with large print."""
    viewport, text_size = PHONES[request.param]
    context = browser.new_context(viewport=viewport)
    context.add_cookies([{"name": "text_size", "value": text_size, "url": server}])
    page = context.new_page()
    table = Table(page, server)
    table.size = request.param
    yield table
    context.close()


def counted(table: Table) -> tuple[int, int]:
    """Taps and scrolls of the hand just saved; the next form is already shown."""
    return table.taps, table.scrolls


def contract_hand(
    table: Table, declarer: str, level: int, strain: str, tricks: int
) -> tuple[int, int]:
    """Rubber, Chicago, Honeymoon, Bridge for Three: declarer, level, strain, tricks, Save."""
    table.new_hand()
    table.tap_button("declarer", declarer)
    table.tap_button("level", str(level))
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    table.save()
    return counted(table)


def saved_line_shown(table: Table, number: int) -> None:
    """The hands were entered from the page a save leaves: the next hand's form
    with the answer to the last save."""
    expect(table.page.locator(".flash-undo")).to_contain_text(f"{number} saved")
    assert re.search(r"/hand/new$", table.page.url)


@pytest.mark.parametrize(
    ("variant", "players", "hands"),
    [
        # Part scores only, so the rubber (and the round) is still going at the end.
        (
            "rubber",
            ["Ann", "Bob", "Cy", "Di"],
            [("Ann", 1, "NT", 7), ("Bob", 1, "C", 7), ("Cy", 1, "D", 7), ("Di", 1, "H", 7)],
        ),
        (
            "chicago",
            ["Ann", "Bob", "Cy", "Di"],
            [("Ann", 1, "NT", 7), ("Bob", 2, "S", 8), ("Cy", 1, "D", 6), ("Di", 1, "H", 7)],
        ),
        (
            "honeymoon",
            ["Ann", "Bob"],
            [("Ann", 1, "NT", 7), ("Bob", 2, "H", 8), ("Ann", 1, "S", 6)],
        ),
        # Di sits out in turn; nobody gets near hole 11.
        (
            "bridge-for-three",
            ["Ann", "Bob", "Cy", "Di"],
            [("Ann", 1, "S", 7), ("Bob", 1, "H", 6), ("Cy", 1, "NT", 7), ("Di", 1, "C", 6)],
        ),
        (
            "bridge-for-three",
            ["Ann", "Bob", "Cy"],
            [("Ann", 1, "S", 7), ("Bob", 1, "H", 6), ("Cy", 1, "NT", 7)],
        ),
    ],
    ids=["rubber", "chicago", "honeymoon", "bridge-for-three-4", "bridge-for-three-3"],
)
def test_a_contract_hand_takes_five_taps_and_no_swipe(phone, variant, players, hands):
    phone.start_match(variant, players, **({"rounds": "2"} if variant == "chicago" else {}))
    per_hand = [contract_hand(phone, *hand) for hand in hands]
    assert per_hand == [(5, NO_SWIPE)] * len(hands)
    saved_line_shown(phone, len(hands))


def test_a_top_game_hand_takes_six_taps_and_no_swipe(phone):
    phone.start_match("top-game", ["Ann", "Bob", "Cy"], hands_per_half="3")
    per_hand = []
    for declarer, bid, tops, strain, tricks in [
        ("Ann", 4, 3, "D", 11),
        ("Bob", 3, 4, "NT", 7),
        ("Cy", 2, 4, "S", 9),
        ("Ann", 3, 3, "H", 8),
    ]:
        phone.new_hand()
        phone.tap_button("declarer", declarer)
        phone.tap_button("bid", str(bid))
        phone.tap_button("dummy_tops", str(tops))
        phone.tap_button("strain", strain)
        phone.tap_button("tricks", str(tricks))
        phone.save()
        per_hand.append(counted(phone))
    # Declarer, bid, dummy's tops, strain, tricks, Save.
    assert per_hand == [(6, NO_SWIPE)] * 4
    saved_line_shown(phone, 4)


@pytest.mark.parametrize(
    ("variant", "players", "hands"),
    [
        # Four players: the pad takes three announcements, the fourth is 40 minus them.
        (
            "mini-bridge",
            ["Ann", "Bob", "Cy", "Di"],
            [((12, 8, 10), "NT", 8), ((15, 5, 11), "H", 9)] * 2,
        ),
        # Three players: none of these leaves the declarer under 21, so no scrap.
        (
            "mini-bridge-3",
            ["Ann", "Bob", "Cy"],
            [((13, 10, 9), "S", 9), ((10, 13, 9), "H", 8), ((9, 10, 13), "NT", 7)],
        ),
    ],
    ids=["four", "three"],
)
def test_a_mini_bridge_hand_takes_seven_taps_and_no_swipe(phone, variant, players, hands):
    phone.start_match(variant, players, hands="9")
    per_hand = []
    for hcp, strain, tricks in hands:
        phone.new_hand()
        announce(phone, *hcp)  # one tap on the pad per announcement
        phone.tap_button("game", "no")
        phone.tap_button("strain", strain)
        phone.tap_button("tricks", str(tricks))
        phone.save()
        per_hand.append(counted(phone))
    assert per_hand == [(7, NO_SWIPE)] * len(hands)
    saved_line_shown(phone, len(hands))


def test_a_need_a_fourth_hand_with_a_three_call_auction_takes_seven_taps_and_no_swipe(phone):
    phone.start_match("need-a-fourth", ["Ann", "Bob", "Cy"], hands="9", liar_rule="on")
    per_hand = []
    # Opening, pass, raise, then "All pass"; the last bidder is the Chooser.
    for opening, raise_, partner, tricks in [
        ("1H", "2H", "Ann", 8),  # Ann deals: Ann 1H, Bob pass, Cy 2H; Cy picks Ann
        ("1S", "2S", "Bob", 8),  # Bob deals: Bob 1S, Cy pass, Ann 2S; Ann picks Bob
        ("1C", "2C", "Cy", 8),  # Cy deals: Cy 1C, Ann pass, Bob 2C; Bob picks Cy
    ]:
        phone.new_hand()
        phone.tap(f"#call-{opening}")
        phone.tap("#call-P")
        phone.tap(f"#call-{raise_}")
        phone.tap("#call-all-pass")
        phone.tap_button("partner", partner)
        phone.tap_button("tricks", str(tricks))
        phone.save()
        per_hand.append(counted(phone))
    assert per_hand == [(7, NO_SWIPE)] * 3
    saved_line_shown(phone, 3)


def test_a_need_a_fourth_hand_without_the_liar_rule_takes_six_taps_and_no_swipe(phone):
    phone.start_match("need-a-fourth", ["Ann", "Bob", "Cy"], hands="9")
    per_hand = []
    for chooser, partner, level, strain, tricks in [
        ("Ann", "Bob", 4, "S", 10),
        ("Bob", "Cy", 2, "H", 8),
        ("Cy", "Ann", 3, "NT", 9),
    ]:
        phone.new_hand()
        phone.tap_button("chooser", chooser)
        phone.tap_button("partner", partner)
        phone.tap_button("level", str(level))
        phone.tap_button("strain", strain)
        phone.tap_button("tricks", str(tricks))
        phone.save()
        per_hand.append(counted(phone))
    assert per_hand == [(6, NO_SWIPE)] * 3
    saved_line_shown(phone, 3)


CALYPSO_TALLIES = {1: (2, 5, 20), 2: (1, 7, 31), 3: (1, 12, 30), 4: (0, 11, 40)}


def test_a_calypso_game_keeps_its_count(phone):
    phone.start_match("calypso", ["Ann", "Bob", "Cy", "Di"], games="3")
    per_game = []
    for _ in range(3):
        phone.new_hand()
        for seat, (calypsos, incomplete, discards) in CALYPSO_TALLIES.items():
            phone.tap_button(f"p{seat}_calypsos", str(calypsos))
            phone.type(f"#p{seat}_incomplete", str(incomplete))
            phone.type(f"#p{seat}_discards", str(discards))
        phone.save()
        per_game.append(counted(phone))
    # Four calypso buttons, fourteen digits, Save. Four tallies do not fit one
    # screen: the third (and at 360×740 the fourth) seat costs a swipe, as before
    # the hand screens were tightened (measured then with this same counting).
    assert per_game == [(19, CALYPSO_SWIPES[phone.size])] * 3


# With large print at 125 % the four tallies take four screens: three swipes.
CALYPSO_SWIPES = {"390x844": 1, "360x740": 2, "390x844-text-125": 3}


# -- one tap that stores a hand: out of the thumb's way, and still one tap ----------

ONE_TAP_STORES = {
    # variant: players, the first hand (entered with the contract buttons), its quick button
    "rubber": (["Ann", "Bob", "Cy", "Di"], "#quick-passed_out"),
    "chicago": (["Ann", "Bob", "Cy", "Di"], "#quick-passed_out"),
    "honeymoon": (["Ann", "Bob"], "#quick-passed_out"),
    "bridge-for-three": (["Ann", "Bob", "Cy"], "#quick-passed_out"),
    "top-game": (["Ann", "Bob", "Cy"], "#quick-passed_out"),
    "need-a-fourth": (["Ann", "Bob", "Cy"], "#quick-passed_out"),
}
# The swipe down to the quick button: at 390×844 only the Top Game's form is longer
# than the screen; at 360×740 every one is, and with large print at 125 % every one
# but the Honeymoon's (two players: the shortest form).
PASSED_OUT_SWIPES = {
    "390x844": {v: 1 if v == "top-game" else 0 for v in ONE_TAP_STORES},
    "360x740": dict.fromkeys(ONE_TAP_STORES, 1),
    "390x844-text-125": {v: 0 if v == "honeymoon" else 1 for v in ONE_TAP_STORES},
}
APART = 16  # px between the last choice (or Save) and a one-tap store, at the least

FIRST_HAND = {
    "top-game": [
        ("declarer", "Ann"),
        ("bid", "4"),
        ("dummy_tops", "3"),
        ("strain", "D"),
        ("tricks", "11"),
    ],
    "need-a-fourth": [
        ("chooser", "Ann"),
        ("partner", "Bob"),
        ("level", "4"),
        ("strain", "S"),
        ("tricks", "10"),
    ],
}
CONTRACT = [("declarer", "Ann"), ("level", "1"), ("strain", "NT"), ("tricks", "7")]


def layout(page, quick: str) -> dict:
    """Where, on the whole page, the quick button lies against Save and the choices."""
    return page.eval_on_selector(
        quick,
        """(quick) => {
            const top = (el) => el.getBoundingClientRect().top + scrollY;
            const bottom = (el) => el.getBoundingClientRect().bottom + scrollY;
            const form = document.getElementById('hand-form');
            const choices = [...form.querySelectorAll('.buttons label, details.more summary')]
                .filter((el) => el.checkVisibility());  // not those in a closed panel
            const save = document.getElementById('save');
            scrollTo(0, document.documentElement.scrollHeight);  // Save in its own place
            const at = {quick: top(quick), save: bottom(save),
                        choices: Math.max(...choices.map(bottom)),
                        first: Math.min(...choices.map(top)), form: bottom(form)};
            scrollTo(0, 0);
            return at;
        }""",
    )


@pytest.mark.parametrize("variant", list(ONE_TAP_STORES))
def test_a_one_tap_store_sits_below_save_and_still_stores_in_one_tap(phone, variant):
    """Issue 19: "All passed" sat right above the declarer row, where a thumb
    reaching for a declarer stored a passed-out hand. It now comes after Save,
    below every choice; one tap (after a swipe, where the page is long) still
    stores the hand as passed out."""
    players, quick = ONE_TAP_STORES[variant]
    match_id = phone.start_match(
        variant, players, **({"rounds": "2"} if variant == "chicago" else {})
    )
    for field, value in FIRST_HAND.get(variant, CONTRACT):
        phone.tap_button(field, value)
    phone.save()
    at = layout(phone.page, quick)
    assert at["quick"] >= at["form"] + APART
    assert at["quick"] >= at["save"] + APART
    assert at["quick"] >= at["choices"] + APART
    assert at["quick"] > at["first"]  # not above the entry path either
    # Nothing of the quick form is inside the hand form (Enter there cannot reach it).
    assert phone.page.eval_on_selector(quick, "b => b.form.id") == "quick-form"

    phone.new_hand()
    phone.save(quick)
    # One tap; a swipe first where the page is longer than the screen.
    assert (phone.taps, phone.scrolls) == (1, PASSED_OUT_SWIPES[phone.size][variant])
    expect(phone.page.locator(".flash-undo")).to_contain_text("2 saved")
    hands = phone.page.request.get(f"{phone.server}/m/{match_id}/match.json").json()["hands"]
    assert len(hands) == 2
    assert hands[1].get("passed_out") is True


def test_scrapping_a_mini_bridge_deal_sits_below_save_and_still_takes_one_tap(phone):
    """Three-handed Mini Bridge: "Scrap the deal" showed up between the HCP and the
    GAME buttons, just where the thumb goes next. It now comes after Save."""
    match_id = phone.start_match("mini-bridge-3", ["Ann", "Bob", "Cy"], hands="9")
    announce(phone, 13, 10, 9)
    for field, value in [("game", "no"), ("strain", "S"), ("tricks", "9")]:
        phone.tap_button(field, value)
    phone.save()

    phone.new_hand()  # Bob deals: Bob 12, Cy 11, Ann 10 leave dummy 7; Bob 19, under 21
    announce(phone, 12, 11, 10)
    expect(phone.page.locator("#mb-live")).to_contain_text("Under 21: Bob may scrap the deal.")
    at = layout(phone.page, "#scrap")
    assert at["quick"] >= at["save"] + APART
    assert at["quick"] >= at["choices"] + APART
    phone.save("#scrap")
    assert phone.taps == 4  # three on the pad, Scrap
    hands = phone.page.request.get(f"{phone.server}/m/{match_id}/match.json").json()["hands"]
    assert hands[1] == {"hcp": {"Bob": 12, "Cy": 11, "Ann": 10}, "scrapped": True}
