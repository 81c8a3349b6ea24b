"""One Chicago round played through the UI in Chromium: taps, totals, layout."""

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


def test_chicago_round_through_the_ui(table):
    match_id = table.start_match("chicago", PLAYERS)
    page = table.page

    # Deal 1, Ann deals, passed out: one tap, and Ann deals it again.
    table.new_hand()
    assert "deal 1 of 4" in page.inner_text(".derived")
    assert "Ann deals again" in page.inner_text("#quick-passed_out")
    table.no_horizontal_scroll()
    table.save("#quick-passed_out")
    assert table.taps + table.scrolls == 1
    # Not a deal: the same deal is dealt again, so the form is for hand 1 again.
    assert "Redeal of hand 1 saved." in page.inner_text(".flash-undo")
    assert page.inner_text("h1") == "Hand 1"
    assert "Ann deals" in page.inner_text(".derived")

    taps = [play_hand(table, "Ann", 1, "NT", 8)]  # deal 1 again, nobody vulnerable
    table.new_hand()
    assert page.inner_text("#vul-line") == "They (Bob & Di) are vulnerable on this deal."
    table.tap_button("declarer", "Di")
    table.tap_button("level", "4")
    table.tap_button("strain", "S")
    table.tap_button("tricks", "10")
    table.save()
    taps.append(table.taps + table.scrolls)  # deal 2, Bob deals: They vulnerable
    taps.append(play_hand(table, "Cy", 3, "NT", 8))  # deal 3, Cy deals: We vulnerable
    taps.append(play_hand(table, "Ann", 2, "D", 9))  # deal 4, Di deals: both vulnerable
    assert taps == [TAP_BUDGET] * 4  # five taps each, not a swipe (a swipe counts too)

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Bob", "Di"]
    assert [h["counted"] for h in scored["hands"]] == [False, True, True, True, True]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Deal 1 (passed out, redealt): 1NT+1 by Ann, not vulnerable: 40 below + 30 above = We 70.
    # Deal 2: 4S= by Di, They vulnerable: 120 below, game bonus 500 = They 620.
    # Deal 3: 3NT−1 by Cy, We vulnerable, undoubled: They +100.
    # Deal 4: 2D+1 by Ann: 40 below + 20 above + 100 part score on deal 4 = We 160.
    # We: 70 + 160 = 230; They: 620 + 100 = 720.
    assert scored["totals"] == {"Ann": 230, "Bob": 720, "Cy": 230, "Di": 720}
    assert "Match finished" in page.inner_text("main")
    assert "passed out, Ann deals again" in page.inner_text("#round-1")
    table.no_horizontal_scroll()
    table.screenshot("chicago-sheet")
    assert table.outside == []
