"""The languages the pages are written in, and which of them a phone asked for.

Pure Python (Babel's locale data, no Flask): the list of languages, each with
the folder of its catalog (scorekeeper/translations/<code>/), its name in its
own words for the switch, its `lang` tag for the page, and the locale whose
conventions write its numbers and dates. `best_language` reads a browser's
Accept-Language, region tags included (`fr-FR`, `nl-BE`, `zh-Hans-CN`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from babel import Locale, UnknownLocaleError


@dataclass(frozen=True)
class Language:
    code: str  # the catalog's folder, and what the locale selector answers
    name: str  # in its own words, as the switch lists it
    tag: str  # BCP 47, for <html lang>
    formats: str  # the locale whose numbers, money and dates it writes
    capital_nouns: bool = False  # German writes every noun with a capital: "Spiel 3"

    def in_a_sentence(self, title: str) -> str:
        """A title said inside a sentence ("Save hand 3"): its first letter lowered,
        unless the language writes nouns with a capital ("Spiel 3 speichern")."""
        return title if self.capital_nouns else title[:1].lower() + title[1:]

    @property
    def direction(self) -> str:
        """ "ltr" or "rtl", for <html dir> (Babel's locale data)."""
        return Locale.parse(self.formats).text_direction


# English is written the British way (the app says "colours"), so its dates read
# "27 Nov 2026" as they always have. Simplified Chinese lives in zh_Hans_CN: what
# Babel makes of zh-CN and zh-Hans-CN, and the only name gettext finds for them
# (it falls back from zh_Hans_CN to zh, never to zh_Hans).
LANGUAGES: tuple[Language, ...] = (
    Language("en", "English", "en", "en_GB"),
    Language("fr", "Français", "fr", "fr"),
    Language("nl", "Nederlands", "nl", "nl"),
    Language("de", "Deutsch", "de", "de", capital_nouns=True),
    Language("sv", "Svenska", "sv", "sv"),
    Language("zh_Hans_CN", "简体中文", "zh-Hans", "zh_Hans_CN"),
    Language("it", "Italiano", "it", "it"),
    Language("pl", "Polski", "pl", "pl"),
)
DEFAULT = LANGUAGES[0]
BY_CODE = {language.code: language for language in LANGUAGES}


def language(code: str | None) -> Language | None:
    """The language of catalog `code` ("fr", "zh_Hans_CN"), None for any other text."""
    return BY_CODE.get(code) if isinstance(code, str) else None


@cache
def _for_tag(tag: str) -> Language | None:
    """The language a browser's tag asks for: `fr-FR` and `fr` are French,
    `zh-CN`, `zh-SG`, `zh-Hans` and a bare `zh` Simplified Chinese; `zh-TW`,
    `zh-HK` and `zh-Hant` (Traditional) none of ours."""
    try:
        asked = Locale.parse(tag.strip().replace("_", "-"), sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        return None
    for candidate in LANGUAGES:
        ours = Locale.parse(candidate.formats)
        if asked.language != ours.language:
            continue
        # Chinese is two written languages: match the script Babel infers
        # from the region (zh-TW is Hant, zh-CN Hans; a bare zh is Hans).
        if ours.script and (asked.script or "Hans") != ours.script:
            continue
        return candidate
    return None


def best_language(accepted: Iterable[tuple[str, float]]) -> Language | None:
    """The first of ours in the browser's order of preference (Accept-Language,
    as Werkzeug parses it: (tag, quality), best first), on the language part of
    each tag; None when it names none of ours. A bare `zh` after a Traditional
    tag (Chrome in Taiwan sends `zh-TW,zh;q=0.9`) means Traditional too: such a
    reader is not handed Simplified Chinese unasked (the switch offers it)."""
    traditional = False
    for tag, quality in sorted(accepted, key=lambda pair: -pair[1]):
        if quality <= 0 or tag == "*":
            continue
        if _traditional(tag):
            traditional = True
            continue
        if traditional and tag.strip().lower() == "zh":
            continue
        found = _for_tag(tag)
        if found is not None:
            return found
    return None


@cache
def _traditional(tag: str) -> bool:
    try:
        asked = Locale.parse(tag.strip().replace("_", "-"), sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        return False
    return asked.language == "zh" and asked.script == "Hant"
