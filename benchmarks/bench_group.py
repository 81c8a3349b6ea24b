"""Server time of a group's ledger and statistics pages with 500 matches.

    python benchmarks/bench_group.py [--matches 500] [--runs 10]

Stores `--matches` matches in a real store (the example files of every game,
each repeated with its players turned round and its stakes in two currencies
and none, started on days spread over a year), puts them in one group of six
members, then asks through the app (Flask's test client) for:

- the group page (the ledger, all time) cold: no match's summary kept yet, so
  every match is replayed once and its summary kept (table match_summaries);
- the group page, its watch page, the statistics page, a month's ledger, the
  ledger CSV warm:
  every summary read as kept.

Prints the median and p95 wall time of each. The aim for warm pages is under 300 ms.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from flask import Flask  # noqa: E402

from scorekeeper import groups as g  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.db import connect, create_match  # noqa: E402
from scorekeeper.matchfile import from_document  # noqa: E402

AIM_MS = 300.0
MEMBERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Finn"]
STAKES = [
    {"amount": "0.50", "per": 1, "currency": "EUR"},
    {"amount": "0.10", "per": 100, "currency": "GBP"},
    None,
]


def documents(count: int) -> list[dict]:
    """`count` match documents: the examples in turn, players renamed to members
    (rotated so everyone sits everywhere), stakes in turn."""
    examples = sorted((ROOT / "examples").glob("*.json"))
    found = []
    for i in range(count):
        doc = json.loads(examples[i % len(examples)].read_text(encoding="utf-8"))
        doc.pop("played", None)
        old = doc["players"]
        new = [MEMBERS[(i + k) % len(MEMBERS)] for k in range(len(old))]
        text = json.dumps(doc, ensure_ascii=False)
        for a, b in zip(old, new, strict=True):  # every mention of a name: declarers, tallies…
            text = text.replace(json.dumps(a), json.dumps("\0" + b))
        doc = json.loads(text.replace("\\u0000", ""))
        stake = STAKES[i % len(STAKES)]
        if stake and "stake" in doc:
            doc["stake"] = {**stake, "per": doc["stake"].get("per", stake["per"])}
        elif stake is None:
            doc.pop("stake", None)
        found.append(doc)
    return found


def build(path: str, count: int) -> str:
    db = connect(path)
    group = g.create_group(db, "Friday six", MEMBERS)
    for i, doc in enumerate(documents(count)):
        match_id = create_match(db, from_document(doc)).match_id
        day = f"2026-{1 + i % 12:02d}-{1 + i % 28:02d}T20:00:00+00:00"
        db.execute("update matches set created = ? where id = ?", [day, match_id])
        db.conn.commit()
        g.apply_group(db, group.group_id, g.GroupCommand(g.ADD_MATCH, {"match": match_id}))
    db.close()
    return group.group_id


def timed(action: Callable[[], object], runs: int) -> list[float]:
    wall = []
    for _ in range(runs):
        start = time.perf_counter()
        action()
        wall.append((time.perf_counter() - start) * 1000)
    return wall


def line(name: str, wall: list[float]) -> str:
    ordered = sorted(wall)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    median = statistics.median(wall)
    return f"{name:<34} median {median:8.1f} ms   p95 {p95:8.1f} ms   ({len(wall)} runs)"


def options(doc: str) -> argparse.ArgumentParser:
    """The options every benchmark of the big group takes: --matches and --runs."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--runs", type=int, default=10)
    return parser


@dataclass(frozen=True)
class BigGroup:
    """The app on a store holding the big group, every match's summary kept."""

    app: Flask
    path: str
    group_id: str
    get: Callable[[str], bytes]  # a page's body, asked through the app; it must answer 200
    prepared: Any = None  # what `prepare` gave


def big_group(folder: str, matches: int, prepare: Callable[[str], Any] | None = None) -> BigGroup:
    """Build the group of `matches` matches in a store in `folder` (then
    `prepare(path)` when given, before any page is read), and ask for its page
    once, cold: every match is replayed and its summary kept."""
    path = str(Path(folder) / "bench.db")
    app = create_app({"TESTING": True, "DATABASE": path})
    start = time.perf_counter()
    group_id = build(path, matches)
    prepared = prepare(path) if prepare else None
    print(f"stored {matches} matches in one group in {time.perf_counter() - start:.1f} s")
    client = app.test_client()

    def get(url: str) -> bytes:
        answer = client.get(url)
        assert answer.status_code == 200, (url, answer.status_code)
        return answer.data

    print(line("group page, cold (replays all)", timed(lambda: get(f"/g/{group_id}"), 1)))
    return BigGroup(app, path, group_id, get, prepared)


def warm_lines(get: Callable[[str], object], pages: dict[str, str], runs: int) -> float:
    """Each page asked once, then timed warm and printed; the worst median (ms)."""
    worst = 0.0
    for name, url in pages.items():
        get(url)
        wall = timed(lambda url=url: get(url), runs)
        worst = max(worst, statistics.median(wall))
        print(line(f"{name}, warm", wall))
    return worst


def aim_line(worst: float, aim: float = AIM_MS) -> str:
    return f"aim: warm pages under {aim:.0f} ms: {'met' if worst < aim else 'NOT met'}"


def main() -> int:
    args = options(__doc__).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench = big_group(tmp, args.matches)
        page = f"/g/{bench.group_id}"
        kept = connect(bench.path).execute("select count(*) from match_summaries").fetchone()[0]
        print(f"summaries kept after the cold page: {kept}")
        watch = connect(bench.path).execute("select watch from groups").fetchone()[0]
        warm = {
            "group page (ledger, all time)": page,
            "watch page (ledger, all time)": f"/gw/{watch}",
            "group page (ledger, March)": f"{page}?period=between&from=2026-03-01&to=2026-03-31",
            "statistics page": f"{page}/statistics",
            "ledger CSV": f"{page}/ledger.csv",
        }
        print(aim_line(warm_lines(bench.get, warm, args.runs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
