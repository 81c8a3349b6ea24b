"""`scorekeeper score` answers byte for byte as recorded: the scored examples and
the problems of many broken files (each example with one hand field removed,
replaced or added). Other tools read this output; a refactoring must not move a
character of it. Each example's answers are recorded in a file of their own,
tests/recorded/cli/<variant>.json, so a new game adds its file and changes no
other. After a deliberate change of a message, record again with
    SCOREKEEPER_RECORD=1 python -m pytest tests/test_cli_recorded.py
(or SCOREKEEPER_RECORD=<variant>,… for those variants only) and read the diff of
tests/recorded/cli/ before committing it."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import sys
from pathlib import Path

import pytest

from scorekeeper.cli import main
from scorekeeper.games.catalog import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
RECORDED = ROOT / "tests" / "recorded" / "cli"
WRONG_VALUES = ["x", -1, 99, None, True, [], "4Z", ""]
# An unknown variant's problem lists every variant of the catalog: recorded as
# this mark, so that a new game changes no other game's recorded answers.
EVERY_ID = ", ".join(VARIANTS)
EVERY_ID_MARK = "<every variant id of the catalog, in its order>"


def corpus() -> dict[str, str]:
    """Case name -> match-file text, always the same list in the same order."""
    cases: dict[str, str] = {}
    for path in sorted((ROOT / "examples").glob("*.json")):
        text = path.read_text(encoding="utf-8")
        cases[path.stem] = text
        doc = json.loads(text)
        for number, hand in enumerate(doc["hands"][:4], 1):
            for field in sorted(hand):
                without = copy.deepcopy(doc)
                del without["hands"][number - 1][field]
                cases[f"{path.stem}/hand {number}/without {field}"] = json.dumps(without)
                for value in WRONG_VALUES:
                    wrong = copy.deepcopy(doc)
                    wrong["hands"][number - 1][field] = value
                    cases[f"{path.stem}/hand {number}/{field}={value!r}"] = json.dumps(wrong)
            unknown = copy.deepcopy(doc)
            unknown["hands"][number - 1]["colour"] = "red"
            cases[f"{path.stem}/hand {number}/unknown key"] = json.dumps(unknown)
        for key in ("players", "options", "stake", "variant", "format"):
            broken = copy.deepcopy(doc)
            broken[key] = "?"
            cases[f"{path.stem}/{key}='?'"] = json.dumps(broken)
    return cases


def score(text: str) -> dict[str, object]:
    out, err = io.StringIO(), io.StringIO()
    stdin = sys.stdin
    sys.stdin = io.StringIO(text)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["score", "-"])
    finally:
        sys.stdin = stdin
    said = err.getvalue()
    assert EVERY_ID_MARK not in said
    return {
        "status": status,
        "stdout": out.getvalue(),
        "stderr": said.replace(EVERY_ID, EVERY_ID_MARK),
    }


def example_of(case: str) -> str:
    """The example a case was made from: the name before its first "/"."""
    return case.split("/", 1)[0]


def record(answers: dict[str, dict[str, object]], wanted: str) -> None:
    """Write the answers of each example `wanted` names ("1": every one) to its file."""
    by_example: dict[str, dict[str, dict[str, object]]] = {}
    for name, answer in answers.items():
        by_example.setdefault(example_of(name), {})[name] = answer
    RECORDED.mkdir(exist_ok=True)
    for example, recorded in by_example.items():
        if wanted == "1" or example in wanted.split(","):
            text = json.dumps(recorded, indent=1, ensure_ascii=False) + "\n"
            (RECORDED / f"{example}.json").write_text(text, "utf-8")


def test_every_case_answers_exactly_as_recorded():
    answers = {name: score(text) for name, text in corpus().items()}
    if os.environ.get("SCOREKEEPER_RECORD"):
        record(answers, os.environ["SCOREKEEPER_RECORD"])
        pytest.skip("recorded again; read the diff before committing")
    examples = sorted({example_of(name) for name in answers})
    unrecorded = [name for name in examples if not (RECORDED / f"{name}.json").is_file()]
    assert not unrecorded, (
        f"no recorded answers for {unrecorded}: SCOREKEEPER_RECORD={','.join(unrecorded)}"
        " python -m pytest tests/test_cli_recorded.py"
    )
    recorded = {
        name: answer
        for path in sorted(RECORDED.glob("*.json"))
        for name, answer in json.loads(path.read_text(encoding="utf-8")).items()
    }
    assert sorted(answers) == sorted(recorded)
    changed = [name for name in answers if answers[name] != recorded[name]]
    assert not changed, f"{len(changed)} answers changed, e.g. {changed[:5]}"
    statuses = {a["status"] for a in answers.values()}
    assert statuses == {0, 2}
    assert len(answers) > 1000


def test_a_problem_prints_as_the_line_the_scorer_always_printed():
    from scorekeeper.games.common import Problem

    assert str(Problem("5 is not higher than 6", "bid", 3)) == "hand 3: bid: 5 is not higher than 6"
    assert str(Problem("give an object of fields, not list", hand=2)) == (
        "hand 2: give an object of fields, not list"
    )
    assert str(Problem("'-1' must be zero or more", "amount", within="stake")) == (
        "stake: amount: '-1' must be zero or more"
    )
    assert str(Problem("not valid JSON: nested too deeply", "file")) == (
        "file: not valid JSON: nested too deeply"
    )
