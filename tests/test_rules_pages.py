"""The rules pages' "Our decisions" is drawn from docs/variants/<id>.md
(scorekeeper/docs.py): the page shows every decision of the document, in its
order and words, so the two cannot drift; and the small part of Markdown the
documents use there is drawn safely."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from scorekeeper import docs
from scorekeeper.variants import VARIANTS
from tests.webtools import links, texts, visible_text

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
