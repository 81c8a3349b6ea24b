"""Chicago (four-deal rounds): docs/variants/chicago.md."""

import pytest

from scorekeeper.variants import MatchError, replay

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]  # We: Ann & Cy, They: Bob & Dee
PASS = {"passed_out": True}


def play(*hands, options=None):
    return replay("chicago", PLAYERS, options or {}, list(hands))


def errors(*hands, options=None):
    with pytest.raises(MatchError) as caught:
        play(*hands, options=options)
    return caught.value.lines


def hand(declarer="Ann", contract="4S", tricks=10, **more):
    return {"declarer": declarer, "contract": contract, "tricks": tricks, **more}


def sides(we, they):
    return {"Ann": we, "Bob": they, "Cy": we, "Dee": they}


def entries(result):
    return [(e["side"], e["where"], e["points"], e["what"]) for e in result.details.entries]


PART = hand("Ann", "1C", 7)  # a small part score for We, to move to the next deal


# --- vulnerability from the deal's number in the round ----------------------------------


@pytest.mark.parametrize(
    "swap, expected",
    [
        pytest.param(False, [[], ["They"], ["We"], ["We", "They"]],
                     id="deal-1-none-2-3-dealer-4-both"),
        pytest.param(True, [[], ["We"], ["They"], ["We", "They"]],
                     id="swap-2-3-dealers-opponents"),
    ],
)  # fmt: skip
def test_vulnerability_by_deal(swap, expected):
    outcome = play(PART, PART, PART, PART, options={"swap_vulnerability": swap, "rounds": 2})
    assert [h.details.vulnerable for h in outcome.hands] == expected
    assert [h.details.deal for h in outcome.hands] == [1, 2, 3, 4]
    assert [h.dealer for h in outcome.hands] == PLAYERS
    assert outcome.upcoming.deal == 1
    assert outcome.upcoming.vulnerable == []


@pytest.mark.parametrize(
    "deals_before, declarer, bonus, text",
    [
        pytest.param(0, "Ann", 300, "We: game bonus, not vulnerable: 300 above", id="deal-1-300"),
        pytest.param(
            1, "Bob", 500, "They: game bonus, vulnerable: 500 above", id="deal-2-dealer-500"
        ),
        pytest.param(
            1, "Ann", 300, "We: game bonus, not vulnerable: 300 above", id="deal-2-other-300"
        ),
        pytest.param(2, "Cy", 500, "We: game bonus, vulnerable: 500 above", id="deal-3-dealer-500"),
        pytest.param(
            3, "Dee", 500, "They: game bonus, vulnerable: 500 above", id="deal-4-both-500"
        ),
    ],
)
def test_game_bonus_300_or_500_by_the_deals_vulnerability(deals_before, declarer, bonus, text):
    outcome = play(*[PART] * deals_before, hand(declarer, "4H", 10))
    last = outcome.hands[-1]
    side = 0 if declarer in ("Ann", "Cy") else 1
    assert entries(last) == [(side, "below", 120, "tricks"), (side, "above", bonus, "game bonus")]
    assert last.explanation[-1] == text
    assert last.details.game_won == side


def test_vulnerable_undertricks_follow_the_deal():
    # Deal 2, Bob deals: They are vulnerable, so 3NT down 2 costs 200.
    outcome = play(PART, hand("Dee", "3NT", 7))
    assert outcome.hands[1].scores == sides(200, 0)


def test_part_scores_build_a_game_and_then_both_are_wiped():
    outcome = play(hand("Ann", "2S", 8), hand("Bob", "2D", 8), hand("Cy", "2NT", 8))
    # We: 60 + 70 = 130 on deal 3 (Cy deals, We vulnerable): game, 500.
    assert entries(outcome.hands[2]) == [
        (0, "below", 70, "tricks"),
        (0, "above", 500, "game bonus"),
    ]
    assert outcome.hands[2].explanation[1] == "We: game (130 below the line)"
    assert outcome.upcoming.part_scores == [0, 0]  # They's 40 is wiped too
    assert outcome.upcoming.games == [1, 0]


def test_no_rubber_bonus_for_two_games():
    outcome = play(hand("Ann", "3NT", 9), hand("Cy", "3NT", 9))
    assert [entries(h) for h in outcome.hands] == [
        [(0, "below", 100, "tricks"), (0, "above", 300, "game bonus")],
        [(0, "below", 100, "tricks"), (0, "above", 300, "game bonus")],
    ]
    assert outcome.finished is False


@pytest.mark.parametrize(
    "before, last, expected",
    [
        pytest.param(
            [PART, PART, PART],
            hand("Bob", "2H", 8),
            [(1, "below", 60, "tricks"), (1, "above", 100, "part score")],
            id="deal-4-part-score-100",
        ),
        pytest.param(
            [PART, PART, hand("Dee", "2S", 8)],
            hand("Bob", "2H", 8),
            [(1, "below", 60, "tricks"), (1, "above", 500, "game bonus")],
            id="deal-4-part-score-completing-game-gets-the-game-bonus-not-100",
        ),
        pytest.param(
            [PART, PART, PART],
            hand("Bob", "2H", 7),
            [(0, "above", 100, "undertricks")],
            id="deal-4-defeated-contract-no-part-score-bonus",
        ),
        pytest.param(
            [PART, PART],
            hand("Bob", "2H", 8),
            [(1, "below", 60, "tricks")],
            id="deal-3-part-score-no-bonus",
        ),
    ],
)
def test_part_score_on_deal_4(before, last, expected):
    assert entries(play(*before, last).hands[-1]) == expected


