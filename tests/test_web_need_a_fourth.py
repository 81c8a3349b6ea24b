"""Need a Fourth? in the browser: the hand form, the running-total sheet, the rules page.

Posts are made exactly as the page's buttons send them (radio values, the
auction as text, `not_met` checkboxes holding the index of a structured bid).
Every refused post is checked against the match file: nothing stored.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorekeeper.games.need_a_fourth.entry import SHOW_LIST, calls_from_text
from tests.webtools import Element, by_id, checked, offered, parse, texts, visible_text

PLAYERS = ["Ann", "Bob", "Cy"]
LIAR_RULE = {"liar_rule": "y"}


def sheet_row(page, number: int) -> Element:
    return by_id(page, f"sheet-row-{number}")


def notes(page, number: int) -> list[str]:
    """Under a hand's number on the sheet: its contract, then its result."""
    [cell] = sheet_row(page, number).find_all("td", "no")
    return [note.text() for note in cell.find_all("span", "note")]


def cells(page, number: int) -> dict[str, list[str]]:
    """Player -> the cell text (score, then role and running total) of one sheet row."""
    cells = sheet_row(page, number).find_all("td")
    return {c.attrs["data-player"]: c.text().split() for c in cells if "data-player" in c.attrs}


def totals(page) -> dict[str, str]:
    [section] = parse(page).find_all("section", "totals")
    return {td.attrs["data-player"]: td.text() for td in section.find_all("td")}


def refused(actions, match_id: str, *messages: str, hand: int | None = None, **form) -> str:
    """The form came back (200) showing every message, and nothing was stored; its HTML."""
    response = actions.refuse_hand(match_id, form, hand)
    text = visible_text(response)
    for message in messages:
        assert message in text, message
    return response.get_data(as_text=True)


TYPICAL = {"chooser": "Ann", "partner": "Bob", "level": "4", "strain": "S", "tricks": "10"}


# --- the page before anything is typed ------------------------------------------


