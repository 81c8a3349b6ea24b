"""Calypso through the web: one entry per game, the tally form, the team tally
sheet, editing, every refusal (nothing stored), and the rules page."""

import json

import pytest

from tests.webtools import (
    Element,
    by_id,
    checked,
    field_errors,
    items,
    offered,
    parse,
    texts,
    visible_text,
)

PLAYERS = ("Ann", "Bob", "Cy", "Dan")
# calypso.md scoring; examples/calypso.json game 1: 51 + 54 + 69 + 34 = 208 cards,
# Ann 950, Bob 1560, Cy 1160, Dan 430; Ann & Cy 2110, Bob & Dan 1990.
GAME_1 = {"Ann": (1, 7, 31), "Bob": (2, 3, 25), "Cy": (1, 10, 46), "Dan": (0, 9, 25)}
# examples/calypso.json game 2: Ann 1630, Bob 940, Cy 560, Dan 2390; 2190 against 3330.
GAME_2 = {"Ann": (2, 4, 30), "Bob": (1, 12, 20), "Cy": (0, 6, 44), "Dan": (3, 0, 14)}
# Every player 1 calypso and 39 discards: 890 each, 1780 a side.
TIE = dict.fromkeys(PLAYERS, (1, 0, 39))


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


def game_table(page, game: int) -> Element:
    [block] = [
        div
        for div in parse(page).find_all("div", "calypso-game")
        if div.attrs.get("data-game") == str(game)
    ]
    return block


def figure(cell: Element) -> tuple[str, str]:
    """A sheet cell's figure and the small figure under it ('' when there is none)."""
    own = " ".join(child for child in cell.children if isinstance(child, str)).strip()
    notes = cell.find_all("span", "note")
    return own, (notes[0].text() if notes else "")


def player_row(table: Element, player: str) -> list[tuple[str, str]]:
    """A player's counts with their points underneath, then the player's total."""
    [row] = [tr for tr in table.find_all("tr") if tr.attrs.get("data-player") == player]
    return [figure(td) for td in row.find_all("td") if td.has_class("num")]


def side_points(table: Element) -> list[tuple[str, str]]:
    return [
        (row.find_all("th")[0].text(), row.find_all("td")[0].text())
        for row in table.find_all("tr", "side")
    ]


def winner(table: Element) -> str:
    """The side the game's tally marks as the winner."""
    [marked] = table.find_all("span", "winner")
    return marked.text()


def player_totals(page) -> list[tuple[str, str]]:
    [section] = parse(page).find_all("section", "totals")
    return [(td.attrs["data-player"], td.text()) for td in section.find_all("td")]


# --- before anything is typed ---------------------------------------------------------------


def test_game_page_shows_game_dealers_partners_and_three_counts_a_player(actions):
    match_id = actions.start("calypso", PLAYERS, options={"games": "2"})
    page = actions.page(f"/m/{match_id}/hand/new")
    text = visible_text(page)
    assert "Game 1 of 2: four deals, by Ann, Bob, Cy, Dan in turn." in text
    assert "Partners: Ann & Cy against Bob & Dan" in text
    for seat in range(1, 5):
        assert offered(page, f"p{seat}_calypsos") == ["0", "1", "2", "3", "4"]
        for count in ("incomplete", "discards"):
            field = by_id(page, f"p{seat}_{count}")
            assert (field.tag, field.attrs.get("type"), field.attrs.get("inputmode")) == (
                "input",
                "text",
                "numeric",
            )
    assert "The counts must add up to 208 cards" in text
    assert json.loads(by_id(page, "rules-facts").text())["deck"] == 208  # the live count's


# --- typical games ------------------------------------------------------------------------


def test_game_is_stored_and_tallied_per_side_with_the_difference(actions):
    match_id = actions.start("calypso", PLAYERS, options={"games": "2"})
    actions.save_hand(match_id, form_data(GAME_1))
    assert actions.hands(match_id) == [record(GAME_1)]
    page = actions.page(f"/m/{match_id}")
    table = game_table(page, 1)
    # counts with their points underneath, then the player's total
    assert player_row(table, "Ann") == [("1", "500"), ("7", "140"), ("31", "310"), ("950", "")]
    assert player_row(table, "Bob") == [("2", "1250"), ("3", "60"), ("25", "250"), ("1560", "")]
    assert player_row(table, "Cy") == [("1", "500"), ("10", "200"), ("46", "460"), ("1160", "")]
    assert player_row(table, "Dan") == [("0", "0"), ("9", "180"), ("25", "250"), ("430", "")]
    assert side_points(table) == [("Ann & Cy", "2110"), ("Bob & Dan", "1990")]
    assert "Ann & Cy by 120" in table.text() and winner(table) == "Ann & Cy"
    # both partners get their side's points
    assert player_totals(page) == [
        ("Ann", "+2110"),
        ("Bob", "+1990"),
        ("Cy", "+2110"),
        ("Dan", "+1990"),
    ]


