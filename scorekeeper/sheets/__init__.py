"""Score sheets: the replayed match laid out the way players draw it on paper.

A game's sheet (`GameKit.build_sheet`) is a plain view model (dicts and lists)
that both the web page and the PDF render with the same template,
`scorekeeper/games/<family>/templates/sheet.html`; the rows every sheet shares are built here.
Nothing here is stored: it is computed from the replay every time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..games.common import Outcome
from ..model import Match
from ..words import hand_label, hand_title, hand_words, minus_signs


def hand_rows(
    match: Match, outcome: Outcome, words: Callable[..., str] = hand_words
) -> list[dict[str, Any]]:
    """One row per entry of `hands`: what every sheet's hand log shows (`what`
    happened in a few words, `words(record, result)`: a game may say it its own
    way, as Calypso names a game of tallies by its dealer)."""
    return [
        {
            "number": result.number,  # the entry's place: addresses and anchors
            "label": hand_label(result),  # the hand's number as players read it
            # named only where the log shows it: an entry that is not a hand
            "title": "" if result.counted else hand_title(result),
            "dealer": result.dealer,
            "what": words(match.hands[result.number - 1], result),
            "counted": result.counted,
            "scores": [result.scores[p] for p in match.players],
            "explanation": [minus_signs(line) for line in result.explanation],
            "details": result.details,
            "record": match.hands[result.number - 1],
        }
        for result in outcome.hands
    ]


def running_rows(match: Match, outcome: Outcome) -> list[dict[str, Any]]:
    """Per-player running totals after each hand (the sheet of Need a Fourth?,
    Mini Bridge…): each row has the hand's scores and the totals so far."""
    totals = dict.fromkeys(match.players, 0)
    rows = []
    for result in outcome.hands:
        for player in match.players:
            totals[player] += result.scores[player]
        rows.append(
            {
                "number": result.number,
                "label": hand_label(result),
                "title": hand_title(result),
                "dealer": result.dealer,
                "counted": result.counted,
                "scores": [result.scores[p] for p in match.players],
                "running": [totals[p] for p in match.players],
                "details": result.details,
            }
        )
    return rows
