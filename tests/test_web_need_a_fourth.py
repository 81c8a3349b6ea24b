"""Need a Fourth? in the browser: the hand form, the running-total sheet, the rules page.

Posts are made exactly as the page's buttons send them (radio values, the
auction as text, `not_met` checkboxes holding the index of a structured bid).
Every refused post is checked against the match file: nothing stored.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scorekeeper.entry.need_a_fourth import SHOW_LIST, calls_from_text, requirement_table

PLAYERS = ["Ann", "Bob", "Cy"]


def start(client, liar_rule: bool = False, hands: int | None = None) -> str:
    form: dict[str, Any] = {"variant": "need-a-fourth"}
    form |= {f"player{i}": name for i, name in enumerate(PLAYERS, 1)}
    if liar_rule:
        form["opt_liar_rule"] = "y"
    if hands is not None:
        form["opt_hands"] = str(hands)
    response = client.post("/new", data=form)
    assert response.status_code == 302
    return re.search(r"/m/([\w-]{16})/hand/new", response.headers["Location"]).group(1)


def stored_hands(client, match_id: str) -> list[dict[str, Any]]:
    return json.loads(client.get(f"/m/{match_id}/match.json").data)["hands"]


def post_hand(client, match_id: str, hand_id: int | None = None, **fields: Any):
    url = f"/m/{match_id}/hand/new" if hand_id is None else f"/m/{match_id}/hand/{hand_id}"
    return client.post(url, data=fields)


def hand_ids(client, match_id: str) -> list[int]:
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    return [int(n) for n in re.findall(rf"/m/{match_id}/hand/(\d+)\"", page)]


def sheet_row(page: str, number: int) -> str:
    return re.search(rf'<tr[^>]*id="sheet-row-{number}">(.*?)</tr>', page, re.S).group(1)


def cells(page: str, number: int) -> dict[str, str]:
    """Player -> the cell text (score, then role and running total) of one sheet row."""
    row = sheet_row(page, number)
    found = re.findall(r'data-player="([^"]+)">(.*?)</td>', row, re.S)
    return {player: re.sub(r"<[^>]+>", " ", text).split() for player, text in found}


def totals(page: str) -> dict[str, str]:
    return dict(re.findall(r'<td class="num" data-player="([^"]+)">([^<]+)</td>', page))


def refused(client, match_id: str, before: list, response, *messages: str) -> str:
    """The form came back (200) showing every message, and nothing was stored."""
    page = response.get_data(as_text=True)
    assert response.status_code == 200
    for message in messages:
        assert message in page, message
    assert stored_hands(client, match_id) == before
    return page


TYPICAL = {"chooser": "Ann", "partner": "Bob", "level": "4", "strain": "S", "tricks": "10"}


# --- the page before anything is typed ------------------------------------------


def test_new_hand_page_shows_dealer_order_and_hand_count(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    assert "<strong>Ann</strong> deals · hand 1 of 9." in page
    assert "Bidding: Ann → Bob → Cy." in page
    assert 'id="quick-passed_out">All passed</button>' in page
    # Without the liar rule there is no auction to enter.
    assert 'name="auction"' not in page and "Structured bids" not in page
    for level in range(1, 8):
        assert f'name="level" id="level-{level - 1}" value="{level}"' in page
    for tricks in range(14):
        assert f'name="tricks" id="tricks-{tricks}" value="{tricks}"' in page


def test_second_hand_is_dealt_by_the_next_player(client):
    match_id = start(client)
    post_hand(client, match_id, **TYPICAL)
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    assert "<strong>Bob</strong> deals · hand 2 of 9." in page
    assert "Bidding: Bob → Cy → Ann." in page


def test_declarer_is_named_once_chooser_and_partner_are_known(client):
    match_id = start(client)
    response = post_hand(client, match_id, chooser="Ann", partner="Bob", level="4", strain="S")
    page = refused(client, match_id, [], response, "missing; give a whole number 0–13")
    assert "<strong>Cy</strong> is the Declarer" in page


# --- typical hands ----------------------------------------------------------------


def test_typical_hand_is_stored_and_scored(client):
    match_id = start(client)
    response = post_hand(client, match_id, **TYPICAL)
    assert response.status_code == 302
    assert stored_hands(client, match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "tricks": 10}
    ]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert cells(page, 1) == {
        "Ann": ["+500", "C", "+500"],
        "Bob": ["+500", "P", "+500"],
        "Cy": ["·", "D", "0"],
    }
    assert "4♠" in sheet_row(page, 1) and '<span class="note">=</span>' in sheet_row(page, 1)
    assert totals(page) == {"Ann": "+500", "Bob": "+500", "Cy": "0"}


def test_running_totals_add_up_hand_by_hand(client):
    match_id = start(client)
    post_hand(client, match_id, **TYPICAL)  # Ann +500, Bob +500
    # Bob deals; Cy bids 4H with Ann and they take 9: Cy -100, Ann -50.
    post_hand(client, match_id, chooser="Cy", partner="Ann", level="4", strain="H", tricks="9")
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert cells(page, 2) == {
        "Ann": ["−50", "P", "+450"],
        "Bob": ["·", "D", "+500"],
        "Cy": ["−100", "C", "−100"],
    }
    assert '<span class="note">−1</span>' in sheet_row(page, 2)
    assert totals(page) == {"Ann": "+450", "Bob": "+500", "Cy": "−100"}


def test_doubled_partial_made_with_an_overtrick(client):
    match_id = start(client)
    post_hand(
        client, match_id, chooser="Ann", partner="Bob", level="2", strain="H", doubling="X",
        tricks="9",
    )  # fmt: skip
    assert stored_hands(client, match_id)[0]["contract"] == "2HX"
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": "+800", "Bob": "+700", "Cy": "0"}


def test_partner_who_redoubles_is_scored_as_chooser(client):
    match_id = start(client)
    post_hand(
        client, match_id, chooser="Ann", partner="Bob", level="4", strain="S", doubling="XX",
        redoubled_by="Bob", tricks="10",
    )  # fmt: skip
    assert stored_hands(client, match_id) == [
        {
            "chooser": "Ann",
            "partner": "Bob",
            "contract": "4SXX",
            "redoubled_by": "Bob",
            "tricks": 10,
        }
    ]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    # Bob is Chooser for scoring: 500 + 600; Ann the Partner: 500 + 400.
    assert cells(page, 1)["Bob"] == ["+1100", "C", "+1100"]
    assert cells(page, 1)["Ann"] == ["+900", "P", "+900"]


def test_redoubler_is_dropped_unless_redoubled(client):
    match_id = start(client)
    post_hand(client, match_id, **TYPICAL | {"doubling": "X", "redoubled_by": "Bob"})
    assert stored_hands(client, match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4SX", "tricks": 10}
    ]


def test_all_passed_is_one_post(client):
    match_id = start(client)
    response = post_hand(client, match_id, quick="passed_out")
    assert response.status_code == 302
    assert stored_hands(client, match_id) == [{"passed_out": True}]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert '<span class="note contract">passed</span>' in sheet_row(page, 1)
    assert "New hand · Bob deals" in page
    assert "1 of 9 hands." in page


def test_unknown_quick_action_is_refused(client):
    match_id = start(client)
    assert post_hand(client, match_id, quick="redeal").status_code == 400
    assert stored_hands(client, match_id) == []


def test_match_finishes_after_its_hands(client):
    match_id = start(client, hands=3)
    post_hand(client, match_id, **TYPICAL)
    post_hand(client, match_id, quick="passed_out")
    post_hand(client, match_id, chooser="Cy", partner="Bob", level="3", strain="NT", tricks="9")
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert "Match finished" in page and "Winner: <strong>Bob</strong>" in page
    assert totals(page) == {"Ann": "+500", "Bob": "+1000", "Cy": "+500"}
    assert "3 of 3 hands." in page
    response = client.get(f"/m/{match_id}/hand/new")
    assert response.status_code == 302


# --- editing ------------------------------------------------------------------------


def test_edit_shows_the_old_values_and_changes_the_sheet(client):
    match_id = start(client)
    post_hand(
        client, match_id, chooser="Ann", partner="Cy", level="3", strain="NT", doubling="XX",
        redoubled_by="Ann", tricks="8",
    )  # fmt: skip
    (hand_id,) = hand_ids(client, match_id)
    page = client.get(f"/m/{match_id}/hand/{hand_id}").get_data(as_text=True)
    assert "Edit hand 1" in page
    for name, value in [
        ("chooser", "Ann"), ("partner", "Cy"), ("level", "3"), ("strain", "NT"),
        ("doubling", "XX"), ("redoubled_by", "Ann"), ("tricks", "8"),
    ]:  # fmt: skip
        assert re.search(rf'name="{name}" id="[^"]+" value="{value}"\s+checked', page), name
    assert "<strong>Bob</strong> is the Declarer" in page
    response = post_hand(client, match_id, hand_id, **TYPICAL)
    assert response.status_code == 302
    assert stored_hands(client, match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "tricks": 10}
    ]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": "+500", "Bob": "+500", "Cy": "0"}


def test_bad_edit_is_refused_and_the_old_hand_kept(client):
    match_id = start(client)
    post_hand(client, match_id, **TYPICAL)
    before = stored_hands(client, match_id)
    (hand_id,) = hand_ids(client, match_id)
    response = post_hand(client, match_id, hand_id, **TYPICAL | {"partner": "Ann"})
    refused(client, match_id, before, response, "&#39;Ann&#39; is not one of the other two players")


def test_delete_that_would_break_a_later_hand_is_refused_naming_it(client):
    # In this game an edit keeps every later hand valid (the deal depends only on
    # how many hands came before); deleting a hand moves the deal, so a later
    # auction no longer fits its Chooser.
    match_id = start(client, liar_rule=True)
    post_hand(client, match_id, quick="passed_out")
    # Bob deals hand 2 and bids 1S; Ann and Cy pass.
    post_hand(
        client, match_id, auction="1S P P", bids_shown="1S P P", chooser="Bob", partner="Cy",
        level="1", strain="S", tricks="7",
    )  # fmt: skip
    before = stored_hands(client, match_id)
    first, _ = hand_ids(client, match_id)
    response = client.post(f"/m/{match_id}/hand/{first}/delete", follow_redirects=True)
    page = response.get_data(as_text=True)
    assert "Hand 1 was not deleted: without it, hand 1: chooser: Bob is not the last bidder" in page
    assert stored_hands(client, match_id) == before


# --- form errors: each one shown, nothing stored --------------------------------------

ERRORS = [
    pytest.param(
        {"partner": "Bob", "level": "4", "strain": "S", "tricks": "10"},
        "missing; give one of Ann, Bob, Cy",
        id="no-chooser",
    ),
    pytest.param(
        TYPICAL | {"partner": "Ann"},
        "&#39;Ann&#39; is not one of the other two players: Bob, Cy",
        id="partner-is-chooser",
    ),
    pytest.param(
        {"chooser": "Ann", "level": "4", "strain": "S", "tricks": "10"},
        "missing; give one of the other two players: Bob, Cy",
        id="no-partner",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "level": "4", "tricks": "10"},
        "missing; give a contract like 4S, 3NTX or 6HXX",
        id="level-without-strain",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "level": "4", "strain": "S"},
        "missing; give a whole number 0–13",
        id="no-tricks",
    ),
    pytest.param(
        TYPICAL | {"tricks": "14"}, "14 is out of range; allowed 0–13", id="tricks-above-13"
    ),
    pytest.param(TYPICAL | {"level": "8"}, "level 8 is not allowed, use 1–7", id="level-above-7"),
    pytest.param(
        TYPICAL | {"doubling": "XX"},
        "missing; give the Chooser or the Partner: Ann, Bob",
        id="redoubled-without-redoubler",
    ),
    pytest.param(
        TYPICAL | {"doubling": "XX", "redoubled_by": "Cy"},
        "&#39;Cy&#39; is not the Chooser or the Partner: Ann, Bob",
        id="declarer-redoubles",
    ),
    pytest.param(
        TYPICAL | {"liars": "Ann"},
        "liars: only allowed with the liar rule (options.liar_rule: true)",
        id="liars-without-the-rule",
    ),
]


@pytest.mark.parametrize("form, message", ERRORS)
def test_form_error_is_shown_and_nothing_stored(client, form, message):
    match_id = start(client)
    post_hand(client, match_id, **TYPICAL)
    before = stored_hands(client, match_id)
    refused(client, match_id, before, post_hand(client, match_id, **form), message, "Hand 2")


# --- the liar rule ---------------------------------------------------------------------

LIAR_ERRORS = [
    pytest.param(
        {"auction": "1S 1H P P", "partner": "Bob", "tricks": "7"},
        "call 2 (Bob): 1H is not higher than the previous bid 1S",
        id="bid-below-the-last",
    ),
    pytest.param(
        {"auction": "1S P", "partner": "Bob", "tricks": "7"},
        "incomplete: an auction ends with a bid followed by two passes",
        id="incomplete-auction",
    ),
    pytest.param(
        {"auction": "1S P P P", "partner": "Bob", "tricks": "7"},
        "call 4 (Ann): the auction already ended after call 3",
        id="call-after-the-end",
    ),
    pytest.param(
        {"auction": "1S P XX", "partner": "Bob", "tricks": "7"},
        "double and redouble are not calls here",
        id="redouble-in-the-auction",
    ),
    pytest.param(
        {"auction": "1S P P", "chooser": "Bob", "partner": "Cy", "tricks": "7"},
        "Bob is not the last bidder; Ann bid 1S",
        id="chooser-not-last-bidder",
    ),
    pytest.param(
        {"auction": "1S P P", "partner": "Cy", "level": "2", "strain": "S", "tricks": "8"},
        "the bid part 2S is not the auction&#39;s last bid 1S",
        id="contract-not-last-bid",
    ),
    pytest.param(
        {"auction": "P P P", "partner": "Bob"},
        "must be left out on a passed-out hand",
        id="partner-on-passed-out-auction",
    ),
    pytest.param(
        {
            "auction": "1S P P",
            "bids_shown": "1S P P",
            "partner": "Cy",
            "tricks": "5",
            "liars": "Cy",
        },
        "Cy made no structured bid in the auction, so cannot have lied",
        id="liar-without-structured-bid",
    ),  # fmt: skip
    pytest.param(
        {
            "partner": "Cy",
            "chooser": "Ann",
            "level": "1",
            "strain": "S",
            "tricks": "5",
            "liars": "Bob",
        },
        "&#39;Bob&#39; is not the Chooser or the Partner: Ann, Cy",
        id="declarer-as-liar",
    ),  # fmt: skip
    pytest.param(
        {"auction": "1S " + "P " * 250, "partner": "Cy", "tricks": "7"},
        "Field cannot be longer than 500 characters.",
        id="auction-too-long",
    ),
]


@pytest.mark.parametrize("form, message", LIAR_ERRORS)
def test_liar_rule_error_is_shown_and_nothing_stored(client, form, message):
    match_id = start(client, liar_rule=True)
    refused(client, match_id, [], post_hand(client, match_id, **form), message)


def test_liar_page_offers_the_auction_and_the_requirement_table(client):
    match_id = start(client, liar_rule=True)
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    assert 'name="auction"' in page and 'id="bid-grid"' in page
    data = json.loads(re.search(r'id="rules-facts">(.*?)</script>', page, re.S).group(1))
    assert data["bidders"] == PLAYERS and data["liarRule"] is True
    assert data["requirements"]["1H"] == {
        "kind": "first call",
        "requirement": "at least 5 hearts and 10 HCP",
    }


def test_auction_hand_as_the_buttons_post_it_records_a_lone_liar(client):
    match_id = start(client, liar_rule=True)
    # Ann 1S, Bob pass, Cy 2S, pass, pass: Cy is Chooser and picks Ann; 6 tricks.
    # The script fills chooser, level and strain and ticks Ann's 1S (call 0).
    response = post_hand(
        client, match_id, auction="1S P 2S P P", bids_shown="1S P 2S P P", chooser="Cy",
        partner="Ann", level="2", strain="S", tricks="6", not_met="0",
    )  # fmt: skip
    assert response.status_code == 302
    assert stored_hands(client, match_id) == [
        {
            "auction": ["1S", "P", "2S", "P", "P"],
            "chooser": "Cy",
            "partner": "Ann",
            "contract": "2S",
            "tricks": 6,
            "liars": ["Ann"],
        }
    ]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert cells(page, 1) == {
        "Ann": ["−300", "P", "L", "−300"],
        "Bob": ["·", "D", "0"],
        "Cy": ["−100", "C", "−100"],
    }
    assert "only Ann lied: Ann pays the Liar column, Cy the Partner column" in page


def test_typed_auction_without_script_derives_chooser_and_contract(client):
    match_id = start(client, liar_rule=True)
    response = post_hand(client, match_id, auction=" 1s  pass 2s,p p", partner="Ann", tricks="8")
    assert response.status_code == 302  # made: the liar check cannot change the score
    assert stored_hands(client, match_id) == [
        {"auction": ["1S", "P", "2S", "P", "P"], "partner": "Ann", "contract": "2S", "tricks": 8}
    ]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": "+100", "Bob": "0", "Cy": "+100"}


def test_failed_contract_without_script_shows_the_structured_bids_first(client):
    match_id = start(client, liar_rule=True)
    # Ann 1C, Bob 1H, Cy pass, Ann 2H (a raise), all pass. Ann picks Cy; 6 tricks.
    typed = {"auction": "1C 1H P 2H P P", "partner": "Cy", "tricks": "6"}
    page = refused(client, match_id, [], post_hand(client, match_id, **typed), SHOW_LIST)
    assert "<strong>Bob</strong> is the Declarer" in page  # Ann is Chooser by the auction
    assert re.findall(r'name="not_met" value="(\d+)"', page) == ["0", "3"]
    assert "at least 4 clubs and 10 HCP" in page
    assert "(single raise)</span>: at least 3 hearts and 5 HCP" in page
    assert "Bob</strong> 1♥" not in page  # the Declarer's bid is not listed
    assert 'name="bids_shown" id="bids_shown" value="1C 1H P 2H P P"' in page
    # Second step: the list was on screen; Ann's 2H did not have three hearts.
    response = post_hand(client, match_id, **typed, bids_shown="1C 1H P 2H P P", not_met="3")
    assert response.status_code == 302
    assert stored_hands(client, match_id)[0]["liars"] == ["Ann"]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": "−300", "Bob": "0", "Cy": "−100"}


def test_ticks_for_another_auction_are_not_trusted(client):
    match_id = start(client, liar_rule=True)
    response = post_hand(
        client, match_id, auction="1S P 2S P P", bids_shown="1H P P", partner="Ann",
        tricks="8", not_met="0",
    )  # fmt: skip
    refused(client, match_id, [], response, SHOW_LIST)


def test_no_structured_bid_of_the_pair_needs_no_check(client):
    match_id = start(client, liar_rule=True)
    # Ann passes then bids 2C (unstructured); Cy's 1S is the Declarer's.
    response = post_hand(
        client, match_id, auction="P P 1S 2C P P", partner="Bob", tricks="6"
    )  # fmt: skip
    assert response.status_code == 302
    assert stored_hands(client, match_id)[0]["contract"] == "2C"


def test_three_passes_in_the_auction_are_a_passed_out_hand(client):
    match_id = start(client, liar_rule=True)
    assert post_hand(client, match_id, auction="P P P").status_code == 302
    assert stored_hands(client, match_id) == [{"auction": ["P", "P", "P"], "passed_out": True}]


def test_liars_without_an_auction(client):
    match_id = start(client, liar_rule=True)
    post_hand(
        client, match_id, chooser="Ann", partner="Cy", level="3", strain="NT", doubling="XX",
        redoubled_by="Ann", tricks="7", liars="Ann",
    )  # fmt: skip
    assert stored_hands(client, match_id)[0]["liars"] == ["Ann"]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    # need-a-fourth.md worked example: 3NTXX, 7 tricks, Chooser lied.
    assert totals(page) == {"Ann": "−1200", "Bob": "0", "Cy": "−600"}
    (hand_id,) = hand_ids(client, match_id)
    page = client.get(f"/m/{match_id}/hand/{hand_id}").get_data(as_text=True)
    assert 'name="liars" value="Ann" checked' in page


def test_edit_auction_hand_ticks_the_liars_bid(client):
    match_id = start(client, liar_rule=True)
    post_hand(
        client, match_id, auction="1S P 2S P P", bids_shown="1S P 2S P P", chooser="Cy",
        partner="Ann", level="2", strain="S", tricks="6", not_met="2",
    )  # fmt: skip
    assert stored_hands(client, match_id)[0]["liars"] == ["Cy"]
    (hand_id,) = hand_ids(client, match_id)
    page = client.get(f"/m/{match_id}/hand/{hand_id}").get_data(as_text=True)
    assert 'value="1S P 2S P P"' in page
    assert re.findall(r'name="not_met" value="(\d+)"[^>]*?(checked)?>', page) == [
        ("0", ""),
        ("2", "checked"),
    ]
    # Saving again unchanged needs no extra step; untick the lie.
    response = post_hand(
        client, match_id, hand_id, auction="1S P 2S P P", bids_shown="1S P 2S P P",
        chooser="Cy", partner="Ann", level="2", strain="S", tricks="6",
    )  # fmt: skip
    assert response.status_code == 302
    assert "liars" not in stored_hands(client, match_id)[0]
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    assert totals(page) == {"Ann": "−100", "Bob": "0", "Cy": "−200"}


# --- pure helpers ------------------------------------------------------------------------


def test_calls_are_read_ignoring_case_and_spacing():
    assert calls_from_text(" 1c pass\t1nt, p  P ") == ["1C", "P", "1NT", "P", "P"]
    assert calls_from_text("") == []


def test_requirement_table_covers_every_structured_bid():
    table = requirement_table()
    assert sorted(table) == sorted(
        ["1C", "1D", "1H", "1S", "1NT", "2NT", "2C", "2D", "2H", "2S", "3C", "3D", "3H", "3S"]
    )
    assert table["2NT"] == {"kind": "first call", "requirement": "at least 20 HCP"}
    assert table["3D"] == {"kind": "double raise", "requirement": "at least 4 diamonds and 10 HCP"}


# --- the rules page --------------------------------------------------------------------


def test_rules_page_lists_every_decision(client):
    page = client.get("/rules/need-a-fourth").get_data(as_text=True)
    assert page.count('class="decision"') == 7
    for words in [
        "all three pass at their first call scores nothing but still counts",
        "does not matter (pass, 1♠, pass, 2♠: the 2♠ is structured)",
        "Bidding your own suit again at two or three is not a raise",
        "2NT as a player's first call is structured",
        "three passes must be recorded as passed out",
        "the Liar column even when the honest partner redoubled",
        "without regard to capitals or extra spaces",
    ]:
        assert words in page, words
