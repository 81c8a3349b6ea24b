"""Rubber, Honeymoon and Chicago through the web pages: hand form, We/They pad, rules pages.

Hands are posted exactly as the buttons send them (declarer, level, strain,
tricks; doubling and honours from the details panel; `quick` for passed out).
"""

import html
import json
import re

import pytest

FOUR = ["Ann", "Bob", "Cy", "Dee"]  # We: Ann & Cy, They: Bob & Dee


def start(client, variant="rubber", players=FOUR, rounding=True, **options):
    data = {"variant": variant, **{f"player{i}": p for i, p in enumerate(players, 1)}}
    if rounding:
        data["opt_round_to_hundreds"] = "y"
    data.update({f"opt_{k}": str(v) for k, v in options.items()})
    response = client.post("/new", data=data)
    assert response.status_code == 302
    match_id = re.search(r"/m/([\w-]{16})/hand/new", response.headers["Location"]).group(1)
    return match_id


def play(client, match_id, declarer, contract_bid, tricks, **more):
    """Post one hand as the buttons do: `contract_bid` like "4S" or "3NT"."""
    level, strain = contract_bid[0], contract_bid[1:]
    data = {"declarer": declarer, "level": level, "strain": strain, "tricks": str(tricks), **more}
    response = client.post(f"/m/{match_id}/hand/new", data=data)
    assert response.status_code == 302, text(response)
    return int(re.search(r"hand=(\d+)", response.headers["Location"]).group(1))


def passed_out(client, match_id):
    response = client.post(f"/m/{match_id}/hand/new", data={"quick": "passed_out"})
    assert response.status_code == 302
    return response


def text(response):
    return html.unescape(response.get_data(as_text=True))


def stored_hands(client, match_id):
    return json.loads(client.get(f"/m/{match_id}/match.json").get_data(as_text=True))["hands"]


def pads(client, match_id):
    """Each pad block as {"above": rows top to bottom, "below": rows, "total", "difference"};
    a cell is (hand, points, label) or None."""
    page = client.get(f"/m/{match_id}").get_data(as_text=True)
    blocks = []
    for block in page.split('<div class="pad"')[1:]:
        above, below = block.split('<tr class="the-line">')

        def rows(part):
            found = []
            for row in re.findall(r"<tr>(.*?)</tr>", part, re.S):
                cells = re.findall(r'<td class="entry">(.*?)</td>', row, re.S)
                if len(cells) != 2:
                    continue
                found.append([cell(c) for c in cells])
            return [r for r in found if r != [None, None]]

        total = re.search(
            r'<tr class="total"><td class="num">(\d+)</td><td class="num">(\d+)', below
        )
        difference = re.search(r'<tr class="difference"><td colspan="2">(.*?)</td>', below, re.S)
        rules = re.findall(r'<tr class="game-rule"><td colspan="2">(.*?)</td>', below)
        blocks.append(
            {
                "above": rows(above),
                "below": rows(below.split("<tfoot>")[0]),
                "game_rules": rules,
                "total": [int(total.group(1)), int(total.group(2))],
                "difference": " ".join(html.unescape(difference.group(1)).split()),
            }
        )
    return blocks


def cell(content):
    if not content.strip():
        return None
    found = re.match(
        r'<a href="#hand-(\d+)" data-hand="\d+">(\d+)<span class="note">#\d+ ([^<]+)</span></a>',
        content,
    )
    assert found, content
    return int(found.group(1)), int(found.group(2)), found.group(3)


def checked(page, name):
    """Values of the radio buttons of `name` that are checked on a form page."""
    return re.findall(rf'name="{name}" id="[^"]+" value="([^"]*)"\s*checked', page)


# --- a rubber from the first tap to the pad --------------------------------------------


def test_hand_page_shows_dealer_vulnerability_games_and_part_scores_before_any_tap(client):
    match_id = start(client)
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "<strong>Ann</strong> deals" in page
    assert "rubber 1, game 1" in page
    assert "Nobody is vulnerable." in page
    assert "Passed out" in page and "Bob deals next" in page

    play(client, match_id, "Ann", "4H", 10)  # game for We
    play(client, match_id, "Bob", "2D", 8)  # They 40 below
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "<strong>Cy</strong> deals" in page
    assert "rubber 1, game 2" in page
    assert "We (Ann & Cy) are vulnerable." in page
    state = re.search(r'<table class="score rubber-state">(.*?)</table>', page, re.S).group(1)
    assert re.findall(r'<td class="(?:vul)?">(yes|—)</td>', state) == ["yes", "—"]
    assert re.findall(r'<td class="num">(\d+)</td>', state) == ["1", "0", "0", "40"]
    # Only the four players may declare; tricks 0–13; no doubling needed for a typical hand.
    assert re.findall(r'name="declarer" id="[^"]+" value="([^"]+)"', page) == FOUR
    assert re.findall(r'name="tricks" id="[^"]+" value="(\d+)"', page) == [
        str(n) for n in range(14)
    ]
    assert '<details class="more" >' in page  # doubling and honours stay folded away


