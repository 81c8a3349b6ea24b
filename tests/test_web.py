"""The table app's shared routes: matches, hands, import/export, undo, refusals.

Variant-specific hand forms and sheets have their own test_web_<variant>.py.
"""

import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.matchfile import loads
from scorekeeper.report import score_document
from scorekeeper.variants import VARIANTS
from tests.webtools import errors

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def start(client, variant="top-game", players=("Ann", "Bob", "Cy"), **extra):
    data = {"variant": variant, **{f"player{i}": p for i, p in enumerate(players, 1)}, **extra}
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.text
    return re.search(r"/m/([\w-]{16})/", response.location).group(1)


def exported(client, match_id):
    response = client.get(f"/m/{match_id}/match.json")
    assert response.status_code == 200
    return json.loads(response.text)


def top_hand(client, match_id, follow_redirects=False, **fields):
    data = {"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "D", "tricks": "11"}
    data.update(fields)
    return client.post(f"/m/{match_id}/hand/new", data=data, follow_redirects=follow_redirects)


# --- starting a match -------------------------------------------------------


def test_index_lists_matches_newest_first(client):
    first = start(client, title="Friday")
    second = start(client, title="Saturday")
    page = client.get("/").text
    assert page.index("Saturday") < page.index("Friday")
    assert f'href="/m/{second}"' in page and f'href="/m/{first}"' in page


def test_new_match_page_offers_every_variant_with_a_description(client):
    page = client.get("/new").text
    for cls in VARIANTS.values():
        assert f'value="{cls.id}"' in page
        assert cls.summary.replace("'", "&#39;") in page


def test_new_match_stores_players_options_and_stake(client):
    match_id = start(
        client,
        title="Evening",
        opt_hands_per_half="3",
        stake_amount="0.50",
        stake_per="1",
        stake_currency="EUR",
    )
    assert exported(client, match_id) == {
        "format": "scorekeeper-match/1",
        "variant": "top-game",
        "title": "Evening",
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
            "top-game needs 3 players, not 2",
            id="player-count",
        ),
        pytest.param(
            {"variant": "top-game", "player1": "Ann", "player2": "ANN", "player3": "Cy"},
            "&#39;ANN&#39; appears twice (case does not count)",
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
            "&#39;lots&#39; is not a decimal string like &#34;0.50&#34;",
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
def test_new_match_form_errors_store_nothing(client, data, message):
    response = client.post("/new", data=data)
    assert response.status_code == 200
    assert message in response.text
    home = client.get("/").text
    assert "Resume" in home and "No matches on this phone yet." in home


def test_csrf_is_required_on_every_post(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db")})
    client = app.test_client()
    response = client.post(
        "/new", data={"variant": "top-game", "player1": "Ann", "player2": "Bob", "player3": "Cy"}
    )
    assert response.status_code == 400
    assert "No matches on this phone yet." in client.get("/").text


# --- recording hands ----------------------------------------------------------


def test_hand_page_shows_what_the_rules_derive(client):
    match_id = start(client)
    page = client.get(f"/m/{match_id}/hand/new").text
    assert "<strong>Ann</strong> deals · half 1, hand 1 of 6." in page
    assert "Bidding: Ann → Bob → Cy." in page


def test_typical_top_game_hand_is_scored_on_the_sheet(client):
    match_id = start(client)
    response = top_hand(client, match_id)
    assert response.status_code == 302
    page = client.get(response.location).text
    assert "4 · 3 · 4D" in page
    assert "4D made with 1 overtrick: 4 + 1 = 5 from each opponent" in page
    assert exported(client, match_id)["hands"] == [
        {"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}
    ]


@pytest.mark.parametrize(
    "fields, message",
    [
        pytest.param({"tricks": "14"}, "14 is out of range; allowed 0–13", id="tricks"),
        pytest.param({"tricks": ""}, "missing; give a whole number 0–13", id="tricks-missing"),
        pytest.param({"declarer": ""}, "missing; give one of Ann, Bob, Cy", id="declarer-missing"),
        pytest.param(
            {"doubling": "X"},
            "missing; give the opening leader, one of Bob, Cy",
            id="doubler-missing",
        ),
        pytest.param(
            {"doubling": "X", "doubler": "Ann"},
            "&#39;Ann&#39; is not the opening leader, one of Bob, Cy",
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
            "&#39;X9&#39; is not a suit letter and length 4–13, e.g. D5",
            id="longest",
        ),
    ],
)
def test_bad_hand_shows_the_field_error_and_stores_nothing(client, fields, message):
    match_id = start(client)
    response = top_hand(client, match_id, **fields)
    assert response.status_code == 200
    assert message in errors(response)
    assert "Not saved." in response.text
    assert exported(client, match_id)["hands"] == []


def test_passed_out_is_one_tap(client):
    match_id = start(client)
    response = client.post(f"/m/{match_id}/hand/new", data={"quick": "passed_out"})
    assert response.status_code == 302
    assert exported(client, match_id)["hands"] == [{"passed_out": True}]


def test_unknown_quick_action_is_refused(client):
    match_id = start(client)
    assert client.post(f"/m/{match_id}/hand/new", data={"quick": "nonsense"}).status_code == 400
    assert exported(client, match_id)["hands"] == []


def test_misinformation_hand_is_not_counted_and_same_dealer_redeals(client):
    match_id = start(client)
    response = client.post(f"/m/{match_id}/hand/new", data={"declarer": "Bob", "informer": "Cy"})
    assert response.status_code == 302
    assert exported(client, match_id)["hands"] == [{"declarer": "Bob", "misinformation": "Cy"}]
    assert "<strong>Ann</strong> deals" in client.get(f"/m/{match_id}/hand/new").text


# --- editing, deleting, undo ---------------------------------------------------


def hand_ids(client, match_id):
    return [
        int(i)
        for i in re.findall(rf"/m/{match_id}/hand/(\d+)\"", client.get(f"/m/{match_id}").text)
    ]


def test_edit_shows_old_values_and_replays_everything_after(client):
    match_id = start(client)
    top_hand(client, match_id)
    top_hand(client, match_id, declarer="Bob", tricks="10")
    first = hand_ids(client, match_id)[0]
    page = client.get(f"/m/{match_id}/hand/{first}").text
    assert re.search(r'name="tricks" id="tricks-11" value="11"\s+checked', page)
    response = client.post(
        f"/m/{match_id}/hand/{first}",
        data={"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "D", "tricks": "8"},
    )
    assert response.status_code == 302
    doc = exported(client, match_id)
    assert doc["hands"][0]["tricks"] == 8
    scored = score_document(loads(json.dumps(doc)))
    assert scored["totals"] == {"Ann": -4 - 4, "Bob": 2 + 8, "Cy": 2 - 4}


def import_doc(client, doc):
    payload = io.BytesIO(json.dumps(doc).encode())
    response = client.post(
        "/import", data={"match_file": (payload, "m.json")}, content_type="multipart/form-data"
    )
    assert response.status_code == 302, response.text
    return response.location.rsplit("/", 1)[1]


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
BREAKS_HAND_2 = "hand 2: declarer: Bob is not the highest bidder Ann"


def test_edit_that_breaks_a_later_hand_is_refused_naming_it(client):
    match_id = import_doc(client, AUCTION_DEPENDS_ON_HAND_1)
    before = exported(client, match_id)
    first = hand_ids(client, match_id)[0]
    # Wrong dummy information is not counted: Ann would deal hand 2 again.
    response = client.post(
        f"/m/{match_id}/hand/{first}", data={"declarer": "Ann", "informer": "Bob"}
    )
    assert response.status_code == 200
    assert BREAKS_HAND_2 in response.text
    assert exported(client, match_id) == before


def test_delete_that_breaks_a_later_hand_is_refused_naming_it(client):
    match_id = import_doc(client, AUCTION_DEPENDS_ON_HAND_1)
    before = exported(client, match_id)
    first = hand_ids(client, match_id)[0]
    page = client.post(f"/m/{match_id}/hand/{first}/delete", follow_redirects=True).text
    assert (
        "Hand 1 was not deleted: without it, hand 1: declarer: Bob is not the highest "
        "bidder Ann" in page
    )
    assert exported(client, match_id) == before


def test_delete_then_undo_restores_the_hand(client):
    match_id = start(client)
    top_hand(client, match_id)
    top_hand(client, match_id, declarer="Bob", tricks="10")
    first = hand_ids(client, match_id)[0]
    response = client.post(f"/m/{match_id}/hand/{first}/delete", follow_redirects=True)
    assert "Hand 1 deleted." in response.text and "Undo" in response.text
    assert [h["declarer"] for h in exported(client, match_id)["hands"]] == ["Bob"]
    client.post(f"/m/{match_id}/undo")
    assert [h["declarer"] for h in exported(client, match_id)["hands"]] == ["Ann", "Bob"]


def test_end_marker_finishes_the_match_and_refuses_new_hands(client):
    match_id = start(client)
    top_hand(client, match_id)
    page = client.post(f"/m/{match_id}/end", follow_redirects=True).text
    assert "Match finished" in page and "Winner: <strong>Ann</strong>" in page
    assert exported(client, match_id)["hands"][-1] == {"end": True}
    response = client.get(f"/m/{match_id}/hand/new", follow_redirects=True)
    assert "The match is finished: no hand may follow." in response.text


def test_unknown_match_and_hand_are_404(client):
    assert client.get("/m/99").status_code == 404
    match_id = start(client)
    assert client.get(f"/m/{match_id}/hand/12345").status_code == 404
    assert client.post(f"/m/{match_id}/hand/12345/delete").status_code == 404


# --- import, export ------------------------------------------------------------


def test_export_matches_the_command_line_scorer(client):
    text = (EXAMPLES / "top-game.json").read_text()
    response = client.post(
        "/import",
        data={"match_file": (io.BytesIO(text.encode()), "m.json")},
        content_type="multipart/form-data",
    )
    assert response.status_code == 302
    match_id = response.location.rsplit("/", 1)[1]
    doc = exported(client, match_id)
    assert doc == json.loads(text)
    page = client.get(f"/m/{match_id}").text
    totals = score_document(loads(text))["totals"]
    for player, total in totals.items():
        shown = f"+{total}" if total > 0 else (f"−{-total}" if total < 0 else "0")
        assert f'data-player="{player}">{shown}</td>' in page


def test_import_validates_exactly_like_the_cli(client):
    bad = json.dumps(
        {
            "format": "scorekeeper-match/1",
            "variant": "top-game",
            "players": ["Ann", "Bob", "Cy"],
            "hands": [
                {"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "3D", "tricks": 9}
            ],
        }
    )
    response = client.post(
        "/import",
        data={"match_file": (io.BytesIO(bad.encode()), "m.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert "hand 1: contract: pn 7 in a suit gives level 4, not 3" in response.text
    assert "No matches on this phone yet." in response.text


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
def test_import_of_a_bad_file_says_why(client, payload, message):
    response = client.post(
        "/import",
        data={"match_file": (io.BytesIO(payload), "m.json")},
        content_type="multipart/form-data",
        follow_redirects=True,
    )
    assert message in response.text
    assert "No matches on this phone yet." in response.text


def test_csv_hand_log(client):
    match_id = start(client)
    top_hand(client, match_id)
    lines = client.get(f"/m/{match_id}/hands.csv").text.splitlines()
    assert lines[0] == "hand,dealer,counted,entered,Ann,Bob,Cy,explanation"
    assert lines[1].startswith("1,Ann,yes,")
    assert lines[1].endswith(
        ',10,-5,-5,"pn = 4 + 3 = 7 → 4D needs 10 tricks | 4D made with 1 '
        'overtrick: 4 + 1 = 5 from each opponent | Ann +10, each opponent -5"'
    )
    assert lines[2] == "total,,,,10,-5,-5,"


# --- settings ------------------------------------------------------------------


def test_stake_can_be_added_after_the_match_started(client):
    match_id = start(client)
    top_hand(client, match_id)
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
    doc = exported(client, match_id)
    assert doc["stake"] == {"amount": "0.50", "per": 1, "currency": "EUR"}
    page = client.get(f"/m/{match_id}").text
    assert "<strong>Bob</strong> pays <strong>Ann</strong> 2.50 EUR" in page


def test_bad_stake_in_settings_is_refused(client):
    match_id = start(client)
    response = client.post(
        f"/m/{match_id}/settings",
        data={"title": "", "stake_amount": "-1", "stake_per": "", "stake_currency": ""},
    )
    assert response.status_code == 200
    assert "&#39;-1&#39; must be zero or more" in response.text
    assert "stake" not in exported(client, match_id)


def test_delete_match_leaves_the_list_and_can_be_brought_back(client):
    match_id = start(client, title="Tuesday")
    top_hand(client, match_id)
    client.post(f"/m/{match_id}/delete")
    home = client.get("/").text
    assert "Deleted matches (1)" in home
    assert f'href="/m/{match_id}"' not in home
    page = client.get(f"/m/{match_id}").text
    assert "This match was deleted." in page and 'id="new-hand"' not in page
    refused = top_hand(client, match_id, follow_redirects=True)
    assert "This match was deleted; bring it back to enter hands." in refused.text
    client.post(f"/m/{match_id}/restore")
    assert f'href="/m/{match_id}"' in client.get("/").text
    assert len(exported(client, match_id)["hands"]) == 1


# --- offline: nothing leaves the machine ----------------------------------------


def test_pages_load_no_external_resource(client):
    match_id = start(client)
    top_hand(client, match_id)
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
        response = client.get(url)
        assert response.status_code == 200, url
        for ref in re.findall(r'(?:src|href|action)="([^"]*)"', response.text):
            assert not re.match(r"^(https?:)?//", ref), f"{url} loads {ref}"
        assert "@import" not in response.text and "url(http" not in response.text


def test_static_assets_are_local(client):
    for name in ("app.css", "app.js", "icon.svg"):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200
        text = response.text.replace('xmlns="http://www.w3.org/2000/svg"', "")
        assert "http://" not in text and "https://" not in text


def test_the_top_game_preview_takes_its_playnumbers_from_the_rules(client):
    from scorekeeper.variants.top_game import level_for

    match_id = start(client)
    page = client.get(f"/m/{match_id}/hand/new").text
    facts = json.loads(re.search(r'id="rules-facts">(.*?)</script>', page, re.S).group(1))
    table = facts["playnumbers"]
    assert sorted(int(pn) for pn in table) == list(range(2, 26))
    assert table["4"] == {"passed_out": True}
    assert table["5"] == {"passed_out": False, "nt_level": 1, "suit_level": 2, "doublable": True}
    assert table["10"]["doublable"] is True and table["11"]["doublable"] is False
    assert all(table[str(pn)]["suit_level"] == level_for(pn, "S") for pn in range(5, 26))
