"""Pure modules say their sentences in the reader's language (scorekeeper/speech.py):
English as the value (the command line, the JSON, the tests), the reader's
language when a page shows it, decided when it is shown, not when it was made."""

from __future__ import annotations

import json
import pickle

from markupsafe import escape

from scorekeeper.speech import N_, Said, _, english, listening, ngettext


class Pretend:
    """A catalog in a pretend language: each sentence it knows, upper-cased by hand."""

    def __init__(self, known: dict):
        self.known = known

    def gettext(self, message):
        return self.known.get(message, message)

    def ngettext(self, singular, plural, n):
        forms = self.known.get(singular)
        if forms is None:
            return singular if n == 1 else plural
        return forms[0] if n == 1 else forms[1]


FRENCH = Pretend(
    {
        "%(dealer)s deals next": "%(dealer)s donne ensuite",
        "%(side)s: %(what)s": "%(side)s : %(what)s",
        "We": "Nous",
        "%(num)d overtrick": ("%(num)d levée de mieux", "%(num)d levées de mieux"),
        "passed out": "passe générale",
    }
)


def test_a_sentence_is_english_outside_a_request():
    line = _("%(dealer)s deals next", dealer="Ann")
    assert line == "Ann deals next"
    assert str(line) == "Ann deals next"
    assert f"{line}" == "Ann deals next"
    assert isinstance(line, str) and isinstance(line, Said)


def test_a_sentence_is_said_in_the_readers_language_when_shown():
    line = _("%(dealer)s deals next", dealer="Ann")  # made before anyone reads it
    with listening(lambda: FRENCH):
        assert str(line) == "Ann donne ensuite"
        assert f"[{line}]" == "[Ann donne ensuite]"
        assert "%s" % line == "Ann donne ensuite"  # noqa: UP031 - what a view may do
        assert escape(line) == "Ann donne ensuite"  # Jinja's {{ line }}
        # Its value stays English: the JSON and equality.
        assert json.dumps([line]) == '["Ann deals next"]'
        assert line == "Ann deals next"
        assert english(line) == "Ann deals next"
    assert str(line) == "Ann deals next"


def test_a_placeholder_that_is_a_sentence_is_said_in_the_same_language():
    line = _("%(side)s: %(what)s", side=_("We"), what=_("passed out"))
    assert line == "We: passed out"
    with listening(lambda: FRENCH):
        assert str(line) == "Nous : passe générale"


def test_a_count_picks_its_plural_form_in_each_language():
    one, three = (
        ngettext("%(num)d overtrick", "%(num)d overtricks", 1),
        ngettext("%(num)d overtrick", "%(num)d overtricks", 3),
    )
    assert (one, three) == ("1 overtrick", "3 overtricks")
    with listening(lambda: FRENCH):
        assert (str(one), str(three)) == ("1 levée de mieux", "3 levées de mieux")


def test_a_sentence_the_catalog_lacks_is_said_in_english():
    with listening(lambda: FRENCH):
        assert str(_("%(num)s tricks", num=7)) == "7 tricks"


def test_html_is_escaped_once_in_every_language():
    line = _("%(player)s deals next", player="<Ann & Bob>")
    assert escape(line) == "&lt;Ann &amp; Bob&gt; deals next"


def test_a_sentence_survives_a_pickle_and_says_itself_after():
    line = pickle.loads(pickle.dumps(_("%(dealer)s deals next", dealer="Ann")))
    with listening(lambda: FRENCH):
        assert str(line) == "Ann donne ensuite"


def test_a_marked_word_is_left_as_it_is():
    assert N_("We") == "We" and type(N_("We")) is str
    assert english("plain") == "plain"


def test_a_sentence_without_placeholders_keeps_its_percent_sign():
    assert _("100% of the rubber") == "100% of the rubber"
