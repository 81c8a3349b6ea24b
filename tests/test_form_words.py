"""WTForms' own messages (a text too long for its field) in the phone's language,
its catalog read once per language in a process, not on every request that
builds a form (Flask-WTF's own way: 0.23 ms of CPU each time)."""

from __future__ import annotations

import pytest
from babel import support
from flask_wtf import FlaskForm
from flask_wtf.i18n import translations as flask_wtfs
from wtforms import StringField
from wtforms.validators import Length

import scorekeeper.forms  # noqa: F401  (every form of the app defined)
from scorekeeper import entry
from scorekeeper.games import catalog  # noqa: F401
from scorekeeper.languages import LANGUAGES


class Short(entry.Form):
    word = StringField("Word", validators=[Length(max=2)])


TOO_LONG = {
    "en": "Field cannot be longer than 2 characters.",
    "fr": "Le champ ne peut pas contenir plus de 2 caractères.",
    "de": "Feld kann nicht länger als 2 Zeichen sein.",
}


@pytest.fixture
def loads(monkeypatch):
    """The languages of each read of WTForms' catalog."""
    entry.wtforms_catalog.cache_clear()
    read = support.Translations.load
    seen: list[str] = []

    def load(dirname=None, locales=None, domain=None):
        seen.append(str(locales[0]))
        return read(dirname, locales, domain)

    monkeypatch.setattr(support.Translations, "load", load)
    yield seen
    entry.wtforms_catalog.cache_clear()


def test_wtforms_messages_are_in_the_phones_language_read_once_per_language(app, loads):
    said = []
    for code in ["fr", "fr", "de", "en", "fr", "de"]:
        with app.test_request_context(
            "/", method="POST", data={"word": "abc"}, headers={"Cookie": f"lang={code}"}
        ):
            form = Short()
            assert not form.validate()
            said.append(form.word.errors)
    assert said == [[TOO_LONG[code]] for code in ["fr", "fr", "de", "en", "fr", "de"]]
    assert loads == ["fr", "de", "en"]


def test_every_form_of_the_app_reads_wtforms_words_once():
    """Every Flask-WTF form the app defines (a game's hand form, a group's) is one
    of `entry.Form`, whose words are read once per language."""

    def below(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from below(sub)

    ours = [cls for cls in below(FlaskForm) if cls.__module__.startswith("scorekeeper.")]
    assert len(ours) >= 14
    assert [cls.__name__ for cls in ours if not issubclass(cls, entry.Form)] == []


def test_the_words_are_flask_wtfs_own_in_every_language_we_ship(app):
    message = "Field cannot be longer than %(max)d character."
    plural = "Field cannot be longer than %(max)d characters."
    for language in LANGUAGES:
        with app.test_request_context("/", headers={"Cookie": f"lang={language.code}"}):
            assert entry._WTFORMS_WORDS.gettext("Not a valid choice.") == flask_wtfs.gettext(
                "Not a valid choice."
            )
            for n in (1, 2, 5):
                assert entry._WTFORMS_WORDS.ngettext(message, plural, n) == flask_wtfs.ngettext(
                    message, plural, n
                )
