"""The language of the pages: each phone's own, never the match's or the group's.

The phone's choice (a cookie, set by the switch at the foot of every page) comes
first, then the browser's Accept-Language, then English. Several phones at one
table may each read the same match in their own language.
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Blueprint, current_app, g, redirect, render_template, request, url_for
from flask_babel import get_locale, get_translations
from markupsafe import Markup

from .. import speech
from ..languages import DEFAULT, LANGUAGES, Language, best_language, language
from .phone import keep_cookie

bp = Blueprint("language", __name__)

LANGUAGE_COOKIE = "lang"


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


def listen_to_the_reader() -> None:
    """Before each request: the pure modules' sentences (scorekeeper/speech.py:
    the rules' problems and explanations, the history) are said in the
    language Flask-Babel picks for this request, a `force_locale` included."""
    g.stop_listening = speech.listen(get_translations, lambda: reading().formats)


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
    translations, code = get_translations(), str(get_locale())
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
