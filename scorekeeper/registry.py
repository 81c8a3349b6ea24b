"""One naming scheme from a variant's id to every piece that serves it.

A variant declares its id once, on its Game class in `variants/<family>.py`.
The family is that module's name; the rest is found from it:

    variants/<family>.py          the rules (a Game subclass with `id`)
    entry/<family>.py             its HandEntry (a subclass with `variant = id`)
    sheets/<family>.py            `build(match, outcome)`, the score sheet
    templates/hands/<family>.html     the hand form
    templates/sheets/<family>.html    the sheet (web page and PDF)
    templates/rules/<stem>.html       the rules page, stem = id with "_" for "-"
    examples/<id>.json                a realistic evening (the tests score it)
    README.md                          a row of the variants table
    static/hands/<family>.js, static/<family>.css   optional

`missing()` lists what is absent, and the app refuses to start without it, so a
forgotten piece is a test failure and not a 500 at the table.
"""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

from .docs import DECISIONS, has_section
from .variants import VARIANTS
from .variants.common import Game

ROOT = Path(__file__).resolve().parent.parent


def family(cls: type[Game]) -> str:
    """The rule set a variant belongs to: the module its Game class lives in."""
    return cls.__module__.rsplit(".", 1)[-1]


def stem(variant_id: str) -> str:
    """A variant id as a file name: top-game -> top_game."""
    return variant_id.replace("-", "_")


def module(kind: str, cls: type[Game]) -> ModuleType:
    """entry/<family>.py or sheets/<family>.py, imported."""
    return importlib.import_module(f"scorekeeper.{kind}.{family(cls)}")


def missing(
    variants: dict[str, type[Game]] | None = None,
    templates: Path | None = None,
    examples: Path | None = None,
    readme: Path | None = None,
    docs: Path | None = None,
    *,
    documentation: bool = True,
) -> list[str]:
    """Every piece of every variant that cannot be found, one line each.
    `documentation=False` checks only what the running app needs."""
    from .entry import HandEntry, entry_for

    variants = VARIANTS if variants is None else variants
    templates = templates or ROOT / "templates"
    examples = examples or ROOT / "examples"
    docs = docs or ROOT / "docs"
    readme_text = (
        (readme or ROOT / "README.md").read_text(encoding="utf-8") if documentation else ""
    )
    problems: list[str] = []
    for variant_id, cls in variants.items():
        name = family(cls)
        for kind in ("entry", "sheets"):
            try:
                found = module(kind, cls)
            except ModuleNotFoundError:
                problems.append(f"{variant_id}: no module scorekeeper/{kind}/{name}.py")
                continue
            if kind == "sheets" and not callable(getattr(found, "build", None)):
                problems.append(f"{variant_id}: scorekeeper/sheets/{name}.py has no build()")
        try:
            entry = entry_for(variant_id)
        except KeyError:
            problems.append(f"{variant_id}: no HandEntry with variant = {variant_id!r}")
        else:
            if not isinstance(entry, HandEntry):
                problems.append(f"{variant_id}: its entry is not a HandEntry")
        paths = [
            templates / "hands" / f"{name}.html",
            templates / "sheets" / f"{name}.html",
            templates / "rules" / f"{stem(variant_id)}.html",
        ]
        if documentation:
            paths.append(examples / f"{variant_id}.json")
        for path in paths:
            if not path.is_file():
                problems.append(f"{variant_id}: no file {path.relative_to(path.parents[1])}")
        # The rules page shows the document's decisions (scorekeeper/docs.py).
        document = docs / "variants" / f"{variant_id}.md"
        if not document.is_file():
            problems.append(f"{variant_id}: no file docs/variants/{variant_id}.md")
        elif not has_section(document.read_text(encoding="utf-8"), DECISIONS):
            problems.append(f"{variant_id}: docs/variants/{variant_id}.md has no '## {DECISIONS}'")
        if documentation and f"| `{variant_id}` |" not in readme_text:
            problems.append(f"{variant_id}: no row in the variants table of README.md")
    return problems
