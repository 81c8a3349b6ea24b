"""Mini Bridge (`mini-bridge`, `mini-bridge-3`) through the web pages: the hand form
as its inputs and buttons post it, the derived declarer, 20–20 redeals and scrapped
deals in one POST, the sheet, editing, refusals and the rules pages."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

FOUR = ["Ann", "Bob", "Cy", "Dee"]
THREE = ["Ann", "Bob", "Cy"]


def start(client, variant: str, players: list[str], **options: str) -> str:
    data = {"variant": variant, **{f"player{i}": p for i, p in enumerate(players, 1)}}
    data.update({f"opt_{k}": v for k, v in options.items()})
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.get_data(as_text=True)
    return re.search(r"/m/([\w-]{16})/hand/new", response.headers["Location"]).group(1)


def hcp(*points: int | str) -> dict[str, str]:
    """The HCP inputs in announcement order (hcp1 is the dealer)."""
    return {f"hcp{k}": str(p) for k, p in enumerate(points, 1)}


def played(*points: int, game: str = "no", strain: str = "NT", tricks: int = 7) -> dict[str, str]:
    return {**hcp(*points), "game": game, "strain": strain, "tricks": str(tricks)}


def post_hand(client, match_id: str, data: dict[str, str], hand_id: int | None = None):
    where = "new" if hand_id is None else str(hand_id)
    return client.post(f"/m/{match_id}/hand/{where}", data=data)


def saved(client, match_id: str, data: dict[str, str]) -> None:
    response = post_hand(client, match_id, data)
    assert response.status_code == 302, response.get_data(as_text=True)


def stored_hands(client, match_id: str) -> list[dict[str, Any]]:
    return json.loads(client.get(f"/m/{match_id}/match.json").get_data(as_text=True))["hands"]


def page(client, url: str) -> str:
    response = client.get(url)
    assert response.status_code == 200
    return response.get_data(as_text=True)


def hand_ids(client, match_id: str) -> list[int]:
    html = page(client, f"/m/{match_id}")
    return [int(n) for n in re.findall(rf'href="/m/{match_id}/hand/(\d+)"', html)]


def sheet(client, match_id: str) -> str:
    html = page(client, f"/m/{match_id}")
    return html[html.index('id="sheet"') : html.index('class="totals"')]


def cells(sheet_html: str) -> list[str]:
    """The text of every numeric cell of the sheet, in reading order."""
    found = re.findall(r'<td class="num">(.*?)</td>', sheet_html)
    return [re.sub(r"<[^>]+>", " ", c).split()[0] if c.strip() else "" for c in found]


# -- what the hand page shows before anything is typed ------------------------


def test_four_hand_page_shows_dealer_order_and_sides(client):
    match_id = start(client, "mini-bridge", FOUR)
    html = page(client, f"/m/{match_id}/hand/new")
    assert "<strong>Ann</strong> deals." in html
    assert "HCP are announced Ann → Bob → Cy → Dee." in html
    assert (
        'class="mb-side-0">Ann &amp; Cy</strong> against <strong class="mb-side-1">Bob &amp; Dee'
        in html
    )
    assert "Counted hand 1 of 8." in html
    inputs = re.findall(r'<input [^>]*class="hcp-input"[^>]*>', html)
    assert [re.search(r'data-player="(\w+)"', i).group(1) for i in inputs] == FOUR
    assert all('inputmode="numeric"' in i for i in inputs)
    assert "autofocus" in inputs[0]
    assert 'id="scrap"' not in html


def test_three_hand_page_shows_dummy_box_and_hidden_default_button(client):
    match_id = start(client, "mini-bridge-3", THREE)
    html = page(client, f"/m/{match_id}/hand/new")
    assert "HCP are announced Ann → Bob → Cy." in html
    assert "Counted hand 1 of 9." in html
    assert '<output id="dummy-hcp" class="hcp-output" aria-live="polite">–</output>' in html
    # Enter in an HCP box presses the first button of the form: Save, never Scrap.
    assert html.index('class="mb-default"') < html.index('id="scrap"') < html.index('id="save"')


def test_target_is_shown_on_hand_page_and_sheet(client):
    match_id = start(client, "mini-bridge", FOUR, target="500")
    assert "Playing to 500: the leader needs 500 more." in page(client, f"/m/{match_id}/hand/new")
    saved(client, match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    assert "Playing to 500: the leader has 450, 50 to go." in sheet(client, match_id)
    assert "the leader needs 50 more." in page(client, f"/m/{match_id}/hand/new")


# -- typical hands --------------------------------------------------------------


def test_four_typical_hand_is_stored_and_drawn(client):
    match_id = start(client, "mini-bridge", FOUR)
    # Ann 5, Bob 10, Cy 13, Dee 12: Bob & Dee 22, Dee declares GAME in hearts, 11 tricks.
    saved(client, match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    assert stored_hands(client, match_id) == [
        {
            "hcp": {"Ann": 5, "Bob": 10, "Cy": 13, "Dee": 12},
            "game": True,
            "strain": "H",
            "tricks": 11,
        }
    ]
    html = sheet(client, match_id)
    assert "<th>Ann &amp; Cy</th><th>Bob &amp; Dee</th>" in html
    assert "Dee: GAME ♥" in html and "11 tricks, made" in html
    assert '<a href="#hand-1">1</a>' in html
    assert cells(html) == ["·", "+450", "0", "450"]
    assert "1 of 8 counted hands played, 7 left." in html


def test_announcements_follow_the_dealer(client):
    match_id = start(client, "mini-bridge", FOUR)
    saved(client, match_id, played(5, 10, 13, 12))
    html = page(client, f"/m/{match_id}/hand/new")
    assert "<strong>Bob</strong> deals." in html
    assert "HCP are announced Bob → Cy → Dee → Ann." in html
    # Bob 3, Cy 12, Dee 14, Ann 11: Ann & Cy 23; Cy declares, GAME in clubs, 9 tricks: 2 down.
    saved(client, match_id, played(3, 12, 14, 11, game="yes", strain="C", tricks=9))
    assert stored_hands(client, match_id)[1]["hcp"] == {"Bob": 3, "Cy": 12, "Dee": 14, "Ann": 11}
    html = sheet(client, match_id)
    assert "Cy: GAME ♣" in html and "9 tricks, 2 down" in html
    # Hand 1: no GAME in NT, 7 tricks = 40 for Bob & Dee; hand 2: 100 for Bob & Dee.
    assert cells(html) == ["·", "+40", "·", "+100", "0", "140"]


def test_server_shows_the_declarer_after_a_submit(client):
    match_id = start(client, "mini-bridge", FOUR)
    response = post_hand(client, match_id, {**hcp(5, 10, 13, 12), "game": "yes", "strain": "H"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "<strong>Bob &amp; Dee</strong> declare, 22 HCP against 18." in html
    assert "<strong>Dee</strong> declares (12 HCP, more than Bob's 10); Bob is dummy." in html
    assert "missing; give a whole number 0–13" in html
    assert 'value="12"' in html  # the typed HCP are kept
    assert stored_hands(client, match_id) == []


def test_four_tie_within_the_side_goes_to_who_announced_first(client):
    match_id = start(client, "mini-bridge", FOUR)
    response = post_hand(client, match_id, hcp(8, 11, 10, 11))
    html = response.get_data(as_text=True)
    assert "<strong>Bob</strong> declares (11 HCP, tied with Dee, announced first)" in html
    saved(client, match_id, played(8, 11, 10, 11, game="no", strain="S", tricks=9))
    assert "Bob: ♠, no GAME" in sheet(client, match_id)
    assert cells(sheet(client, match_id)) == ["·", "+90", "0", "90"]


def test_three_typical_hand_defenders_each_score(client):
    match_id = start(client, "mini-bridge-3", THREE)
    # Ann 7, Bob 7, Cy 15: dummy 11; Cy declares GAME in NT and takes 7: two down.
    saved(client, match_id, played(7, 7, 15, game="yes", strain="NT", tricks=7))
    assert stored_hands(client, match_id) == [
        {"hcp": {"Ann": 7, "Bob": 7, "Cy": 15}, "game": True, "strain": "NT", "tricks": 7}
    ]
    html = sheet(client, match_id)
    assert "<th>Ann</th><th>Bob</th><th>Cy</th>" in html
    assert "Cy: GAME NT" in html and "7 tricks, 2 down" in html
    assert cells(html) == ["+100", "+100", "·", "100", "100", "0"]
    assert "1 of 9 counted hands played, 8 left." in html


def test_three_server_shows_dummy_and_declarer_after_a_submit(client):
    match_id = start(client, "mini-bridge-3", THREE)
    html = post_hand(client, match_id, hcp(7, 7, 15)).get_data(as_text=True)
    assert '<output id="dummy-hcp" class="hcp-output" aria-live="polite">11</output>' in html
    assert "<strong>Cy</strong> declares (15 HCP, the most) with dummy: 15 + 11 = 26." in html
    assert "Ann and Bob defend." in html
    assert re.search(r'id="scrap"\s+hidden', html)  # 26: no scrapping
    html = post_hand(client, match_id, hcp(12, 12, 8)).get_data(as_text=True)
    assert "(12 HCP, tied with Bob, announced first)" in html
    assert "Under 21: Ann may scrap the deal." in html
    assert re.search(r'id="scrap"\s*>Scrap the deal</button>', html)  # shown
    assert stored_hands(client, match_id) == []


# -- redeals and scrapped deals: one POST --------------------------------------


def test_twenty_all_is_saved_as_a_redeal_and_the_dealer_stays(client):
    match_id = start(client, "mini-bridge", FOUR)
    saved(client, match_id, hcp(9, 9, 11, 11))
    assert stored_hands(client, match_id) == [{"hcp": {"Ann": 9, "Bob": 9, "Cy": 11, "Dee": 11}}]
    html = sheet(client, match_id)
    assert '<tr class="uncounted">' in html and "20–20" in html and "dealt again" in html
    assert "0 of 8 counted hands played, 8 left." in html
    hand_page = page(client, f"/m/{match_id}/hand/new")
    assert "<strong>Ann</strong> deals again: the last deal was not played." in hand_page
    assert "Counted hand 1 of 8." in hand_page


def test_twenty_all_with_a_contract_is_refused_with_the_notice(client):
    match_id = start(client, "mini-bridge", FOUR)
    response = post_hand(client, match_id, played(9, 9, 11, 11, tricks=8))
    html = response.get_data(as_text=True)
    assert (
        "<strong>20–20:</strong> nobody plays; Ann deals again. Saving records the redeal." in html
    )
    assert "must be left out when both sides hold 20: the same dealer deals again" in html
    assert stored_hands(client, match_id) == []


def test_scrap_is_one_post_and_the_dealer_stays(client):
    match_id = start(client, "mini-bridge-3", THREE)
    # Ann 9, Bob 12, Cy 11: dummy 8; Bob declares with 20 and scraps. GAME etc. are ignored.
    saved(client, match_id, {**hcp(9, 12, 11), "scrapped": "y", "game": "yes"})
    assert stored_hands(client, match_id) == [
        {"hcp": {"Ann": 9, "Bob": 12, "Cy": 11}, "scrapped": True}
    ]
    html = sheet(client, match_id)
    assert "Bob scrapped" in html and "20 HCP with dummy" in html
    assert "0 of 9 counted hands played, 9 left." in html
    assert "<strong>Ann</strong> deals again" in page(client, f"/m/{match_id}/hand/new")


def test_scrap_refused_at_21_or_more(client):
    match_id = start(client, "mini-bridge-3", THREE)
    saved(client, match_id, played(7, 7, 15))
    before = stored_hands(client, match_id)
    response = post_hand(client, match_id, {**hcp(7, 15, 7), "scrapped": "y"})
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Not saved." in html
    # Hand 2: Bob deals and announces first (7), then Cy 15, then Ann 7.
    assert "Cy and dummy hold 15 + 11 = 26; a deal may be scrapped only below 21" in html
    assert stored_hands(client, match_id) == before


# -- every kind of bad input: the message is shown and nothing is stored -------

# Hand 2 of the match: Bob deals, so hcp1 is Bob, hcp2 Cy, hcp3 Dee, hcp4 Ann.
FOUR_ERRORS = [
    (
        {**played(5, 10, 13, 12), "hcp2": "x"},
        "Cy: &#39;x&#39; is not a whole number; allowed 0–37",
    ),
    (played(38, 0, 1, 1), "Bob: 38 is out of range; allowed 0–37"),
    (played(10, 10, 10, 11), "the four hands add up to 41, not 40; count again"),
    ({**played(5, 10, 13, 12), "hcp4": ""}, "Ann is missing; give Ann, Bob, Cy, Dee"),
    (
        {"game": "no", "strain": "NT", "tricks": "7"},
        "missing; give each player&#39;s HCP, e.g.",
    ),
    ({**played(5, 10, 13, 12), "hcp1": "12345"}, "give a whole number 0–37"),
    ({**hcp(5, 10, 13, 12), "strain": "NT", "tricks": "7"}, "missing; give true or false"),
    ({**played(5, 10, 13, 12), "game": "maybe"}, "&#39;maybe&#39; is not true or false"),
    ({**hcp(5, 10, 13, 12), "game": "no", "tricks": "7"}, "missing; give C, D, H, S or NT"),
    (
        {**played(5, 10, 13, 12), "strain": "Z"},
        "&#39;Z&#39; is not a strain; allowed C, D, H, S, NT",
    ),
    ({**played(5, 10, 13, 12), "tricks": "14"}, "14 is out of range; allowed 0–13"),
    ({**played(5, 10, 13, 12), "tricks": "many"}, "&#39;many&#39; is not a whole number"),
    ({**hcp(5, 10, 13, 12), "game": "no", "strain": "NT"}, "missing; give a whole number 0–13"),
]


@pytest.mark.parametrize(("data", "message"), FOUR_ERRORS)
def test_four_bad_input_is_shown_and_not_stored(client, data, message):
    match_id = start(client, "mini-bridge", FOUR)
    saved(client, match_id, played(5, 10, 13, 12))
    before = stored_hands(client, match_id)
    response = post_hand(client, match_id, data)
    html = response.get_data(as_text=True)
    assert response.status_code == 200
    assert "Not saved." in html
    assert message in html
    assert stored_hands(client, match_id) == before


THREE_ERRORS = [
    (played(0, 1, 1), "the three hold 2, leaving dummy 38; together they must hold 3–40"),
    (played(20, 20, 1), "the three hold 41, leaving dummy -1"),
    ({**played(7, 7, 15), "hcp3": "-3"}, "Cy: -3 is out of range; allowed 0–37"),
    ({**played(7, 7, 15), "scrapped": "y", "hcp1": ""}, "Ann is missing; give Ann, Bob, Cy"),
]


@pytest.mark.parametrize(("data", "message"), THREE_ERRORS)
def test_three_bad_input_is_shown_and_not_stored(client, data, message):
    match_id = start(client, "mini-bridge-3", THREE)
    response = post_hand(client, match_id, data)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Not saved." in html
    assert message in html
    assert stored_hands(client, match_id) == []


# -- editing, deleting, ending ---------------------------------------------------


def test_edit_shows_old_values_and_changes_the_sheet(client):
    match_id = start(client, "mini-bridge", FOUR)
    saved(client, match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=11))
    [hand_id] = hand_ids(client, match_id)
    html = page(client, f"/m/{match_id}/hand/{hand_id}")
    assert "Edit hand 1" in html
    for k, value in enumerate((5, 10, 13, 12), 1):
        assert re.search(rf'id="hcp{k}"[^>]*value="{value}"', html)
    assert "autofocus" not in html
    assert re.search(r'value="yes"\s+checked', html)
    assert re.search(r'value="H"\s+checked', html)
    assert re.search(r'id="tricks-11" value="11"\s+checked', html)
    assert "<strong>Dee</strong> declares (12 HCP" in html
    # One trick fewer: 1 down, 50 to Ann & Cy.
    response = post_hand(
        client, match_id, played(5, 10, 13, 12, game="yes", strain="H", tricks=9), hand_id
    )
    assert response.status_code == 302
    assert stored_hands(client, match_id)[0]["tricks"] == 9
    assert cells(sheet(client, match_id)) == ["+50", "·", "50", "0"]


def test_three_edit_of_a_scrapped_deal_shows_the_hcp(client):
    match_id = start(client, "mini-bridge-3", THREE)
    saved(client, match_id, {**hcp(9, 12, 11), "scrapped": "y"})
    [hand_id] = hand_ids(client, match_id)
    html = page(client, f"/m/{match_id}/hand/{hand_id}")
    for k, value in enumerate((9, 12, 11), 1):
        assert re.search(rf'id="hcp{k}"[^>]*value="{value}"', html)
    assert "Under 21: Bob may scrap the deal." in html
    # Played after all: Bob takes 8 tricks without GAME in spades, 60.
    response = post_hand(
        client, match_id, played(9, 12, 11, game="no", strain="S", tricks=8), hand_id
    )
    assert response.status_code == 302
    assert cells(sheet(client, match_id)) == ["·", "+60", "·", "0", "60", "0"]


def test_edit_that_breaks_a_later_hand_is_refused_naming_it(client):
    match_id = start(client, "mini-bridge", FOUR, hands="2")
    saved(client, match_id, hcp(9, 9, 11, 11))  # 20–20, not counted
    saved(client, match_id, played(5, 10, 13, 12))
    saved(client, match_id, played(10, 13, 12, 5))
    assert "2 of 2 counted hands played: the match is over." in sheet(client, match_id)
    before = stored_hands(client, match_id)
    first = hand_ids(client, match_id)[0]
    response = post_hand(client, match_id, played(5, 10, 13, 12), first)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "Not saved." in html
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in html
    assert stored_hands(client, match_id) == before


def test_delete_undo_and_end(client):
    match_id = start(client, "mini-bridge-3", THREE)
    saved(client, match_id, played(7, 7, 15, game="yes", strain="NT", tricks=9))
    [hand_id] = hand_ids(client, match_id)
    client.post(f"/m/{match_id}/hand/{hand_id}/delete")
    assert stored_hands(client, match_id) == []
    client.post(f"/m/{match_id}/undo")
    assert len(stored_hands(client, match_id)) == 1
    # GAME in NT with 9 tricks: 3 × 40 + 300 = 420 for Cy.
    assert cells(sheet(client, match_id)) == ["·", "·", "+420", "0", "0", "420"]
    client.post(f"/m/{match_id}/end")
    assert stored_hands(client, match_id)[-1] == {"end": True}
    html = sheet(client, match_id)
    assert "stopped" in html
    assert "1 of 9 counted hands played: the match is over." in html


def test_finished_by_target_says_so(client):
    match_id = start(client, "mini-bridge-3", THREE, target="400")
    saved(client, match_id, played(7, 7, 15, game="yes", strain="NT", tricks=9))
    assert "Playing to 400: reached with 420." in sheet(client, match_id)
    assert client.get(f"/m/{match_id}/hand/new").status_code == 302


# -- rules pages ------------------------------------------------------------------

FOUR_DECISIONS = [
    "each player exactly once, each 0–37, and the four must add up to 40",
    "either for a number of hands or to a target, never both. Without a target it lasts 8 counted"
    " hands unless you choose another number (1–100); a target may be 1–100,000",
    "dealt again on 20–20 is kept on the sheet but does not count",
    "reached when a total is equal to it or higher. Points won by defending count",
    "Whether GAME was announced must be entered for every hand that is played",
    "A failed contract gives the declaring side 0, never a negative score",
    "A match file may name the declarer as a check",
    "If the two sides finish level, all four players are winners.",
    "Players may stop early",
]
THREE_DECISIONS = [
    "each player exactly once: the three players' HCP",
    "either for a number of hands or to a target, never both. Without a target it lasts 9 counted"
    " hands unless you choose another number (1–100)",
    "A deal that is scrapped is kept on the sheet but does not count",
    "reached when a total is equal to it or higher. Points won by defending count",
    "Whether GAME was announced must be entered for every hand that is played",
    "A failed contract gives the declaring side 0, never a negative score",
    "The declarer is never entered: it always follows from the HCP, and the dummy never declares.",
    "Scrapping is the declarer's choice, never forced",
    "When several players share the highest total at the end, they are all winners.",
    "Players may stop early",
]


@pytest.mark.parametrize(
    ("variant", "decisions", "example"),
    [
        ("mini-bridge", FOUR_DECISIONS, "plus 300 for GAME = <strong>450</strong>"),
        ("mini-bridge-3", THREE_DECISIONS, "12 + 8 = 20 is under 21, so Bob may scrap"),
    ],
)
def test_rules_page_lists_every_decision(client, variant, decisions, example):
    html = page(client, f"/rules/{variant}")
    found = re.findall(r'<p class="decision">(.*?)</p>', html, re.S)
    assert len(found) == len(decisions)
    for decision, text in zip(decisions, found, strict=True):
        assert decision in text
    assert example in html
