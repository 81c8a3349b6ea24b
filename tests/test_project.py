"""The shape of the project itself: markers that mark."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_not_browser_leaves_out_every_browser_test_and_only_those():
    browser = collected("-m", "browser", "tests/browser", "tests/test_csrf.py")
    rest = collected("-m", "not browser", "tests/browser", "tests/test_csrf.py")
    assert browser and all(t.startswith("tests/browser/") for t in browser)
    assert rest and all(not t.startswith("tests/browser/") for t in rest)
    assert len(collected("tests/browser")) == len(browser)


def _sources(*folders: str, suffixes=(".py", ".html", ".js")) -> dict[str, str]:
    found = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in suffixes:
                found[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return found


def test_the_replay_is_read_through_its_summary_never_the_live_game():
    from scorekeeper.games.common import Outcome

    assert "game" not in Outcome.__dataclass_fields__
    readers = [
        name
        for name, text in _sources("scorekeeper", "templates").items()
        if not re.fullmatch(r"scorekeeper/games/(\w+/rules|common)\.py", name)
        and re.search(r"\b(outcome|before)\.game\b", text)
    ]
    assert readers == []


def test_seats_one_and_three_against_two_and_four_are_written_once():
    places = [
        name
        for name, text in _sources("scorekeeper").items()
        if "[0::2]" in text or "[1::2]" in text
    ]
    assert places == ["scorekeeper/games/common.py"]


def test_the_problem_lines_are_never_parsed_back_in_python():
    parsers = [
        name
        for name, text in _sources("scorekeeper", suffixes=(".py",)).items()
        if re.search(r"\^hand \(", text)
    ]
    assert parsers == []


def test_the_code_points_to_our_docs_not_to_the_team_folder():
    """Someone who clones the repository has docs/, not the team's folder: the
    package's docstrings cite docs/ for the rules they implement."""
    citing = [
        str(path.relative_to(ROOT))
        for path in (ROOT / "scorekeeper").rglob("*.py")
        if "shared/" in path.read_text(encoding="utf-8")
    ]
    assert citing == []
    for path in (ROOT / "scorekeeper").rglob("*.py"):
        for cited in re.findall(r"docs/[\w/.-]+\.md", path.read_text(encoding="utf-8")):
            assert (ROOT / cited).is_file(), (path.name, cited)
