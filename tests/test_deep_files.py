"""A match file nested near Python's recursion limit (issue 17, point 13): every
command that reads a match file exits 2 with one line, `import` goes on with
the other files, and the web import answers the app's own refusal, never a 500
or a traceback. The depths walked are around the recursion limit of the Python
running the tests, wherever the nested value sits in the file."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.matchfile import MAX_DEPTH
from tests.webtools import visible_text

ROOT = Path(__file__).resolve().parent.parent
LIMIT = sys.getrecursionlimit()


def parser_reach() -> int:
    """How many lists deep json.loads reads when called from here: the recursion
    limit less the frames already on the stack (about 1000 from a shell)."""
    low, high = 1, LIMIT + 10
    while low < high:
        middle = (low + high + 1) // 2
        try:
            json.loads("[" * middle + "]" * middle)
        except RecursionError:
            high = middle - 1
        else:
            low = middle
    return low


def around_the_limit(below: int) -> range:
    """Depths from `below` under the parser's reach to just past it: where the
    parser manages (and the old code crashed reading the document further, a
    few frames deeper) and where it gives up."""
    reach = parser_reach()
    return range(max(MAX_DEPTH, reach - below), reach + 4)


ONE_LINE = {
    f"file: nested too deeply: a match file nests lists and objects at most {MAX_DEPTH} levels",
    "file: not valid JSON: nested too deeply",
}


def in_lists(depth: int) -> str:
    return "[" * depth + '"Friday"' + "]" * depth


def in_objects(depth: int) -> str:
    return '{"a":' * depth + '"Friday"' + "}" * depth


# Where the nested value sits: the title, a player, a hand's field, the stake,
# an option; in lists or in objects.
PLACES = {
    "title in lists": lambda nested: {"title": nested},
    "title in objects": lambda nested: {"title": nested, "_": "objects"},
    "a player": lambda nested: {"players": ["Ann", "Bob", "Cy", nested]},
    "a hand's declarer": lambda nested: {"hands": [{"declarer": nested, "contract": "1C"}]},
    "the stake's amount": lambda nested: {"stake": {"amount": nested}},
    "an option": lambda nested: {"options": {"rubbers": nested}},
}


def deep_file(place: str, depth: int) -> str:
    """A rubber match file with a value nested `depth` levels at `place`."""
    nested = (in_objects if "objects" in place else in_lists)(depth)
    doc = {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "players": ["Ann", "Bob", "Cy", "Dee"],
        "hands": [],
        **PLACES[place]("@@NESTED@@"),
    }
    doc.pop("_", None)
    return json.dumps(doc).replace('"@@NESTED@@"', nested)


def scorekeeper(capsys, *args) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("place", PLACES)
def test_score_of_a_deep_file_exits_2_with_one_line(tmp_path, capsys, place):
    for depth in around_the_limit(40):
        path = tmp_path / f"deep-{depth}.json"
        path.write_text(deep_file(place, depth))
        status, out, err = scorekeeper(capsys, "score", path)
        assert (status, out) == (2, ""), (place, depth)
        assert err.count("\n") == 1 and err.rstrip("\n") in ONE_LINE, (place, depth, err[:300])


@pytest.mark.parametrize("depth", [LIMIT - 30, LIMIT - 12, LIMIT - 9, LIMIT - 5, LIMIT + 1])
def test_score_in_a_fresh_process_exits_2_with_one_line(tmp_path, depth):
    """As typed at a shell: the stack starts shallow, so the parser reads deeper."""
    path = tmp_path / "deep.json"
    path.write_text(deep_file("title in lists", depth))
    run = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.count("\n") == 1 and run.stderr.rstrip("\n") in ONE_LINE, run.stderr[-500:]


@pytest.mark.parametrize("place", ["title in lists", "title in objects", "a hand's declarer"])
def test_import_refuses_the_deep_file_and_stores_the_others(tmp_path, capsys, place):
    good = [ROOT / "examples" / "top-game.json", ROOT / "examples" / "rubber.json"]
    for depth in around_the_limit(40)[::8]:
        instance = tmp_path / f"instance-{depth}"
        deep = tmp_path / f"deep-{depth}.json"
        deep.write_text(deep_file(place, depth))
        status, out, err = scorekeeper(capsys, "import", "--instance", instance, deep, *good)
        assert status == 2
        assert [line.split(": imported as")[0] for line in out.splitlines()] == [
            str(good[0]),
            str(good[1]),
        ]
        lines = err.splitlines()
        assert len(lines) == 2, err[:500]
        assert lines[0].startswith(f"{deep}: not imported: ")
        assert lines[0].removeprefix(f"{deep}: not imported: ") in ONE_LINE
        assert lines[1] == "1 of 3 files not imported."


def test_a_file_just_over_the_depth_limit_is_refused_and_one_at_it_read(capsys, tmp_path):
    """The limit itself: a value MAX_DEPTH levels deep counted from the document is
    read (and refused for what it is), one more level is refused as too deep."""
    at = tmp_path / "at.json"
    at.write_text(deep_file("title in lists", MAX_DEPTH - 1))  # the document is level 1
    status, _, err = scorekeeper(capsys, "score", at)
    assert (status, err) == (2, "title: give text of at most 100 characters\n")
    over = tmp_path / "over.json"
    over.write_text(deep_file("title in lists", MAX_DEPTH))
    status, _, err = scorekeeper(capsys, "score", over)
    assert status == 2
    too_deep = f"a match file nests lists and objects at most {MAX_DEPTH} levels"
    assert err == f"file: nested too deeply: {too_deep}\n"


@pytest.mark.parametrize("place", PLACES)
def test_the_web_import_of_a_deep_file_answers_the_apps_refusal(actions, place):
    for depth in around_the_limit(120)[::3]:
        answer = actions.client.post(
            "/import",
            data={"match_file": (io.BytesIO(deep_file(place, depth).encode()), "deep.json")},
            content_type="multipart/form-data",
        )
        assert answer.status_code == 302, (place, depth)
        home = visible_text(actions.client.get("/"))
        assert "Not imported: 1 problem in this file." in home, (place, depth)
        assert any(line in home for line in ONE_LINE), (place, depth)
    assert "/m/" not in actions.page("/")  # nothing was stored
