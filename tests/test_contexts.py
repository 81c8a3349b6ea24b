"""One English word in two senses gets a context (issue #26): the CSV column
"game" (the kind of game) is not Need a Fourth?'s contract category "game",
so translators can say them differently. English says the word as it was."""

from __future__ import annotations

import pickle
from pathlib import Path

from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from flask_babel import force_locale

from scorekeeper.speech import Said, _, english, listening, pgettext
from scorekeeper.viewmodels.downloads import CSV_HEADERS

ROOT = Path(__file__).resolve().parent.parent


class Pretend:
    """A pretend German catalog that tells the two senses of "game" apart."""

    def gettext(self, message):
        return {"game": "Vollspiel"}.get(message, message)

    def ngettext(self, singular, plural, n):
        return singular if n == 1 else plural

    def pgettext(self, context, message):
        return {("csv column", "game"): "Spiel"}.get((context, message), message)


def test_a_word_with_a_context_is_english_as_it_was_and_said_in_its_own_sense():
    column, category = pgettext("csv column", "game"), _("game")
    assert (english(column), english(category)) == ("game", "game")
    with listening(Pretend):
        assert (str(column), str(category)) == ("Spiel", "Vollspiel")


def test_a_kept_sentence_keeps_its_context():
    kept = pickle.loads(pickle.dumps(pgettext("csv column", "game")))
    assert isinstance(kept, Said)
    with listening(Pretend):
        assert str(kept) == "Spiel"
        assert str(kept.then(str.upper)) == "SPIEL"


def test_the_csv_column_is_english_as_it_was(app):
    with app.test_request_context(), force_locale("en"):
        assert str(CSV_HEADERS["game"]) == "game"


def extracted() -> set[tuple[str, str | None]]:
    """What the command of docs/languages.md (`pybabel extract -F babel.cfg
    -k lazy_gettext -k _l -k lazy_ngettext:1,2 -k lazy_pgettext:1c,2`)
    finds:
    (message, context)."""
    keywords = {
        **DEFAULT_KEYWORDS,
        "lazy_gettext": None,
        "_l": None,
        "lazy_ngettext": (1, 2),
        "lazy_pgettext": ((1, "c"), 2),
    }
    method_map = [
        ("scorekeeper/**.py", "python"),
        ("templates/**.html", "jinja2"),
        ("scorekeeper/games/**/templates/**.html", "jinja2"),
    ]
    found = set()
    for _file, _line, message, _comments, context in extract_from_dir(
        ROOT, method_map, keywords=keywords
    ):
        found.add((message if isinstance(message, str) else message[0], context))
    return found


def test_extraction_finds_the_contexts_and_the_messages_said_through_a_variable():
    found = extracted()
    assert ("game", "csv column") in found
    assert ("game", None) in found  # Need a Fourth?'s contract category
    assert ("Games", "games of a match") in found  # the heading of Calypso's games
    assert ("Games", None) in found  # the rubber sheet's row of games won
    assert ("%(typed)s is not %(what)s %(players)s", None) in found
    assert ("%(subject)s changed to %(summary)s (was: %(before)s)", None) in found
    assert ("Day played changed to %(day)s (was %(before)s)", None) in found


def test_calypsos_list_of_games_is_headed_games_in_english(actions):
    match_id = actions.start("calypso", ["Ann", "Bob", "Cy", "Dee"])
    assert "<h2>Games</h2>" in actions.page(f"/m/{match_id}")
