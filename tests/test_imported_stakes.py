"""Any stake a match file may hold can be saved again with a new title (issue 17,
point 15): the settings form takes every amount, `per` and currency the match
file takes, so the title of an imported match can always be changed."""

from __future__ import annotations

import json

import pytest

from tests.webtools import parse, visible_text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HUGE_PER = 10**4299  # 4300 digits: the longest whole number a JSON reader converts


def document(stake: dict, title: str = "Imported") -> dict:
    return {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "title": title,
        "players": PLAYERS,
        "stake": stake,
        "hands": [{"declarer": "Ann", "contract": "2H", "tricks": 8}],
    }


def form_values(page: str) -> dict[str, str]:
    """The settings form's text inputs as drawn (what the phone sends back)."""
    return {
        element.attrs["name"]: element.attrs.get("value") or ""
        for element in parse(page).find_all("input")
        if element.attrs.get("name", "").startswith(("title", "stake_"))
    }


# Stakes at each edge of what a match file takes, and how the file writes them back.
EXTREMES = [
    ({"amount": "999999.999999", "per": 1, "currency": "EUR"}, "999999.999999", 1, "EUR"),
    ({"amount": "0.000001", "per": 1000000, "currency": ""}, "0.000001", 1000000, ""),
    ({"amount": "0.10", "per": 1_000_000_000_000, "currency": "GBP"}, "0.10", 10**12, "GBP"),
    ({"amount": "1", "per": HUGE_PER, "currency": "X"}, "1.00", HUGE_PER, "X"),
    ({"amount": "0", "per": 1, "currency": "ABCDEFGHIJKL"}, "0.00", 1, "ABCDEFGHIJKL"),
    ({"amount": "000000000000000000000000000002.5"}, "2.50", 1, ""),
    ({"amount": "+.5", "per": 100, "currency": "  pts  "}, "0.50", 100, "pts"),
]


@pytest.mark.parametrize("stake, amount, per, currency", EXTREMES)
def test_the_title_of_a_match_with_any_valid_stake_can_be_changed(
    actions, stake, amount, per, currency
):
    match_id = actions.imported(json.dumps(document(stake)))
    stored = actions.document(match_id)["stake"]
    assert stored == {"amount": amount, "per": per, "currency": currency}
    page = actions.client.get(f"/m/{match_id}/settings")
    assert page.status_code == 200
    values = form_values(page.text)
    assert values == {
        "title": "Imported",
        "stake_amount": amount,
        "stake_per": str(per),
        "stake_currency": currency,
    }
    answer = actions.client.post(f"/m/{match_id}/settings", data={**values, "title": "Renamed"})
    assert answer.status_code == 302, visible_text(answer)[:500]
    saved = actions.document(match_id)
    assert saved["title"] == "Renamed"
    assert saved["stake"] == {"amount": amount, "per": per, "currency": currency}
    for page in (f"/m/{match_id}", f"/m/{match_id}/settle", f"/m/{match_id}/sheet.pdf"):
        assert actions.client.get(page).status_code == 200, page


def test_a_title_of_100_characters_from_a_file_is_kept_when_the_stake_changes(actions):
    title = "T" * 100
    match_id = actions.imported(
        json.dumps(document({"amount": "0.50", "per": 1000000}, title=title))
    )
    values = form_values(actions.client.get(f"/m/{match_id}/settings").text)
    assert values["title"] == title
    answer = actions.client.post(f"/m/{match_id}/settings", data={**values, "stake_per": "10"})
    assert answer.status_code == 302
    assert actions.document(match_id)["title"] == title
    assert actions.document(match_id)["stake"]["per"] == 10


@pytest.mark.parametrize(
    "field, typed, message",
    [
        ("stake_amount", "1000000", "'1000000' must be below 1000000 with at most 6 decimals"),
        ("stake_amount", "0.0000001", "'0.0000001' must be below 1000000 with at most 6 decimals"),
        ("stake_per", "0", "0 is not a positive whole number of points"),
        ("stake_per", "1" * 4301, "is not a positive whole number of points"),
    ],
)
def test_a_stake_beyond_what_a_match_file_takes_is_still_refused(actions, field, typed, message):
    match_id = actions.imported(json.dumps(document({"amount": "0.50"})))
    values = form_values(actions.client.get(f"/m/{match_id}/settings").text)
    answer = actions.client.post(f"/m/{match_id}/settings", data={**values, field: typed})
    assert answer.status_code == 200
    assert message in visible_text(answer)
    assert actions.document(match_id)["stake"] == {"amount": "0.50", "per": 1, "currency": ""}
