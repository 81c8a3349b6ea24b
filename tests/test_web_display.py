"""What the pages show at the table (issue 10, "Readable everywhere"): Chicago's
deal numbers, names that never break inside a word and a name limit said out
loud, the Top Game's fixed declarer buttons and its sheet's key, the 404 and
500 pages, each match's state on home, real minus signs, the CSV hand log.

The matches are examples/*.json (docs/variants/*.md); what is asserted is the
text a player reads, except where a title or an attribute is the point.
"""

from __future__ import annotations

import csv
import io
import json
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from scorekeeper.db import forget_folded, get_db
from scorekeeper.variants import MAX_NAME
from scorekeeper.views import messages
from scorekeeper.views.messages import changed_words
from tests.webtools import parse, tables, texts, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str, **changes) -> dict:
    document = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    document.update(changes)
    return document


def group_labels(page: str, field: str) -> list[str]:
    """The buttons of one button group (`data-field`), in the order shown."""
    [group] = [e for e in parse(page).find_all("fieldset") if e.attrs.get("data-field") == field]
    return [label.text() for label in group.find_all("label")]


def first_lines(page: str) -> list[str]:
    """The first explanation line of each hand in the hand log."""
    return [ul.find_all("li")[0].text() for ul in parse(page).find_all("ul", "explanation")]


def csv_rows(actions, match_id: str) -> list[list[str]]:
    text = actions.page(f"/m/{match_id}/hands.csv")
    return list(csv.reader(io.StringIO(text)))


# --- Chicago counts deals, not hands (rubber.md "chicago") ----------------------------
# examples/chicago.json: deal 2 of round 1 is passed out and dealt again by Bob.


def test_chicago_deal_column_marks_the_passed_out_deal_and_goes_on_to_four(actions):
    # A passed-out Chicago deal is not a deal (docs/variants/rubber.md): the same
    # deal is dealt again, so its row bears the redeal mark, not a second "2".
    match_id = actions.imported(example("chicago"))
    first, second = tables(actions.page(f"/m/{match_id}"), "deals")
    assert first == [
        ["Deal", "Dealer", "Vul", "Result"],
        ["1", "Ann", "—", "2♠ Bob +1"],
        ["↻", "Bob", "They", "passed out, Bob deals again"],
        ["2", "Bob", "They", "4♥ Dee ="],
        ["3", "Cy", "We", "3NTX Ann −2"],
        ["4", "Dee", "both", "2♦ Cy +1"],
    ]
    assert [row[0] for row in second[1:]] == ["1", "2", "3", "4"]


def test_chicago_pad_entries_cite_the_deal_of_the_round(actions):
    # Hand 3 is deal 2 (4♥ game), hand 4 deal 3 (3NTX down 2), hand 5 deal 4.
    match_id = actions.imported(example("chicago"))
    first_round = tables(actions.page(f"/m/{match_id}"), "pad-table")[0]
    assert first_round[2:6] == [
        ["", "500 deal 3 · down"],
        ["", "500 deal 2 · game"],
        ["100 deal 4 · part score", "100 deal 2 · honours"],
        ["20 deal 4 · over", "30 deal 1 · over"],
    ]
    assert first_round[8:12] == [
        ["", "60 deal 1 · tricks"],
        ["", "120 deal 2 · tricks"],
        ["game 1 to They"],
        ["40 deal 4 · tricks", ""],
    ]


def test_chicago_hand_log_says_which_deal_each_hand_was(actions):
    match_id = actions.imported(example("chicago"))
    assert first_lines(actions.page(f"/m/{match_id}")) == [
        "Round 1, deal 1",
        "Round 1, deal 2",
        "Round 1, deal 2",
        "Round 1, deal 3",
        "Round 1, deal 4",
        "Round 2, deal 1",
        "Round 2, deal 2",
        "Round 2, deal 3",
        "Round 2, deal 4",
    ]


