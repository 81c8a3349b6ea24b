"""The running score at the top of the next hand's form: sides in partnership
games, pegs in Bridge for Three, each player's total otherwise (examples/*.json)."""

from pathlib import Path

import pytest

from scorekeeper.games.catalog import score_line
from scorekeeper.matchfile import loads
from scorekeeper.variants import replay_match
from tests.webtools import visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize(
    "variant, line",
    [
        ("rubber", ["Margaret & Helen 1930", "Tom & Richard 2130"]),  # the whole match
        ("honeymoon", ["Sam 2260", "Alex 780"]),  # two players: a side each
        ("chicago", ["Ann & Cy 1730", "Bob & Dee 1500"]),  # every round so far
        ("calypso", ["Ann & Cy 4300", "Bob & Dan 5320"]),
        ("top-game", ["Ann −4", "Bob −1", "Cy +5"]),
        ("mini-bridge-3", ["Ann +640", "Bob +1130", "Cy +580"]),
        ("bridge-for-three", ["Ann 10", "Bob −5", "Cy 11", "Dan 4"]),  # holes, not points
    ],
)
def test_score_line_of_each_kind_of_game(variant, line):
    match = loads((EXAMPLES / f"{variant}.json").read_text(encoding="utf-8"))
    assert score_line(match, replay_match(match)) == line


def test_the_form_after_a_save_shows_the_score_line(actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    first = actions.page(f"/m/{match_id}/hand/new")
    assert 'id="score-line"' not in first  # nothing to show before the first hand
    actions.save_hand(match_id, declarer="Ann", level="4", strain="S", tricks="10")
    page = actions.client.get(f"/m/{match_id}/hand/new")
    # The hand's name in the top bar; the score with the answer to the save (after
    # its Undo in the text, under "Hand 1 saved." on the screen), not twice.
    text = visible_text(page)
    assert "♠ Hand 2 Sheet Rules" in text
    assert "Hand 1 saved. Undo Ann & Cy 120 · Bob & Dee 0 Bob deals" in text
    assert page.get_data(as_text=True).count('id="score-line"') == 1
    # Without the answer to a save (the form opened again), the score heads the
    # box of what the rules say.
    again = actions.client.get(f"/m/{match_id}/hand/new")
    assert "Ann & Cy 120 · Bob & Dee 0 Bob deals" in visible_text(again)
    assert "saved." not in visible_text(again)
