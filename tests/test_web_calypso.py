"""Calypso through the web: one entry per game, the tally form, the team tally
sheet, editing, every refusal (nothing stored), and the rules page."""

import re

import pytest

from tests.webtools import errors, hand_ids
from tests.webtools import stored_hands as hands_of

PLAYERS = ("Ann", "Bob", "Cy", "Dan")
# calypso.md scoring; examples/calypso.json game 1: 51 + 54 + 69 + 34 = 208 cards,
# Ann 950, Bob 1560, Cy 1160, Dan 430; Ann & Cy 2110, Bob & Dan 1990.
GAME_1 = {"Ann": (1, 7, 31), "Bob": (2, 3, 25), "Cy": (1, 10, 46), "Dan": (0, 9, 25)}
# examples/calypso.json game 2: Ann 1630, Bob 940, Cy 560, Dan 2390; 2190 against 3330.
GAME_2 = {"Ann": (2, 4, 30), "Bob": (1, 12, 20), "Cy": (0, 6, 44), "Dan": (3, 0, 14)}
# Every player 1 calypso and 39 discards: 890 each, 1780 a side.
TIE = dict.fromkeys(PLAYERS, (1, 0, 39))


def start(client, games=None):
    data = {"variant": "calypso", **{f"player{i}": p for i, p in enumerate(PLAYERS, 1)}}
    if games is not None:
        data["opt_games"] = str(games)
    response = client.post("/new", data=data)
    assert response.status_code == 302, response.text
    return re.search(r"/m/([\w-]{16})/", response.location).group(1)


def form_data(game):
    """What the form posts: seat-numbered fields, in seating order."""
    data = {}
    for seat, player in enumerate(PLAYERS, 1):
        calypsos, incomplete, discards = game[player]
        data.update(
            {
                f"p{seat}_calypsos": str(calypsos),
                f"p{seat}_incomplete": str(incomplete),
                f"p{seat}_discards": str(discards),
            }
        )
    return data


def record(game):
    return {
        "tallies": {
            p: {"calypsos": c, "incomplete": i, "discards": d} for p, (c, i, d) in game.items()
        }
    }


def post_game(client, match_id, data, hand_id=None):
    url = f"/m/{match_id}/hand/{'new' if hand_id is None else hand_id}"
    return client.post(url, data=data)


def saved(client, match_id, game):
    response = post_game(client, match_id, form_data(game))
    assert response.status_code == 302, errors(response) or response.text
    return response


def game_table(page, game):
    block = re.search(rf'<div class="calypso-game" data-game="{game}">.*?</table>', page, re.S)
    return block.group(0)


def player_row(table, player):
    row = re.search(rf'<tr data-player="{player}">(.*?)</tr>', table, re.S).group(1)
    return re.findall(r'<td class="num[^"]*">(\d+)(?:<span class="note">(\d+)</span>)?', row)


# --- before anything is typed ---------------------------------------------------------------


def test_game_page_shows_game_dealers_partners_and_three_counts_a_player(client):
    match_id = start(client, games=2)
    page = client.get(f"/m/{match_id}/hand/new").text
    assert "<strong>Game 1</strong> of 2: four deals, by Ann, Bob, Cy, Dan in turn." in page
    assert "Partners: <strong>Ann &amp; Cy</strong> against <strong>Bob &amp; Dan</strong>." in page
    for seat in range(1, 5):
        block = re.search(rf'id="group-p{seat}_calypsos".*?</fieldset>', page, re.S).group(0)
        assert re.findall(r'value="(\d)"', block) == ["0", "1", "2", "3", "4"]
        for count in ("incomplete", "discards"):
            field = re.search(rf'<input [^>]*id="p{seat}_{count}"[^>]*>', page).group(0)
            assert 'inputmode="numeric"' in field and 'type="text"' in field
    assert "The counts must add up to 208 cards" in page
    assert '"deck": 208' in page.replace("&#34;", '"')


# --- typical games ------------------------------------------------------------------------