def test_typical_rubber_draws_the_pad_with_game_lines_and_rubber_total(client):
    match_id = start(client)
    play(client, match_id, "Ann", "2H", 9)  # We 60 below, 30 above
    play(client, match_id, "Bob", "3NT", 9)  # They 100 below: game 1
    play(client, match_id, "Cy", "4S", 9, doubling="X")  # down 1 doubled, not vul: They 100
    passed_out(client, match_id)
    play(client, match_id, "Ann", "3D", 9)  # We 60 below
    # We 60 below = 120: game 2; honours for They
    play(client, match_id, "Cy", "2S", 9, honours_holder="Bob", honours_points="100")
    play(client, match_id, "Dee", "4H", 11)  # They game 3 and the rubber, 500

    [pad] = pads(client, match_id)
    # Above the line, read upwards: the first entry sits nearest the line (last row).
    assert pad["above"] == [
        [None, (7, 500, "rubber")],
        [None, (7, 30, "over")],
        [(6, 30, "over"), (6, 100, "honours")],
        [(1, 30, "over"), (3, 100, "down")],
    ]
    assert pad["below"] == [
        [(1, 60, "tricks"), (2, 100, "tricks")],
        [(5, 60, "tricks"), None],
        [(6, 60, "tricks"), None],
        [None, (7, 120, "tricks")],
    ]
    assert pad["game_rules"] == ["game 1 to They", "game 2 to We", "game 3 to They"]
    assert pad["total"] == [240, 950]
    assert pad["difference"] == "They +710 · rounded They +700"

    page = text(client.get(f"/m/{match_id}"))
    assert "Rubber 1" in page and "won by They 2–1" in page
    assert 'Passed out: <a href="#hand-4" data-hand="4">#4</a>' in page
    assert '<details id="hand-7"' in page  # every pad entry links to a hand in the log
    assert "Match finished" in page


def test_round_to_hundreds_off_shows_only_the_difference(client):
    match_id = start(client, rounding=False)
    play(client, match_id, "Bob", "2NT", 9)  # They 70 below, 30 above
    [pad] = pads(client, match_id)
    assert pad["total"] == [0, 100]
    assert pad["difference"] == "They +100"


def test_two_rubbers_get_a_block_each_and_a_settled_total(client):
    match_id = start(client, rubbers=2)
    play(client, match_id, "Ann", "4S", 10)
    play(client, match_id, "Cy", "3NT", 9)  # We win rubber 1 2–0: 700
    play(client, match_id, "Bob", "1C", 8)  # rubber 2: They 20 below, 20 above
    first, second = pads(client, match_id)
    assert first["total"] == [920, 0]
    assert first["difference"] == "We +920 · rounded We +900"
    assert second["above"] == [[None, (3, 20, "over")]]
    assert second["below"] == [[None, (3, 20, "tricks")]]
    assert second["total"] == [0, 40]
    assert second["difference"] == "They +40 · rounded 0"
    page = text(client.get(f"/m/{match_id}"))
    assert "We +880 · settled on rounded rubbers: We +900" in " ".join(page.split())


def test_stopping_early_writes_the_unfinished_rubber_bonuses_on_the_pad(client):
    match_id = start(client)
    play(client, match_id, "Ann", "4S", 10)  # We one game
    play(client, match_id, "Bob", "2C", 8)  # They part score 40
    assert client.post(f"/m/{match_id}/end").status_code == 302
    [pad] = pads(client, match_id)
    assert pad["above"] == [[(3, 300, "unfinished"), (3, 100, "unfinished")]]
    assert pad["total"] == [420, 140]


# --- doubling, honours, passed out --------------------------------------------------


