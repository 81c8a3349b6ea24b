"""The pages' scripts show only words the page hands them (issue 26): the page's
language, from the catalogs, never a sentence written in the script. Shared
scripts read #script-words (templates/_script_words.html), a hand form's script
its game's #form-words; a counted sentence comes once per plural category of
the language and the browser's Intl.PluralRules picks one (static/app.js)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from scorekeeper import formats
from scorekeeper.games.catalog import VARIANTS
from tests.games import seated

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted([*ROOT.glob("static/*.js"), *ROOT.glob("scorekeeper/games/*/static/*.js")])
WORDS = re.compile(r'<script type="application/json" id="(script-words|form-words)">(.*?)</script>')


def words_of(page: str) -> dict[str, dict]:
    """Each words block of a page by its id."""
    return {name: json.loads(text) for name, text in WORDS.findall(page)}


def test_every_page_hands_the_shared_scripts_their_words(client):
    page = client.get("/").get_data(as_text=True)
    words = words_of(page)["script-words"]
    assert words["not_sent"] == (
        "Not sent yet — kept on this phone, sending when the connection is back."
    )
    assert words["connection_lost"] == (
        "Connection lost since %(time)s · still trying; this page catches up by itself."
    )
    assert words["hands_waiting"] == {
        "one": "%(num)s hand waiting on this phone (%(hands)s)"
        " — sending when the connection is back.",
        "other": "%(num)s hands waiting on this phone (%(hands)s)"
        " — sending when the connection is back.",
    }
    assert words["screen_next_tap"] == "from your next tap"


@pytest.mark.parametrize(
    ("accept", "categories"),
    [
        ("en", {"one", "other"}),
        ("fr", {"one", "other"}),
        ("pl", {"one", "few", "many"}),  # 1 ręka, 2 ręce, 5 rąk
        ("zh-CN", {"other"}),
    ],
)
def test_a_counted_sentence_comes_once_for_each_plural_category(client, accept, categories):
    page = client.get("/", headers={"Accept-Language": accept}).get_data(as_text=True)
    words = words_of(page)["script-words"]
    assert set(words["hands_waiting"]) == categories
    assert set(words["thrown_away"]) == categories


@pytest.mark.parametrize(
    ("locale", "examples"),
    [
        ("en_GB", (("one", 1), ("other", 2))),
        ("fr", (("one", 1), ("other", 2))),
        ("pl", (("one", 1), ("few", 2), ("many", 5))),
        ("zh_Hans_CN", (("other", 1),)),
    ],
)
def test_each_plural_category_is_asked_with_its_smallest_count(locale, examples):
    assert formats.plural_examples(locale) == examples


STYLES = "".join(path.read_text(encoding="utf-8") for path in ROOT.glob("**/static/*.css"))


def _script_sentences(source: str) -> list[str]:
    """String literals of a script (comments left out) that read like words to a
    player: two words of letters with a space between. Not a selector ("#id",
    ".class", "[name=key]"), a list of classes ("button small", "no-answer") nor "use strict"."""
    source = re.sub(r"^\s*//.*$", "", source, flags=re.M)
    source = re.sub(r"\s//\s.*$", "", source, flags=re.M)
    literals = re.findall(r'"(?:[^"\\\n]|\\.)*"|`(?:[^`\\]|\\.)*`', source)
    return [
        text
        for text in literals
        if re.search(r"[A-Za-z]{2,} [a-z]{2,}", text)
        and not re.search(r"#\w|\.\w|\[", text)
        and not all(
            f".{name}" in STYLES or re.fullmatch(r"[a-z]+(-[a-z]+)+", name)
            for name in text[1:-1].split()
        )
        and text != '"use strict"'
    ]


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_writes_a_sentence_of_its_own(script):
    assert _script_sentences(script.read_text(encoding="utf-8")) == []


def _asked(script: Path) -> set[str]:
    """The words a script asks the page for."""
    text = script.read_text(encoding="utf-8")
    asked = set(re.findall(r'\b(?:word|counted)\("(\w+)"', text))
    asked |= set(re.findall(r'\bsay\("(\w+)"\)', text))  # wakelock.js
    return asked


@pytest.mark.parametrize("variant_id", sorted(VARIANTS))
def test_each_hand_form_hands_its_script_every_word_it_asks_for(client, actions, variant_id):
    match_id = actions.start(variant_id, seated(variant_id))
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    words = words_of(page)
    family = re.search(r'id="hand-form" data-game="(\w+)"', page).group(1)
    asked = set().union(
        *(_asked(path) for path in ROOT.glob(f"scorekeeper/games/{family}/static/*.js"))
    )
    given = set(words.get("form-words", {})) | set(words["script-words"])
    assert asked - given == set()
    shared = set().union(*(_asked(path) for path in ROOT.glob("static/*.js")))
    assert shared - set(words["script-words"]) == set()


def test_the_rubber_form_words_are_whole_sentences(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
    assert words_of(page)["form-words"] == {
        "strain_next": "Level %(level)s: now the strain.",
        "doubled": "%(contract)s doubled",
        "redoubled": "%(contract)s redoubled",
        "needs": "%(contract)s: needs %(tricks)s tricks.",
        "needs_by": "%(contract)s by %(declarer)s: needs %(tricks)s tricks.",
    }
