"""The one list of the games: every game is complete and lives in its package
and its two folders, and a game missing a piece is named, piece by piece,
before the app runs."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper import registry
from scorekeeper.app import create_app
from scorekeeper.games.catalog import GAMES, VARIANTS, game_for
from scorekeeper.games.common import Game
from scorekeeper.games.kit import GameKit, Variant
from scorekeeper.games.rubber import sheet as rubber_sheet
from scorekeeper.games.rubber import stats as rubber_stats
from scorekeeper.games.rubber.rules import Rubber
from scorekeeper.games.settlement import PARTNERSHIP, ROUNDED_PARTNERSHIP
from scorekeeper.games.top_game.entry import TopGameEntry
from scorekeeper.games.top_game.rules import TopGame
from scorekeeper.registry import entry_for
from scorekeeper.settle import usual_per
from tests.games import FAMILY_OF, VARIANT_IDS, pinned

ROOT = Path(__file__).resolve().parent.parent
# Variant id -> its family, as the catalog gives them (each game's own tests pin
# what its kit says: KIT in tests/test_<family>.py).
FAMILIES = FAMILY_OF


def test_every_variant_has_every_piece():
    assert registry.missing() == []


@pytest.mark.parametrize("variant_id, family", FAMILIES.items())
def test_each_variant_finds_its_pieces_in_its_package(variant_id, family):
    game = game_for(variant_id)
    assert game.family == family == pinned(variant_id, "KIT").family
    package = f"scorekeeper.games.{family}"
    assert VARIANTS[variant_id].__module__ == f"{package}.rules"
    assert type(entry_for(variant_id)).__module__ == f"{package}.entry"
    assert game.sheet.__module__ == f"{package}.sheet"
    assert entry_for(variant_id).variant == variant_id
    assert entry_for(variant_id).template == f"games/{family}/hand.html"
    assert game.sheet_template == f"games/{family}/sheet.html"
    stem = variant_id.replace("-", "_")
    assert game.rules_template(variant_id) == f"games/{family}/rules_{stem}.html"


@pytest.mark.parametrize("family", sorted(set(FAMILIES.values())))
def test_each_games_files_live_in_its_one_folder(family):
    """Everything of a game is in scorekeeper/games/<family>/ (its code, its
    templates/ and its static/); nothing of it is left in the shared folders."""
    package = ROOT / "scorekeeper" / "games" / family
    assert sorted(p.name for p in package.glob("*.py")) == [
        "__init__.py",
        "entry.py",
        "rules.py",
        "sheet.py",
        "stats.py",
    ]
    pages = sorted(p.name for p in (package / "templates").iterdir())
    stems = sorted(v.replace("-", "_") for v, f in FAMILIES.items() if f == family)
    # the partial a preview request draws (the script shows what the rules say)
    previews = {entry_for(v).preview_template for v, f in FAMILIES.items() if f == family}
    live = [Path(p).name for p in previews if p]
    # and the pieces of its sheet drawn once and kept (a rubber's pad), each named by the sheet
    sheet = (package / "templates" / "sheet.html").read_text()
    parts = re.findall(rf"'games/{family}/(_\w+\.html)'", sheet)
    assert pages == sorted(
        [*live, *parts, "hand.html", "sheet.html", *(f"rules_{s}.html" for s in stems)]
    )
    # its static files are its script and stylesheet, named after it, each linked by its pages
    assets = sorted(p.name for p in (package / "static").iterdir())
    linked = {
        name
        for page in (package / "templates").iterdir()
        for name in re.findall(rf"filename='games/{family}/([^']+)'", page.read_text("utf-8"))
    }
    assert assets == sorted(linked)
    assert set(assets) <= {f"{family}.css", f"{family}.js"}
    for shared in ("templates/hands", "templates/rules", "static"):
        assert not list((ROOT / shared).glob(f"{family}*")), shared
    assert not (ROOT / "templates" / "games").exists()
    assert not (ROOT / "static" / "games").exists()
    assert not (ROOT / "templates" / "sheets").exists()
    assert not (ROOT / "static" / "hands").exists()


def test_the_families_are_every_variant():
    assert set(FAMILIES) == set(VARIANTS)
    assert [v.id for game in GAMES for v in game.variants] == list(VARIANTS)


@pytest.mark.parametrize("variant_id", VARIANT_IDS)
def test_the_stake_basis_is_the_games_not_a_guess_from_an_option(variant_id):
    assert usual_per(variant_id) == pinned(variant_id, "KIT").stake_per


class Whist(TopGame):
    """A game whose rules are declared and nothing else was written."""

    id = "whist"


Whist.__module__ = "scorekeeper.games.whist.rules"


class RubberVariation(Rubber):
    """A new variant of an existing family: the family's pieces exist, but no
    rules page, example, document or README row was written for it."""

    id = "rubber-x"


RubberVariation.__module__ = "scorekeeper.games.rubber.rules"

# A kit declared before its entry, sheet and settlement were written.
WHIST = GameKit(
    family="whist",
    variants=(Variant(Whist, None, None),),  # type: ignore[arg-type]
    sheet=None,  # type: ignore[arg-type]
)
RUBBER_X = GameKit(
    family="rubber",
    variants=(
        Variant(
            RubberVariation, "RubberEntry", ROUNDED_PARTNERSHIP, stake_per=100, partners="fixed"
        ),
    ),
    sheet=rubber_sheet.build,
    stats=rubber_stats.STATS,
)


def test_an_incomplete_game_is_reported_piece_by_piece():
    problems = registry.missing([WHIST, RUBBER_X])
    assert problems == [
        "whist: no sheet builder (build in scorekeeper/games/whist/sheet.py)",
        "whist: no statistics (STATS, a GameStats in scorekeeper/games/whist/stats.py)",
        "whist: no file scorekeeper/games/whist/templates/hand.html",
        "whist: no file scorekeeper/games/whist/templates/sheet.html",
        "whist: no hand entry (a HandEntry in scorekeeper/games/whist/entry.py)",
        "whist: no settlement (scorekeeper/games/settlement.py)",
        'whist: no partner kind (partners= one of "fixed", "by hand", "none")',
        "whist: no file scorekeeper/games/whist/templates/rules_whist.html",
        "whist: no file examples/whist.json",
        "whist: no file docs/variants/whist.md",
        "whist: no row in the variants table of README.md",
        "rubber-x: no file scorekeeper/games/rubber/templates/rules_rubber_x.html",
        "rubber-x: no file examples/rubber-x.json",
        "rubber-x: no file docs/variants/rubber-x.md",
        "rubber-x: no row in the variants table of README.md",
    ]


def test_pieces_outside_the_games_package_are_reported():
    class Stray(Game):
        id = "stray"

    stray = GameKit(
        family="whist",
        variants=(Variant(Stray, "RubberEntry", PARTNERSHIP, partners="fixed"),),
        sheet=rubber_sheet.build,
        stats=rubber_stats.STATS,
    )
    assert registry.missing([stray], documentation=False) == [
        "whist: its sheet builder is not in scorekeeper/games/whist/sheet.py",
        "whist: its statistics are not in scorekeeper/games/whist/stats.py",
        "whist: no file scorekeeper/games/whist/templates/hand.html",
        "whist: no file scorekeeper/games/whist/templates/sheet.html",
        "stray: its rules are not in scorekeeper/games/whist/rules.py",
        "stray: no hand entry (a HandEntry named RubberEntry in scorekeeper/games/whist/entry.py)",
        "stray: no file scorekeeper/games/whist/templates/rules_stray.html",
        "stray: no file docs/variants/stray.md",
    ]


def test_the_hand_entry_is_the_class_the_kit_names_in_its_own_entry_module():
    """The kit names its entry (registry.py imports it by that name), so a name
    the family's entry.py lacks, or a class it only imports, is reported."""
    top = GAMES[0]
    renamed = replace(top.variants[0], entry="TopGameForm")
    borrowed = replace(
        top.variants[0], entry="HandEntry"
    )  # scorekeeper.entry's  # scorekeeper.entry's
    problems = [
        registry.missing([replace(top, variants=(variant,))], documentation=False)
        for variant in (renamed, borrowed)
    ]
    assert problems == [
        [
            "top-game: no hand entry (a HandEntry named TopGameForm in"
            " scorekeeper/games/top_game/entry.py)"
        ],
        ["top-game: its hand entry is not in scorekeeper/games/top_game/entry.py"],
    ]
    assert registry.entry_class(top, top.variants[0]) is TopGameEntry
    assert registry.entry_class(top, renamed) is None