def test_redoubled_contract_and_honours_from_the_details_panel(client):
    match_id = start(client)
    play(
        client, match_id, "Bob", "1H", 8, doubling="XX", honours_holder="Ann", honours_points="150"
    )
    assert stored_hands(client, match_id) == [
        {
            "declarer": "Bob",
            "contract": "1HXX",
            "tricks": 8,
            "honors": {"holder": "Ann", "points": 150},
        }
    ]
    [pad] = pads(client, match_id)
    # 1H redoubled = 120 below (game), 1 redoubled overtrick 200, 100 for the redouble.
    assert pad["below"] == [[None, (1, 120, "tricks")]]
    assert pad["above"] == [
        [None, (1, 100, "insult")],
        [(1, 150, "honours"), (1, 200, "over")],
    ]


def test_honours_holder_alone_at_no_trumps_scores_the_four_aces(client):
    match_id = start(client)
    play(client, match_id, "Ann", "3NT", 9, honours_holder="Dee")
    assert stored_hands(client, match_id)[0]["honors"] == {"holder": "Dee", "points": 150}
    [pad] = pads(client, match_id)
    assert pad["above"] == [[None, (1, 150, "honours")]]


def test_passed_out_is_one_tap_and_the_deal_moves_on_in_rubber(client):
    match_id = start(client)
    passed_out(client, match_id)
    assert stored_hands(client, match_id) == [{"passed_out": True}]
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "<strong>Bob</strong> deals" in page
    assert "Cy deals next" in page


def test_passed_out_in_chicago_says_the_same_dealer_deals_again(client):
    match_id = start(client, variant="chicago")
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "Ann deals again" in page
    passed_out(client, match_id)
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "<strong>Ann</strong> deals" in page and "deal 1 of 4" in page
    assert "passed out, Ann deals again" in text(client.get(f"/m/{match_id}"))


# --- Chicago and Honeymoon -------------------------------------------------------------


def test_chicago_round_shows_deals_with_vulnerability_and_round_total(client):
    match_id = start(client, variant="chicago")
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "round 1, <strong>deal 1 of 4</strong>" in page
    play(client, match_id, "Ann", "4H", 10)  # deal 1: game, 300
    passed_out(client, match_id)  # deal 2 dealt again
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "deal 2 of 4" in page
    assert "They (Bob & Dee) are vulnerable on this deal." in page
    play(client, match_id, "Bob", "2S", 8)  # deal 2: They 60 below
    play(client, match_id, "Cy", "3NT", 8)  # deal 3: We vul, down 1: They 100
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "Both sides are vulnerable on this deal." in page
    play(client, match_id, "Dee", "3C", 10)  # deal 4: game, vulnerable 500

    page = text(client.get(f"/m/{match_id}"))
    deals = re.findall(
        r'<td class="no"><a href="#hand-(\d+)" data-hand="\d+">(\d)</a></td>\s*'
        r"<td>(\w+)</td>\s*<td[^>]*>([^<]+)</td>\s*<td>([^<]+)</td>",
        page,
    )
    assert deals == [
        ("1", "1", "Ann", "—", "4♥ Ann ="),
        ("2", "2", "Bob", "They", "passed out, Bob deals again"),
        ("3", "2", "Bob", "They", "2♠ Bob ="),
        ("4", "3", "Cy", "We", "3NT Cy −1"),
        ("5", "4", "Dee", "both", "3♣ Dee +1"),
    ]
    [pad] = pads(client, match_id)
    assert pad["above"] == [
        [None, (5, 500, "game")],
        [None, (5, 20, "over")],
        [(1, 300, "game"), (4, 100, "down")],
    ]
    assert pad["game_rules"] == ["game 1 to We", "game 2 to They"]
    assert pad["total"] == [420, 740]
    assert pad["difference"] == "They +320 · rounded They +300"
    assert "Round 1" in page and "complete" in page


def test_chicago_part_score_on_deal_four_scores_100(client):
    match_id = start(client, variant="chicago")
    for declarer in ("Ann", "Bob", "Cy"):  # three quiet deals: 1C made exactly by each
        play(client, match_id, declarer, "1C", 7)
    play(client, match_id, "Dee", "1NT", 7)  # They 20 + 40 below: no game
    [pad] = pads(client, match_id)
    assert pad["above"] == [[None, (4, 100, "part score")]]
    assert pad["total"] == [40, 160]


