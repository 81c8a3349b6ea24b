"""The Top Game's raise penalty where players read the match (issue 24, point 9):
the sheet marks the declarer's score, its key and the PDF say what the mark
means, the hand list says it. top-game.md: declarer −12, each opponent +6,
whatever the play, even when the playnumber passes the hand out."""

from __future__ import annotations

import pytest

from tests.webtools import texts

from .test_pdf import example, get_pdf, pages_text, store

PLAYERS = ["Ann", "Bob", "Cy"]
# Hand 1, Ann deals; Bob declares with 3 tops in hand but bid 2: pn 2 + 2 = 4 passes
# the hand out, and Bob did not raise. Hand 2, Bob deals; Cy makes 2S, no penalty.
PASSED_NOT_RAISED = {"declarer": "Bob", "bid": 2, "declarer_tops": 3, "dummy_tops": 2}
MADE = {"declarer": "Cy", "bid": 3, "dummy_tops": 2, "contract": "2S", "tricks": 8}


def document(*hands: dict) -> dict:
    return {"format": "scorekeeper-match/1", "variant": "top-game", "players": PLAYERS,
            "hands": list(hands)}  # fmt: skip


@pytest.fixture
def played(actions):
    return actions.imported(document(PASSED_NOT_RAISED, MADE))


def test_the_sheet_marks_the_declarers_score_and_the_hand_list_says_why(actions, played):
    page = actions.page(f"/m/{played}")
    [sheet_1, _] = texts(page, "half-sheet")
    assert sheet_1.startswith(
        "Sheet 1 (2 of 6 hands) # Ann Bob Cy"
        " 1 +6 2 · 2 · passed −12 † did not raise +6"
        " 2 −4 −4 3 · 2 · 2♠ +8"
    )
    assert texts(page, "hand-sum")[:2] == [
        "pn = 2 + 2 = 4 → 4 or less: the hand is passed out; Bob did not raise:"
        " −12, each opponent +6",
        "2♠ by Cy, made",
    ]


def test_the_key_says_what_the_mark_means(actions, played):
    [key] = texts(actions.page(f"/m/{played}"), "top-game-key")
    assert (
        " −12 † † Did not raise: the declarer held more tops than the final bid and scores −6"
        " against each opponent (declarer −12, each opponent +6), whatever the play, even"
        " when the playnumber passes the hand out."
    ) in key


def test_the_pdf_marks_the_score_and_says_what_the_mark_means(client):
    text = pages_text(get_pdf(client, store(client, document(PASSED_NOT_RAISED, MADE))))[0]
    assert "\n1 +6 2 · 2 · passed −12† +6\n" in text
    assert (
        "† Did not raise: the declarer held more tops than the final bid and scores −6"
        " against each opponent (declarer −12, each opponent +6), whatever the play, even"
        " when the playnumber passes the hand out."
    ) in " ".join(text.split())


def test_no_mark_and_no_footnote_without_a_penalty(client, actions):
    match_id = actions.imported(document(MADE))
    assert "†" not in "".join(texts(actions.page(f"/m/{match_id}"), "half-sheet"))
    assert "†" not in pages_text(get_pdf(client, store(client, document(MADE))))[0]


def test_the_example_marks_hand_5_alone(client):
    """examples/top-game.json: Bob held 4 tops on hand 5 and bid 2 (1NT made)."""
    text = pages_text(get_pdf(client, store(client, example("top-game"))))[0]
    assert "\n5 +6 −12† 2 · 3 · 1NT +6\n" in text
    assert text.count("†") == 2  # the mark and its footnote
