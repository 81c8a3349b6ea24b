"""The language of the pages: each phone's own, never the match's or the group's.

The phone's choice (a cookie, set by the switch at the foot of every page) comes
first, then the browser's Accept-Language, then English. Several phones at one
table may each read the same match in their own language.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar
from urllib.parse import urlsplit

import flask_babel
from babel.support import NullTranslations, Translations
from flask import Blueprint, Flask, current_app, g, redirect, render_template, request, url_for
from flask_babel import get_locale, get_translations
from markupsafe import Markup

from .. import speech
from ..languages import DEFAULT, LANGUAGES, Language, best_language, language
from .phone import keep_cookie

bp = Blueprint("language", __name__)

LANGUAGE_COOKIE = "lang"

T = TypeVar("T")


def chosen_language() -> Language:
    """The language this request is answered in (see the module's docstring)."""
    return (
        language(request.cookies.get(LANGUAGE_COOKIE))
        or best_language(request.accept_languages)
        or DEFAULT
    )


def select_locale() -> str:
    """Flask-Babel's locale selector: the catalog's folder name ("zh_Hans_CN")."""
    return chosen_language().code


def reading() -> Language:
    """The language of the page being drawn (after Flask-Babel chose it; a
    `force_locale` block included); English outside a request."""
    locale = get_locale()
    found = language(str(locale)) if locale is not None else None
    return found or DEFAULT


def page_translations() -> Translations | NullTranslations:
    """The catalog of the page's own words (`_()` in templates): Flask-Babel's,
    looked up once for each locale a request is read in."""
    return once_per_locale("_page_translations", flask_babel.get_translations)


def spoken_translations() -> Translations | NullTranslations:
    """The catalog the pure modules' sentences are said with (speech.py), looked
    up once for each locale a request is read in."""
    # Through a lambda: `get_translations` is looked up in this module at each
    # call, so a test can put another reader in its place (test_speech).
    return once_per_locale("_spoken_translations", lambda: get_translations())


def once_per_locale(name: str, look_up: Callable[[], T]) -> T:
    """`look_up()` once for each locale this request is read in: a page drawn
    anew says hundreds of sentences (a long match's hand log), and looking the
    catalog up again for each was a fifth of its time. A `force_locale` block or
    a `refresh()` gives the request another locale object, so what is said in it
    is looked up again in that one."""
    locale = get_locale()
    if locale is None:  # outside a request: Flask-Babel's own answer
        return look_up()
    kept = g.get(name)
    if kept is None or kept[0] is not locale:
        kept = (locale, look_up())
        setattr(g, name, kept)
    return kept[1]


def words_for_templates(app: Flask) -> None:
    """The templates' `_()` and `ngettext()`, as Flask-Babel installs them, read
    through `page_translations`."""
    app.jinja_env.install_gettext_callables(
        gettext=lambda s: page_translations().ugettext(s),
        ngettext=lambda s, p, n: page_translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: page_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: page_translations().unpgettext(c, s, p, n),
    )


def listen_to_the_reader() -> None:
    """Before each request: the pure modules' sentences (scorekeeper/speech.py:
    the rules' problems and explanations, the history) are said in the
    language Flask-Babel picks for this request, a `force_locale` included."""
    g.stop_listening = speech.listen(spoken_translations, lambda: reading().formats)


def stop_listening(_error: BaseException | None = None) -> None:
    """After each request: back to English for whatever this thread runs next."""
    stop = g.pop("stop_listening", None)
    if stop is not None:
        stop()


def page_language() -> dict:
    """What every template knows of languages: the page's own (`lang`, `dir`)
    and the list the switch offers."""
    return {"page_language": reading(), "languages": LANGUAGES}


def script_words() -> Markup:
    """The words of the shared scripts (_script_words.html): they depend on the
    page's language alone, so each language's are drawn once per catalog and
    template and kept (one entry per language, replaced whole: safe between
    threads); a page drawn anew (a refused form, the first after a change) no
    longer translates the twenty of them again."""
    kept = current_app.extensions.setdefault("script_words", {})
    translations, code = page_translations(), str(get_locale())
    # The same template object unless it was read again (an edit, with auto-reload).
    template = current_app.jinja_env.get_template("_script_words.html")
    drawn = kept.get(code)
    if drawn is None or drawn[0] is not translations or drawn[1] is not template:
        drawn = kept[code] = (translations, template, Markup(render_template(template)))
    return drawn[2]


def vary_by_language(response):
    """A page differs by the phone's choice (a cookie) and its browser's languages."""
    if request.endpoint != "static":
        response.vary.add("Accept-Language")
    return response


@bp.post("/language")
def switch():
    """Remember this phone's language (for two years) and go back to the page
    it was chosen on. An unknown code forgets the choice (the browser's
    languages decide again)."""
    chosen = language(request.form.get("lang"))
    response = redirect(_back(request.form.get("next", "")), code=303)
    if chosen is None:
        response.delete_cookie(LANGUAGE_COOKIE)
        return response
    keep_cookie(response, LANGUAGE_COOKIE, chosen.code, days=730)
    return response


def _back(path: str) -> str:
    """The page the switch was on: a path of this app only (never another site's
    address, nor `//host`), else the home page."""
    split = urlsplit(path)
    if (
        path.startswith("/")
        and not path.startswith("//")
        and "\\" not in path
        and not split.scheme
        and not split.netloc
        and path.isprintable()
    ):
        return path
    return url_for("matches.index")
