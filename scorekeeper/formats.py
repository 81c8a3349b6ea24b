"""Numbers, scores, money and dates as the reader's language writes them, and
amounts as people type them. Pure Python over Babel's locale data: each
function takes the locale of the conventions to follow (`Language.formats`:
"en_GB", "fr", "zh_Hans_CN"); English is the default, so a caller without a
reader (the command line, the CSV, the change log) writes what it always has.

Every language gets the true minus sign (−4, U+2212) where its locale data
writes ASCII's hyphen-minus: the pages always did, and a hyphen reads as a dash.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from decimal import Decimal
from functools import cache, lru_cache

from babel import Locale
from babel.dates import format_date, format_skeleton, format_time
from babel.numbers import format_currency, format_decimal, is_currency

ENGLISH = "en_GB"
MINUS = "−"  # U+2212


@cache
def _symbols(locale: str) -> tuple[str, str, str]:
    """The locale's decimal mark, group separator and minus sign (true minus for ASCII)."""
    symbols = Locale.parse(locale).number_symbols["latn"]
    minus = symbols["minusSign"]
    return symbols["decimal"], symbols["group"], MINUS if minus == "-" else minus


def _figure(value: int | Decimal, locale: str, grouped: bool) -> str:
    """abs(value) in the locale's digits: a Decimal with its two decimals."""
    if type(value) is int:  # a score: kept (money is a Decimal, and 0.50 == 0.5 == ...)
        return _whole(abs(value), locale, grouped)
    pattern = "#,##0" if grouped else "0"
    if isinstance(value, Decimal):
        pattern += ".00"
    return format_decimal(abs(value), format=pattern, locale=locale)


@lru_cache(maxsize=4096)
def _whole(magnitude: int, locale: str, grouped: bool) -> str:
    """A whole number in the locale's digits, kept: a long match's page writes
    hundreds of the same few scores, and Babel reads the locale again for each."""
    return format_decimal(magnitude, format="#,##0" if grouped else "0", locale=locale)


@cache
def plural_examples(locale: str = ENGLISH) -> tuple[tuple[str, int], ...]:
    """Each plural category of whole numbers in the locale (CLDR: "one", "few",
    "many", "other"…) with the smallest count in it from 1 on (0 last: a catalog
    not yet translated falls back to English, where 0 is plural): a page asks the
    catalog for each category's sentence with that count, and a script picks the
    sentence for its own count with the browser's Intl.PluralRules (the same CLDR
    rules)."""
    rule = Locale.parse(locale).plural_form
    examples: dict[str, int] = {}
    for count in [*range(1, 200), 0]:  # every category of whole numbers shows below 200
        examples.setdefault(rule(count), count)
    return tuple(examples.items())


def number(value: int | Decimal, locale: str = ENGLISH) -> str:
    """A count or total with the locale's grouping: 1,234 · 1 234 · 1.234."""
    figure = _figure(value, locale, grouped=True)
    return _symbols(locale)[2] + figure if value < 0 else figure


def signed(points: int | Decimal, locale: str = ENGLISH) -> str:
    """Scores as on paper: +5, −4, 0 (no grouping, as a score sheet writes them);
    money keeps its cents: +8.00, −8.00, 0.00 (+8,00 in French)."""
    figure = _figure(points, locale, grouped=False)
    if points > 0:
        return f"+{figure}"
    return _symbols(locale)[2] + figure if points < 0 else figure


def cents(amount: int | Decimal, locale: str = ENGLISH) -> str:
    """Money in a table, signed with its two decimals: +8.00, −8.00, 0.00."""
    return signed(Decimal(amount).quantize(Decimal("0.01")), locale)


def minus(n: int, locale: str = ENGLISH) -> str:
    """Pegs and holes as on the board: no plus sign, a real minus sign (−3)."""
    figure = _figure(n, locale, grouped=False)
    return _symbols(locale)[2] + figure if n < 0 else figure


