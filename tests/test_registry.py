"""One naming scheme from a variant's id to every piece that serves it: every
variant is complete, and a variant missing a piece is named before the app runs."""

from __future__ import annotations

import pytest

from scorekeeper import registry
from scorekeeper.app import create_app
from scorekeeper.entry import entry_for
from scorekeeper.variants import VARIANTS
from scorekeeper.variants.rubber import Rubber
from scorekeeper.variants.top_game import TopGame

FAMILIES = {
    "top-game": "top_game",
    "need-a-fourth": "need_a_fourth",
    "bridge-for-three": "bridge_for_three",
    "mini-bridge": "mini_bridge",
    "mini-bridge-3": "mini_bridge",
    "rubber": "rubber",
    "honeymoon": "rubber",
    "chicago": "rubber",
    "calypso": "calypso",
}


def test_every_variant_has_every_piece():
    assert registry.missing() == []


@pytest.mark.parametrize("variant_id, family", FAMILIES.items())
def test_each_variant_finds_its_pieces_by_its_family(variant_id, family):
    cls = VARIANTS[variant_id]
    assert registry.family(cls) == family
    assert entry_for(variant_id).variant == variant_id
    assert entry_for(variant_id).template == f"hands/{family}.html"
    assert registry.module("sheets", cls).__name__ == f"scorekeeper.sheets.{family}"


def test_the_families_are_every_variant():
    assert set(FAMILIES) == set(VARIANTS)


class Whist(TopGame):
    """A variant whose rules module exists nowhere else: nothing else was written."""

    id = "whist"


Whist.__module__ = "scorekeeper.variants.whist"


class RubberVariation(Rubber):
    """A new variant of an existing family: the family's modules exist, but
    no entry, rules page, example or README row was written for it."""

    id = "rubber-x"


RubberVariation.__module__ = "scorekeeper.variants.rubber"


def test_an_incomplete_variant_is_reported_piece_by_piece():
    problems = registry.missing({"whist": Whist, "rubber-x": RubberVariation})
    assert problems == [
        "whist: no module scorekeeper/entry/whist.py",
        "whist: no module scorekeeper/sheets/whist.py",
        "whist: no HandEntry with variant = 'whist'",
        "whist: no file hands/whist.html",
        "whist: no file sheets/whist.html",
        "whist: no file rules/whist.html",
        "whist: no file examples/whist.json",
        "whist: no file docs/variants/whist.md",
        "whist: no row in the variants table of README.md",
        "rubber-x: no HandEntry with variant = 'rubber-x'",
        "rubber-x: no file rules/rubber_x.html",
        "rubber-x: no file examples/rubber-x.json",
        "rubber-x: no file docs/variants/rubber-x.md",
        "rubber-x: no row in the variants table of README.md",
    ]


def test_a_variant_document_without_its_decisions_is_reported(tmp_path):
    # The rules page shows that section (scorekeeper/docs.py).
    (tmp_path / "variants").mkdir()
    (tmp_path / "variants" / "rubber.md").write_text("# Rubber\n\n## Scoring\n", encoding="utf-8")
    problems = registry.missing({"rubber": VARIANTS["rubber"]}, docs=tmp_path)
    assert problems == ["rubber: docs/variants/rubber.md has no '## Our decisions'"]


def test_the_app_does_not_start_with_an_incomplete_variant(tmp_path, monkeypatch):
    monkeypatch.setitem(VARIANTS, "rubber-x", RubberVariation)
    with pytest.raises(RuntimeError) as raised:
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.db")})
    assert str(raised.value) == (
        "variants incomplete: rubber-x: no HandEntry with variant = 'rubber-x';"
        " rubber-x: no file rules/rubber_x.html;"
        " rubber-x: no file docs/variants/rubber-x.md"
    )
