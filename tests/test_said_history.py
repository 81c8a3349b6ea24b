"""The history's lines and the settings' refusal are said in the reader's
language (issue #26): the day played's line and its refusal, and an undone
change's line, whose words keep their capitals in a language that writes nouns
with one. English stays as it was, word for word."""

from __future__ import annotations

import pickle
from datetime import date

from scorekeeper.changelog import (
    DELETE,
    SETTINGS,
    Change,
    Entry,
    describe,
    played_problem,
    played_summary,
    said_summary,
)
from scorekeeper.speech import english, listening


class Pretend:
    """A catalog in a pretend German: each sentence it knows, translated by hand."""

    def __init__(self, known: dict):
        self.known = known

    def gettext(self, message):
        return self.known.get(message, message)

    def ngettext(self, singular, plural, n):
        return singular if n == 1 else plural


GERMAN = Pretend(
    {
        "Day played changed to %(day)s (was %(before)s)": (
            "Spieltag geändert auf %(day)s (vorher %(before)s)"
        ),
        "an unknown day": "ein unbekannter Tag",
        "%(settings)s. %(played)s": "%(settings)s. %(played)s",
        "No title, no stake": "Kein Titel, kein Einsatz",
        "give a real day, written like 2026-11-20.": (
            "gib einen echten Tag an, geschrieben wie 2026-11-20."
        ),
    }
)

FRIDAY, THE_20TH = date(2026, 11, 27), date(2026, 11, 20)
STORED = "No title, no stake. Day played changed to Friday 20 November 2026 (was an unknown day)"


def test_the_day_played_line_is_english_as_it_was():
    line = played_summary(THE_20TH, FRIDAY)
    assert english(line) == (
        "Day played changed to Friday 20 November 2026 (was Friday 27 November 2026)"
    )
    assert str(line) == english(line)


def test_the_day_played_line_is_said_in_the_readers_language():
    with listening(lambda: GERMAN):
        assert str(played_summary(THE_20TH, None)) == (
            "Spieltag geändert auf Friday 20 November 2026 (vorher ein unbekannter Tag)"
        )


def test_a_stored_settings_change_with_a_new_day_is_said_again_in_the_readers_language():
    change = Change(revision=2, kind=SETTINGS, settings={"played": "2026-11-20"}, summary=STORED)
    said = said_summary(change)
    assert said == STORED
    with listening(lambda: GERMAN):
        assert str(said) == (
            "Kein Titel, kein Einsatz. Spieltag geändert auf Friday 20 November 2026 "
            "(vorher ein unbekannter Tag)"
        )


def test_the_refusal_of_a_day_that_is_not_real_is_said_in_the_readers_language():
    problem = played_problem()
    assert (problem.field, problem.message) == (
        "played",
        "give a real day, written like 2026-11-20.",
    )
    with listening(lambda: GERMAN):
        assert str(problem.message) == "gib einen echten Tag an, geschrieben wie 2026-11-20."


UNDONE_DELETE = Change(revision=5, kind=DELETE, hand=3, undoes=4, hand_number=3, counted=True)
GERMAN_UNDO = Pretend(
    {
        "Undo: %(what)s": "Rückgängig: %(what)s",
        "%(subject)s deleted (it was: %(before)s)": "%(subject)s gelöscht (war: %(before)s)",
        "Hand %(number)s": "Hand %(number)s",
        "unknown": "unbekannt",
    }
)


def test_an_undone_line_lowers_its_first_letter_in_english_as_it_did():
    line = describe(Entry(UNDONE_DELETE, number=3))
    assert line == "Undo: hand 3 deleted (it was: unknown)"
    assert str(line) == "Undo: hand 3 deleted (it was: unknown)"


def test_an_undone_line_keeps_the_capital_of_a_german_noun():
    line = describe(Entry(UNDONE_DELETE, number=3))
    with listening(lambda: GERMAN_UNDO):
        assert str(line) == "Rückgängig: Hand 3 gelöscht (war: unbekannt)"


def test_an_undone_line_without_a_translation_of_its_own_is_lowered_as_english_is():
    """German with the undo sentence translated but not the line undone: that
    line is said in English, so its first letter is lowered as in English."""
    only_undo = Pretend({"Undo: %(what)s": "Rückgängig: %(what)s"})
    line = describe(Entry(UNDONE_DELETE, number=3))
    with listening(lambda: only_undo):
        assert str(line) == "Rückgängig: hand 3 deleted (it was: unknown)"


def test_a_kept_undone_line_keeps_saying_each_language_its_way():
    line = pickle.loads(pickle.dumps(describe(Entry(UNDONE_DELETE, number=3))))
    assert str(line) == "Undo: hand 3 deleted (it was: unknown)"
    with listening(lambda: GERMAN_UNDO):
        assert str(line) == "Rückgängig: Hand 3 gelöscht (war: unbekannt)"
