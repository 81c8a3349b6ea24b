"""How pure modules say a sentence a player reads: the rules' problems and
explanations, the sheets' words, the change log's history lines.

The rules run without Flask (the command line, the replay kept between
requests), yet the same sentence must reach each phone in its own language.
So `_` and `ngettext` here say nothing yet: they return a `Said`, a str whose
value is the English sentence (what the command line prints, the JSON keeps
and the tests compare) and which says itself in the reader's language when a
page shows it: `str()`, an f-string, `%s` or a Jinja `{{ … }}` (`__html__`).
A replay kept by revision holds `Said` lines, and every phone reads them in its
own language. Placeholders are named (`%(dealer)s`) and may be `Said` too:
they are said in the same language.

The app names the reader's translations for each request (`listening`, from
a before_request hook); anywhere else — the command line, a test, a thread —
English is said. Babel's `NullTranslations` and the standard library only.

Joining a `Said` to other text with `+` or `str.join` keeps its English value:
compose sentences with `_('%(side)s: %(what)s', …)` instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from datetime import date
from decimal import Decimal
from typing import Any, Protocol

from markupsafe import escape


class Translations(Protocol):
    def gettext(self, message: str, /) -> str: ...

    def ngettext(self, singular: str, plural: str, n: int, /) -> str: ...

    def pgettext(self, context: str, message: str, /) -> str: ...


# The reader's translations, asked for only when a sentence is said: the app
# sets a function (flask_babel.get_translations) for the span of a request.
_reader: ContextVar[Callable[[], Translations] | None] = ContextVar("reader", default=None)
# The reader's locale (Babel's name, "fr_FR"), for days and money said in its way.
_locale: ContextVar[Callable[[], str] | None] = ContextVar("locale", default=None)


class Said(str):
    """A sentence: its English text as the str value, and what it takes to say
    it in another language (the message, its plural and named placeholders)."""

    __slots__ = ("_message", "_plural", "_num", "_named", "_then", "_context")

    _message: str
    _plural: str | None
    _num: int | None
    _named: dict[str, Any]
    _then: tuple[Callable[[str], str], ...]
    _context: str | None

    def __new__(
        cls,
        message: str,
        plural: str | None = None,
        num: int | None = None,
        named: dict[str, Any] | None = None,
        then: tuple[Callable[[str], str], ...] = (),
        context: str | None = None,
    ) -> Said:
        named = named or {}
        chosen = message if plural is None or num == 1 else plural
        english = chosen % {k: _english(v) for k, v in named.items()} if named else chosen
        said = super().__new__(cls, _changed(english, then, in_english=True))
        said._message, said._plural, said._num, said._named = message, plural, num, named
        said._then, said._context = then, context
        return said

    def __reduce__(self) -> tuple[Any, ...]:
        named = (self._message, self._plural, self._num, self._named, self._then)
        return (Said, (*named, self._context))

    def then(self, change: Callable[[str], str], *, english_only: bool = False) -> Said:
        """This sentence, `change` applied to it once said (in every language):
        e.g. the real minus sign a page prints for the rules' ASCII one. With
        `english_only`, only where it is said in English (no translation, or an
        English one): a change of English words, such as lower-casing a first
        letter, that would be wrong in another language (a German noun)."""
        then = (*self._then, InEnglish(change) if english_only else change)
        # Its English is this one's with `change` applied (every change applies
        # in English): not worked out again from the message and placeholders.
        said = str.__new__(Said, change(str.__str__(self)))
        said._message, said._plural, said._num = self._message, self._plural, self._num
        said._named, said._then, said._context = self._named, then, self._context
        return said

    def __str__(self) -> str:
        reader = _reader.get()
        if reader is None:
            return str.__str__(self)
        translations = reader()
        if self._context is not None:
            text = translations.pgettext(self._context, self._message)
        elif self._plural is None:
            text = translations.gettext(self._message)
        else:
            text = translations.ngettext(self._message, self._plural, self._num or 0)
        text = text % self._named if self._named else text
        return _changed(text, self._then, in_english=text == self._english())

    def _english(self) -> str:
        """The English text, before any change."""
        chosen = self._message if self._plural is None or self._num == 1 else self._plural
        named = {k: _english(v) for k, v in self._named.items()}
        return chosen % named if self._named else chosen

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __html__(self) -> str:
        return str(escape(str(self)))


class InEnglish:
    """A change applied to a sentence only where it is said in English."""

    __slots__ = ("change",)

    def __init__(self, change: Callable[[str], str]):
        self.change = change

    def __call__(self, text: str) -> str:
        return self.change(text)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InEnglish) and other.change == self.change

    def __hash__(self) -> int:
        return hash((InEnglish, self.change))

    def __reduce__(self) -> tuple[Any, ...]:
        return (InEnglish, (self.change,))


def _changed(text: str, changes: tuple[Callable[[str], str], ...], in_english: bool) -> str:
    for change in changes:
        if in_english or not isinstance(change, InEnglish):
            text = change(text)
    return text


def _english(value: Any) -> Any:
    return str.__str__(value) if isinstance(value, Said | Shown) else value


def _(message: str, **named: Any) -> Said:
    """The sentence `message`, said in the reader's language when shown:
    `_('%(dealer)s deals next', dealer=name)`."""
    return Said(message, named=named)


def ngettext(singular: str, plural: str, num: int, **named: Any) -> Said:
    """A sentence with a count: `ngettext('%(num)d hand', '%(num)d hands', n)`;
    `num` is a placeholder too."""
    return Said(singular, plural, num, {"num": num, **named})


def pgettext(context: str, message: str, **named: Any) -> Said:
    """The sentence `message` in the sense `context` names, for a word English
    uses in two senses that other languages say differently:
    `pgettext('csv column', 'game')`. English says `message`."""
    return Said(message, named=named, context=context)


def joined(separator: str, parts: list[str]) -> Said:
    """`parts` joined by `separator` (a sign such as " + ", not a word), each
    part said in the reader's language: `str.join` would keep their English."""
    if not parts:
        return Said("")
    message = separator.replace("%", "%%").join(f"%(p{i})s" for i in range(len(parts)))
    return Said(message, named={f"p{i}": part for i, part in enumerate(parts)})


