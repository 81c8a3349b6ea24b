"""How quickly `scorekeeper score` starts: the import time of scorekeeper.cli and
the wall time of scoring examples/rubber.json, each in a fresh Python.

The command imports the replay, the match file and the report, never the app:
no Flask, WTForms, sqlite-utils or WeasyPrint (tests/test_layers.py holds that).
Prints the best and the median of 15 runs of each, and what the import loads. Run:
    python benchmarks/bench_score_start.py
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RUNS = 15
HEAVY = ("flask", "flask_wtf", "wtforms", "sqlite_utils", "weasyprint")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def import_time_us() -> int:
    """Cumulative microseconds `python -X importtime` reports for scorekeeper.cli."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", "import scorekeeper.cli"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    found = re.search(r"\|\s*(\d+)\s*\|\s*scorekeeper\.cli\s*$", done.stderr, re.M)
    assert found, done.stderr[-500:]
    return int(found.group(1))


def score_ms() -> float:
    """Wall milliseconds of `scorekeeper score examples/rubber.json`."""
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", "examples/rubber.json"],
        cwd=ROOT,
        env=ENV,
        capture_output=True,
        check=True,
        timeout=60,
    )
    return (time.perf_counter() - start) * 1000


def loaded() -> str:
    code = (
        "import sys, scorekeeper.cli\n"
        f"heavy = sorted({{m.split('.')[0] for m in sys.modules}} & {set(HEAVY)!r})\n"
        "print(len(sys.modules), heavy)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=ENV, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def main() -> None:
    imports = [import_time_us() / 1000 for _ in range(RUNS)]
    scores = [score_ms() for _ in range(RUNS)]
    print(
        f"import scorekeeper.cli: best {min(imports):.1f} ms, "
        f"median {statistics.median(imports):.1f} ms"
    )
    print(
        f"scorekeeper score examples/rubber.json: best {min(scores):.0f} ms, "
        f"median {statistics.median(scores):.0f} ms"
    )
    print(f"modules after import scorekeeper.cli, and the heavy ones among them: {loaded()}")


if __name__ == "__main__":
    main()