def test_rubber_pad_still_cites_hand_numbers(actions):
    # In rubber a passed-out hand is a deal too: hand numbers are the deals.
    match_id = actions.imported(example("rubber"))
    page = actions.page(f"/m/{match_id}")
    first_rubber = tables(page, "pad-table")[0]
    assert first_rubber[10:17] == [
        ["60 #1 tricks", "100 #3 tricks"],
        ["game 1 to They"],
        ["120 #6 tricks", "40 #5 tricks"],
        ["game 2 to We"],
        ["190 #8 tricks", ""],
        ["game 3 to We"],
        ["Passed out: #2"],
    ]
    assert not any(line.startswith("Round") for line in first_lines(page))


# --- names: wrapped at spaces, full in a title, refused when too long ------------------

LONG = "Bartholomew-Montgomery Featherstonehaugh"  # 40 characters, the most


def test_a_name_of_41_characters_is_refused_naming_the_field_and_nothing_is_started(actions):
    players = {"player1": "Ann", "player2": "Bob", "player3": LONG + "e", "player4": "Dee"}
    response = actions.client.post("/new", data={"variant": "rubber", **players})
    assert response.status_code == 200
    assert texts(response, "error", "p") == [
        "Player 3 has 41 characters; a name has at most 40. Shorten it (a nickname will do)."
    ]
    assert "No matches on this phone yet." in actions.text("/")


def test_name_inputs_do_not_cut_the_41st_character_silently(actions):
    # A maxlength would make the phone drop the 41st character without a word.
    inputs = [
        e for e in parse(actions.page("/new")).find_all("input") if "player" in e.attrs["name"]
    ]
    assert [e.attrs["name"] for e in inputs] == [f"player{n}" for n in range(1, 6)]
    assert all("maxlength" not in e.attrs for e in inputs)
    assert len(LONG) == MAX_NAME


def test_sheet_headers_carry_the_whole_name_in_a_title(actions):
    match_id = actions.start("need-a-fourth", players=("Margaret", LONG, "Helen Louise"))
    page = parse(actions.page(f"/m/{match_id}"))
    [sheet] = [e for e in page.find_all("section") if e.attrs.get("id") == "sheet"]
    headers = [(th.attrs.get("title"), th.text()) for th in sheet.find_all("th", "name")]
    assert headers == [
        ("Margaret", "Margaret"),
        (LONG, LONG),
        ("Helen Louise", "Helen Louise"),
    ]


def test_the_pad_header_titles_name_both_partners(actions):
    match_id = actions.start("rubber", players=("Margaret", LONG, "Helen", "Richard"))
    actions.save_hand(match_id, declarer="Margaret", level="2", strain="H", tricks="8")
    titles = [
        th.attrs["title"] for th in parse(actions.page(f"/m/{match_id}")).find_all("th", "name")
    ]
    assert titles[:2] == ["We: Margaret & Helen", f"They: {LONG} & Richard"]


# --- the Top Game: buttons in seating order, a key on the sheet (top-game.md) ----------


def test_top_game_declarer_buttons_keep_seating_order_while_the_bidding_turns(actions):
    match_id = actions.start("top-game", players=("Ann", "Bob", "Cy"))
    played = {"bid": "3", "dummy_tops": "2", "strain": "S", "tricks": "8"}
    seen = []
    for declarer in ("Ann", "Bob", "Cy"):
        page = actions.page(f"/m/{match_id}/hand/new")
        seen.append((group_labels(page, "declarer"), visible_text(page).split("Bidding: ")[1][:16]))
        actions.save_hand(match_id, declarer=declarer, **played)
    assert seen == [
        (["Ann", "Bob", "Cy"], "Ann → Bob → Cy. "),
        (["Ann", "Bob", "Cy"], "Bob → Cy → Ann. "),
        (["Ann", "Bob", "Cy"], "Cy → Ann → Bob. "),
    ]


def test_top_game_second_half_buttons_follow_the_seats_after_bob_and_cy_swap(actions):
    # The first 7 entries of the example are the 6 counted hands of half 1.
    document = example("top-game")
    match_id = actions.imported({**document, "hands": document["hands"][:7]})
    page = actions.page(f"/m/{match_id}/hand/new")
    assert "half 2, hand 1 of 6" in visible_text(page)
    assert group_labels(page, "declarer") == ["Ann", "Cy", "Bob"]
    assert group_labels(page, "doubler") == ["Ann", "Cy", "Bob"]


