"""The rules pages' "Our decisions" is drawn from docs/variants/<id>.md
(scorekeeper/docs.py): the page shows every decision of the document, in its
order and words, so the two cannot drift; and the small part of Markdown the
documents use there is drawn safely. Need a Fourth?'s page draws its scoring
tables and structured bids from the document too; every other page keeps its
own words for the screen, and every number the document gives (each score,
each worked example, each option's range) must be on the page as well."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import docs
from scorekeeper.games.catalog import VARIANTS
from tests.webtools import links, parse, texts, visible_text

DOCS = Path(__file__).resolve().parent.parent / "docs"


def plain(markdown: str) -> str:
    """A decision's text as a reader sees it: the Markdown marks left out."""
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", markdown)
    return text.replace("**", "").replace("`", "").replace("*", "")


def document_decisions(variant_id: str) -> list[str]:
    text = (DOCS / "variants" / f"{variant_id}.md").read_text(encoding="utf-8")
    blocks = docs.blocks(docs.section(text, docs.DECISIONS))
    return [plain(item) for kind, items in blocks if kind == "ul" for item in items]


def squashed(text: str) -> str:
    """Without white space: the page's text joins an element's parts with spaces."""
    return "".join(text.split())


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_the_rules_page_shows_every_decision_of_the_document(actions, variant_id):
    shown = texts(actions.page(f"/rules/{variant_id}"), "decision", "li")
    assert [squashed(t) for t in shown] == [squashed(t) for t in document_decisions(variant_id)]
    assert shown  # every variant has at least one


def test_a_link_to_another_variant_document_leads_to_its_rules_page(actions):
    page = actions.page("/rules/honeymoon")
    assert links(page, "rubber bridge") == ["/rules/rubber#our-decisions"]
    said = squashed("Those of rubber bridge, except for passed-out hands:")
    assert said in squashed(visible_text(page))
    assert 'id="our-decisions"' in actions.page("/rules/rubber")


def test_the_sections_end_at_the_next_heading():
    text = "# T\n\n## Our decisions\n\n- one\n- two\n  more\n\n## Next\n\n- not this\n"
    assert docs.section(text, "Our decisions") == "- one\n- two\n  more"
    assert docs.blocks(docs.section(text, "Our decisions")) == [("ul", ["one", "two more"])]
    with pytest.raises(KeyError):
        docs.section(text, "Missing")


def in_app(target: str) -> str | None:
    return "/rules/rubber" if target == "rubber.md" else None


@pytest.mark.parametrize(
    ("markdown", "html"),
    [
        ("plain & <b>", "plain &amp; &lt;b&gt;"),
        ("**bold** and *em*", "<strong>bold</strong> and <em>em</em>"),
        ('`{"a": 1} <x>`', "<code>{&#34;a&#34;: 1} &lt;x&gt;</code>"),
        ("[rubber bridge](rubber.md)", '<a href="/rules/rubber">rubber bridge</a>'),
        # A link the app has no page for is left as its words.
        ("[the match file](../match-file.md#rubber)", "the match file"),
        ("[<i>](rubber.md)", '<a href="/rules/rubber">&lt;i&gt;</a>'),
        ("a * b ** c", "a * b ** c"),
    ],
)
def test_inline_markdown_is_drawn_escaped(markdown, html):
    assert str(docs.inline(markdown, in_app)) == html


def test_a_paragraph_and_a_list_are_drawn_in_order():
    drawn = docs.to_html("Intro\nline.\n\n- first\n- second", in_app)
    assert str(drawn) == (
        "<p>Intro line.</p>\n"
        '<ul class="decisions"><li class="decision">first</li>'
        '<li class="decision">second</li></ul>'
    )


NUMBER = re.compile(r"(?<![\w.,])\d+(?:[.,]\d+)*")


def numbers(text: str) -> set[str]:
    """The numbers in a text: `4♠` gives 4, `−1200` gives 1200, `1–30` 1 and 30."""
    return set(NUMBER.findall(text))


def document_numbers(variant_id: str) -> set[str]:
    """Every number of the document but its decisions (drawn on the page as they
    are), its title, its match-file line and its list's step numbers."""
    text = (DOCS / "variants" / f"{variant_id}.md").read_text(encoding="utf-8")
    text = text.replace(docs.section(text, docs.DECISIONS), "")
    lines = [line for line in text.splitlines()[1:] if "match-file.md" not in line]
    return numbers(re.sub(r"(?m)^\d+\. ", "", "\n".join(lines)))


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_number_of_the_document_is_on_the_rules_page(actions, variant_id):
    """The page and the document cannot drift apart on a score, a worked example
    or an option's range: a figure changed in one is missing from the other."""
    page = numbers(visible_text(actions.page(f"/rules/{variant_id}")))
    assert document_numbers(variant_id) - page == set()


def test_the_drift_check_finds_a_changed_figure(actions):
    """A document figure the page does not give is reported (here a made-up 1250)."""
    page = numbers(visible_text(actions.page("/rules/need-a-fourth")))
    assert {"1200", "1250"} - page == {"1250"}
    assert numbers("4♠ −1200, 1–30 and 2.5") == {"4", "1200", "1", "30", "2.5"}


# The sections a rules page draws from its document, as they are.
DRAWN = {
    "need-a-fourth": ["Scoring", "The liar rule (option `liar_rule`)"],
    "calypso": ["Scoring"],
    "rubber": ["Scoring one hand"],
    "top-game": ["Scoring"],
}


@pytest.mark.parametrize(("variant_id", "heading"), [(v, h) for v in DRAWN for h in DRAWN[v]])
def test_a_page_draws_its_scoring_from_the_document(actions, variant_id, heading):
    page = actions.page(f"/rules/{variant_id}")
    text = (DOCS / "variants" / f"{variant_id}.md").read_text(encoding="utf-8")
    drawn = docs.to_html(docs.section(text, heading), in_app, item_class=None)
    assert str(drawn).startswith(("<p>", "<table", "<h3>")), drawn
    assert str(drawn) in page


@pytest.mark.parametrize("variant_id", ["chicago", "honeymoon"])
def test_chicago_and_honeymoon_show_rubber_bridge_scoring_of_one_hand(actions, variant_id):
    text = (DOCS / "variants" / "rubber.md").read_text(encoding="utf-8")
    drawn = docs.to_html(docs.section(text, "Scoring one hand"), in_app, item_class=None)
    assert str(drawn) in actions.page(f"/rules/{variant_id}")


def test_need_a_fourth_shows_the_documents_tables(actions):
    page = actions.page("/rules/need-a-fourth")
    rows = [
        [cell.text() for cell in row.find_all("td")]
        for row in parse(page).find_all("tr")
        if row.find_all("td")
    ]
    assert ["XX", "−500", "−300", "−600"] in rows  # the failed-contract table
    assert ["2♥X, 9 (one over)", "+800", "+700", "0"] in rows  # an example


def test_a_table_and_a_subheading_are_drawn_escaped():
    drawn = docs.to_html("### Made <b>\n\n| a | b & c |\n|---|---|\n| **1** | |", in_app, None)
    assert str(drawn) == (
        "<h3>Made &lt;b&gt;</h3>\n"
        '<table class="score rules-table"><thead><tr><th>a</th><th>b &amp; c</th></tr></thead>'
        "<tbody><tr><td><strong>1</strong></td><td></td></tr></tbody></table>"
    )


def test_a_list_outside_the_decisions_is_a_plain_list():
    assert str(docs.to_html("- one\n- two", in_app, None)) == "<ul><li>one</li><li>two</li></ul>"
