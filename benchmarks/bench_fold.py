"""What folding a long change log costs: a match of 5000 changes, half of them
undos (a hand saved, then undone, 2500 times), against one without undos.

Prints the fold alone (changes already read), the whole load from SQLite (read
and fold), and one write through `db.apply` at that length (under the write
lock), each the median of a few runs; then four writers storm the long match
for a few seconds while another table saves: that table's save times. Aim: the
fold under 50 ms, and the other table never kept waiting. Run:
    python benchmarks/bench_fold.py [--runs 5] [--changes 5000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import changelog, db  # noqa: E402
from scorekeeper.model import Match  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def hand(n: int) -> dict:
    """A rubber hand that goes down: the match never ends."""
    return {"declarer": PLAYERS[n % 4], "contract": f"{1 + n % 3}C", "tricks": n % 6}


def build(store, changes: int, undos: bool) -> str:
    """A match of `changes` changes, each checked by `changelog.decide` as the app
    does, written in one go: a hand saved then undone, again and again (`undos`),
    or 50 hands saved then edited in turn. Returns its id."""
    match_id = db.create_match(store, Match("rubber", list(PLAYERS))).match_id
    state = db.load_match(store, match_id)
    made = []
    for n in range(1, changes):
        if undos:
            command = (
                changelog.Command(changelog.APPEND, record=hand(n))
                if n % 2
                else changelog.Command(changelog.UNDO)
            )
        elif n <= 50:
            command = changelog.Command(changelog.APPEND, record=hand(n))
        else:
            command = changelog.Command(changelog.EDIT, hand=(n % 50) + 1, record=hand(n))
        change, _ = changelog.decide(state, command, db.now())
        changelog.step(state, change)
        made.append(db._change_row(match_id, change))
    with db.writing(store):
        store["changes"].insert_all(made)
    return match_id


def median_ms(run, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def measure(store, changes: int, runs: int, undos: bool) -> str:
    """Build one match, then time its fold, loads and writes; one line to print."""
    start = time.perf_counter()
    match_id = build(store, changes - runs, undos)  # room for the timed writes
    built = time.perf_counter() - start
    row = store.execute("select created, watch from matches where id = ?", [match_id]).fetchone()
    stored = [
        db._change_from_row(r)
        for r in store.query(
            "select * from changes where match_id = ? order by revision", [match_id]
        )
    ]
    undone = sum(c.undoes is not None for c in stored)

    def fold_only():
        state = changelog.MatchState(match_id, "rubber", list(PLAYERS), {}, row[0], row[1])
        changelog.fold(state, stored)

    def cold_load():
        db.forget_folded()
        db.load_match(store, match_id)

    # One write (stored) at this length, under the write lock: read, check, insert.
    command = changelog.Command(changelog.SETTINGS, settings={"title": "x", "stake": None})
    fold = median_ms(fold_only, runs)
    load = median_ms(cold_load, runs)
    warm = median_ms(lambda: db.load_match(store, match_id), runs)
    write = median_ms(lambda: db.apply(store, match_id, command), runs)
    return (
        f"{len(stored)} changes ({undone} undos, built in {built:.1f} s): fold {fold:.1f} ms,"
        f" load (read + fold) {load:.1f} ms, load again (kept fold) {warm:.1f} ms,"
        f" one write at {len(stored)}+ changes {write:.1f} ms"
    )


def storm(path: str, long_id: str, seconds: float) -> str:
    """Four connections writing to the long match as fast as they can while a
    fifth saves to a small match every 50 ms; that fifth's save times."""
    small = db.connect(path)
    other = db.create_match(small, Match("rubber", list(PLAYERS))).match_id
    stop = time.monotonic() + seconds
    stored, busy = [0], [0]

    def stormer() -> None:
        conn = db.connect(path)
        command = changelog.Command(changelog.SETTINGS, settings={"title": "storm", "stake": None})
        while time.monotonic() < stop:
            try:
                db.apply(conn, long_id, command)
                stored[0] += 1
            except (changelog.Refused, db.StoreBusy):
                busy[0] += 1
        conn.close()

    threads = [threading.Thread(target=stormer) for _ in range(4)]
    for thread in threads:
        thread.start()
    saves, failed, n = [], 0, 0
    while time.monotonic() < stop:
        start = time.perf_counter()
        try:
            db.apply(small, other, changelog.Command(changelog.APPEND, record=hand(n)))
            saves.append(time.perf_counter() - start)
        except db.StoreBusy:
            failed += 1
        n += 1
        time.sleep(0.05)
    for thread in threads:
        thread.join()
    small.close()
    saves.sort()
    p50, worst = saves[len(saves) // 2] * 1000, saves[-1] * 1000
    return (
        f"storm: 4 writers stored {stored[0]} changes on the long match ({busy[0]} refused or"
        f" busy); another table saved {len(saves)} hands, {failed} store busy,"
        f" p50 {p50:.1f} ms, slowest {worst:.1f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--changes", type=int, default=changelog.MAX_CHANGES)
    parser.add_argument("--storm", type=float, default=5.0, help="seconds of the storm")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = f"{folder}/fold.db"
        db.migrate(path)
        store = db.connect(path)
        for undos in (True, False):
            print(measure(store, args.changes, args.runs, undos))
        # A long match with room left: half its changes undos, as the storm.
        long_id = build(store, args.changes // 2, True)
        store.close()
        print(storm(path, long_id, args.storm))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
