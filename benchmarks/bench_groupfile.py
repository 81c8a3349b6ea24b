"""What a group file costs to read, check, import, write back and measure, at
the most a group holds. Three files:

- `examples` (the default): 500 matches (the most a group holds), each one of
  the examples, and 2000 payments;
- `long`: 500 long evenings of rubber bridge (48 hands each) and 2000
  payments, about 2 MB: a weekly group of ten years;
- `worst`: the cheapest hands to write and the most of them, filling a file of
  MAX_GROUP_FILE_BYTES (4 MB, what an import takes): 500 matches of passed-out
  hands (a passed-out rubber hand is 23 bytes), and 2000 payments.

For each step it prints the best of a few runs, in wall time and in CPU time
of this process (the machine may be busy), and then the peak memory of each
step in a run of its own under tracemalloc (Python's allocations: the JSON
document, the checked matches, the store's rows). "measure" is what a change
that grows a group adds under the write lock: the size of its file as the app
writes it (groups.group_file_bytes). Run:
    python benchmarks/bench_groupfile.py [--kind examples|long|worst] [--runs 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path

from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.matchfile import MAX_ENTRIES, from_document

ROOT = Path(__file__).resolve().parent.parent
MATCHES, PAYMENTS = gf.MAX_GROUP_MATCHES, gf.MAX_GROUP_PAYMENTS
MEMBERS = ["Ann", "Bob", "Cy", "Dan", "Dee", "Maren", "Tobias", "Ilse"]
MEMBERS += ["Margaret", "Tom", "Helen", "Richard", "Sam", "Alex"]
FOUR = ["Margaret", "Tom", "Helen", "Richard"]


def example_matches() -> list[dict]:
    examples = [json.loads(p.read_text()) for p in sorted((ROOT / "examples").glob("*.json"))]
    return [examples[i % len(examples)] for i in range(MATCHES)]


def long_matches() -> list[dict]:
    rubber = json.loads((ROOT / "examples" / "rubber.json").read_text())
    options = {"rubbers": 8, "round_to_hundreds": True}
    return [{**rubber, "options": options, "hands": rubber["hands"] * 4}] * MATCHES


def worst_matches() -> list[dict]:
    """Passed-out hands, as many as fit in MAX_GROUP_FILE_BYTES with the payments."""

    def match(entries: int) -> dict:
        hands = [{"passed_out": True}] * entries
        head = {"format": "scorekeeper-match/1", "variant": "rubber", "players": FOUR}
        return {**head, "hands": hands}

    def size(entries: int) -> int:
        return len(gf.dumps(document([match(entries)] * MATCHES)).encode())

    low, high = 0, MAX_ENTRIES
    while low < high:  # the most entries per match that still fit
        middle = (low + high + 1) // 2
        low, high = (middle, high) if size(middle) <= g.MAX_GROUP_FILE_BYTES else (low, middle - 1)
    return [match(low)] * MATCHES


def document(matches: list[dict]) -> dict:
    entries = []
    for i, played in enumerate(matches):
        day = (date(2016, 1, 1) + timedelta(weeks=i)).isoformat()
        # As the app writes a match file (no empty options), with its day.
        match = from_document({**played, "played": day}).as_json()
        entries.append({"mapping": {p: p for p in match["players"]}, "match": match})
    payments = [
        {
            "from": MEMBERS[i % 4],
            "to": MEMBERS[(i + 1) % 4],
            "amount": "1.50",
            "currency": "EUR",
            "date": (date(2016, 1, 1) + timedelta(days=i)).isoformat(),
            "by": f"Phone {i % 3}",
        }
        for i in range(PAYMENTS)
    ]
    return {
        "format": gf.FORMAT,
        "name": "Ten years of Fridays",
        "members": MEMBERS,
        "stakes": {},
        "matches": entries,
        "payments": payments,
    }


KINDS = {"examples": example_matches, "long": long_matches, "worst": worst_matches}


def best(run: Callable[[], object], runs: int) -> tuple[float, float]:
    """The best wall and CPU time of `runs` runs, in ms."""
    walls, cpus = [], []
    for _ in range(runs):
        wall, cpu = time.perf_counter(), time.process_time()
        run()
        walls.append(time.perf_counter() - wall)
        cpus.append(time.process_time() - cpu)
    return min(walls) * 1000, min(cpus) * 1000


def peak(run: Callable[[], object]) -> float:
    """The peak of Python's allocations during one run, in MB."""
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1] / 1e6
    finally:
        tracemalloc.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", choices=KINDS, default="examples")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    text = gf.dumps(document(KINDS[args.kind]()))
    raw = text.encode()
    hands = sum(len(m["match"]["hands"]) for m in json.loads(text)["matches"])
    print(
        f"{args.kind}: {MATCHES} matches, {hands:,} hands, {PAYMENTS} payments,"
        f" {len(raw):,} bytes (the import takes {g.MAX_GROUP_FILE_BYTES:,})"
    )
    group = gf.read_group_file(raw)
    folder = Path(tempfile.mkdtemp())
    template = folder / "template.db"
    store.migrate(str(template))
    made = {}

    def import_once() -> None:
        path = folder / "t.db"
        shutil.copyfile(template, path)
        db = store.connect(str(path))
        try:
            made["id"] = gf.import_group(db, group).group_id
        finally:
            db.close()

    steps = {"read and check (every match replayed)": lambda: gf.read_group_file(raw)}
    steps["import (one write transaction)"] = import_once
    figures = {name: best(run, args.runs) for name, run in steps.items()}
    db = store.connect(str(folder / "t.db"))
    try:
        state = g.load_group(db, made["id"])
        assert json.loads(gf.dumps(gf.group_document(db, state))) == json.loads(text)

        def measure_cold() -> None:
            store.forget_folded()  # as after a restart: every match folded again
            g.group_file_bytes(db, state)

        steps["write it back (download)"] = lambda: gf.dumps(gf.group_document(db, state))
        steps["measure (a change that grows the group)"] = measure_cold
        for name in list(steps)[2:]:
            figures[name] = best(steps[name], args.runs)
        for name, run in steps.items():
            wall, cpu = figures[name]
            print(f"{name}: {wall:.0f} ms wall, {cpu:.0f} ms CPU, peak {peak(run):.0f} MB")
    finally:
        db.close()
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
