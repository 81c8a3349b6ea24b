"""A whole rubber played through the UI in Chromium: taps, totals, layout."""

from .conftest import shown

TAP_BUDGET = 5  # declarer, level, strain, tricks, Save: taps and scrolls together
PLAYERS = ["Ann", "Bob", "Cy", "Di"]  # We = Ann & Cy, They = Bob & Di


def play_hand(table, declarer, level, strain, tricks):
    """Declarer, level, strain, tricks, save: taps and scrolls since the last save."""
    table.new_hand()
    table.tap_button("declarer", declarer)
    table.tap_button("level", str(level))
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    table.save()
    return table.taps + table.scrolls


def test_rubber_through_the_ui(table):
    match_id = table.start_match("rubber", PLAYERS)
    page = table.page

    # Hand 1, Ann deals: the contract line and the result marks follow the taps.
    table.new_hand()
    assert page.inner_text("#vul-line") == "Nobody is vulnerable."
    table.no_horizontal_scroll()
    table.tap_button("declarer", "Ann")
    table.tap_button("level", "4")
    table.tap_button("strain", "S")
    assert page.inner_text("#contract-line") == "4♠ by Ann: needs 10 tricks."
    table.tap_button("tricks", "10")
    table.save()
    assert (table.taps, table.scrolls) == (5, 0)

    # Hand 2, Bob deals: passed out in one tap, on the form that follows the save.
    table.new_hand()
    assert "Hand 1 saved." in page.inner_text(".flash-undo")
    assert page.inner_text("#score-line") == "Ann & Cy 120 · Bob & Di 0"
    assert "We (Ann & Cy) are vulnerable" in page.inner_text("#vul-line")
    table.save("#quick-passed_out")
    assert (table.taps, table.scrolls) == (1, 0)

    assert play_hand(table, "Bob", 2, "H", 8) == TAP_BUDGET  # hand 3, Cy deals
    assert play_hand(table, "Cy", 3, "NT", 10) == TAP_BUDGET  # hand 4, Di deals

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Ann", "Cy"]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # 4S= by Ann: 120 below, game 1 to We. Passed out: 0. 2H= by Bob: 60 below (They).
    # 3NT+1 by Cy: 40 + 30 + 30 = 100 below (game 2), 30 above, rubber 2–0: 700.
    # We: 120 + 100 + 30 + 700 = 950; They: 60.
    assert scored["totals"] == {"Ann": 950, "Bob": 60, "Cy": 950, "Di": 60}
    assert "Match finished" in page.inner_text("main")
    assert "won by We 2–0" in page.inner_text("#rubber-1")
    table.no_horizontal_scroll()
    table.screenshot("rubber-sheet")
    assert table.outside == []


def test_choosing_a_game_scored_in_hundreds_sets_the_stake_per_100_points(table):
    """Rubber stakes are quoted per 100 points: "0.10" per point would cost a
    hundred times the agreed stake. Until the player types a "per" of their own."""
    page = table.page
    page.goto(f"{table.server}/new")
    assert page.input_value("#stake_per") == "1"
    page.check('input[name=variant][value="rubber"]')
    assert page.input_value("#stake_per") == "100"
    page.check('input[name=variant][value="top-game"]')
    assert page.input_value("#stake_per") == "1"
    page.fill("#stake_per", "50")
    page.check('input[name=variant][value="chicago"]')
    assert page.input_value("#stake_per") == "50"
