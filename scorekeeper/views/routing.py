"""The address parts of the app's routes: a match's id, a hand's key or a revision."""

from __future__ import annotations

import re

from werkzeug.routing import BaseConverter, IntegerConverter

MAX_KEY = 10**9  # hand keys and revisions: far beyond any match, far inside 64 bits


class MatchIdConverter(BaseConverter):
    """A match's address part (db.new_match_id); anything else is no match: 404."""

    regex = r"[A-Za-z0-9_-]{16}"


class KeyConverter(IntegerConverter):
    """A hand's key or a revision: digits that fit; a longer number is a 404."""

    def __init__(self, map, *args, **kwargs):
        super().__init__(map, min=1, max=MAX_KEY)


CONVERTERS = {"match": MatchIdConverter, "key": KeyConverter}
MATCH_ID = re.compile(MatchIdConverter.regex)