def test_honeymoon_pad_has_a_column_per_player(client):
    match_id = start(client, variant="honeymoon", players=["Ann", "Bob"])
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert re.findall(r'name="declarer" id="[^"]+" value="([^"]+)"', page) == ["Ann", "Bob"]
    assert "Bob deals next" in page
    play(client, match_id, "Ann", "6NT", 12, honours_holder="Ann")
    play(client, match_id, "Bob", "4H", 7, doubling="XX")
    page = text(client.get(f"/m/{match_id}"))
    assert (
        '<thead><tr><th>Ann<span class="vul-mark">vulnerable</span></th><th>Bob</th></tr>' in page
    )
    [pad] = pads(client, match_id)
    assert pad["above"] == [
        [(2, 1000, "down"), None],
        [(1, 150, "honours"), None],
        [(1, 500, "slam"), None],
    ]
    assert pad["below"] == [[(1, 190, "tricks"), None]]
    assert pad["total"] == [1840, 0]
    assert pad["difference"] == "Ann +1840 · rounded Ann +1800"
    page = text(client.get(f"/m/{match_id}/hand/new"))
    assert "Ann is vulnerable." in page


# --- editing ---------------------------------------------------------------------------


def test_edit_shows_the_old_choices_and_saving_changes_the_pad(client):
    match_id = start(client)
    hand_id = play(
        client, match_id, "Cy", "4S", 9, doubling="X", honours_holder="Dee", honours_points="100"
    )
    page = client.get(f"/m/{match_id}/hand/{hand_id}").get_data(as_text=True)
    assert checked(page, "declarer") == ["Cy"]
    assert checked(page, "level") == ["4"]
    assert checked(page, "strain") == ["S"]
    assert checked(page, "tricks") == ["9"]
    assert checked(page, "doubling") == ["X"]
    assert checked(page, "honours_holder") == ["Dee"]
    assert checked(page, "honours_points") == ["100"]
    assert '<details class="more" open>' in page

    response = client.post(
        f"/m/{match_id}/hand/{hand_id}",
        data={"declarer": "Cy", "level": "4", "strain": "S", "tricks": "10"},
    )
    assert response.status_code == 302
    assert stored_hands(client, match_id) == [{"declarer": "Cy", "contract": "4S", "tricks": 10}]
    [pad] = pads(client, match_id)
    assert pad["below"] == [[(1, 120, "tricks"), None]]
    assert pad["above"] == []
    assert pad["total"] == [120, 0]


def test_editing_a_passed_out_hand_says_so(client):
    match_id = start(client)
    passed_out(client, match_id)
    hand_id = re.search(r"/hand/(\d+)\"", client.get(f"/m/{match_id}").get_data(as_text=True))
    page = text(client.get(f"/m/{match_id}/hand/{hand_id.group(1)}"))
    assert "This hand was passed out." in page


def test_an_edit_that_would_end_the_rubber_before_later_hands_is_refused(client):
    match_id = start(client)
    play(client, match_id, "Ann", "4S", 10)  # We game 1
    second = play(client, match_id, "Bob", "1C", 7)  # They part score
    play(client, match_id, "Cy", "1D", 7)  # We part score
    before = stored_hands(client, match_id)
    response = client.post(
        f"/m/{match_id}/hand/{second}",
        data={"declarer": "Ann", "level": "3", "strain": "NT", "tricks": "9"},
    )
    assert response.status_code == 200
    page = text(response)
    assert "Not saved." in page
    assert "hand 3: the match is already finished after hand 2; no hand may follow" in page
    assert stored_hands(client, match_id) == before


# --- form errors: the message is shown and nothing is stored ------------------------------