def test_game_is_stored_and_tallied_per_side_with_the_difference(client):
    match_id = start(client, games=2)
    response = saved(client, match_id, GAME_1)
    assert hands_of(client, match_id) == [record(GAME_1)]
    page = client.get(response.location).text
    table = game_table(page, 1)
    # counts with their points underneath, then the player's total
    assert player_row(table, "Ann") == [("1", "500"), ("7", "140"), ("31", "310"), ("950", "")]
    assert player_row(table, "Bob") == [("2", "1250"), ("3", "60"), ("25", "250"), ("1560", "")]
    assert player_row(table, "Cy") == [("1", "500"), ("10", "200"), ("46", "460"), ("1160", "")]
    assert player_row(table, "Dan") == [("0", "0"), ("9", "180"), ("25", "250"), ("430", "")]
    assert re.findall(r'<th colspan="4">([^<]+)</th><td class="num side-points">(\d+)', table) == [
        ("Ann &amp; Cy", "2110"),
        ("Bob &amp; Dan", "1990"),
    ]
    assert '<span class="winner">Ann &amp; Cy</span> by <strong class="num">120</strong>' in table
    # both partners get their side's points
    assert re.findall(r'<td class="num" data-player="(\w+)">([^<]+)</td>', page) == [
        ("Ann", "+2110"),
        ("Bob", "+1990"),
        ("Cy", "+2110"),
        ("Dan", "+1990"),
    ]


def test_second_game_starts_with_the_second_player_and_match_totals_add_up(client):
    match_id = start(client, games=2)
    saved(client, match_id, GAME_1)
    page = client.get(f"/m/{match_id}/hand/new").text
    assert "<strong>Game 2</strong> of 2: four deals, by Bob, Cy, Dan, Ann in turn." in page
    saved(client, match_id, GAME_2)
    page = client.get(f"/m/{match_id}").text
    assert 'Game 2</a> <span class="muted">dealt by Bob, Cy, Dan, Ann</span>' in page
    assert '<span class="winner">Bob &amp; Dan</span> by <strong class="num">1140</strong>' in page
    totals = re.search(r'<table class="score paper tallies match-totals">.*?</table>', page, re.S)
    cells = re.findall(
        r'<td class="num[^"]*">(\d+)(?:<span class="note">([^<]+)</span>)?', totals.group(0)
    )
    assert cells == [
        ("2110", ""),
        ("1990", ""),
        ("120", "Ann &amp; Cy"),
        ("2190", ""),
        ("3330", ""),
        ("1140", "Bob &amp; Dan"),
        ("4300", ""),
        ("5320", ""),
        ("1020", "Bob &amp; Dan"),
    ]
    assert "Winners: <strong>Bob, Dan</strong>" in page


def test_tied_game_says_so_and_both_sides_keep_their_points(client):
    match_id = start(client)
    saved(client, match_id, TIE)
    page = client.get(f"/m/{match_id}").text
    assert "The game is a tie: 1780 each." in page
    assert "the game is a tie: both sides 1780" in page


# --- editing ------------------------------------------------------------------------------


def test_edit_shows_the_old_counts_and_changes_the_sheet(client):
    match_id = start(client, games=2)
    saved(client, match_id, GAME_1)
    saved(client, match_id, GAME_2)
    first = hand_ids(client, match_id)[0]
    page = client.get(f"/m/{match_id}/hand/{first}").text
    assert "Edit game 1" in page
    for seat, player in enumerate(PLAYERS, 1):
        calypsos, incomplete, discards = GAME_1[player]
        assert re.findall(rf'name="p{seat}_calypsos" id="[^"]+" value="(\d)"\s+checked', page) == [
            str(calypsos)
        ]
        assert re.search(rf'id="p{seat}_incomplete"[^>]*value="{incomplete}"', page)
        assert re.search(rf'id="p{seat}_discards"[^>]*value="{discards}"', page)

    # Cy miscounted: two of the ten "incomplete" cards were discards.
    changed = {**GAME_1, "Cy": (1, 8, 48)}
    response = post_game(client, match_id, form_data(changed), first)
    assert response.status_code == 302
    assert hands_of(client, match_id) == [record(changed), record(GAME_2)]
    table = game_table(client.get(f"/m/{match_id}").text, 1)
    assert player_row(table, "Cy") == [("1", "500"), ("8", "160"), ("48", "480"), ("1140", "")]
    assert '<span class="winner">Ann &amp; Cy</span> by <strong class="num">100</strong>' in table


