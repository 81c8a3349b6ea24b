"""Docs that fail when they drift (sqlite-utils `tests/test_docs.py`): every link in
README.md and docs/ stays inside the repository and finds its file and heading,
every example match file in docs/ scores to exactly the output printed under it,
and every variant, option, hand field and command is documented."""

from __future__ import annotations

import argparse
import json
import re
import shlex
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.model import MATCH_FORMAT

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
MARKDOWN = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
TEMPLATES = sorted(path for path in (ROOT / "templates").rglob("*") if path.is_file())

LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
CODE_SPAN = re.compile(r"`[^`\n]*`")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
TEAM_FOLDER = re.compile(r"\bshared/")


@dataclass(frozen=True)
class Block:
    """A fenced code block: its language, its text and the line its fence opens on."""

    lang: str
    text: str
    line: int


@dataclass(frozen=True)
class Page:
    """A Markdown file split into its fenced blocks and its prose lines (numbered)."""

    path: Path
    blocks: list[Block]
    prose: list[tuple[int, str]]
    # For each block, whether only blank lines separate it from the next block.
    adjacent: list[bool]

    @property
    def name(self) -> str:
        return self.path.relative_to(ROOT).as_posix()


def read_page(path: Path) -> Page:
    blocks: list[Block] = []
    prose: list[tuple[int, str]] = []
    adjacent: list[bool] = []
    fence: tuple[str, int, list[str]] | None = None
    only_blank_since_block = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if fence is None and line.startswith("```"):
            if blocks:
                adjacent.append(only_blank_since_block)
            fence = (line[3:].strip(), number, [])
        elif fence is not None and line.strip() == "```":
            lang, start, lines = fence
            blocks.append(Block(lang, "".join(f"{text}\n" for text in lines), start))
            fence = None
            only_blank_since_block = True
        elif fence is not None:
            fence[2].append(line)
        else:
            prose.append((number, line))
            if line.strip():
                only_blank_since_block = False
    assert fence is None, f"{path}: the code block opened on line {fence[1]} is never closed"
    if blocks:
        adjacent.append(False)
    return Page(path, blocks, prose, adjacent)


PAGES = {path: read_page(path) for path in MARKDOWN}


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped,
    spaces as hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).strip().lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(page: Page) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in page.prose:
        heading = HEADING.match(line)
        if not heading:
            continue
        # A translated rules document names its section in English in a comment
        # after its words ("## Nos décisions <!-- Our decisions -->"): a link in it
        # names the section as the app's rules page does, by the English.
        named = re.fullmatch(r"(.*?)\s*<!--\s*(.+?)\s*-->\s*", heading.group(2))
        if named:
            found.add(slug(named.group(2)))
        base = slug(named.group(1) if named else heading.group(2))
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(page: Page) -> list[tuple[int, str]]:
    """Every link target of the page's prose (not of code blocks or code spans)."""
    return [
        (number, target)
        for number, line in page.prose
        for target in LINK.findall(CODE_SPAN.sub("", line))
    ]


ALL_LINKS = [(page, number, target) for page in PAGES.values() for number, target in links(page)]


# --- links ------------------------------------------------------------------------


def test_the_docs_are_there():
    assert (DOCS / "README.md").is_file()
    assert len(ALL_LINKS) > 50


@pytest.mark.parametrize(
    "page, number, target",
    ALL_LINKS,
    ids=[f"{page.name}:{number}:{target}" for page, number, target in ALL_LINKS],
)
def test_every_link_finds_its_file_and_heading_inside_the_repository(page, number, target):
    assert not SCHEME.match(target), "a link leaves the repository"
    path_part, _, anchor = target.partition("#")
    found = (page.path.parent / path_part).resolve() if path_part else page.path
    assert found.is_relative_to(ROOT), f"{target} points outside the repository"
    assert found.exists(), f"{target}: no such file in the repository"
    if anchor:
        assert found.suffix == ".md", f"{target}: an anchor into a file that is not Markdown"
        assert anchor in anchors(PAGES.get(found) or read_page(found)), (
            f"{target}: no heading #{anchor} in {found.relative_to(ROOT)}"
        )


def test_the_readme_links_to_the_docs():
    targets = {target for page, _, target in ALL_LINKS if page.path == ROOT / "README.md"}
    assert "docs/README.md" in targets
    assert "## Documentation" in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "path", MARKDOWN + TEMPLATES, ids=[p.relative_to(ROOT).as_posix() for p in MARKDOWN + TEMPLATES]
)
def test_no_user_facing_file_names_the_team_folder(path):
    text = path.read_text(encoding="utf-8")
    assert not TEAM_FOLDER.search(text)


# --- examples -----------------------------------------------------------------------


