"""Short texts as a reader sees them: a player's, a member's, a group's or a
phone's name, a title, a currency.

One rule for every short text the app stores (`text_problem`): no control
character or line break, no character that turns the direction of the text
around it (the right-to-left override that turns "Bob pays 2.90" around), no
other invisible formatting character, no letter that shows nothing, and not
nothing visible at all. Joiners are the exception where writing needs them:
U+200D inside an emoji sequence (👩‍👧) and after a virama (Sinhala ශ්‍රී,
Devanagari), U+200C after a virama and between two letters of a script whose
letters join (Persian علی‌رضا); tag characters only inside an emoji flag
(England's). A name must also not mix look-alike letters of two scripts in one
word (a Cyrillic "А" in "Аnn").

Two names are one name when a reader would take them for one: equal after NFKC,
case folding and leaving out what Unicode calls default-ignorable (the joiners),
or confusable (UTS #39's skeleton) through letters of another script: "Ann",
"ann", "Ａｎｎ" and a Cyrillic "Аnn" are one name. Two names of one script that
merely look alike on a screen ("Arnie" and "Amie") are two people (`look_alike`).

Where the data comes from: confusables and scripts from confusable_homoglyphs
(Unicode's confusables.txt and Scripts.txt), emoji sequences from emoji (Unicode's
emoji lists), joining types and default-ignorables from regex (the Unicode
Character Database). Nothing here imports the app.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

import emoji
import regex
from confusable_homoglyphs import categories, confusables

from .speech import _

# Letters that draw nothing (Hangul fillers, the blank braille pattern, the
# combining grapheme joiner, Khmer inherent vowels): a name of these looks empty.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
# Characters that turn the direction of the text around them: in a name or a
# title they would reverse what follows on the page (the rest of the line, a total).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e") | frozenset(
    "\u2066\u2067\u2068\u2069"
)
ZWNJ, ZWJ = "\u200c", "\u200d"
TAGS = range(0xE0000, 0xE0080)  # the tag characters of an emoji flag (England's)
VIRAMA = 9  # the canonical combining class of a virama (Indic scripts, Sinhala)
# A letter of a script whose letters join (Arabic, Syriac, N'Ko, Mongolian…):
# U+200C keeps two of them apart, as Persian spelling writes.
_JOINING = regex.compile(
    r"[\p{Joining_Type=Dual_Joining}\p{Joining_Type=Right_Joining}"
    r"\p{Joining_Type=Left_Joining}\p{Joining_Type=Join_Causing}]"
)
_IGNORABLE = regex.compile(r"\p{Default_Ignorable_Code_Point}")
# Scripts written together in one word (UTS #39's augmented script sets: Japanese,
# Korean, Chinese with Bopomofo); a word whose scripts share none mixes scripts.
AUGMENTED = {
    "HAN": frozenset({"HAN", "JAPANESE", "KOREAN", "HAN WITH BOPOMOFO"}),
    "HIRAGANA": frozenset({"HIRAGANA", "JAPANESE"}),
    "KATAKANA": frozenset({"KATAKANA", "JAPANESE"}),
    "HANGUL": frozenset({"HANGUL", "KOREAN"}),
    "BOPOMOFO": frozenset({"BOPOMOFO", "HAN WITH BOPOMOFO"}),
}
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})


def normal(name: str) -> str:
    """The name as kept: composed (NFC) and trimmed."""
    return unicodedata.normalize("NFC", name).strip()


def _char(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}".strip()


def text_problem(text: str, brief: bool = False) -> str | None:
    """Why `text`, a short text to store, cannot be shown as typed; None when it
    can (blank text can). The one rule for names, titles, currencies and phones' names.
    `brief`: a few words, the character by its number only (a one-line message)."""
    in_emoji: set[int] | None = None
    for place, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category == "Cs":
            return _("is not valid text; retype it")
        if category in ("Cc", "Zl", "Zp"):
            if brief:
                return _("has a control character")
            return _("has a line break or control character")
        if category != "Cf" and ch not in INVISIBLE:
            continue
        if brief:
            number = f"U+{ord(ch):04X}"
            refused = _("has an invisible character (%(char)s)", char=number)
        elif ch in BIDI_CONTROLS:
            refused = _(
                "has a text-direction control (%(char)s): type it without that character",
                char=_char(ch),
            )
        elif ch in INVISIBLE:
            refused = _(
                "has a character that shows nothing (%(char)s): type it without that character",
                char=_char(ch),
            )
        elif ch in (ZWJ, ZWNJ):
            refused = _(
                "has a joiner that joins nothing here (%(char)s): type it without that character",
                char=_char(ch),
            )
        elif ord(ch) in TAGS:
            refused = _(
                "has an invisible tag character (%(char)s) outside an emoji flag: type it"
                " without that character",
                char=_char(ch),
            )
        else:
            refused = _(
                "has an invisible formatting character (%(char)s): type it without that character",
                char=_char(ch),
            )
        if ch in BIDI_CONTROLS or ch in INVISIBLE:
            return refused
        if in_emoji is None:
            in_emoji = _in_emoji(text)
        if place in in_emoji or (ch in (ZWJ, ZWNJ) and _joins(text, place)):
            continue
        return refused
    if text.strip() and not any(_shows(ch) for ch in text):
        return _nothing_visible(brief)
    return None


def _nothing_visible(brief: bool) -> str:
    return _("has nothing visible") if brief else _("has nothing visible: type letters or digits")


def name_problem(name: str, brief: bool = False) -> str | None:
    """Why `name` cannot name a player, a member, a group or a phone, in words;
    None when it can. `brief`: as for text_problem."""
    problem = text_problem(name, brief)
    if problem:
        return problem
    if not name.strip():
        return _nothing_visible(brief)
    for word in name.split():
        mixed = _mixed_look_alike(word)
        if mixed and brief:
            return _("mixes look-alike letters of two scripts")
        if mixed:
            return _(
                "mixes look-alike letters of different scripts (%(letters)s):"
                " type the name in one alphabet",
                letters=mixed,
            )
    return None


def _in_emoji(text: str) -> set[int]:
    """The places of `text` inside an emoji of Unicode's list (RGI): a ZWJ
    sequence (👩‍👧), a flag of tag characters (England's), with their joiners."""
    inside: set[int] = set()
    for token in emoji.analyze(text, join_emoji=False):
        if isinstance(token.value, emoji.EmojiMatch):
            inside.update(range(token.value.start, token.value.end))
    return inside


def _joins(text: str, place: int) -> bool:
    """Whether the joiner at `place` joins what writing joins: after a virama
    (U+200D or U+200C), or U+200C between two letters of one joining script."""
    before = text[place - 1] if place else ""
    after = text[place + 1] if place + 1 < len(text) else ""
    if not before or not after or not unicodedata.category(after).startswith(("L", "M")):
        return False
    script = categories.alias(after)
    if unicodedata.combining(before) == VIRAMA:
        return categories.alias(before) == script
    if text[place] != ZWNJ:
        return False
    letter = next((ch for ch in reversed(text[:place]) if not _mark(ch)), "")
    following = next((ch for ch in text[place + 1 :] if not _mark(ch)), "")
    return bool(_JOINING.match(letter) and _JOINING.match(following)) and categories.alias(
        letter
    ) == categories.alias(following)


def _mark(ch: str) -> bool:
    return unicodedata.category(ch) in ("Mn", "Me")


def _shows(ch: str) -> bool:
    """Letters, digits, punctuation, symbols and private-use signs (a font's icons)
    draw something; spaces, marks alone and the INVISIBLE letters do not."""
    category = unicodedata.category(ch)
    return (category[0] in "LNPS" or category == "Co") and ch not in INVISIBLE


def _scripts(word: str) -> frozenset[str] | None:
    """The scripts `word` is written in, as UTS #39 resolves them: those every
    letter shares (Han with kana: Japanese); empty when the word mixes scripts;
    None when it has no letter of any one script (digits, signs, emoji)."""
    found = categories.unique_aliases(word) - NEUTRAL_SCRIPTS
    if not found:
        return None
    return frozenset.intersection(*(AUGMENTED.get(s, frozenset({s})) for s in found))


def _mixed_look_alike(word: str) -> str | None:
    """The first letter of `word` from another script that looks like one of
    its own (“А” U+0410 CYRILLIC CAPITAL LETTER A), when the word mixes scripts."""
    if _scripts(word) != frozenset():
        return None
    found = confusables.is_confusable(word, preferred_aliases=[])
    if not found:
        return None
    ch = found[0]["character"]
    return f"“{ch}” {_char(ch)}"


@lru_cache(maxsize=1)
def _prototypes() -> dict[str, str]:
    """Each confusable character -> the one its look-alike group is written as.

    confusables.txt maps every character to a prototype; the package keeps that
    map in both directions, so a prototype is the entry with many look-alikes
    (or, for a pair, the smaller of the two: any fixed choice will do)."""
    data = {
        key.strip("\u200e"): [entry["c"].strip("\u200e") for entry in entries]
        for key, entries in confusables.confusables_data.items()
    }
    mapped: dict[str, str] = {}
    for ch, alike in data.items():
        if len(ch) != 1 or len(alike) != 1:
            continue  # a prototype (many look like it) stays itself
        other = alike[0]
        if len(other) > 1 or len(data.get(other, ())) > 1:
            mapped[ch] = other
        else:
            mapped[ch] = min(ch, other)
    return mapped


def skeleton(text: str) -> str:
    """UTS #39's skeleton: decompose, leave out the default-ignorable characters
    (joiners, variation selectors, tags), map each character to its prototype,
    decompose."""
    prototypes = _prototypes()
    plain = _IGNORABLE.sub("", unicodedata.normalize("NFD", text))
    mapped = "".join(prototypes.get(ch, ch) for ch in plain)
    return unicodedata.normalize("NFD", mapped)


def _plain(name: str) -> str:
    """The name as a reader reads it: one space between words, compatibility
    forms (NFKC: "Ａｎｎ" is "Ann"), nothing default-ignorable."""
    return _IGNORABLE.sub("", unicodedata.normalize("NFKC", " ".join(name.split())))


def _confusable(one: str, other: str) -> bool:
    """Equal skeletons, with or without case: "Аnn" and "ann", "rn" and "m"."""
    return skeleton(one.casefold()) == skeleton(other.casefold()) or skeleton(one) == skeleton(
        other
    )


def _one_script(one: str, other: str) -> bool:
    """Whether each word where `one` and `other` differ is written in one script
    in both (UTS #39: their resolved scripts meet), so they differ in letters of
    that script only ("Arnie" and "Amie") and not in letters of another."""
    words, others = one.casefold().split(), other.casefold().split()
    if len(words) != len(others):
        return False
    for word, theirs in zip(words, others, strict=True):
        if word == theirs:
            continue
        mine, yours = _scripts(word), _scripts(theirs)
        if mine is None or yours is None:
            if mine == frozenset() or yours == frozenset():
                return False
            continue
        if not mine & yours:
            return False
    return True


def alike(one: str, other: str) -> bool:
    """True when a reader would take `one` and `other` for the same name: equal
    but for case, width, encoding and invisible joiners, or confusable through
    look-alike letters of another script. The one comparison of names."""
    a, b = _plain(one), _plain(other)
    if a.casefold() == b.casefold():
        return True
    return _confusable(a, b) and not _one_script(a, b)


def look_alike(one: str, other: str) -> bool:
    """True for two different names of one script that look alike on a small
    screen ("Arnie" and "Amie", "Kim" and "Kirn"): two people, worth a word."""
    a, b = _plain(one), _plain(other)
    return a.casefold() != b.casefold() and _confusable(a, b) and _one_script(a, b)


def pick(wanted: str, names: Iterable[str]) -> str | None:
    """The name of `names` that `wanted` names: written so, else the one a reader
    would take for it (alike); None when there is none."""
    listed = list(names)
    if wanted in listed:
        return wanted
    return next((name for name in listed if alike(name, wanted)), None)