def money(amount: Decimal, currency: str = "", locale: str = ENGLISH) -> str:
    """An amount with its currency as the reader writes it: "0.50 EUR" in
    English (the currency as typed, after the amount, as the match file has
    it), "0,50 €" in French, "€ 0,50" in Dutch for an ISO code; any other
    currency text ("beers") follows the amount as typed."""
    amount = Decimal(amount).quantize(Decimal("0.01"))
    code = currency.strip()
    if code and locale != ENGLISH and is_currency(code.upper()):
        text = format_currency(amount, code.upper(), locale=locale)
        return text.replace("-", _symbols(locale)[2])
    figure = _figure(amount, locale, grouped=True)
    if amount < 0:
        figure = _symbols(locale)[2] + figure
    return f"{figure} {code}" if code else figure


# Dates by CLDR skeleton, so each language orders and punctuates them its own way.
def day(when: date, locale: str = ENGLISH) -> str:
    """A day: 27 Nov 2026 · 27 nov. 2026 · 27. Nov. 2026 · 2026年11月27日."""
    return format_skeleton("yMMMd", when, locale=locale)


def long_day(when: date, locale: str = ENGLISH) -> str:
    """A day with its month in full: 3 October 2026 · 3 octobre 2026."""
    return format_skeleton("yMMMMd", when, locale=locale)


def short_day(when: date, locale: str = ENGLISH) -> str:
    """A day of this year: 27 Nov · 27 nov. · 11月27日."""
    return format_skeleton("MMMd", when, locale=locale)


def month(when: date, locale: str = ENGLISH) -> str:
    """A month of a year: November 2026 · novembre 2026 · 2026年11月."""
    return format_skeleton("yMMMM", when, locale=locale)


def full_day(when: date, locale: str = ENGLISH) -> str:
    """A day with its name: Friday 27 November 2026 · vendredi 27 novembre 2026
    · Freitag, 27. November 2026 (the history's words for the day played)."""
    if locale == ENGLISH:  # as English always wrote it, without CLDR's comma
        return format_date(when, "EEEE d MMMM y", locale=locale)
    return format_date(when, "full", locale=locale)


def stake_money(amount: Decimal, currency: str = "", locale: str = ENGLISH) -> str:
    """A stake's amount as the reader writes it; in English as the match file
    has it, the digits as typed ("0.50 EUR", "0.125")."""
    if locale == ENGLISH or Decimal(amount).as_tuple().exponent < -2:
        text = format(Decimal(amount).normalize(), "f")
        whole, _, cents = text.partition(".")
        return " ".join(filter(None, [f"{whole}.{cents.ljust(2, '0')}", currency.strip()]))
    return money(amount, currency, locale)


def weekday(when: date, locale: str = ENGLISH) -> str:
    """The day's name: Saturday · samedi · 星期六."""
    return format_date(when, "EEEE", locale=locale)


def clock(when: datetime | time, locale: str = ENGLISH) -> str:
    """The time of day on a 24-hour clock: 21:40."""
    return format_time(when, "HH:mm", locale=locale)


# Amounts as typed on a phone, in any of our languages: ASCII digits only ("²"
# or "٣" are digits to Python's isdigit() but not numbers anyone meant), one
# decimal point or comma ("0,50" is 0.50). A comma with three digits after it
# is a thousands separator, not decimals: "1,000" is refused rather than read
# as 1.000.
_TYPED_AMOUNT = re.compile(r"[0-9]{0,9}(?:\.[0-9]{1,6}|,[0-9]{1,2})|[0-9]{1,9}")


def typed_amount(text: str) -> str:
    """An amount as typed ("0,50" or "0.50") as the files write it ("0.50");
    anything that is not an amount is passed on, stripped, for the check to name."""
    text = text.strip()
    return text.replace(",", ".") if _TYPED_AMOUNT.fullmatch(text) else text