@pytest.mark.parametrize(
    "data, field, message",
    [
        pytest.param(
            {"level": "4", "strain": "S", "tricks": "10"},
            "declarer",
            "missing; give one of Ann, Bob, Cy, Dee",
            id="no-declarer",
        ),
        pytest.param(
            {"declarer": "Zed", "level": "4", "strain": "S", "tricks": "10"},
            "declarer",
            "'Zed' is not one of Ann, Bob, Cy, Dee",
            id="unknown-declarer",
        ),
        pytest.param(
            {"declarer": "Ann", "tricks": "10"},
            "strain",
            "missing; give a contract like 4S, 3NTX or 6HXX",
            id="no-contract",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "tricks": "10"},
            "strain",
            "'4' is not a contract like 4S, 3NTX or 6HXX",
            id="level-without-strain",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "8", "strain": "S", "tricks": "10"},
            "strain",
            "level 8 is not allowed, use 1–7",
            id="level-8",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S"},
            "tricks",
            "missing; give a whole number 0–13",
            id="no-tricks",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "14"},
            "tricks",
            "14 is out of range; allowed 0–13",
            id="tricks-14",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "3", "strain": "NT", "tricks": "9",
             "honours_holder": "Ann", "honours_points": "100"},
            "honours_holder",
            "at NT only the four aces count, for 150, not 100",
            id="honours-100-at-nt",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10",
             "honours_points": "100"},
            "honours_holder",
            'give {"holder": player, "points": 100 or 150}',
            id="honours-without-holder",
        ),
        pytest.param(
            {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10",
             "honours_holder": "Ann", "honours_points": "120"},
            "honours_holder",
            "points 120 is not allowed; give 100 or 150",
            id="honours-120",
        ),
    ],
)  # fmt: skip
def test_bad_input_is_shown_on_its_field_and_nothing_is_stored(client, data, field, message):
    match_id = start(client)
    play(client, match_id, "Ann", "1C", 7)
    before = stored_hands(client, match_id)
    response = client.post(f"/m/{match_id}/hand/new", data=data)
    assert response.status_code == 200
    page = text(response)
    group = re.search(rf'<fieldset [^>]*id="group-{field}".*?</fieldset>', page, re.S).group(0)
    assert f'<p class="error">{message}</p>' in group
    assert "Save hand 2" in page
    assert stored_hands(client, match_id) == before


def test_honours_error_opens_the_details_panel(client):
    match_id = start(client)
    response = client.post(
        f"/m/{match_id}/hand/new",
        data={
            "declarer": "Ann",
            "level": "4",
            "strain": "S",
            "tricks": "10",
            "honours_points": "100",
        },
    )
    assert '<details class="more" open>' in response.get_data(as_text=True)
    assert stored_hands(client, match_id) == []


def test_unknown_quick_action_is_refused(client):
    match_id = start(client)
    response = client.post(f"/m/{match_id}/hand/new", data={"quick": "redeal"})
    assert response.status_code == 400
    assert stored_hands(client, match_id) == []


def test_no_hand_after_the_match_is_finished(client):
    match_id = start(client)
    play(client, match_id, "Ann", "4S", 10)
    play(client, match_id, "Cy", "4S", 10)  # rubber over
    response = client.get(f"/m/{match_id}/hand/new")
    assert response.status_code == 302
    response = client.post(
        f"/m/{match_id}/hand/new",
        data={"declarer": "Bob", "level": "1", "strain": "C", "tricks": "7"},
    )
    assert response.status_code == 302
    assert len(stored_hands(client, match_id)) == 2
    follow = text(client.get(f"/m/{match_id}"))
    assert "The match is finished: no hand may follow." in follow


# --- rules pages -----------------------------------------------------------------------


COMMON_DECISIONS = [
    "the Laws say 30, and so do we",
    "Honours may be scored on any hand that was played",
    "in no trumps only 150 (the four aces)",
    "uses the vulnerability as it stood before the hand was played",
    "an exact half rounds away from zero (+550 → 600, −550 → −600)",
]


@pytest.mark.parametrize(
    "variant, paragraphs, decisions",
    [
        pytest.param(
            "rubber",
            6,
            [
                "A match is 1 to 100 rubbers.",
                "it scores nothing and the deal moves on to the next player",
                "300 for a side with one game, 100 for a side with a part score",
            ],
            id="rubber",
        ),
        pytest.param(
            "honeymoon",
            6,
            [
                "A match is 1 to 100 rubbers.",
                "the other player deals next",
                "300 for a side with one game, 100 for a side with a part score",
            ],
            id="honeymoon",
        ),
        pytest.param(
            "chicago",
            7,
            [
                "A match is 1 to 100 rounds.",
                "the same dealer deals again and the deal keeps its number",
                "When you stop in the middle of a round, nothing extra is scored",
                "The 100 on deal 4 goes only to a side that made a contract on that deal",
            ],
            id="chicago",
        ),
    ],
)
def test_rules_page_shows_every_decision(client, variant, paragraphs, decisions):
    response = client.get(f"/rules/{variant}")
    assert response.status_code == 200
    page = text(response)
    shown = " ".join(
        " ".join(d.split()) for d in re.findall(r'<p class="decision">(.*?)</p>', page, re.S)
    )
    for decision in COMMON_DECISIONS + decisions:
        assert decision in shown
    assert page.count('<p class="decision">') == paragraphs