def test_top_game_sheet_has_a_key_for_its_notes_and_shading(actions):
    match_id = actions.imported(example("top-game"))
    [key] = texts(actions.page(f"/m/{match_id}"), "top-game-key")
    assert key == (
        "Key +8 3 · 2 · 2♠ Shaded: the dealer of the hand. Under the dealer's score: the final"
        " bid · the tops in dummy · the contract. Here 3 + 2 = playnumber 5, which gives 2♠"
        " (in no trumps 1NT)."
        " 0 3 · 1 · passed A playnumber of 4 or less passes the hand out: nobody scores."
        " passed out alone: all three passed."
        " −12 † † Did not raise: the declarer held more tops than the final bid and scores −6"
        " against each opponent (declarer −12, each opponent +6), whatever the play, even"
        " when the playnumber passes the hand out."
        " ↻ −4 Grey, slanted, ↻: not a hand (wrong information about dummy): the same dealer"
        " deals the same hand again, on the row below."
        " Each cell: that player's points on the hand; every row adds up to 0. Σ: the half's"
        " total. The columns follow the seats: Bob and Cy change places for sheet 2."
    )


def test_hand_list_writes_minus_signs_in_a_hand_without_a_contract(actions):
    """Hand 6 of the example: wrong information about dummy, no contract; the
    hand list reads "−4" (U+2212) while the CSV keeps the rules' ASCII."""
    match_id = actions.imported(example("top-game"))
    summaries = texts(actions.page(f"/m/{match_id}"), "hand-sum")
    assert summaries[5] == (
        "Redeal of hand 6: Ann gave wrong information about dummy: −2 per opponent,"
        " so Ann −4, each other player +2"
    )
    assert "-" not in summaries[5]
    csv_text = actions.client.get(f"/m/{match_id}/hands.csv").get_data(as_text=True)
    assert "dummy: -2 per opponent, so Ann -4, each other player +2" in csv_text


# --- error pages ------------------------------------------------------------------------


@pytest.mark.parametrize("url", ["/m/AAAAAAAAAAAAAAAA", "/m/AAAAAAAAAAAAAAAA/settle", "/nope"])
def test_an_unknown_address_gets_a_styled_404_with_a_way_home(client, url):
    response = client.get(url)
    assert response.status_code == 404
    page = parse(response)
    assert [h.text() for h in page.find_all("h1")] == ["Nothing here"]
    [main] = page.find_all("main")  # the foot's switches (text size, language) aside
    assert [a.text() for a in main.find_all("a", "button")] == [
        "Your matches",
        "Start a match",
        "Rules",
    ]
    assert main.find_all("a", "button")[0].attrs["href"] == "/"
    assert response.headers["X-Frame-Options"] == "DENY"


def test_an_unexpected_error_gets_a_500_page_without_its_traceback(app):
    app.config["PROPAGATE_EXCEPTIONS"] = False  # as served, not as tested

    @app.get("/boom")
    def boom():
        raise RuntimeError("secret: /srv/scorekeeper/instance")

    response = app.test_client().get("/boom")
    assert response.status_code == 500
    shown = visible_text(response)
    assert "Something went wrong" in shown
    assert "open the match and look at its hand log" in shown
    assert "secret" not in response.get_data(as_text=True)
    assert "Traceback" not in response.get_data(as_text=True)


# --- home: each match's state and last change ----------------------------------------------


def test_home_says_in_progress_who_deals_finished_and_stopped(actions):
    rubber = example("rubber")
    actions.imported({**rubber, "title": "Going on", "hands": rubber["hands"][:3]})
    actions.imported({**rubber, "title": "Stopped", "hands": [*rubber["hands"][:3], {"end": True}]})
    actions.imported(example("top-game", title="Done"))
    assert texts(actions.page("/"), "match-state") == [
        "Finished · won by Cy · changed a moment ago",
        "Stopped · won by Tom & Richard · changed a moment ago",
        # Margaret, Tom and Helen dealt hands 1-3 (hand 2 passed out): Richard next.
        "In progress · Richard deals next · changed a moment ago",
    ]
    shown = actions.text("/")
    assert "Rubber bridge · Margaret, Tom, Helen, Richard · 3 hands" in shown  # not the marker