def test_part_score_bonus_explanation():
    outcome = play(PART, PART, PART, hand("Bob", "2H", 8))
    assert outcome.hands[-1].explanation == [
        "They: 2H by Bob made: 2 × 30 = 60 below the line",
        "They: part score on deal 4: 100 above",
    ]


def test_part_scores_do_not_carry_to_the_next_round():
    outcome = play(
        PART, PART, PART, hand("Bob", "2H", 8), hand("Bob", "2H", 8), options={"rounds": 2}
    )
    assert outcome.hands[3].details.round_over is True
    fifth = outcome.hands[4]
    assert (fifth.dealer, fifth.details.round, fifth.details.deal) == ("Ann", 2, 1)
    assert entries(fifth) == [(1, "below", 60, "tricks")]
    assert outcome.upcoming.part_scores == [0, 60]


# --- passed out, rounds, the end marker ----------------------------------------------------


def test_passed_out_deal_is_redealt_by_the_same_dealer_and_not_counted():
    outcome = play(PART, PASS, hand("Bob", "4S", 10))
    passed = outcome.hands[1]
    assert (passed.dealer, passed.counted, passed.scores) == ("Bob", False, sides(0, 0))
    assert passed.explanation == ["passed out: not counted; Bob deals again"]
    assert passed.details.deal == 2
    redeal = outcome.hands[2]
    assert (redeal.dealer, redeal.details.deal, redeal.details.vulnerable) == (
        "Bob",
        2,
        ["They"],
    )


def test_round_is_four_counted_deals_and_finishes_the_match():
    outcome = play(PART, PASS, PART, PART, PART)
    assert outcome.finished is True
    assert outcome.totals == sides(4 * 20 + 100, 0)  # the 100: We' part score on deal 4
    assert outcome.winners == ["Ann", "Cy"]
    assert errors(PART, PART, PART, PART, PART) == [
        "hand 5: the match is already finished after hand 4; no hand may follow"
    ]


def test_rounds_option_and_unit_differences_per_round():
    first_round = [hand("Ann", "3NT", 9), PART, PART, hand("Bob", "2H", 8)]
    outcome = play(*first_round, hand("Dee", "1NT", 8), options={"rounds": 2})
    # Round 1: We 100 + 300 + 20 + 20 = 440, They 60 + 100 = 160. Round 2: They 40 + 30.
    assert outcome.summary.unit_differences == [280, -70]
    assert outcome.upcoming.round == 2
    assert outcome.finished is False


def test_end_marker_gives_no_bonus_for_an_unfinished_round():
    outcome = play(hand("Ann", "4S", 10), hand("Bob", "2H", 8), {"end": True})
    end = outcome.hands[-1]
    assert (end.dealer, end.counted, end.scores) == (None, False, sides(0, 0))
    assert end.explanation == ["The players stopped here.", "no bonus for an unfinished round"]
    assert outcome.finished is True
    assert outcome.summary.unit_differences == [360]


def test_upcoming():
    outcome = play(hand("Ann", "2S", 8), options={"swap_vulnerability": True})
    assert vars(outcome.upcoming) == {
        "dealer": "Bob",
        "number": 2,
        "dealer_after_passed_out": "Bob",  # Chicago: the same dealer deals again
        "vulnerable": ["We"],
        "round": 1,
        "game": 1,
        "games": [0, 0],
        "part_scores": [60, 0],
        "side_names": ["We", "They"],
        "sides": [["Ann", "Cy"], ["Bob", "Dee"]],
        "deal": 2,
        "rubber": None,
    }


@pytest.mark.parametrize(
    "options, line",
    [
        pytest.param(
            {"swap_vulnerability": 1},
            "options: swap_vulnerability: 1 is not true or false",
            id="swap-vulnerability-bool",
        ),
        pytest.param(
            {"rounds": 101},
            "options: rounds: 101 is not allowed; give a whole number 1–100",
            id="rounds-1-to-100",
        ),
        pytest.param(
            {"rubbers": 2},
            "options: rubbers: unknown option; allowed for chicago: "
            "rounds, round_to_hundreds, swap_vulnerability",
            id="rubbers-is-not-a-chicago-option",
        ),
    ],
)
def test_option_checks(options, line):
    assert errors(options=options) == [line]


def test_option_defaults():
    assert play().options == {"rounds": 1, "round_to_hundreds": True, "swap_vulnerability": False}


def test_hand_checks_are_shared_with_rubber():
    assert errors(hand("Ann", "3NT", 9, honors={"holder": "Bob", "points": 100})) == [
        "hand 1: honors: at NT only the four aces count, for 150, not 100"
    ]
