"""Pure modules say their sentences in the reader's language (scorekeeper/speech.py):
English as the value (the command line, the JSON, the tests), the reader's
language when a page shows it, decided when it is shown, not when it was made."""

from __future__ import annotations

import json
import pickle
import re

import pytest
from flask_babel import get_locale
from markupsafe import escape

from scorekeeper.speech import N_, InEnglish, Said, _, english, listening, ngettext, said
from scorekeeper.views import language


class Pretend:
    """A catalog in a pretend language: each sentence it knows, upper-cased by hand."""

    def __init__(self, known: dict):
        self.known = known

    def gettext(self, message):
        return self.known.get(message, message)

    def pgettext(self, context, message):
        return self.known.get((context, message), message)

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
        ("scores equal", "Level"): "À égalité",
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


def test_a_change_made_to_a_sentence_applies_in_every_language():
    line = _("%(side)s: %(what)s", side=_("We"), what="Ann -4").then(str.upper)
    assert line == "WE: ANN -4"
    with listening(lambda: FRENCH):
        assert str(line) == "NOUS : ANN -4"
        assert str(pickle.loads(pickle.dumps(line.then(str.lower)))) == "nous : ann -4"


def _built(said: Said, *changes) -> Said:
    """`said` with `changes` made the long way: built again from its parts."""
    then = (*said._then, *changes)
    return Said(said._message, said._plural, said._num, said._named, then, said._context)


@pytest.mark.parametrize(
    "line",
    [
        _("%(side)s: %(what)s", side=_("We"), what="Ann -4"),
        ngettext("%(num)d overtrick", "%(num)d overtricks", 2),
        ngettext("%(num)d overtrick", "%(num)d overtricks", 1),
        Said("Level", context="scores equal"),
        _("%(dealer)s deals next", dealer=_("We").then(str.lower)),
        _("100% of the rubber"),
    ],
)
def test_a_change_made_to_a_sentence_says_what_building_it_with_the_change_says(line):
    """`then` works the new English out from the sentence's own (every change
    applies in English) instead of from the message again: the same sentence."""
    for changes in ((str.upper,), (str.upper, str.swapcase), (InEnglish(str.lower),)):
        made = line
        for change in changes:
            made = made.then(
                change.change if isinstance(change, InEnglish) else change,
                english_only=isinstance(change, InEnglish),
            )
        built = _built(line, *changes)
        assert str.__str__(made) == str.__str__(built)
        assert made._then == built._then
        assert (made._message, made._plural, made._num, made._named, made._context) == (
            built._message,
            built._plural,
            built._num,
            built._named,
            built._context,
        )
        with listening(lambda: FRENCH):
            assert str(made) == str(built)


# --- on the pages: each phone reads the same kept replay in its own language ----------

PRETEND_FRENCH = Pretend(
    {
        "%(side)s: %(what)s": "%(side)s : %(what)s",
        "We": "Nous",
        "%(contract)s by %(declarer)s": "%(contract)s par %(declarer)s",
        "%(played)s made: %(how)s below the line": "%(played)s réussi : %(how)s sous la ligne",
        "%(num)d overtrick (%(kind)s): %(sum)s above the line": (
            "%(num)d levée de mieux (%(kind)s) : %(sum)s au-dessus",
            "%(num)d levées de mieux (%(kind)s) : %(sum)s au-dessus",
        ),
        "undoubled": "non contré",
        "Hand %(number)s": "Donne %(number)s",
        "%(subject)s saved: %(summary)s": "%(subject)s enregistrée : %(summary)s",
        "%(contract)s by %(declarer)s, made": "%(contract)s par %(declarer)s, réussi",
        "Match started: %(name)s, %(players)s": "Partie commencée : %(name)s, %(players)s",
        "Rubber bridge": "Bridge rubber",
        "playnumber %(pn)d is above %(most)d, so nobody may double": (
            "playnumber %(pn)d au-dessus de %(most)d : personne ne contre"
        ),
    }
)


@pytest.fixture
def pretend_french(monkeypatch):
    """The French catalog lacks the rules' sentences until the translators fill
    it: a French phone gets the pretend one (the pages' own words stay French)."""
    real = language.get_translations

    def translations():
        return PRETEND_FRENCH if str(get_locale()) == "fr" else real()

    monkeypatch.setattr(language, "get_translations", translations)


EXPLANATION = re.compile(r'<ul class="explanation">(.*?)</ul>', re.S)


