"""The address parts of the app's routes: a match's id, a hand's key or a revision."""

from __future__ import annotations

import re

from werkzeug.routing import BaseConverter, IntegerConverter

MAX_KEY = 10**9  # hand keys and revisions: far beyond any match, far inside 64 bits


class MatchIdConverter(BaseConverter):
    """A match's address part (db.new_match_id); anything else is no match: 404."""

    regex = r"[A-Za-z0-9_-]{16}"


class KeyConverter(IntegerConverter):
    """A hand's key or a revision: digits that fit; a longer number is a 404.

    The pattern itself stops at MAX_KEY: a number only the range check refused
    would still match the address of a route of other methods (a group
    member's rename is POST, its address opened again is GET): a 405 for an
    address that is no member's."""

    regex = r"[1-9][0-9]{0,8}|1000000000"  # 1 to MAX_KEY

    def __init__(self, map, *args, **kwargs):
        super().__init__(map, min=1, max=MAX_KEY)


CONVERTERS = {"match": MatchIdConverter, "key": KeyConverter}
MATCH_ID = re.compile(MatchIdConverter.regex)
