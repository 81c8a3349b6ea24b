"""A hand's line in the log (macros.log_entry: what happened, the scores, why)
is drawn once for what it says and the reader's language (pages.log_line): a
page drawn after a change draws the new hand's line and takes the others as
they were, so a long match's page costs about one line per change instead of
every line again. The page is the very page drawn without kept lines."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scorekeeper import drawn, speech
from scorekeeper.kept import Recent
from scorekeeper.speech import Said, key_of
from scorekeeper.views import pages
from tests.test_drawn_once import PLAYERS, hand, keyless
from tests.webtools import visible_text


def pieces() -> Recent:
    """A kept set of pieces of a test's own, bound as the app's is."""
    return Recent(pages.KEPT_PIECES, pages.KEPT_PIECES_TEXT, len)


@pytest.fixture
def lines_drawn(monkeypatch) -> list[int]:
    """Counts each log line drawn, with a kept set of lines of its own."""
    drawn: list[int] = []
    draw = pages._draw_piece

    def counted(source, macro, shown):
        if macro in ("log_entry", "log_item"):
            drawn.append(shown[0]["number"])
        return draw(source, macro, shown)

    monkeypatch.setattr(pages, "_draw_piece", counted)
    monkeypatch.setattr(pages, "_pieces", pieces())
    return drawn


def test_a_page_drawn_after_a_change_draws_only_the_new_hands_line(actions, lines_drawn):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, hand("Ann", "1", "C", "7"))
    actions.save_hand(match_id, hand("Bob", "2", "H", "8"))
    actions.page(f"/m/{match_id}")
    assert sorted(lines_drawn) == [1, 2]
    actions.save_hand(match_id, hand("Cy", "3", "NT", "9"))
    page = actions.page(f"/m/{match_id}")
    assert sorted(lines_drawn) == [1, 2, 3]
    assert "3NT by Cy, made" in visible_text(page)


def test_a_line_is_drawn_again_in_another_language_and_when_what_it_says_changes(
    actions, client, lines_drawn
):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, hand("Ann", "1", "C", "7"))
    actions.page(f"/m/{match_id}")
    client.set_cookie("lang", "fr")
    french = actions.page(f"/m/{match_id}")
    assert "1♣ par Ann, réussi" in visible_text(french)
    client.set_cookie("lang", "en")
    hand_id = actions.hand_ids(match_id)[0]
    actions.save_hand(match_id, hand("Ann", "1", "C", "9"), hand=hand_id)  # two more tricks
    english = actions.page(f"/m/{match_id}")
    assert "Ann +20 Cy +20" not in visible_text(english)
    assert "Ann +60 Cy +60" in visible_text(english)
    assert lines_drawn == [1, 1, 1]


def test_the_page_with_kept_lines_is_the_page_drawn_without_them(actions, client, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)
    for declarer, level, strain, tricks in [("Ann", "1", "C", "7"), ("Bob", "4", "S", "9")]:
        actions.save_hand(match_id, hand(declarer, level, strain, tricks))
    for code in ("en", "fr", "pl"):
        client.set_cookie("lang", code)
        actions.page(f"/m/{match_id}")  # its lines kept
    client.set_cookie("lang", "en")
    actions.save_hand(match_id, hand("Cy", "2", "D", "8"))
    actions.page(f"/m/{match_id}")  # the save's message, shown once
    pages_read = {}
    for code in ("en", "fr", "pl"):
        client.set_cookie("lang", code)
        pages_read[code] = actions.page(f"/m/{match_id}?hand=1")  # drawn anew, two lines kept
    monkeypatch.setattr(pages, "_pieces", Recent(0))  # nothing kept: every line drawn
    monkeypatch.setattr(  # and no page kept either
        drawn, "_drawings", Recent(drawn.KEPT_DRAWINGS, drawn.KEPT_SIZE, drawn.Drawing.size)
    )
    for code, kept in pages_read.items():
        client.set_cookie("lang", code)
        assert keyless(actions.page(f"/m/{match_id}?hand=1")) == keyless(kept)


def test_the_same_line_is_drawn_in_each_readers_language(app, monkeypatch):
    """A line whose every word is a sentence (nothing said before the page is
    drawn) is kept once per language: a French phone never gets the English."""
    monkeypatch.setattr(pages, "_pieces", pieces())
    row = {
        "number": 1,
        "label": "1",
        "title": "",
        "what": Said("Hand %(number)s", named={"number": 7}),
        "counted": True,
        "scores": [5, -5],
        "explanation": [Said("Hand %(number)s", named={"number": 8})],
    }
    for code, said in (("en", "Hand"), ("fr", "Donne"), ("en", "Hand"), ("fr", "Donne")):
        with app.test_request_context("/", headers={"Cookie": f"lang={code}"}):
            app.preprocess_request()
            line = visible_text(str(pages.log_line(row, ["Ann", "Bob"])))
        assert f"{said} 7" in line and f"{said} 8" in line and "Ann +5 Bob −5" in line


def test_a_sentences_key_names_what_it_is_made_of_not_its_english_alone():
    level_of_a_bid = speech._("Level")
    scores_equal = speech.pgettext("scores equal", "Level")
    assert str.__str__(level_of_a_bid) == str.__str__(scores_equal)
    assert key_of(level_of_a_bid) != key_of(scores_equal)
    line = speech._("%(who)s: %(what)s", who="Ann", what=speech._("Level"))
    assert key_of(line) == key_of(speech._("%(who)s: %(what)s", who="Ann", what=speech._("Level")))
    assert key_of(line) != key_of(speech._("%(who)s: %(what)s", who="Bob", what=speech._("Level")))
    assert key_of(line.then(str.upper)) != key_of(line)
    assert key_of(line.then(str.upper, english_only=True)) == key_of(
        line.then(str.upper, english_only=True)
    )
    assert key_of(["Ann", 5, None, Decimal("0.50")]) != key_of(["Ann", 5, None, Decimal("0.5")])
    assert key_of([Said("40")]) != key_of(["40"])


def test_placeholders_that_print_differently_have_keys_of_their_own():
    """A placeholder prints a list [1, 2], a tuple (1, 2), -0.0 and 0.0, and one
    moment in two time zones differently: each is a key of its own."""
    from collections import namedtuple
    from datetime import UTC, datetime, timedelta, timezone

    assert key_of(Said("%(x)s", named={"x": [1, 2]})) != key_of(Said("%(x)s", named={"x": (1, 2)}))
    assert key_of(-0.0) != key_of(0.0)
    moment = datetime(2026, 11, 28, 12, tzinfo=UTC)
    assert key_of(moment) != key_of(moment.astimezone(timezone(timedelta(hours=1))))
    with pytest.raises(TypeError):
        key_of(namedtuple("Pair", "a b")(1, 2))


def test_a_line_whose_key_cannot_be_kept_is_drawn_anew(app, monkeypatch):
    """A sentence changed by something unhashable (no such change in the app
    today) is drawn anew on each page, never a 500."""
    monkeypatch.setattr(pages, "_pieces", pieces())

    class Change(dict):  # callable, unhashable
        def __call__(self, text):
            return text.upper()

    row = {
        "number": 1,
        "label": "1",
        "title": "",
        "what": Said("Hand %(number)s", named={"number": 7}).then(Change()),
        "counted": True,
        "scores": [5, -5],
        "explanation": [],
    }
    with app.test_request_context("/"):
        app.preprocess_request()
        assert "HAND 7" in str(pages.log_line(row, ["Ann", "Bob"]))


def test_a_line_is_drawn_again_after_its_template_is_read_again(app, monkeypatch):
    """With templates read again when they change (`flask run --debug`), an edit
    of the log line's macro shows at once, as the rest of the page does."""
    from jinja2 import ChoiceLoader, DictLoader

    monkeypatch.setattr(pages, "_pieces", pieces())
    edited = {"macros.html": "{% macro log_entry(row, players) %}one {{ row.label }}{% endmacro %}"}
    app.jinja_env.auto_reload = True
    app.jinja_env.loader = ChoiceLoader([DictLoader(edited), app.jinja_env.loader])
    row = {"number": 1, "label": "1", "title": "", "what": "x", "counted": True}
    row |= {"scores": [], "explanation": []}
    with app.test_request_context("/"):
        app.preprocess_request()
        assert str(pages.log_line(row, [])) == "one 1"
        edited["macros.html"] = edited["macros.html"].replace("one", "two")
        assert str(pages.log_line(row, [])) == "two 1"


def test_a_dict_is_keyed_by_what_it_holds_in_its_order():
    """A rubber's pad is a dict of dicts and lists: its key is what it holds,
    and a dict shown in another order (a row drawn in the order built) is
    another key."""
    pad = {"number": 1, "rows": [{"points": 60, "what": Said("tricks")}], "won_by": None}
    assert key_of(pad) == key_of(
        {"number": 1, "rows": [{"points": 60, "what": Said("tricks")}], "won_by": None}
    )
    assert key_of(pad) != key_of({**pad, "rows": [{"points": 60, "what": Said("over")}]})
    assert key_of(pad) != key_of({**pad, "won_by": "We"})
    assert key_of({"a": 1, "b": 2}) != key_of({"b": 2, "a": 1})
    assert key_of({"a": True}) != key_of({"a": 1})


def test_a_value_without_a_key_is_refused():
    with pytest.raises(TypeError):
        key_of({"a": {1, 2}})
    with pytest.raises(TypeError):
        key_of(object())