def match_files_in(page: Page) -> list[tuple[Block, Block | None]]:
    """Each ```json block holding a match file, with the block right after it when
    that is a ```text block (its expected output)."""
    found = []
    for i, block in enumerate(page.blocks):
        if block.lang != "json":
            continue
        try:
            doc = json.loads(block.text)
        except ValueError:
            continue
        if not isinstance(doc, dict) or doc.get("format") != MATCH_FORMAT:
            continue
        after = page.blocks[i + 1] if page.adjacent[i] else None
        found.append((block, after if after is not None and after.lang == "text" else None))
    return found


DOC_PAGES = [page for path, page in PAGES.items() if path.is_relative_to(DOCS)]
EXAMPLES = [(page, match, output) for page in DOC_PAGES for match, output in match_files_in(page)]


def test_every_variant_has_an_example_in_the_match_file_page():
    page = PAGES[DOCS / "match-file.md"]
    shown = {json.loads(match.text)["variant"] for match, _ in match_files_in(page)}
    assert shown == set(VARIANTS)


@pytest.mark.parametrize(
    "page, match, output",
    EXAMPLES,
    ids=[f"{page.name}:{match.line}" for page, match, _ in EXAMPLES],
)
def test_every_example_scores_to_the_output_printed_under_it(page, match, output, tmp_path, capsys):
    assert output is not None, "an example match file must be followed by a ```text block"
    source = tmp_path / "match.json"
    source.write_text(match.text, encoding="utf-8")
    status = cli.main(["score", str(source)])
    printed, problems = capsys.readouterr()
    if status == 0:
        assert (printed, problems) == (output.text, "")
    else:  # an example of invalid input shows its problem lines
        assert (status, printed, problems) == (cli.EXIT_INVALID, "", output.text)


def ledger_examples() -> list[tuple[Block, Block]]:
    """Each ```sh block of docs/ledger.md that runs `scorekeeper ledger`, with the
    block right after it: ```json (what it prints) or ```text (its error lines)."""
    page = PAGES[DOCS / "ledger.md"]
    return [
        (block, page.blocks[i + 1])
        for i, block in enumerate(page.blocks)
        if block.lang == "sh" and block.text.startswith("scorekeeper ledger ") and page.adjacent[i]
    ]


def test_the_ledger_page_has_an_example_and_an_error_example():
    assert [after.lang for _, after in ledger_examples()] == ["json", "text"]


@pytest.mark.parametrize(
    "command, output", ledger_examples(), ids=[c.text.strip() for c, _ in ledger_examples()]
)
def test_every_ledger_example_prints_what_is_written_under_it(command, output, capsys, monkeypatch):
    monkeypatch.chdir(ROOT)  # the example names the files of examples/
    status = cli.main(shlex.split(command.text)[1:])
    printed, problems = capsys.readouterr()
    if output.lang == "json":
        assert (status, printed, problems) == (0, output.text, "")
    else:
        assert (status, printed, problems) == (cli.EXIT_INVALID, "", output.text)


# --- every variant and every command ------------------------------------------------

MATCH_FILE_PAGE = (DOCS / "match-file.md").read_text(encoding="utf-8")
COMMAND_PAGES = "".join(
    (DOCS / name).read_text(encoding="utf-8")
    for name in ("running.md", "score-output.md", "ledger.md")
)


@pytest.mark.parametrize("variant_id", list(VARIANTS))
def test_every_variant_has_its_page_its_section_and_its_fields(variant_id):
    cls = VARIANTS[variant_id]
    page = DOCS / "variants" / f"{variant_id}.md"
    assert page.is_file()
    text = page.read_text(encoding="utf-8")
    assert f"(`{variant_id}`)" in text.splitlines()[0]
    assert "## Our decisions" in text
    assert f"](variants/{variant_id}.md)" in (DOCS / "README.md").read_text(encoding="utf-8")
    assert f"\n## `{variant_id}`\n" in MATCH_FILE_PAGE
    for field in sorted(cls.hand_fields):
        assert f"`{field}`" in MATCH_FILE_PAGE, f"hand field {field} of {variant_id}"
    for spec in cls.option_specs:
        assert f"| `{spec.name}` |" in MATCH_FILE_PAGE, f"option {spec.name} of {variant_id}"
        assert f"`{spec.name}`" in text, f"option {spec.name} on the {variant_id} page"


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every subcommand of the real parser, with its own parser."""
    parser = cli.build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_parser_has_commands():
    assert {"score", "serve", "variants", "matches"} <= set(commands())


@pytest.mark.parametrize("command", list(commands()))
def test_every_command_and_option_is_documented(command):
    assert f"scorekeeper {command}" in COMMAND_PAGES
    for action in commands()[command]._actions:
        for option in action.option_strings:
            if option.startswith("--") and option != "--help":
                assert f"{option}" in COMMAND_PAGES, f"{command} {option}"
