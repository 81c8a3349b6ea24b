"""A group file of 500 matches (the most a group file holds) and 2000 payments:
how large it is, and how long reading it, importing it (one write transaction:
the group, 500 matches each joined with its mapping, the payments) and writing
it back take. Prints the best of three timings; no target, a figure to watch.
Run:
    python benchmarks/bench_groupfile.py
"""

from __future__ import annotations

import json
import shutil
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.matchfile import from_document

ROOT = Path(__file__).resolve().parent.parent
MATCHES, PAYMENTS, REPEATS = gf.MAX_GROUP_MATCHES, gf.MAX_GROUP_PAYMENTS, 3
MEMBERS = ["Ann", "Bob", "Cy", "Dan", "Dee", "Maren", "Tobias", "Ilse"]
MEMBERS += ["Margaret", "Tom", "Helen", "Richard", "Sam", "Alex"]


def document() -> dict:
    examples = [json.loads(p.read_text()) for p in sorted((ROOT / "examples").glob("*.json"))]
    matches = []
    for i in range(MATCHES):
        played = (date(2026, 1, 1) + timedelta(days=i % 365)).isoformat()
        # As the app writes a match file (no empty options), with its day.
        match = from_document({**examples[i % len(examples)], "played": played}).as_json()
        matches.append({"mapping": {p: p for p in match["players"]}, "match": match})
    matches.sort(key=lambda entry: entry["match"]["played"])
    payments = [
        {
            "from": MEMBERS[i % 4],
            "to": MEMBERS[(i + 1) % 4],
            "amount": "1.50",
            "currency": "EUR",
            "date": (date(2026, 1, 1) + timedelta(days=i % 365)).isoformat(),
            "by": f"Phone {i % 3}",
        }
        for i in range(PAYMENTS)
    ]
    payments.sort(key=lambda pay: pay["date"])
    return {
        "format": gf.FORMAT,
        "name": "Ten years of Fridays",
        "members": MEMBERS,
        "stakes": {},
        "matches": matches,
        "payments": payments,
    }


def best(run) -> float:
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times) * 1000


def main() -> None:
    text = gf.dumps(document())
    print(f"group file: {MATCHES} matches, {PAYMENTS} payments, {len(text.encode()):,} bytes")
    print(f"read and check (every match replayed): {best(lambda: gf.loads(text)):.0f} ms")
    group = gf.loads(text)
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

    print(f"import (one write transaction): {best(import_once):.0f} ms")
    db = store.connect(str(folder / "t.db"))
    try:
        state = g.load_group(db, made["id"])
        written = gf.dumps(gf.group_document(db, state))
        assert json.loads(written) == json.loads(text)
        print(f"write it back: {best(lambda: gf.dumps(gf.group_document(db, state))):.0f} ms")
    finally:
        db.close()
    shutil.rmtree(folder)


if __name__ == "__main__":
    main()
