"""The running score at the top of the next hand's form: sides in partnership
games, pegs in Bridge for Three, each player's total otherwise (examples/*.json)."""

from pathlib import Path

import pytest

from scorekeeper.games.catalog import score_line
from scorekeeper.matchfile import loads
from scorekeeper.variants import replay_match
from tests.games import VARIANT_IDS, pinned
from tests.webtools import visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_score_line_of_each_kind_of_game(variant):
    """As each game's own tests pin it (SCORE_LINE, tests/games.py)."""
    line = pinned(variant, "SCORE_LINE")
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