def test_a_kept_replay_is_read_by_each_phone_in_its_own_language(client, actions, pretend_french):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    actions.save_hand(match_id, {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "8"})
    client.set_cookie("lang", "fr")
    french = EXPLANATION.search(client.get(f"/m/{match_id}").get_data(as_text=True)).group(1)
    assert french == (
        "<li>Nous : 1C par Ann réussi : 1 × 20 = 20 sous la ligne</li>"
        "<li>Nous : 1 levée de mieux (non contré) : 20 au-dessus</li>"
    )
    client.set_cookie("lang", "en")
    english = EXPLANATION.search(client.get(f"/m/{match_id}").get_data(as_text=True)).group(1)
    assert english == (
        "<li>We: 1C by Ann made: 1 × 20 = 20 below the line</li>"
        "<li>We: 1 overtrick (undoubled): 20 above the line</li>"
    )
    # The match file, the score JSON, stays English whatever the phone reads.
    client.set_cookie("lang", "fr")
    assert "Nous" not in client.get(f"/m/{match_id}/match.json").get_data(as_text=True)


def test_the_sentences_a_script_reads_are_said_before_they_become_json():
    facts = {"refused": {7: {"X": _("%(dealer)s deals next", dealer="Ann")}}, "n": [1, "P"]}
    with listening(lambda: FRENCH):
        assert json.dumps(said(facts)) == (
            '{"refused": {"7": {"X": "Ann donne ensuite"}}, "n": [1, "P"]}'
        )
    assert said(facts) == {"refused": {7: {"X": "Ann deals next"}}, "n": [1, "P"]}


WHAT = re.compile(r'<p class="what">(.*?)</p>')


def test_the_history_is_said_again_in_each_phones_language(client, actions, pretend_french):
    """The store keeps each change's words in English; the history says them
    again from the change itself, for each phone in its own language."""
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    actions.save_hand(match_id, {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "8"})
    client.set_cookie("lang", "fr")
    french = WHAT.findall(client.get(f"/m/{match_id}/history").get_data(as_text=True))
    assert french == [
        "Donne 1 enregistrée : 1♣ par Ann, réussi · Ann +40, Cy +40",
        "Partie commencée : Bridge rubber, Ann · Bob · Cy · Dee",
    ]
    client.set_cookie("lang", "en")
    english = WHAT.findall(client.get(f"/m/{match_id}/history").get_data(as_text=True))
    assert english == [
        "Hand 1 saved: 1♣ by Ann, made · Ann +40, Cy +40",
        "Match started: Rubber bridge, Ann · Bob · Cy · Dee",
    ]


def test_a_hand_is_named_at_once_in_the_readers_language_so_pages_may_lower_it():
    from scorekeeper.words import named_hand

    with listening(lambda: Pretend({"Redeal of hand %(number)s": "Nouvelle donne %(number)s"})):
        title = named_hand(6, counted=False)
        assert title[:1].lower() + title[1:] == "nouvelle donne 6"
    assert named_hand(6, counted=True) == "Hand 6"


FACTS = re.compile(r'<script type="application/json" id="rules-facts">(.*?)</script>', re.S)


def test_the_reasons_a_hand_forms_script_shows_are_in_the_phones_language(
    client, actions, pretend_french
):
    match_id = actions.start("top-game", ["Ann", "Bob", "Cy"])
    client.set_cookie("lang", "fr")
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    facts = json.loads(FACTS.search(page).group(1))
    assert facts["doubling_refused"]["11"] == {
        "X": "playnumber 11 au-dessus de 10 : personne ne contre",
        "XX": "playnumber 11 au-dessus de 10 : personne ne contre",
    }


def test_a_problem_line_is_english_on_the_command_line_and_said_on_a_page():
    from scorekeeper.games.common import Problem

    catalog = Pretend(
        {
            "hand %(number)d: %(problem)s": "donne %(number)d : %(problem)s",
            "%(field)s: %(problem)s": "%(field)s : %(problem)s",
            "missing; give true or false": "manquant ; true ou false",
        }
    )
    problem = Problem(_("missing; give true or false"), "passed_out", hand=3, hand_number=2)
    assert (str(problem), problem.read()) == (
        "hand 3: passed_out: missing; give true or false",
        "hand 2: passed_out: missing; give true or false",
    )
    with listening(lambda: catalog):
        assert (str(str(problem)), str(problem.read())) == (
            "donne 3 : passed_out : manquant ; true ou false",
            "donne 2 : passed_out : manquant ; true ou false",
        )
