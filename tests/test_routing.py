"""The address converters: a hand key or revision is 1 to MAX_KEY, written as
the app writes it (no sign, no leading zero), and nothing else matches."""

from __future__ import annotations

import re

import pytest

from scorekeeper.views.routing import MAX_KEY, KeyConverter


@pytest.mark.parametrize("text", ["1", "9", "10", "999999999", str(MAX_KEY)])
def test_a_key_up_to_the_limit_matches(text):
    assert re.fullmatch(KeyConverter.regex, text)


OTHERS = ["0", "01", "-1", "+1", str(MAX_KEY + 1), "9999999999", "1e3", "٣"]


@pytest.mark.parametrize("text", OTHERS)
def test_anything_else_is_no_key(text):
    assert not re.fullmatch(KeyConverter.regex, text)
