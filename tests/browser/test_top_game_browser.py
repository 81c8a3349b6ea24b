"""The Top Game played through the UI in Chromium: taps, totals, layout."""

from .conftest import shown

TYPICAL = (6, 0)  # declarer, bid, tops, strain, tricks, Save; not a single swipe


def play_hand(table, declarer, bid, tops, strain, tricks):
    table.new_hand()
    table.tap_button("declarer", declarer)
    table.tap_button("bid", str(bid))
    table.tap_button("dummy_tops", str(tops))
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    table.save()
    return table.taps, table.scrolls


def test_top_game_match_through_the_ui(table):
    match_id = table.start_match("top-game", ["Ann", "Bob", "Cy"], hands_per_half="2")
    assert play_hand(table, "Ann", 4, 3, "D", 11) == TYPICAL
    # The page shows the playnumber and the contract while tapping.
    table.new_hand()
    table.tap_button("declarer", "Bob")
    table.tap_button("bid", "3")
    table.tap_button("dummy_tops", "4")
    assert table.page.inner_text("#pn-line") == "pn = 3 + 4 = 7 → 3NT or 4 of a suit"
    table.tap_button("strain", "NT")
    assert table.page.inner_text("#pn-line") == "pn = 3 + 4 = 7 → 3NT needs 9 tricks"
    table.tap_button("tricks", "7")
    table.save()
    assert (table.taps, table.scrolls) == TYPICAL
    # Passed out: one tap on the form that follows the save, below Save (a swipe
    # away), so a thumb reaching for a declarer cannot store it by accident.
    table.new_hand()
    table.save("#quick-passed_out")
    assert (table.taps, table.scrolls) == (1, 1)
    table.no_horizontal_scroll()
    assert play_hand(table, "Cy", 2, 4, "S", 9) == TYPICAL

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # 4D+1 by Ann: 10/−5/−5; 3NT−2 by Bob: −4 and +2 each; 3S= by Cy: +8 and −4 each.
    assert scored["totals"] == {"Ann": 10 + 2 - 4, "Bob": -5 - 4 - 4, "Cy": -5 + 2 + 8}
    assert "Match finished" in table.page.inner_text("main")
    table.no_horizontal_scroll()
    table.screenshot("top-game-sheet")
    assert table.outside == []
