"""Each rules page in the reader's language (issue #26): the sections a page
draws from docs/variants/<id>.md are read from docs/variants/<code>/<id>.md for
a phone in that language. A translated document names each "## " section in its
own words with the English heading in a comment after them, so a page finds the
same section in every language; and it must say what the English says: the same
sections, tables of the same shape, every figure, every code word and every link
to another game."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from scorekeeper import docs
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.languages import LANGUAGES
from tests.webtools import visible_text

VARIANTS_DOCS = Path(__file__).resolve().parent.parent / "docs" / "variants"
CODES = [language.code for language in LANGUAGES if language.code != "en"]
PAIRS = [(code, variant_id) for code in CODES for variant_id in VARIANTS]


def english(variant_id: str) -> str:
    return (VARIANTS_DOCS / f"{variant_id}.md").read_text(encoding="utf-8")


def translated(code: str, variant_id: str) -> str:
    return (VARIANTS_DOCS / code / f"{variant_id}.md").read_text(encoding="utf-8")


def headings(markdown: str) -> list[str]:
    return [name for line in markdown.splitlines() if (name := docs._heading(line))]


def figures(text: str) -> Counter:
    """Every figure, as digits (a thousands separator or decimal comma a language
    writes is read as the English writes it)."""
    text = re.sub(r"<!--.*?-->", " ", text)
    text = re.sub(r"(?<=\d)[  .'](?=\d{3}\b)", "", text)  # 1 000, 1.000 -> 1000
    text = re.sub(r"(?<=\d),(?=\d\d\b)", ".", text)  # 0,50 -> 0.50
    return Counter(re.findall(r"\d+(?:\.\d+)?", text))


def shape(markdown: str) -> list[tuple[str, int]]:
    """The kinds of block and their sizes: paragraphs, lists of n items, tables of n rows."""
    return [(kind, len(items) if kind != "p" else 1) for kind, items in docs.blocks(markdown)]


def test_a_heading_is_found_by_its_english_name_in_a_translated_document():
    text = (
        "# Titre\n\n## Nos décisions <!-- Our decisions -->\n\n- une\n\n## Autre <!-- Other -->\n"
    )
    assert docs.section(text, docs.DECISIONS) == "- une"
    assert docs.section(text, "Other") == ""
    assert docs.section("## Our decisions\n\n- one\n", docs.DECISIONS) == "- one"
    with pytest.raises(KeyError):
        docs.section(text, "Nos décisions")


@pytest.mark.parametrize(("code", "variant_id"), PAIRS)
def test_every_language_has_every_rules_document_with_the_english_sections(code, variant_id):
    assert headings(translated(code, variant_id)) == headings(english(variant_id))


@pytest.mark.parametrize(("code", "variant_id"), PAIRS)
def test_each_section_says_the_english_figures_codes_and_links_in_the_same_shape(code, variant_id):
    ours, theirs = translated(code, variant_id), english(variant_id)
    for heading in headings(theirs):
        said, original = docs.section(ours, heading), docs.section(theirs, heading)
        where = f"{code}/{variant_id}.md, {heading}"
        assert figures(said) == figures(original), where
        assert sorted(re.findall(r"`[^`]+`", said)) == sorted(re.findall(r"`[^`]+`", original)), (
            where
        )
        games = r"\]\(([a-z0-9-]+\.md[^)]*)\)"
        assert re.findall(games, said) == re.findall(games, original), where
        assert shape(said) == shape(original), where


def test_the_figures_check_finds_a_changed_figure():
    assert figures("20 for each trick, 1 000 for a slam, 0,50 a point") == figures(
        "20 for each trick, 1000 for a slam, 0.50 a point"
    )
    assert figures("30 for each trick") != figures("20 for each trick")


@pytest.mark.parametrize("code", CODES)
def test_the_rules_page_shows_the_decisions_in_the_phones_language(actions, code):
    decisions = docs.blocks(docs.section(translated(code, "rubber"), docs.DECISIONS))
    first = next(items for kind, items in decisions if kind == "ul")[0]
    words = re.sub(r"[*`]|\[([^\]]+)\]\([^)]+\)", r"\1", first).split()[:6]
    actions.client.set_cookie("lang", code)
    page = visible_text(actions.client.get("/rules/rubber"))
    assert " ".join(words) in page
    english_first = next(
        i for k, i in docs.blocks(docs.section(english("rubber"), docs.DECISIONS)) if k == "ul"
    )[0]
    assert " ".join(english_first.split()[:6]) not in page


def test_a_language_without_its_document_reads_the_english_one(tmp_path):
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "rubber.md").write_text("# R\n\n## Our decisions\n\n- one\n")
    assert docs.document(tmp_path, "rubber", "fr") == tmp_path / "variants" / "rubber.md"
    (tmp_path / "variants" / "fr").mkdir()
    (tmp_path / "variants" / "fr" / "rubber.md").write_text("# R\n")
    assert docs.document(tmp_path, "rubber", "fr") == tmp_path / "variants" / "fr" / "rubber.md"