@pytest.fixture
def utc_clock():
    """Local time is UTC while the test runs (the home list speaks local time)."""
    mp = pytest.MonkeyPatch()
    mp.setenv("TZ", "UTC")
    time.tzset()
    yield
    mp.undo()
    time.tzset()


NOW = datetime(2026, 11, 21, 22, 30, tzinfo=UTC)  # a Saturday


@pytest.mark.parametrize(
    "before, words",
    [
        (timedelta(seconds=20), "a moment ago"),
        (timedelta(minutes=1, seconds=5), "1 minute ago"),
        (timedelta(minutes=42), "42 minutes ago"),
        (timedelta(hours=3), "today at 19:30"),
        (timedelta(hours=23), "yesterday at 23:30"),
        (timedelta(days=3), "Wednesday at 22:30"),
        (timedelta(days=30), "22 October 2026"),
    ],
)
def test_home_says_when_a_match_last_changed(utc_clock, before, words):
    assert changed_words((NOW - before).isoformat(), now=NOW) == words


# --- minus signs: "−" on pages, "-" in machine formats -------------------------------------


def test_balances_and_explanations_print_a_real_minus_and_the_csv_keeps_ascii(actions):
    # examples/top-game.json: Ann −4 and Bob −1 at 0.50 EUR a point.
    match_id = actions.imported(example("top-game"))
    page = actions.page(f"/m/{match_id}")
    assert [row[1] for row in tables(page, "score")[-1][1:]] == [
        "−2.00 EUR",
        "−0.50 EUR",
        "+2.50 EUR",
    ]
    log = texts(page, "explanation")
    assert log[0].endswith("Bob +10, each opponent −5")
    assert not any("-5" in line for line in log)
    rows = csv_rows(actions, match_id)
    assert rows[1][-1].endswith("Bob +10, each opponent -5")
    assert rows[1][7:10] == ["-5", "10", "-5"]


# --- the hand log shows the contract: CSV columns, history --------------------------------


def test_csv_hand_log_has_declarer_contract_tricks_and_result_columns(actions):
    match_id = actions.imported(example("top-game"))
    rows = csv_rows(actions, match_id)
    assert rows[0] == [
        *["hand", "dealer", "counted", "declarer", "contract", "tricks", "result"],
        *["Ann", "Bob", "Cy", "explanation"],
    ]
    assert [row[:7] for row in rows[1:9]] == [
        ["1", "Ann", "yes", "Bob", "2S", "9", "made +1"],
        ["2", "Bob", "yes", "Cy", "3H", "9", "made"],
        ["3", "Cy", "yes", "Ann", "4SX", "8", "down 2"],
        ["4", "Ann", "yes", "", "", "", "passed out"],
        ["5", "Bob", "yes", "Bob", "1NT", "7", "made"],
        # Not a hand: hand 6 is dealt again by the same dealer (counted "no").
        ["6", "Cy", "no", "Cy", "", "", "wrong dummy information from Ann"],
        ["6", "Cy", "yes", "Bob", "5D", "11", "made"],
        # Final bid 3 and 1 top in dummy: playnumber 4 passes the hand out.
        ["7", "Ann", "yes", "Bob", "", "", "passed out"],
    ]
    assert rows[-1][:10] == ["total", "", "", "", "", "", "", "-4", "-1", "5"]


def test_csv_hand_log_of_mini_bridge_and_a_stopped_rubber(actions):
    mini = csv_rows(actions, actions.imported(example("mini-bridge")))
    assert [row[3:7] for row in mini[1:4]] == [
        ["Dee", "GAME in H", "11", "made +1"],
        ["", "", "", "dealt again"],
        ["Ann", "no GAME in NT", "8", "made +1"],
    ]
    rubber = example("rubber")
    stopped = {**rubber, "hands": [*rubber["hands"][:2], {"end": True}]}
    rows = csv_rows(actions, actions.imported(stopped))
    assert [row[:7] for row in rows[1:4]] == [
        ["1", "Margaret", "yes", "Margaret", "2H", "9", "made +1"],
        ["2", "Tom", "yes", "", "", "", "passed out"],
        ["", "", "no", "", "", "", "stopped here"],  # the end marker is not a hand
    ]