def _capital_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def capitalised(text: str) -> str:
    """`text` with a capital first letter as it is said in each language (a
    `Said` stays one: `str.capitalize` would give its English, and lower the
    rest, a German noun's capital too)."""
    return text.then(_capital_first) if isinstance(text, Said) else _capital_first(text)


def said(value: Any) -> Any:
    """`value` with every sentence in it said now, as plain str (dicts, lists
    and tuples gone through): for JSON a page's script reads (`|said|tojson`),
    which would otherwise get the English value."""
    if isinstance(value, Said | Shown):
        return str(value)
    if isinstance(value, dict):
        return {said(key): said(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [said(item) for item in value]
    return value


class Shown(str):
    """A value written the reader's way (a day, an amount of money): its English
    text as the str value, `how(value, locale)` when a page shows it in another
    language. `how` is a module-level function (a replay is pickled)."""

    __slots__ = ("_how", "_value")

    _how: Callable[[Any, str], str]
    _value: Any

    def __new__(cls, english: str, how: Callable[[Any, str], str], value: Any) -> Shown:
        shown = super().__new__(cls, english)
        shown._how, shown._value = how, value
        return shown

    def __reduce__(self) -> tuple[Any, ...]:
        return (Shown, (str.__str__(self), self._how, self._value))

    def __str__(self) -> str:
        locale = _locale.get()
        if locale is None:
            return str.__str__(self)
        return self._how(self._value, locale())

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __html__(self) -> str:
        return str(escape(str(self)))


def key_of(value: Any) -> Hashable:
    """What `value` says in every language, as a key for a part of a page drawn
    once (a hand's line in the log, a rubber's pad): a sentence by what it is
    made of (its message, context, count, changes and placeholders), never by
    its English alone, which may be two sentences elsewhere ("Level" of a bid,
    and of equal scores); a value written the reader's way by its value; text,
    numbers, lists and dicts as themselves. A TypeError for anything else (then
    draw it anew)."""
    kind = type(value)
    if kind is str or value is None:  # most of a page: plain text is its own key
        return value
    if kind is int or kind is bool:  # 1 and True print differently
        return (kind, value)
    if kind is list or kind is tuple:  # each its own: a placeholder prints [1, 2] or (1, 2)
        return (kind, *map(key_of, value))
    if kind is dict:  # a row or a pad, in the order it was built
        return (dict, *((key_of(name), key_of(item)) for name, item in value.items()))
    if isinstance(value, Said):
        named = tuple(sorted((name, key_of(part)) for name, part in value._named.items()))
        return (Said, value._message, value._plural, value._num, value._context, value._then, named)
    if isinstance(value, Shown):
        return (Shown, value._how, key_of(value._value))
    if isinstance(value, Decimal | float | date):  # by how it prints: 0.5 and 0.50, -0.0
        return (kind, repr(value))  # and 0.0, one moment in two time zones differ
    if isinstance(value, str | int):  # Markup (its own escaping), an IntEnum
        return (kind, str.__str__(value) if isinstance(value, str) else int(value))
    raise TypeError(f"no key for a {type(value).__name__}")


def N_(message: str) -> str:
    """Marks a word for the catalogs and leaves it as it is (a key, an id):
    say it with `_(word)` where a player reads it."""
    return message


def english(text: str) -> str:
    """The English of `text`, said or plain: for the command line and the JSON."""
    return str.__str__(text) if isinstance(text, Said | Shown) else text


@contextlib.contextmanager
def listening(
    reader: Callable[[], Translations] | None, locale: Callable[[], str] | None = None
) -> Iterator[None]:
    """Say every sentence with `reader()`'s translations inside the block, and
    days and money the way `locale()` writes them (English's way without one)."""
    stop = listen(reader, locale)
    try:
        yield
    finally:
        stop()


def listen(
    reader: Callable[[], Translations] | None, locale: Callable[[], str] | None = None
) -> Callable[[], None]:
    """Say sentences with `reader()` from now on in this context (a request),
    days and money as `locale()` writes them; returns the function that stops
    it (a teardown hook)."""
    token, written = _reader.set(reader), _locale.set(locale)

    def stop() -> None:
        _locale.reset(written)
        _reader.reset(token)

    return stop
