"""One Calypso game entered through the UI in Chromium: tallies, card count, totals."""

from .conftest import shown

PLAYERS = ["Ann", "Bob", "Cy", "Di"]  # Ann & Cy against Bob & Di
# Seat: (calypsos, incomplete, discards).
TALLIES = {1: (2, 5, 20), 2: (1, 7, 31), 3: (1, 12, 30), 4: (0, 11, 40)}


def test_calypso_game_through_the_ui(table):
    match_id = table.start_match("calypso", PLAYERS)
    page = table.page

    table.new_hand()
    table.no_horizontal_scroll()
    for seat, (calypsos, incomplete, discards) in TALLIES.items():
        table.tap_button(f"p{seat}_calypsos", str(calypsos))
        table.type(f"#p{seat}_incomplete", str(incomplete))
        table.type(f"#p{seat}_discards", str(discards))
    # 2 × 13 + 5 + 20 = 51, 13 + 7 + 31 = 51, 13 + 12 + 30 = 55, 0 + 11 + 40 = 51: 208.
    assert page.inner_text("#count-line") == "All 208 cards counted ✓"
    assert page.inner_text("#tally-1 .tally-line") == "51 cards · 1550 points"
    assert page.inner_text("#side-line") == "Ann & Cy 2590 · Bob & Di 1570 → Ann & Cy by 1020"
    table.no_horizontal_scroll()
    table.save()
    # 4 calypso buttons, 14 digits, save; one scroll for the fourth tally.
    assert (table.taps, table.scrolls) == (4 + 14 + 1, 1)

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Ann", "Cy"]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Ann: 500 + 750 + 5 × 20 + 20 × 10 = 1550.  Cy: 500 + 12 × 20 + 30 × 10 = 1040.
    # Bob: 500 + 7 × 20 + 31 × 10 = 950.        Di: 11 × 20 + 40 × 10 = 620.
    # Ann & Cy 1550 + 1040 = 2590; Bob & Di 950 + 620 = 1570: each side's own points.
    assert scored["totals"] == {"Ann": 2590, "Bob": 1570, "Cy": 2590, "Di": 1570}
    assert "Match finished" in page.inner_text("main")
    table.no_horizontal_scroll()
    table.screenshot("calypso-sheet")
    assert table.outside == []