def test_history_names_the_contract_of_each_saved_hand(actions):
    match_id = actions.start("rubber", players=("Ann", "Bob", "Cy", "Dee"))
    actions.save_hand(match_id, declarer="Bob", level="4", strain="S", tricks="9")
    shown = actions.text(f"/m/{match_id}/history")
    assert "Hand 1 saved: 4♠ by Bob, down 1 · Ann +50, Cy +50" in shown


# --- the stake in the same words on the match page, the settle page and the PDF ---------


@pytest.mark.parametrize(
    "variant, said",
    [
        ("bridge-for-three", "stake 0.50 EUR a game from each player who does not win"),
        ("rubber", "stake 0.50 GBP per 100 points"),
    ],
)
def test_match_page_says_the_stake_as_the_settle_page_does(actions, variant, said):
    match_id = actions.imported(example(variant))
    assert said in actions.text(f"/m/{match_id}")
    assert f"Stake: {said.removeprefix('stake ')}" in actions.text(f"/m/{match_id}/settle")


def test_honeymoon_settle_page_speaks_of_two_players_not_partners(actions):
    match_id = actions.imported(example("honeymoon"))
    text = actions.text(f"/m/{match_id}/settle")
    assert "Each of you is a side. The one behind pays the other the difference" in text
    assert "Partners share one score" not in text


def test_a_refused_start_names_every_player_still_missing(actions):
    two = {"variant": "rubber", "player1": "Ann", "player2": "Bob"}
    page = actions.client.post("/new", data=two)
    assert page.status_code == 200
    assert "Player 3: Rubber bridge needs 4 players: fill in Player 3 and Player 4." in (
        visible_text(page)
    )


@pytest.mark.parametrize(
    "variant, first_two",
    [
        ("rubber", ["2♥ by Margaret, made", "all passed"]),
        ("top-game", ["2♠ by Bob, made", "3♥ by Cy, made"]),
        ("chicago", ["2♠ by Bob, made", "Redeal of hand 2: all passed"]),
        ("calypso", ["Ann dealt", "Bob dealt"]),  # a game's tallies: who dealt it
    ],
)
def test_the_hand_list_says_what_happened_in_each_hand(actions, variant, first_two):
    match_id = actions.imported(example(variant))
    assert texts(actions.page(f"/m/{match_id}"), "hand-sum")[:2] == first_two


def test_bridge_for_three_move_column_says_how_far_the_peg_really_went(actions):
    """Hand 11: Cy's 4♥ earns +4, but the peg stops in hole 11 (+3). Hand 6: Bob's
    −2 from the floor moves his peg 0 and everyone else +2."""
    match_id = actions.imported(example("bridge-for-three"))
    moves = texts(actions.page(f"/m/{match_id}"), "move")
    assert moves == ["+2", "0", "+3", "−6", "+2", "0 of −2", "+4", "+6", "+1", "−1", "+3 of +4"]


class AtNow(datetime):
    """The clock the pages say "when" by, stopped at NOW."""

    @classmethod
    def now(cls, tz=None):
        return NOW.astimezone(tz)


def test_the_history_says_when_in_the_words_of_the_home_list(actions, app, utc_clock, monkeypatch):
    """One wording of "when": a change made yesterday says so in the history too
    (it used to say only "at 23:30"). The page's clock is stopped at NOW: noon
    the day before is "yesterday" whatever the time the suite runs (23:30 was
    "minutes ago" in CI just after midnight; noon yesterday, read from the clock
    at 23:59:59.9, was the day before yesterday once the page was drawn after
    midnight)."""
    monkeypatch.setattr(messages, "datetime", AtNow)
    match_id = actions.imported(example("rubber"))
    yesterday = (NOW - timedelta(days=1)).replace(hour=12, minute=0)
    with app.app_context():
        get_db().execute("update changes set created = ?", [yesterday.isoformat()])
        forget_folded()
    history = actions.text(f"/m/{match_id}/history")
    assert "yesterday at 12:00" in history
    assert " at 12:00" not in history.replace("yesterday at 12:00", "")
