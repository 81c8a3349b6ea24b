"""Bridge for Three with four players, through the UI in Chromium, up to hole 11."""

import re

PLAYERS = ["Ann", "Bob", "Cy", "Di"]


def pegs_shown(pegs: dict[str, int]) -> dict[str, str]:
    """The Pegs table: plain numbers, a real minus sign for holes below 0."""
    return {p: f"−{-n}" if n < 0 else str(n) for p, n in pegs.items()}


def offered(page, field: str) -> list[str]:
    """The buttons of a group a player can actually tap."""
    return [
        label.inner_text()
        for label in page.query_selector_all(f"#group-{field} label")
        if label.is_visible()
    ]


def play_hand(table, declarer, level, strain, tricks, doubler=None):
    """Declarer, level, strain, tricks (a double behind its panel), save: the taps
    and scrolls it cost from the moment the previous hand was saved."""
    table.new_hand()
    table.tap_button("declarer", declarer)
    table.tap_button("level", str(level))
    table.tap_button("strain", strain)
    table.tap_button("tricks", str(tricks))
    if doubler:
        table.tap("#double-panel summary")
        table.tap_button("doubler", doubler)  # naming the doubler marks the double
    table.save()
    return table.taps + table.scrolls


def test_bridge_for_three_four_players_to_hole_11(table):
    match_id = table.start_match("bridge-for-three", PLAYERS)
    page = table.page
    page.goto(f"{table.server}/m/{match_id}")
    taps = {}

    # Hand 1: Ann deals, Ann, Bob and Cy play; Di sits out and is never offered.
    table.new_hand()
    assert "Sitting out: Di" in page.inner_text(".sitting-out")
    assert offered(page, "declarer") == ["Ann", "Bob", "Cy"]
    table.no_horizontal_scroll()
    taps["4S= (hand 1)"] = play_hand(table, "Ann", 4, "S", 10)

    # Hand 2: Bob deals, Ann sits out; all three pass.
    table.new_hand()
    assert offered(page, "declarer") == ["Bob", "Cy", "Di"]
    table.save("#quick-passed_out")
    taps["passed out (hand 2)"] = table.taps + table.scrolls

    # Hand 3: Cy deals, Bob sits out; Ann doubles Di's 3NT, which goes six down.
    table.new_hand()
    assert offered(page, "declarer") == ["Ann", "Cy", "Di"]  # seating order, whoever calls first
    taps["3NTX−6 (hand 3)"] = play_hand(table, "Di", 3, "NT", 3, doubler="Ann")

    # Hand 4: Di deals, Cy sits out; Ann makes 1C and reaches 11.
    table.new_hand()
    assert offered(page, "declarer") == ["Ann", "Bob", "Di"]
    table.tap_button("declarer", "Ann")
    table.tap_button("level", "1")
    table.tap_button("strain", "C")
    table.tap_button("tricks", "7")
    assert page.inner_text("#move-line").endswith("Ann reaches 11: game over.")
    table.save()
    taps["1C= (hand 4)"] = table.taps + table.scrolls
    # Taps and scrolls per hand; the next hand's form comes after each save.
    assert taps == {
        "4S= (hand 1)": 5,
        "passed out (hand 2)": 1,
        "3NTX−6 (hand 3)": 7,  # the double's panel and the doubler: two more taps
        "1C= (hand 4)": 5,
    }

    scored = table.exported_score(match_id)
    assert scored["finished"] is True
    assert scored["winners"] == ["Ann"]
    assert table.page_totals() == pegs_shown(scored["totals"])
    # Hand 1: 4S made, Ann +4 → 4. Hand 2: passed out, nobody moves.
    # Hand 3: 3NTX, 3 tricks = 6 down, doubled 2 × 6 = 12 back: Di 0 − 12 stops at −6,
    #   the 6 holes that did not fit move everyone else: Ann 10, Bob 6 (sitting out), Cy 6.
    # Hand 4: 1C made, Ann +1 → 11: Ann wins.
    assert scored["totals"] == {"Ann": 11, "Bob": 6, "Cy": 6, "Di": -6}
    assert page.inner_text(".winners") == "Winner: Ann"
    assert page.text_content(".peg-board .track.winner").split() == ["Ann", "★", "wins", "11"]
    assert "Di hit the floor: everyone else +6" in page.inner_text(".peg-log")
    table.no_horizontal_scroll()
    table.screenshot("bridge-for-three-sheet")

    # No fifth hand: the hand page sends the table back to the sheet.
    assert page.query_selector("#new-hand") is None
    page.goto(f"{table.server}/m/{match_id}/hand/new")
    assert re.search(rf"/m/{match_id}$", page.url)
    assert "The match is finished: no hand may follow." in page.inner_text(".flash")
    assert len(table.exported_score(match_id)["hands"]) == 4
    assert table.outside == []
