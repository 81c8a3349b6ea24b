"""The gettext catalogs: <code>/LC_MESSAGES/messages.po in the repository, and
the .mo files compiled from them (build outputs, never committed).

`compile_catalogs` writes each .mo whose .po is newer (scripts/setup.sh, and
setup.py into the wheel); `catalog_problems` says what a translator left
undone or broke. Babel and the standard library only: setup.py loads this file
by its path, before Scorekeeper's own dependencies are installed.

    python -m scorekeeper.translations          # compile what changed
    python -m scorekeeper.translations --check  # problems, and stale .mo files
    python -m scorekeeper.translations --table  # docs/languages.md's table
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog, Message, TranslationError
from babel.messages.checkers import _validate_format, checkers, python_format
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

HERE = Path(__file__).resolve().parent
DOMAIN = "messages"

# {name} placeholders (str.format), which Babel's python_format checker ignores.
_BRACES = re.compile(r"(?<!\{)\{([A-Za-z_][A-Za-z0-9_]*)\}(?!\})")
# %(name)s placeholders, to compare as sets (Babel checks their types too).
_NAMED = re.compile(r"%\(([A-Za-z_][A-Za-z0-9_]*)\)[-#0 +]*\d*(?:\.\d+)?[sdifr]")


def catalogs(folder: Path = HERE) -> Iterator[tuple[str, Path]]:
    """(language code, .po file) for each catalog, in order."""
    for po in sorted(folder.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        yield po.parent.parent.name, po


def load(po: Path) -> Catalog:
    with po.open("rb") as file:
        return read_po(file)


def compile_catalogs(folder: Path = HERE, *, force: bool = False) -> list[Path]:
    """Write the .mo beside each .po that is newer than it (or has none); the
    .mo files written. A catalog with problems is compiled all the same (the
    tests refuse it; a page shows English for what is missing)."""
    written = []
    for _, po in catalogs(folder):
        mo = po.with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime_ns >= po.stat().st_mtime_ns:
            continue
        catalog = load(po)
        with mo.open("wb") as file:
            write_mo(file, catalog, use_fuzzy=False)
        written.append(mo)
    return written


def stale(folder: Path = HERE) -> list[str]:
    """The languages whose .mo is missing or says other than its .po."""
    found = []
    for code, po in catalogs(folder):
        mo = po.with_suffix(".mo")
        if not mo.exists():
            found.append(code)
            continue
        with mo.open("rb") as file:
            compiled = read_mo(file)
        if _messages(load(po)) != _messages(compiled):
            found.append(code)
    return found


def _messages(catalog: Catalog) -> dict:
    """(context, id) -> translation, as a .mo holds them (no fuzzy ones)."""

    def fixed(value):  # a plural's forms: a tuple in a .po, a list read from a .mo
        return tuple(value) if isinstance(value, list | tuple) else value

    return {(m.context, fixed(m.id)): fixed(m.string) for m in catalog if m.id and not m.fuzzy}


def message_problems(message: Message, catalog: Catalog) -> list[str]:
    """What is wrong with one translated message: missing or empty, fuzzy, a
    placeholder dropped, added or changed, the wrong number of plural forms."""
    if not message.id:
        return []
    name = message.id[0] if isinstance(message.id, tuple) else message.id
    where = f"{name!r}" + (f" ({message.context})" if message.context else "")
    strings = message.string if isinstance(message.string, tuple) else (message.string,)
    empty = [form for form, string in enumerate(strings) if not (string and string.strip())]
    if len(empty) == len(strings):
        return [f"{where}: no translation"]
    if empty:
        return [f"{where}: plural forms {empty} left empty"]
    problems = []
    if message.fuzzy:
        problems.append(f"{where}: marked fuzzy (check it, then remove the mark)")
    # Babel's own checkers: plural forms per the catalog's header, %-placeholders.
    # A language with one plural form (Chinese) says every count with the plural's
    # words: its one form is checked against the plural, not the singular, whose
    # placeholders may leave the number out ("one point" has no %(num)d).
    one_form = isinstance(message.id, tuple) and len(strings) == 1
    for checker in checkers:
        try:
            if one_form and checker is python_format:
                if "python-format" in message.flags:
                    _validate_format(message.id[-1], strings[0])
            else:
                checker(catalog, message)
        except TranslationError as error:
            problems.append(f"{where}: {error}")
    ids = message.id if isinstance(message.id, tuple) else (message.id,)
    for pattern, kind in ((_NAMED, "%(name)s"), (_BRACES, "{name}")):
        wanted = set(pattern.findall(ids[0])) | set(pattern.findall(ids[-1]))
        for form, string in enumerate(strings):
            got = set(pattern.findall(string))
            # Only a singular of several forms may leave the number out ("une minute").
            may_drop = {"num"} if form == 0 and len(strings) > 1 else set()
            if got != wanted and not (got < wanted and wanted - got <= may_drop):
                problems.append(
                    f"{where}: {kind} placeholders {sorted(got)} instead of {sorted(wanted)}"
                )
    return problems


def catalog_problems(folder: Path = HERE) -> dict[str, list[str]]:
    """Each language's problems (an empty list: complete and sound)."""
    found = {}
    for code, po in catalogs(folder):
        catalog = load(po)
        found[code] = [p for message in catalog for p in message_problems(message, catalog)]
    return found


def completeness(folder: Path = HERE) -> dict[str, tuple[int, int]]:
    """Each language's (sound translations, messages) in its catalog."""
    found = {}
    for code, po in catalogs(folder):
        catalog = load(po)
        messages = [m for m in catalog if m.id]
        sound = [m for m in messages if not message_problems(m, catalog)]
        found[code] = (len(sound), len(messages))
    return found