def test_a_variant_declared_twice_is_reported():
    twice = replace(GAMES[0], variants=GAMES[0].variants * 2)
    assert registry.missing([twice], documentation=False) == ["top-game: declared twice"]


def test_a_variant_document_without_its_decisions_is_reported(tmp_path):
    # The rules page shows that section (scorekeeper/docs.py).
    (tmp_path / "variants").mkdir()
    for variant_id in ("rubber", "honeymoon", "chicago"):
        (tmp_path / "variants" / f"{variant_id}.md").write_text(
            "# Rubber\n\n## Scoring\n", encoding="utf-8"
        )
    problems = registry.missing([game_for("rubber")], docs=tmp_path)
    assert problems == [
        f"{v}: docs/variants/{v}.md has no '## Our decisions'"
        for v in ("rubber", "honeymoon", "chicago")
    ]


def test_the_app_does_not_start_with_an_incomplete_game(tmp_path, monkeypatch):
    monkeypatch.setattr(registry, "GAMES", [*GAMES, RUBBER_X])
    with pytest.raises(RuntimeError) as raised:
        create_app({"TESTING": True, "DATABASE": str(tmp_path / "r.db")})
    assert str(raised.value) == (
        "games incomplete: rubber-x: no file"
        " scorekeeper/games/rubber/templates/rules_rubber_x.html;"
        " rubber-x: no file docs/variants/rubber-x.md"
    )


def test_a_module_the_entry_imports_being_absent_is_not_taken_for_a_missing_entry(monkeypatch):
    """Only the family's own entry.py (or package) may be missing; a dependency
    the entry imports that is not installed stops the start with its own error."""

    def without_wtforms(name: str):
        raise ModuleNotFoundError("No module named 'wtforms'", name="wtforms")

    monkeypatch.setattr(registry.importlib, "import_module", without_wtforms)
    with pytest.raises(ModuleNotFoundError) as raised:
        registry.entry_class(GAMES[0], GAMES[0].variants[0])
    assert raised.value.name == "wtforms"