def test_edit_with_a_miscount_is_refused_and_the_old_game_kept(client):
    match_id = start(client, games=2)
    saved(client, match_id, GAME_1)
    saved(client, match_id, GAME_2)
    first = hand_ids(client, match_id)[0]
    response = post_game(client, match_id, form_data({**GAME_1, "Cy": (1, 8, 46)}), first)
    assert response.status_code == 200
    assert errors(response) == [
        "the tallies count 206 cards, but the four decks hold 208: every card ends in a "
        "calypso, a calypso in progress or a discard pile"
    ]
    assert hands_of(client, match_id) == [record(GAME_1), record(GAME_2)]


# --- refusals: the message is shown and nothing is stored --------------------------------------


def blank(data, field):
    return {**data, field: ""}


@pytest.mark.parametrize(
    "data, messages, line",
    [
        pytest.param(
            form_data({**GAME_1, "Dan": (0, 9, 24)}),
            [
                "the tallies count 207 cards, but the four decks hold 208: every card ends in a "
                "calypso, a calypso in progress or a discard pile"
            ],
            None,
            id="one-card-missing",
        ),
        pytest.param(
            blank(form_data(GAME_1), "p4_discards"),
            ["missing; give a whole number 0–208"],
            "hand 2: tallies.Dan.discards: missing; give a whole number 0–208",
            id="empty-count-is-not-zero",
        ),
        pytest.param(
            {k: v for k, v in form_data(GAME_1).items() if k != "p2_calypsos"},
            ["missing; give a whole number 0–4"],
            "hand 2: tallies.Bob.calypsos: missing; give a whole number 0–4",
            id="calypsos-not-tapped",
        ),
        pytest.param(
            {**form_data(GAME_1), "p1_incomplete": "seven"},
            ["&#39;seven&#39; is not a whole number; allowed 0–12"],
            "hand 2: tallies.Ann.incomplete: &#39;seven&#39; is not a whole number; allowed 0–12",
            id="count-not-a-number",
        ),
        pytest.param(
            {**form_data(GAME_1), "p3_incomplete": "13"},
            ["13 is out of range; allowed 0–12"],
            "hand 2: tallies.Cy.incomplete: 13 is out of range; allowed 0–12",
            id="incomplete-above-12",
        ),
        pytest.param(
            {**form_data(GAME_1), "p3_discards": "209"},
            ["209 is out of range; allowed 0–208"],
            "hand 2: tallies.Cy.discards: 209 is out of range; allowed 0–208",
            id="discards-above-208",
        ),
        pytest.param(
            {**form_data(GAME_1), "p2_calypsos": "5"},
            ["5 is out of range; allowed 0–4"],
            "hand 2: tallies.Bob.calypsos: 5 is out of range; allowed 0–4",
            id="calypsos-above-4",
        ),
        pytest.param(
            form_data({"Ann": (4, 3, 10), "Bob": (0, 0, 60), "Cy": (0, 0, 60), "Dan": (0, 0, 23)}),
            [
                "4 calypsos use every trump card of the four decks, so no calypso can be in "
                "progress; give 0"
            ],
            None,
            id="four-calypsos-leave-nothing-incomplete",
        ),
    ],
)
def test_bad_game_is_refused_with_the_message_and_nothing_stored(client, data, messages, line):
    match_id = start(client, games=3)
    saved(client, match_id, TIE)  # something stored already
    response = post_game(client, match_id, data)
    assert response.status_code == 200
    assert "Not saved." in response.text
    assert errors(response) == messages
    if line:  # the problem is also listed, naming the player, in the box at the top
        assert f"<li>{line}</li>" in response.text
    assert hands_of(client, match_id) == [record(TIE)]


def test_rules_page_explains_scoring_and_every_decision(client):
    page = client.get("/rules/calypso").text
    decisions = re.findall(r'<p class="decision">(.*?)</p>', page)
    assert len(decisions) == 4
    for words in (
        "game 1 is started by the first player, game 2 by the second",
        "A count left empty is refused rather than taken as 0",
        "a player with four calypsos must have 0 incomplete cards",
        'the sheet says "the game is a tie"',
    ):
        assert sum(words in d for d in decisions) == 1, words
    assert "500 + 750 + 5 × 20 + 20 × 10 = <strong>1550</strong>" in page
    assert "so Ann &amp; Cy win the game by 120" in page
