"""Mini Bridge through the UI in Chromium: HCP typed, a 20–20 redeal, a scrapped deal."""

from .conftest import shown


def announce(table, *hcp: int) -> None:
    """Type the HCP in announcement order (the last of four fills itself in)."""
    for position, points in enumerate(hcp, 1):
        table.type(f"#hcp{position}", str(points))


def play_hand(table, hcp, game, strain, tricks):
    """New hand, the HCP, GAME or not, strain, tricks, save."""
    table.new_hand()
    announce(table, *hcp)
    table.tap_button("game", "yes" if game else "no")
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    table.save()
    return table.taps


def test_mini_bridge_four_players_with_a_redeal(table):
    # Sides: Ann & Cy against Bob & Di.
    match_id = table.start_match("mini-bridge", ["Ann", "Bob", "Cy", "Di"], hands="3")
    page = table.page
    page.goto(f"{table.server}/m/{match_id}")
    taps = {}

    # Hand 1, Ann deals: 12, 8, 10 typed; Di's 10 is filled in as 40 minus the others.
    table.new_hand()
    table.no_horizontal_scroll()
    announce(table, 12, 8, 10)
    assert page.input_value("#hcp4") == "10"
    live = page.inner_text("#mb-live")
    assert "Ann & Cy declare, 22 HCP against 18." in live
    assert "Ann declares (12 HCP, more than Cy's 10); Cy is dummy." in live
    table.tap_button("game", "no")
    table.tap_button("strain", "NT")
    table.tap_button("tricks", "8")
    assert page.inner_text("#mb-result") == "No GAME in NT, 8 tricks: made, Ann & Cy score 80."
    table.save()
    taps["1NT-type, 8 tricks"] = table.taps

    # Hand 2, Bob deals: 20–20, nobody plays and Bob deals again.
    table.new_hand()
    announce(table, 10, 10, 10)
    assert "20–20: nobody plays; Bob deals again." in page.inner_text("#mb-live")
    assert page.inner_text("#save") == "Save: Bob deals again"
    table.save()
    taps["20–20 redeal"] = table.taps

    # Hand 3, Bob again: Bob & Di 26 against 14, Bob declares GAME in hearts.
    taps["GAME in H, 11 tricks"] = play_hand(table, (15, 5, 11), True, "H", 11)
    # Hand 4, Cy deals: Cy & Ann 23 against 17, GAME in clubs goes one down.
    taps["GAME in C, 10 tricks"] = play_hand(table, (14, 6, 9), True, "C", 10)
    # One tap to open, 4–6 digits typed, GAME, strain, tricks, one to save.
    assert taps == {
        "1NT-type, 8 tricks": 10,
        "20–20 redeal": 8,
        "GAME in H, 11 tricks": 10,
        "GAME in C, 10 tricks": 9,
    }

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Bob", "Di"]
    assert [h["counted"] for h in scored["hands"]] == [True, False, True, True]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Hand 1: no GAME, NT, 8 tricks: 2 × 40 = 80 to Ann & Cy. Hand 2: 20–20, not counted.
    # Hand 3: GAME in H, 11 tricks: 5 × 30 + 300 = 450 to Bob & Di.
    # Hand 4: GAME in C needs 11, 10 tricks: 1 down, 50 to Bob & Di.
    # Ann & Cy 80; Bob & Di 450 + 50 = 500.
    assert scored["totals"] == {"Ann": 80, "Bob": 500, "Cy": 80, "Di": 500}
    assert "Match finished" in page.content()
    table.no_horizontal_scroll()
    table.screenshot("mini-bridge-sheet")
    assert table.outside == []


def test_mini_bridge_three_players_scrap_a_deal(table):
    match_id = table.start_match("mini-bridge-3", ["Ann", "Bob", "Cy"], hands="2")
    page = table.page
    page.goto(f"{table.server}/m/{match_id}")

    # Hand 1, Ann deals: 12, 11, 10 leave dummy 7; Ann with dummy has 19, under 21.
    table.new_hand()
    table.no_horizontal_scroll()
    announce(table, 12, 11, 10)
    assert page.inner_text("#dummy-hcp") == "7"
    assert "Under 21: Ann may scrap the deal." in page.inner_text("#mb-live")
    table.tap("#scrap")
    page.wait_for_url("**/m/*")
    assert table.taps == 8  # open, six digits, scrap
    assert "New hand · Ann deals" in page.inner_text("#new-hand")

    # Hand 2, Ann deals again: 13, 10, 9 leave dummy 8; 21 may not be scrapped.
    table.new_hand()
    announce(table, 13, 10, 9)
    assert page.is_hidden("#scrap")
    table.tap_button("game", "no")
    table.tap_button("strain", "S")
    table.tap_button("tricks", "9")
    table.save()
    assert table.taps == 10  # open, five digits, GAME, strain, tricks, save

    scored = table.exported_score(match_id)
    assert [h["counted"] for h in scored["hands"]] == [False, True]
    assert table.page_totals() == {p: shown(t) for p, t in scored["totals"].items()}
    # Hand 1 scrapped: nothing. Hand 2: no GAME in S, 9 tricks: 3 × 30 = 90 to Ann alone.
    assert scored["totals"] == {"Ann": 90, "Bob": 0, "Cy": 0}
    table.no_horizontal_scroll()
    table.screenshot("mini-bridge-3-sheet")
    assert table.outside == []
