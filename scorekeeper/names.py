"""Names as a reader sees them: a player's or a phone's name.

A name is kept as typed, composed (Unicode NFC), so "Zoë" is one string however
the phone's keyboard made the ë. A name is refused when it holds a character
nobody sees that changes what is shown (a format character: zero-width spaces,
joiners, the right-to-left override that turns "Bob pays 2.90" around), when
nothing in it is visible, or when one word mixes look-alike letters of two
scripts (a Cyrillic "А" in "Аnn").

Two names are the same player when a reader could not tell them apart: equal
after NFKC, case folding and Unicode's confusable skeleton (UTS #39), so
"Ann", "ann", "Ａｎｎ" and a Cyrillic "Аnn" are one name. The confusable data
and the script of each character come from the confusable_homoglyphs package
(Unicode's confusables.txt and Scripts.txt); nothing here imports the app.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from confusable_homoglyphs import categories, confusables

# Letters that draw nothing (Hangul fillers, the blank braille pattern, the
# combining grapheme joiner, Khmer inherent vowels): a name of these looks empty.
INVISIBLE = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")
# Scripts written together in one word (UTS #39: Japanese, Korean, Chinese with
# Bopomofo); any other mix of scripts in one word is suspect.
WRITTEN_TOGETHER = (
    frozenset({"HAN", "HIRAGANA", "KATAKANA"}),
    frozenset({"HAN", "HANGUL"}),
    frozenset({"HAN", "BOPOMOFO"}),
)
NEUTRAL_SCRIPTS = frozenset({"COMMON", "INHERITED"})


def normal(name: str) -> str:
    """The name as kept: composed (NFC) and trimmed."""
    return unicodedata.normalize("NFC", name).strip()


def _char(ch: str) -> str:
    name = unicodedata.name(ch, "")
    return f"U+{ord(ch):04X} {name}".strip()


def name_problem(name: str, brief: bool = False) -> str | None:
    """Why `name` cannot name a player or a phone, in words; None when it can.
    `brief`: a few words, the character by its number only (a one-line message)."""
    for ch in name:
        category = unicodedata.category(ch)
        if category in ("Cc", "Zl", "Zp"):
            return "has a control character" if brief else "has a line break or control character"
        if category == "Cf":
            if brief:
                return f"has an invisible character (U+{ord(ch):04X})"
            return f"has an invisible formatting character ({_char(ch)}): type the name without it"
        if category == "Cs":
            return "is not valid text; retype it"
        if ch in INVISIBLE:
            if brief:
                return f"has an invisible character (U+{ord(ch):04X})"
            return f"has a character that shows nothing ({_char(ch)}): type the name without it"
    if not any(_shows(ch) for ch in name):
        return "has nothing visible" if brief else "has nothing visible: type letters or digits"
    for word in name.split():
        mixed = _mixed_look_alike(word)
        if mixed and brief:
            return "mixes look-alike letters of two scripts"
        if mixed:
            return (
                f"mixes look-alike letters of different scripts ({mixed}):"
                " type the name in one alphabet"
            )
    return None


# Characters that turn the direction of the text around them: in a title they
# would reverse what follows on the page (the rest of the line, a total).
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e") | frozenset(
    "\u2066\u2067\u2068\u2069"
)


def direction_problem(text: str) -> str | None:
    """Why `text` (a title) cannot be shown as typed: a direction control in it."""
    for ch in text:
        if ch in BIDI_CONTROLS:
            return f"has a text-direction control ({_char(ch)}): type it without"
    return None


def _shows(ch: str) -> bool:
    """Letters, digits, punctuation, symbols and private-use signs (a font's icons)
    draw something; spaces, marks alone and the INVISIBLE letters do not."""
    category = unicodedata.category(ch)
    return (category[0] in "LNPS" or category == "Co") and ch not in INVISIBLE


def _mixed_look_alike(word: str) -> str | None:
    """The first letter of `word` from another script that looks like one of
    its own (“А” U+0410 CYRILLIC CAPITAL LETTER A), when the word mixes scripts."""
    scripts = categories.unique_aliases(word) - NEUTRAL_SCRIPTS
    if len(scripts) < 2 or any(scripts <= together for together in WRITTEN_TOGETHER):
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
    """UTS #39's skeleton: decompose, map each character to its prototype, decompose."""
    prototypes = _prototypes()
    mapped = "".join(prototypes.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    return unicodedata.normalize("NFD", mapped)


def same_key(name: str) -> tuple[str, str]:
    """What two names share when a reader would take them for one: compare
    these (either part equal is the same name)."""
    text = unicodedata.normalize("NFKC", " ".join(name.split()))
    return skeleton(text.casefold()), skeleton(text)


def alike(one: str, other: str) -> bool:
    """True when a reader could take `one` and `other` for the same name."""
    a, b = same_key(one), same_key(other)
    return a[0] == b[0] or a[1] == b[1]
