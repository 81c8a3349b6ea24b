"""How long an automatic backup holds up a save: a store of many matches, one
thread saving hands one after the other as fast as it can (as the phones' saves
reach the store in `serve`), and in the same process backups taken back to back
(as `serve`'s backup thread takes them, with `db.backup`).

Prints the time of each backup and the saves' times without backups and while
backups run: median, 99th percentile and the longest. Run:
    python benchmarks/bench_backup.py [matches] [seconds]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import db  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.changelog import APPEND, Command  # noqa: E402
from scorekeeper.matchfile import loads  # noqa: E402

# Defeated contracts only: the rubber never ends, and the saves never run out.
HANDS = [
    {"declarer": declarer, "contract": f"{level}{strain}", "tricks": tricks}
    for level in range(1, 8)
    for strain in ("C", "D", "H", "S", "NT")
    for tricks in range(6 + level)
    for declarer in ("Margaret", "Tom", "Helen", "Richard")
]


EVENING = loads((ROOT / "examples" / "rubber.json").read_text(encoding="utf-8"))
PER_MATCH = 400  # hands saved into one match before the next (a match holds 500 entries)


def build(folder: Path, matches: int) -> str:
    """A store of `matches` rubbers of twelve hands."""
    app = create_app(instance=folder)
    app.extensions["scorekeeper_keeper"].close()
    store = db.connect(app.config["DATABASE"])
    with db.writing(store):
        for _ in range(matches):
            db.create_match(store, EVENING)
    store.close()
    return app.config["DATABASE"]


def saves(database: str, seconds: float) -> list[float]:
    """Save hands one after the other for `seconds`, into new matches of
    PER_MATCH hands each; each save's time in ms."""
    store = db.connect(database)
    times: list[float] = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        match_id = db.create_match(store, replace(EVENING, hands=[])).match_id
        for hand in HANDS[:PER_MATCH]:
            if time.perf_counter() >= end:
                break
            started = time.perf_counter()
            db.apply(store, match_id, Command(APPEND, record=hand))
            times.append((time.perf_counter() - started) * 1000)
    store.close()
    return times


def backups(database: str, folder: Path, stop: threading.Event, times: list[float]) -> None:
    number = 0
    while not stop.is_set():
        started = time.perf_counter()
        db.backup(database, folder / f"copy-{number % 2}.db")
        times.append((time.perf_counter() - started) * 1000)
        number += 1


def summary(label: str, times: list[float]) -> str:
    ordered = sorted(times)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{label}: {len(times)} saves, median {statistics.median(times):.1f} ms,"
        f" 99th percentile {p99:.1f} ms, longest {max(times):.1f} ms"
    )


def main() -> None:
    matches = int(sys.argv[1]) if len(sys.argv) > 1 else 3000
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 10
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        database = build(folder / "instance", matches)
        size = os.path.getsize(database) / 1e6
        print(f"store: {matches} matches, {size:.1f} MB")
        quiet = saves(database, seconds)
        stop, taken = threading.Event(), []
        copier = threading.Thread(target=backups, args=(database, folder, stop, taken))
        copier.start()
        busy = saves(database, seconds)
        stop.set()
        copier.join()
        print(
            f"backups: {len(taken)}, median {statistics.median(taken):.0f} ms,"
            f" longest {max(taken):.0f} ms"
        )
        print(summary("saves without backups", quiet))
        print(summary("saves while backups run back to back", busy))


if __name__ == "__main__":
    main()
