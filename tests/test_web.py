"""The table app's shared routes: matches, hands, import/export, undo, refusals.

Variant-specific hand forms and sheets have their own test_web_<variant>.py.
"""

import json
import re
from pathlib import Path

import pytest

from scorekeeper.app import create_app
from scorekeeper.changelog import played_on
from scorekeeper.db import connect, load_match
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.matchfile import loads
from scorekeeper.report import score_document
from tests.webtools import Actions, checked, field_errors, items, visible_text


def day_started(app, match_id: str) -> str:
    """The day a match counts for (the evening rule), from the moment it was
    stored as started: the clock asked after the request would name the next day
    when 06:00 came between the two."""
    db = connect(app.config["DATABASE"])
    try:
        return played_on(load_match(db, match_id).created).isoformat()
    finally:
        db.close()


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# A typical Top Game hand: Ann's 4D (bid 4 + 3 tops in dummy) with 11 tricks.
TOP_HAND = {"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "D", "tricks": "11"}


def links_to(page: str, url: str) -> bool:
    """Whether the page has a link to exactly `url`."""
    return f'href="{url}"' in page


# --- starting a match -------------------------------------------------------


def test_index_lists_matches_newest_first(actions):
    first = actions.start(title="Friday")
    second = actions.start(title="Saturday")
    page = actions.page("/")
    shown = visible_text(page)
    assert shown.index("Saturday") < shown.index("Friday")
    assert links_to(page, f"/m/{second}") and links_to(page, f"/m/{first}")


def test_new_match_page_offers_every_variant_with_a_description(actions):
    page = actions.page("/new")
    shown = visible_text(page)
    for cls in VARIANTS.values():
        assert f'value="{cls.id}"' in page
        assert cls.summary in shown


def test_new_match_stores_players_options_and_stake(app, actions):
    match_id = actions.start(
        options={"hands_per_half": "3"},
        title="Evening",
        stake_amount="0.50",
        stake_per="1",
        stake_currency="EUR",
    )
    assert actions.document(match_id) == {
        "format": "scorekeeper-match/1",
        "variant": "top-game",
        "title": "Evening",
        "played": day_started(app, match_id),  # the evening it was started on
        "players": ["Ann", "Bob", "Cy"],
        "options": {"hands_per_half": 3},
        "stake": {"amount": "0.50", "per": 1, "currency": "EUR"},
        "hands": [],
    }


@pytest.mark.parametrize(
    "data, message",
    [
        pytest.param(
            {"player1": "Ann", "player2": "Bob", "player3": "Cy"},
            "Choose the game you are playing.",
            id="variant-required",
        ),
        pytest.param(
            {"variant": "top-game", "player1": "Ann", "player2": "Bob"},
            "The Top Game needs 3 players: fill in Player 3.",
            id="player-count",
        ),
        pytest.param(
            {"variant": "top-game", "player1": "Ann", "player2": "ANN", "player3": "Cy"},
            "ANN is already Player 1: give each player a different name (capitals do not count).",
            id="names-unique",
        ),
        pytest.param(
            {
                "variant": "top-game",
                "player1": "Ann",
                "player2": "Bob",
                "player3": "Cy",
                "opt_hands_per_half": "0",
            },
            "0 is not allowed; give a whole number 1–30",
            id="option-range",
        ),
        pytest.param(
            {
                "variant": "need-a-fourth",
                "player1": "Ann",
                "player2": "Bob",
                "player3": "Cy",
                "opt_hands": "10",
            },
            "10 is not a multiple of 3",
            id="need-a-fourth-hands-multiple-of-3",
        ),
        pytest.param(
            {
                "variant": "top-game",
                "player1": "Ann",
                "player2": "Bob",
                "player3": "Cy",
                "stake_amount": "lots",
            },
            "'lots' is not an amount: write it like 0.50 or 0,50",
            id="stake-amount",
        ),
        pytest.param(
            {
                "variant": "top-game",
                "player1": "Ann",
                "player2": "Bob",
                "player3": "Cy",
                "stake_amount": "1",
                "stake_per": "0",
            },
            "0 is not a positive whole number of points",
            id="stake-per",
        ),
    ],
)
def test_new_match_form_errors_store_nothing(actions, client, data, message):
    response = client.post("/new", data=data)
    assert response.status_code == 200
    assert message in visible_text(response)
    home = actions.text("/")
    assert "Resume" in home and "No matches on this phone yet." in home


@pytest.mark.parametrize(
    "variant, typed, said",
    [
        pytest.param(
            "need-a-fourth",
            {"opt_hands": "7"},
            "Hands in the match (a multiple of 3): 7 is not a multiple of 3",
            id="multiple-of-3",
        ),
        pytest.param(
            "top-game",
            {"opt_hands_per_half": "0"},
            "Counted hands in each half of the match: 0 is not allowed; give a whole number 1–30",
            id="range",
        ),
    ],
)
def test_new_match_problems_name_an_option_by_its_label_not_its_key(client, variant, typed, said):
    data = {"variant": variant, "player1": "Ann", "player2": "Bob", "player3": "Cy", **typed}
    response = client.post("/new", data=data)
    assert items(response, "error-summary") == [said]


def test_csrf_is_required_on_every_post(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db")})
    client = app.test_client()
    response = client.post(
        "/new", data={"variant": "top-game", "player1": "Ann", "player2": "Bob", "player3": "Cy"}
    )
    assert response.status_code == 400
    assert "No matches on this phone yet." in Actions(client).text("/")


# --- recording hands ----------------------------------------------------------


def test_hand_page_shows_what_the_rules_derive(actions):
    match_id = actions.start()
    shown = actions.text(f"/m/{match_id}/hand/new")
    assert "Ann deals · half 1, hand 1 of 6." in shown
    assert "Bidding: Ann → Bob → Cy." in shown


def test_typical_top_game_hand_is_scored_on_the_sheet(actions):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    sheet = actions.text(f"/m/{match_id}")
    assert "4 · 3 · 4♦" in sheet
    assert "4D made with 1 overtrick: 4 + 1 = 5 from each opponent" in sheet
    assert actions.hands(match_id) == [
        {"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}
    ]


@pytest.mark.parametrize(
    "fields, message",
    [
        pytest.param({"tricks": "14"}, "14 is out of range; allowed 0–13", id="tricks"),
        pytest.param({"tricks": ""}, "choose the number of tricks won", id="tricks-missing"),
        pytest.param({"declarer": ""}, "choose the declarer", id="declarer-missing"),
        pytest.param(
            {"doubling": "X"},
            "missing; give the opening leader, one of Bob, Cy",
            id="doubler-missing",
        ),
        pytest.param(
            {"doubling": "X", "doubler": "Ann"},
            "'Ann' is not the opening leader, one of Bob, Cy",
            id="doubler-opponent",
        ),
        pytest.param(
            {"bid": "9", "dummy_tops": "5", "doubling": "X", "doubler": "Bob"},
            "pn 14 is above 10: the contract cannot be doubled",
            id="no-double-above-10",
        ),
        pytest.param(
            {"declarer_tops": "10"},
            "declarer 10 + dummy 3 tops is more than the 12 in the deck",
            id="tops",
        ),
        pytest.param(
            {"dummy_longest": "X9"},
            "'X9' is not a suit letter and length 4–13, e.g. D5",
            id="longest",
        ),
    ],
)
def test_bad_hand_shows_the_field_error_and_stores_nothing(actions, fields, message):
    match_id = actions.start()
    response = actions.post_hand(match_id, TOP_HAND, **fields)
    assert response.status_code == 200
    assert message in field_errors(response)
    assert "Not saved." in visible_text(response)
    assert actions.hands(match_id) == []


def test_passed_out_is_one_tap(actions):
    match_id = actions.start()
    actions.save_hand(match_id, quick="passed_out")
    assert actions.hands(match_id) == [{"passed_out": True}]


def test_unknown_quick_action_is_refused(actions):
    match_id = actions.start()
    assert actions.post_hand(match_id, quick="nonsense").status_code == 400
    assert actions.hands(match_id) == []


def test_misinformation_hand_is_not_counted_and_same_dealer_redeals(actions):
    match_id = actions.start()
    actions.save_hand(match_id, declarer="Bob", informer="Cy")
    assert actions.hands(match_id) == [{"declarer": "Bob", "misinformation": "Cy"}]
    assert "Ann deals" in actions.text(f"/m/{match_id}/hand/new")


# --- editing, deleting, undo ---------------------------------------------------


def test_edit_shows_old_values_and_replays_everything_after(actions):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    actions.save_hand(match_id, TOP_HAND, declarer="Bob", tricks="10")
    first = actions.hand_ids(match_id)[0]
    assert checked(actions.page(f"/m/{match_id}/hand/{first}"), "tricks") == ["11"]
    actions.save_hand(match_id, TOP_HAND, hand=first, tricks="8")
    doc = actions.document(match_id)
    assert doc["hands"][0]["tricks"] == 8
    scored = score_document(loads(json.dumps(doc)))
    assert scored["totals"] == {"Ann": -4 - 4, "Bob": 2 + 8, "Cy": 2 - 4}


# Hand 2's auction starts with Bob, who deals it only because hand 1 counted.
AUCTION_DEPENDS_ON_HAND_1 = {
    "format": "scorekeeper-match/1",
    "variant": "top-game",
    "players": ["Ann", "Bob", "Cy"],
    "hands": [
        {"passed_out": True},
        {
            "bids": [2, None, None],
            "declarer": "Bob",
            "bid": 2,
            "dummy_tops": 4,
            "contract": "2NT",
            "tricks": 8,
        },
    ],
}
# Entry 2 of the file; once entry 1 is a redeal, it is hand 1 dealt again, and the
# page names it so (the command line names entry 2).
BREAKS_HAND_2 = "hand 1: declarer: Bob is not the highest bidder Ann"


def test_edit_that_breaks_a_later_hand_is_refused_naming_it(actions):
    match_id = actions.imported(AUCTION_DEPENDS_ON_HAND_1)
    before = actions.document(match_id)
    first = actions.hand_ids(match_id)[0]
    # Wrong dummy information is not counted: Ann would deal hand 1 again.
    response = actions.post_hand(match_id, hand=first, declarer="Ann", informer="Bob")
    assert response.status_code == 200
    assert BREAKS_HAND_2 in visible_text(response)
    assert actions.document(match_id) == before


def test_delete_that_breaks_a_later_hand_is_refused_naming_it(actions, client):
    match_id = actions.imported(AUCTION_DEPENDS_ON_HAND_1)
    before = actions.document(match_id)
    first = actions.hand_ids(match_id)[0]
    shown = actions.followed(client.post(f"/m/{match_id}/hand/{first}/delete"))
    assert (
        "Hand 1 was not deleted: without it, hand 1: declarer: Bob is not the highest "
        "bidder Ann" in shown
    )
    assert actions.document(match_id) == before


def test_delete_then_undo_restores_the_hand(actions, client):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    actions.save_hand(match_id, TOP_HAND, declarer="Bob", tricks="10")
    first = actions.hand_ids(match_id)[0]
    shown = actions.followed(client.post(f"/m/{match_id}/hand/{first}/delete"))
    assert "Hand 1 deleted." in shown and "Undo" in shown
    assert [h["declarer"] for h in actions.hands(match_id)] == ["Bob"]
    client.post(f"/m/{match_id}/undo")
    assert [h["declarer"] for h in actions.hands(match_id)] == ["Ann", "Bob"]


def test_end_marker_finishes_the_match_and_refuses_new_hands(actions, client):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    shown = actions.followed(client.post(f"/m/{match_id}/end"))
    assert "Match finished" in shown and "Winner: Ann" in shown
    assert actions.hands(match_id)[-1] == {"end": True}
    refused = actions.followed(client.get(f"/m/{match_id}/hand/new"))
    assert "The match is finished: no hand may follow." in refused


def test_unknown_match_and_hand_are_404(actions, client):
    assert client.get("/m/99").status_code == 404
    match_id = actions.start()
    assert client.get(f"/m/{match_id}/hand/12345").status_code == 404
    assert client.post(f"/m/{match_id}/hand/12345/delete").status_code == 404


# --- import, export ------------------------------------------------------------


def test_export_matches_the_command_line_scorer(app, actions):
    text = (EXAMPLES / "top-game.json").read_text()
    match_id = actions.imported(text)
    doc = actions.document(match_id)
    assert doc == {**json.loads(text), "played": day_started(app, match_id)}  # the file names none
    totals = score_document(loads(text))["totals"]
    shown = [f"+{t}" if t > 0 else (f"−{-t}" if t < 0 else "0") for t in totals.values()]
    # The totals table: a heading, a row of players, a row of their totals.
    assert f"Totals {' '.join(totals)} {' '.join(shown)}" in actions.text(f"/m/{match_id}")


def test_import_validates_exactly_like_the_cli(actions):
    bad = {
        "format": "scorekeeper-match/1",
        "variant": "top-game",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [{"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "3D", "tricks": 9}],
    }
    shown = actions.followed(actions.import_file(bad))
    assert "hand 1: contract: pn 7 in a suit gives level 4, not 3" in shown
    assert "No matches on this phone yet." in shown


@pytest.mark.parametrize(
    "payload, message",
    [
        pytest.param(
            b"{not json",
            "file: not valid JSON: Expecting property name enclosed in "
            "double quotes at line 1 column 2",
            id="bad-json",
        ),
        pytest.param(b"\xff\xfe\x00", "The file is not a UTF-8 text file", id="not-utf8"),
        pytest.param(b"[]", "file: the match file must be a JSON object", id="not-an-object"),
    ],
)
def test_import_of_a_bad_file_says_why(actions, payload, message):
    shown = actions.followed(actions.import_file(payload))
    assert message in shown
    assert "No matches on this phone yet." in shown


def test_csv_hand_log(actions):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    lines = actions.page(f"/m/{match_id}/hands.csv").splitlines()
    assert lines[0] == "hand,dealer,counted,declarer,contract,tricks,result,Ann,Bob,Cy,explanation"
    assert lines[1].startswith("1,Ann,yes,Ann,4D,11,made +1,")
    assert lines[1].endswith(
        ',10,-5,-5,"pn = 4 + 3 = 7 → 4D needs 10 tricks | 4D made with 1 '
        'overtrick: 4 + 1 = 5 from each opponent | Ann +10, each opponent -5"'
    )
    assert lines[2] == "total,,,,,,,10,-5,-5,"


# --- settings ------------------------------------------------------------------


def test_stake_can_be_added_after_the_match_started(actions, client):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    response = client.post(
        f"/m/{match_id}/settings",
        data={
            "title": "Late stake",
            "stake_amount": "0.5",
            "stake_per": "1",
            "stake_currency": "EUR",
        },
    )
    assert response.status_code == 302
    assert actions.document(match_id)["stake"] == {"amount": "0.50", "per": 1, "currency": "EUR"}
    assert "Bob pays Ann 2.50 EUR" in actions.text(f"/m/{match_id}")


def test_bad_stake_in_settings_is_refused(actions, client):
    match_id = actions.start()
    response = client.post(
        f"/m/{match_id}/settings",
        data={"title": "", "stake_amount": "-1", "stake_per": "", "stake_currency": ""},
    )
    assert response.status_code == 200
    assert "'-1' must be zero or more" in visible_text(response)
    assert "stake" not in actions.document(match_id)


def test_delete_match_leaves_the_list_and_can_be_brought_back(actions, client):
    match_id = actions.start(title="Tuesday")
    actions.save_hand(match_id, TOP_HAND)
    assert "New hand · Bob deals" in actions.text(f"/m/{match_id}")
    client.post(f"/m/{match_id}/delete")
    home = actions.page("/")
    assert "Deleted matches (1)" in visible_text(home)
    assert not links_to(home, f"/m/{match_id}")
    shown = actions.text(f"/m/{match_id}")
    assert "This match was deleted." in shown and "New hand" not in shown
    refused = actions.followed(actions.post_hand(match_id, TOP_HAND))
    assert "This match was deleted; bring it back to enter hands." in refused
    client.post(f"/m/{match_id}/restore")
    assert links_to(actions.page("/"), f"/m/{match_id}")
    assert len(actions.hands(match_id)) == 1


# --- offline: nothing leaves the machine ----------------------------------------


def test_pages_load_no_external_resource(actions):
    match_id = actions.start()
    actions.save_hand(match_id, TOP_HAND)
    pages = [
        "/",
        "/new",
        f"/m/{match_id}",
        f"/m/{match_id}/hand/new",
        f"/m/{match_id}/settings",
        "/rules/",
        *[f"/rules/{v}" for v in VARIANTS],
    ]
    for url in pages:
        page = actions.page(url)
        for ref in re.findall(r'(?:src|href|action)="([^"]*)"', page):
            assert not re.match(r"^(https?:)?//", ref), f"{url} loads {ref}"
        assert "@import" not in page and "url(http" not in page


def test_static_assets_are_local(client):
    for name in ("app.css", "app.js", "icon.svg"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        text = response.text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "http://" not in text and "https://" not in text


def test_the_top_game_preview_takes_its_playnumbers_from_the_rules(actions):
    from scorekeeper.games.top_game.rules import level_for

    match_id = actions.start()
    page = actions.page(f"/m/{match_id}/hand/new")
    facts = json.loads(re.search(r'id="rules-facts">(.*?)</script>', page, re.S).group(1))
    table = facts["playnumbers"]
    assert sorted(int(pn) for pn in table) == list(range(2, 26))
    assert table["4"] == {"passed_out": True}
    assert table["5"] == {"passed_out": False, "nt_level": 1, "suit_level": 2, "doublable": True}
    assert table["10"]["doublable"] is True and table["11"]["doublable"] is False
    assert all(table[str(pn)]["suit_level"] == level_for(pn, "S") for pn in range(5, 26))