def test_new_hand_page_shows_dealer_order_and_hand_count(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    page = actions.page(f"/m/{match_id}/hand/new")
    text = visible_text(page)
    assert "Ann deals · hand 1 of 9." in text
    assert "Bidding: Ann → Bob → Cy." in text
    assert by_id(page, "quick-passed_out").text() == "All passed"
    # Without the liar rule there is no auction to enter.
    assert 'name="auction"' not in page and 'id="liar-box"' not in page
    assert "Structured bids" not in text
    assert offered(page, "level") == [str(level) for level in range(1, 8)]
    assert offered(page, "tricks") == [str(tricks) for tricks in range(14)]


def test_second_hand_is_dealt_by_the_next_player(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL)
    text = actions.text(f"/m/{match_id}/hand/new")
    assert "Bob deals · hand 2 of 9." in text
    assert "Bidding: Bob → Cy → Ann." in text


def test_declarer_is_named_once_chooser_and_partner_are_known(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    refused(
        actions, match_id, "choose the number of tricks won", "Cy is the Declarer",
        chooser="Ann", partner="Bob", level="4", strain="S",
    )  # fmt: skip


# --- typical hands ----------------------------------------------------------------


def test_typical_hand_is_stored_and_scored(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL)
    assert actions.hands(match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "tricks": 10}
    ]
    page = actions.page(f"/m/{match_id}")
    assert cells(page, 1) == {
        "Ann": ["+500", "C", "+500"],
        "Bob": ["+500", "P", "+500"],
        "Cy": ["·", "D", "0"],
    }
    assert notes(page, 1) == ["4♠", "="]
    assert totals(page) == {"Ann": "+500", "Bob": "+500", "Cy": "0"}


def test_running_totals_add_up_hand_by_hand(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL)  # Ann +500, Bob +500
    # Bob deals; Cy bids 4H with Ann and they take 9: Cy -100, Ann -50.
    actions.save_hand(match_id, chooser="Cy", partner="Ann", level="4", strain="H", tricks="9")
    page = actions.page(f"/m/{match_id}")
    assert cells(page, 2) == {
        "Ann": ["−50", "P", "+450"],
        "Bob": ["·", "D", "+500"],
        "Cy": ["−100", "C", "−100"],
    }
    assert notes(page, 2) == ["4♥", "−1"]
    assert totals(page) == {"Ann": "+450", "Bob": "+500", "Cy": "−100"}


def test_doubled_partial_made_with_an_overtrick(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(
        match_id, chooser="Ann", partner="Bob", level="2", strain="H", doubling="X", tricks="9"
    )
    assert actions.hands(match_id)[0]["contract"] == "2HX"
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "+800", "Bob": "+700", "Cy": "0"}


def test_partner_who_redoubles_is_scored_as_chooser(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(
        match_id, chooser="Ann", partner="Bob", level="4", strain="S", doubling="XX",
        redoubled_by="Bob", tricks="10",
    )  # fmt: skip
    assert actions.hands(match_id) == [
        {
            "chooser": "Ann",
            "partner": "Bob",
            "contract": "4SXX",
            "redoubled_by": "Bob",
            "tricks": 10,
        }
    ]
    page = actions.page(f"/m/{match_id}")
    # Bob is Chooser for scoring: 500 + 600; Ann the Partner: 500 + 400.
    assert cells(page, 1)["Bob"] == ["+1100", "C", "+1100"]
    assert cells(page, 1)["Ann"] == ["+900", "P", "+900"]


def test_redoubler_is_dropped_unless_redoubled(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL | {"doubling": "X", "redoubled_by": "Bob"})
    assert actions.hands(match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4SX", "tricks": 10}
    ]


def test_all_passed_is_one_post(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, quick="passed_out")
    assert actions.hands(match_id) == [{"passed_out": True}]
    page = actions.page(f"/m/{match_id}")
    assert [n.text() for n in sheet_row(page, 1).find_all("span", "contract")] == ["passed"]
    assert notes(page, 1) == ["passed"]
    text = visible_text(page)
    assert "New hand · Bob deals" in text
    assert "1 of 9 hands." in text


def test_unknown_quick_action_is_refused(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    assert actions.post_hand(match_id, quick="redeal").status_code == 400
    assert actions.hands(match_id) == []


def test_match_finishes_after_its_hands(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options={"hands": "3"})
    actions.save_hand(match_id, TYPICAL)
    actions.save_hand(match_id, quick="passed_out")
    actions.save_hand(match_id, chooser="Cy", partner="Bob", level="3", strain="NT", tricks="9")
    page = actions.page(f"/m/{match_id}")
    text = visible_text(page)
    assert "Match finished" in text and "Winner: Bob" in text
    assert totals(page) == {"Ann": "+500", "Bob": "+1000", "Cy": "+500"}
    assert "3 of 3 hands." in text
    assert actions.client.get(f"/m/{match_id}/hand/new").status_code == 302


# --- editing ------------------------------------------------------------------------


def test_edit_shows_the_old_values_and_changes_the_sheet(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(
        match_id, chooser="Ann", partner="Cy", level="3", strain="NT", doubling="XX",
        redoubled_by="Ann", tricks="8",
    )  # fmt: skip
    (hand_id,) = actions.hand_ids(match_id)
    page = actions.page(f"/m/{match_id}/hand/{hand_id}")
    assert "Edit hand 1" in visible_text(page)
    for name, value in [
        ("chooser", "Ann"), ("partner", "Cy"), ("level", "3"), ("strain", "NT"),
        ("doubling", "XX"), ("redoubled_by", "Ann"), ("tricks", "8"),
    ]:  # fmt: skip
        assert checked(page, name) == [value], name
    assert "Bob is the Declarer" in visible_text(page)
    actions.save_hand(match_id, TYPICAL, hand_id)
    assert actions.hands(match_id) == [
        {"chooser": "Ann", "partner": "Bob", "contract": "4S", "tricks": 10}
    ]
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "+500", "Bob": "+500", "Cy": "0"}


def test_bad_edit_is_refused_and_the_old_hand_kept(actions):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL)
    (hand_id,) = actions.hand_ids(match_id)
    message = "'Ann' is not one of the other two players"
    refused(actions, match_id, message, hand=hand_id, **TYPICAL | {"partner": "Ann"})


def test_delete_that_would_break_a_later_hand_is_refused_naming_it(actions):
    # In this game an edit keeps every later hand valid (the deal depends only on
    # how many hands came before); deleting a hand moves the deal, so a later
    # auction no longer fits its Chooser.
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    actions.save_hand(match_id, quick="passed_out")
    # Bob deals hand 2 and bids 1S; Ann and Cy pass.
    actions.save_hand(
        match_id, auction="1S P P", bids_shown="1S P P", chooser="Bob", partner="Cy",
        level="1", strain="S", tricks="7",
    )  # fmt: skip
    before = actions.hands(match_id)
    first, _ = actions.hand_ids(match_id)
    response = actions.client.post(f"/m/{match_id}/hand/{first}/delete", follow_redirects=True)
    assert (
        "Hand 1 was not deleted: without it, hand 1: chooser: Bob is not the last bidder"
        in visible_text(response)
    )
    assert actions.hands(match_id) == before


# --- form errors: each one shown, nothing stored --------------------------------------

ERRORS = [
    pytest.param(
        {"partner": "Bob", "level": "4", "strain": "S", "tricks": "10"},
        "choose the Chooser",
        id="no-chooser",
    ),
    pytest.param(
        TYPICAL | {"partner": "Ann"},
        "'Ann' is not one of the other two players: Bob, Cy",
        id="partner-is-chooser",
    ),
    pytest.param(
        {"chooser": "Ann", "level": "4", "strain": "S", "tricks": "10"},
        "choose the Partner",
        id="no-partner",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "level": "4", "tricks": "10"},
        "choose a strain",
        id="level-without-strain",
    ),
    pytest.param(
        {"chooser": "Ann", "partner": "Bob", "level": "4", "strain": "S"},
        "choose the number of tricks won",
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
        "'Cy' is not the Chooser or the Partner: Ann, Bob",
        id="declarer-redoubles",
    ),
    pytest.param(
        TYPICAL | {"liars": "Ann"},
        "liars: only allowed with the liar rule (options.liar_rule: true)",
        id="liars-without-the-rule",
    ),
]


@pytest.mark.parametrize("form, message", ERRORS)
def test_form_error_is_shown_and_nothing_stored(actions, form, message):
    match_id = actions.start("need-a-fourth", PLAYERS)
    actions.save_hand(match_id, TYPICAL)
    refused(actions, match_id, message, "Hand 2", **form)


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
        "the bid part 2S is not the auction's last bid 1S",
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
        "'Bob' is not the Chooser or the Partner: Ann, Cy",
        id="declarer-as-liar",
    ),  # fmt: skip
    pytest.param(
        {"auction": "1S " + "P " * 250, "partner": "Cy", "tricks": "7"},
        "Field cannot be longer than 500 characters.",
        id="auction-too-long",
    ),
]


