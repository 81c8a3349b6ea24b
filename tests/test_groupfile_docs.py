"""docs/group-file.md holds what the app does: its complete example imports and
exports back as written, with the ledger its last paragraph states, and its
problem example gives exactly the lines printed under it."""

from __future__ import annotations

import json

import pytest

from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper.variants import MatchError
from tests.test_docs import DOCS, PAGES, ROOT
from tests.test_groupfile import group_ledger

PAGE = PAGES[DOCS / "group-file.md"]


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


def group_files() -> list[tuple[str, str | None]]:
    """Each ```json block holding a group file, with the ```text block right
    after it (its problem lines) when there is one."""
    found = []
    for i, block in enumerate(PAGE.blocks):
        if block.lang != "json" or json.loads(block.text).get("format") != gf.FORMAT:
            continue
        after = PAGE.blocks[i + 1] if PAGE.adjacent[i] else None
        found.append(
            (block.text, after.text if after is not None and after.lang == "text" else None)
        )
    return found


def test_the_page_has_a_complete_example_and_a_problem_example():
    assert [lines is None for _, lines in group_files()] == [False, True]


def test_the_problem_example_gives_the_lines_under_it():
    [(text, lines)] = [(t, lines) for t, lines in group_files() if lines is not None]
    with pytest.raises(MatchError) as refused:
        gf.loads(text)
    assert "\n".join(refused.value.lines) + "\n" == lines


def test_the_complete_example_imports_and_exports_as_written(db):
    [text] = [t for t, lines in group_files() if lines is None]
    made = gf.import_group(db, gf.loads(text))
    written = gf.dumps(gf.group_document(db, made.state))
    assert json.loads(written) == json.loads(text)
    book = group_ledger(db, made.group_id)
    assert {c: {m: str(v) for m, v in p.items()} for c, p in book.balances.items()} == {
        "EUR": {"Ann": "0.00", "Bob": "0.00", "Cy": "0.00"},
        "GBP": {"Ann": "-0.20", "Bob": "0.20", "Cy": "-0.20", "Dan": "0.20"},
    }
    assert [(p.payer, p.payee, str(p.amount), p.currency) for p in book.settle_up] == [
        ("Ann", "Bob", "0.20", "GBP"),
        ("Cy", "Dan", "0.20", "GBP"),
    ]


def test_the_readme_and_the_docs_index_link_the_page():
    for index in (ROOT / "README.md", DOCS / "README.md"):
        assert "group-file.md" in index.read_text(encoding="utf-8"), index