def test_second_game_starts_with_the_second_player_and_match_totals_add_up(actions):
    match_id = actions.start("calypso", PLAYERS, options={"games": "2"})
    actions.save_hand(match_id, form_data(GAME_1))
    text = actions.text(f"/m/{match_id}/hand/new")
    assert "Game 2 of 2: four deals, by Bob, Cy, Dan, Ann in turn." in text
    actions.save_hand(match_id, form_data(GAME_2))
    page = actions.page(f"/m/{match_id}")
    second = game_table(page, 2)
    assert second.find_all("h3")[0].text() == "Game 2 dealt by Bob, Cy, Dan, Ann"
    assert "Bob & Dan by 1140" in second.text() and winner(second) == "Bob & Dan"
    [totals] = parse(page).find_all("table", "match-totals")
    assert [figure(td) for td in totals.find_all("td") if td.has_class("num")] == [
        ("2110", ""),
        ("1990", ""),
        ("120", "Ann & Cy"),
        ("2190", ""),
        ("3330", ""),
        ("1140", "Bob & Dan"),
        ("4300", ""),
        ("5320", ""),
        ("1020", "Bob & Dan"),
    ]
    assert "Winners: Bob, Dan" in visible_text(page)


def test_tied_game_says_so_and_both_sides_keep_their_points(actions):
    match_id = actions.start("calypso", PLAYERS)
    actions.save_hand(match_id, form_data(TIE))
    text = actions.text(f"/m/{match_id}")
    assert "The game is a tie: 1780 each." in text
    assert "the game is a tie: both sides 1780" in text


# --- editing ------------------------------------------------------------------------------


def test_edit_shows_the_old_counts_and_changes_the_sheet(actions):
    match_id = actions.start("calypso", PLAYERS, options={"games": "2"})
    actions.save_hand(match_id, form_data(GAME_1))
    actions.save_hand(match_id, form_data(GAME_2))
    first = actions.hand_ids(match_id)[0]
    page = actions.page(f"/m/{match_id}/hand/{first}")
    assert "Edit game 1" in visible_text(page)
    for seat, player in enumerate(PLAYERS, 1):
        calypsos, incomplete, discards = GAME_1[player]
        assert checked(page, f"p{seat}_calypsos") == [str(calypsos)]
        assert by_id(page, f"p{seat}_incomplete").attrs.get("value") == str(incomplete)
        assert by_id(page, f"p{seat}_discards").attrs.get("value") == str(discards)

    # Cy miscounted: two of the ten "incomplete" cards were discards.
    changed = {**GAME_1, "Cy": (1, 8, 48)}
    actions.save_hand(match_id, form_data(changed), first)
    assert actions.hands(match_id) == [record(changed), record(GAME_2)]
    table = game_table(actions.page(f"/m/{match_id}"), 1)
    assert player_row(table, "Cy") == [("1", "500"), ("8", "160"), ("48", "480"), ("1140", "")]
    assert "Ann & Cy by 100" in table.text() and winner(table) == "Ann & Cy"


def test_edit_with_a_miscount_is_refused_and_the_old_game_kept(actions):
    match_id = actions.start("calypso", PLAYERS, options={"games": "2"})
    actions.save_hand(match_id, form_data(GAME_1))
    actions.save_hand(match_id, form_data(GAME_2))
    first = actions.hand_ids(match_id)[0]
    response = actions.refuse_hand(match_id, form_data({**GAME_1, "Cy": (1, 8, 46)}), first)
    assert field_errors(response) == [
        "the tallies count 206 cards, but the four decks hold 208: every card ends in a "
        "calypso, a calypso in progress or a discard pile"
    ]
    assert actions.hands(match_id) == [record(GAME_1), record(GAME_2)]


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
            ["'seven' is not a whole number; allowed 0–12"],
            "hand 2: tallies.Ann.incomplete: 'seven' is not a whole number; allowed 0–12",
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
def test_bad_game_is_refused_with_the_message_and_nothing_stored(actions, data, messages, line):
    match_id = actions.start("calypso", PLAYERS, options={"games": "3"})
    actions.save_hand(match_id, form_data(TIE))  # something stored already
    response = actions.refuse_hand(match_id, data)
    assert "Not saved." in visible_text(response)
    assert field_errors(response) == messages
    if line:  # the problem is also listed, naming the player, in the box at the top
        assert line in items(response, "flash-error")
    assert actions.hands(match_id) == [record(TIE)]


def test_rules_page_explains_scoring_and_every_decision(actions):
    page = actions.page("/rules/calypso")
    decisions = texts(page, "decision", "li")  # drawn from docs/variants/calypso.md
    assert len(decisions) == 5
    for words in (
        "the first player deals the first deal of game 1, the second player that of game 2",
        "A count left out is refused rather than taken as 0",
        "a player with four calypsos must have 0 incomplete cards",
        "When both sides have the same points the game is a tie",
        "Players may stop early",
    ):
        assert sum(words in d for d in decisions) == 1, words
    text = visible_text(page)
    assert "500 + 750 + 5 × 20 + 20 × 10 = 1550" in text
    assert "so Ann & Cy win the game by 120" in text