@pytest.mark.parametrize("form, message", LIAR_ERRORS)
def test_liar_rule_error_is_shown_and_nothing_stored(actions, form, message):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    refused(actions, match_id, message, **form)
    assert actions.hands(match_id) == []


def test_liar_page_offers_the_auction_with_the_rules_ranks(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    page = actions.page(f"/m/{match_id}/hand/new")
    assert by_id(page, "auction").attrs.get("name") == "auction"
    grid = by_id(page, "bid-grid")
    buttons = grid.find_all("button")
    # The server draws every bid with the rank the rules give it (Bid.rank): the
    # script only compares them, it holds no strain order of its own.
    assert len(buttons) == 35
    rank = {b.attrs["data-call"]: b.attrs["data-rank"] for b in buttons}
    assert [rank[c] for c in ("1C", "1D", "1NT", "2C", "3S", "7NT")] == [
        "0", "1", "4", "5", "13", "34",
    ]  # fmt: skip
    assert [b.text() for b in buttons[:5]] == ["1♣", "1♦", "1♥", "1♠", "1NT"]
    facts = json.loads(by_id(page, "rules-facts").text())  # what the page's script reads
    assert facts["bidders"] == PLAYERS and facts["liarRule"] is True
    assert (facts["passesToEnd"], facts["passesWithoutBid"]) == (2, 3)
    assert facts["needed"]["1"] == 7 and facts["needed"]["7"] == 13
    assert "requirements" not in facts


def structured_preview(actions, match_id: str, **fields: str) -> tuple[list[str], dict]:
    """The preview's answer for a half-entered hand: the list's lines, and `derived`."""
    response = actions.client.get(f"/m/{match_id}/hand/preview", query_string=fields)
    assert response.status_code == 200
    lines = [  # text() joins the label's elements with spaces
        " ".join(label.text().split()).replace(" :", ":")
        for label in parse(response.json["live"]).find_all("label")
    ]
    return lines or [visible_text(response.json["live"])], response.json["derived"]


@pytest.mark.parametrize(
    "fields, listed",
    [
        pytest.param(  # Ann 1H, Bob pass, Cy 2H: Cy is Chooser and picks Ann.
            {"auction": "1H P 2H P P", "partner": "Ann"},
            [
                "Ann 1♥ (first call): at least 5 hearts and 10 HCP — not met",
                "Cy 2♥ (single raise): at least 3 hearts and 5 HCP — not met",
            ],
            id="opening and single raise",
        ),
        pytest.param(  # Ann passed before Bob's 1S: her 2S is still a raise.
            {"auction": "P 1S P 2S P P"},
            [
                "Bob 1♠ (first call): at least 5 spades and 10 HCP — not met",
                "Ann 2♠ (single raise): at least 3 spades and 5 HCP — not met",
            ],
            id="a pass before the one-bid does not matter",
        ),
        pytest.param(  # Cy's 2NT is a first call; Ann (the Declarer) is left out.
            {"auction": "1NT P 2NT P P", "partner": "Bob"},
            ["Cy 2NT (first call): at least 20 HCP — not met"],
            id="only Chooser and Partner",
        ),
        pytest.param(  # Ann bids her own clubs again: not a raise, not structured.
            {"auction": "1C P 1H 2C P P", "partner": "Bob"},
            ["Ann 1♣ (first call): at least 4 clubs and 10 HCP — not met"],
            id="own suit again",
        ),
        pytest.param(
            {"auction": "2S P P", "partner": "Bob"},
            [
                "No structured bid by the Chooser or the Partner in this auction: "
                "nobody can have lied."
            ],
            id="none",
        ),
        pytest.param(
            {"auction": "1H P"}, ["Finish the auction to see the structured bids."], id="unfinished"
        ),
    ],
)
def test_preview_lists_the_structured_bids_of_the_auction(actions, fields, listed):
    """The page's script asks the preview as the auction is tapped: the server
    says which bids are structured and what they promise (issue 18)."""
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    lines, derived = structured_preview(actions, match_id, **fields)
    assert lines == listed
    complete = not fields["auction"].endswith("1H P")
    assert derived["shown"] == (fields["auction"] if complete else None)


@pytest.mark.parametrize("auction", ["1S XX P", "8S P P", "1S 1C P P", "P P P", "🂡" * 600])
def test_preview_of_a_wrong_auction_lists_nothing(actions, auction):
    """A call that is not allowed, or an auction over (or passed out): no bid is
    listed and nothing breaks; the Save says what is wrong."""
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    _, derived = structured_preview(actions, match_id, auction=auction, not_met="0")
    assert derived["bids"] == [] and derived["shown"] is None
    assert derived["complete"] is (auction == "P P P")


def test_preview_keeps_the_ticks_sent_with_it(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    _, derived = structured_preview(
        actions, match_id, auction="1H P 2H P P", partner="Ann", not_met="2"
    )
    assert [(b["index"], b["bidder"], b["checked"]) for b in derived["bids"]] == [
        (0, "Ann", False),
        (2, "Cy", True),
    ]


def test_the_form_script_holds_no_bidding_rule():
    """The auction script shows what the server says: no strain order or bid
    ranking, no structured-bid reading, no requirement, no tricks needed."""
    script = (
        Path(__file__).resolve().parent.parent
        / "scorekeeper/games/need_a_fourth/static/need_a_fourth.js"
    ).read_text()
    for rule in (
        '"NT"]',  # a strain order table
        "indexOf(",  # a rank worked out from a position in it
        "[1-7]",  # a bid read by pattern
        "first call",
        "raise",
        "HCP",
        "requirement",
        "+ 6",
        ">= 2",
        ">= 3",
    ):
        assert rule not in script, rule


def test_auction_hand_as_the_buttons_post_it_records_a_lone_liar(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    # Ann 1S, Bob pass, Cy 2S, pass, pass: Cy is Chooser and picks Ann; 6 tricks.
    # The script fills chooser, level and strain and ticks Ann's 1S (call 0).
    actions.save_hand(
        match_id, auction="1S P 2S P P", bids_shown="1S P 2S P P", chooser="Cy",
        partner="Ann", level="2", strain="S", tricks="6", not_met="0",
    )  # fmt: skip
    assert actions.hands(match_id) == [
        {
            "auction": ["1S", "P", "2S", "P", "P"],
            "chooser": "Cy",
            "partner": "Ann",
            "contract": "2S",
            "tricks": 6,
            "liars": ["Ann"],
        }
    ]
    page = actions.page(f"/m/{match_id}")
    assert cells(page, 1) == {
        "Ann": ["−300", "P", "L", "−300"],
        "Bob": ["·", "D", "0"],
        "Cy": ["−100", "C", "−100"],
    }
    assert "only Ann lied: Ann pays the Liar column, Cy the Partner column" in visible_text(page)


def test_typed_auction_without_script_derives_chooser_and_contract(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    # made: the liar check cannot change the score
    actions.save_hand(match_id, auction=" 1s  pass 2s,p p", partner="Ann", tricks="8")
    assert actions.hands(match_id) == [
        {"auction": ["1S", "P", "2S", "P", "P"], "partner": "Ann", "contract": "2S", "tricks": 8}
    ]
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "+100", "Bob": "0", "Cy": "+100"}


def test_failed_contract_without_script_shows_the_structured_bids_first(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    # Ann 1C, Bob 1H, Cy pass, Ann 2H (a raise), all pass. Ann picks Cy; 6 tricks.
    typed = {"auction": "1C 1H P 2H P P", "partner": "Cy", "tricks": "6"}
    page = refused(actions, match_id, SHOW_LIST, **typed)
    text = visible_text(page)
    assert "Bob is the Declarer" in text  # Ann is Chooser by the auction
    assert offered(page, "not_met") == ["0", "3"]
    bids = texts(page, "naf-bid")  # the Declarer's 1H is not listed
    assert len(bids) == 2
    assert bids[0].startswith("Ann 1♣ (first call)") and "at least 4 clubs and 10 HCP" in bids[0]
    assert bids[1].startswith("Ann 2♥ (single raise)")
    assert "at least 3 hearts and 5 HCP" in bids[1]
    assert "Bob 1♥" not in text
    assert by_id(page, "bids_shown").attrs == {
        "type": "hidden",
        "name": "bids_shown",
        "id": "bids_shown",
        "value": "1C 1H P 2H P P",
    }
    # Second step: the list was on screen; Ann's 2H did not have three hearts.
    actions.save_hand(match_id, typed, bids_shown="1C 1H P 2H P P", not_met="3")
    assert actions.hands(match_id)[0]["liars"] == ["Ann"]
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "−300", "Bob": "0", "Cy": "−100"}


def test_ticks_for_another_auction_are_not_trusted(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    refused(
        actions, match_id, SHOW_LIST, auction="1S P 2S P P", bids_shown="1H P P",
        partner="Ann", tricks="8", not_met="0",
    )  # fmt: skip
    assert actions.hands(match_id) == []


def test_no_structured_bid_of_the_pair_needs_no_check(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    # Ann passes then bids 2C (unstructured); Cy's 1S is the Declarer's.
    actions.save_hand(match_id, auction="P P 1S 2C P P", partner="Bob", tricks="6")
    assert actions.hands(match_id)[0]["contract"] == "2C"


def test_three_passes_in_the_auction_are_a_passed_out_hand(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    actions.save_hand(match_id, auction="P P P")
    assert actions.hands(match_id) == [{"auction": ["P", "P", "P"], "passed_out": True}]


def test_liars_without_an_auction(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    actions.save_hand(
        match_id, chooser="Ann", partner="Cy", level="3", strain="NT", doubling="XX",
        redoubled_by="Ann", tricks="7", liars="Ann",
    )  # fmt: skip
    assert actions.hands(match_id)[0]["liars"] == ["Ann"]
    # need-a-fourth.md worked example: 3NTXX, 7 tricks, Chooser lied.
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "−1200", "Bob": "0", "Cy": "−600"}
    (hand_id,) = actions.hand_ids(match_id)
    assert checked(actions.page(f"/m/{match_id}/hand/{hand_id}"), "liars") == ["Ann"]


def test_edit_auction_hand_ticks_the_liars_bid(actions):
    match_id = actions.start("need-a-fourth", PLAYERS, options=LIAR_RULE)
    actions.save_hand(
        match_id, auction="1S P 2S P P", bids_shown="1S P 2S P P", chooser="Cy",
        partner="Ann", level="2", strain="S", tricks="6", not_met="2",
    )  # fmt: skip
    assert actions.hands(match_id)[0]["liars"] == ["Cy"]
    (hand_id,) = actions.hand_ids(match_id)
    page = actions.page(f"/m/{match_id}/hand/{hand_id}")
    assert by_id(page, "auction").attrs.get("value") == "1S P 2S P P"
    assert offered(page, "not_met") == ["0", "2"]
    assert checked(page, "not_met") == ["2"]
    # Saving again unchanged needs no extra step; untick the lie.
    actions.save_hand(
        match_id, hand=hand_id, auction="1S P 2S P P", bids_shown="1S P 2S P P",
        chooser="Cy", partner="Ann", level="2", strain="S", tricks="6",
    )  # fmt: skip
    assert "liars" not in actions.hands(match_id)[0]
    assert totals(actions.page(f"/m/{match_id}")) == {"Ann": "−100", "Bob": "0", "Cy": "−200"}


# --- pure helpers ------------------------------------------------------------------------


def test_calls_are_read_ignoring_case_and_spacing():
    assert calls_from_text(" 1c pass\t1nt, p  P ") == ["1C", "P", "1NT", "P", "P"]
    assert calls_from_text("") == []


# --- the rules page --------------------------------------------------------------------


def test_rules_page_lists_every_decision(actions):
    page = actions.page("/rules/need-a-fourth")
    assert len(texts(page, "decision")) == 8  # drawn from docs/variants/need-a-fourth.md
    text = visible_text(page)
    for words in [
        "all three pass at their first call is recorded as passed out",
        "does not matter (pass, 1♠, pass, 2♠: the 2♠ is structured)",
        "Bidding your own suit again at two or three is not a raise",
        "2NT as a player's first call is structured",
        "An auction of three passes must also be marked as passed out",
        "the Liar column even when the honest partner redoubled",
        "Only a player who made a structured bid in the recorded auction can be a liar",
        "without regard to capitals or spaces",
    ]:
        assert words in text, words
