"""What the "already here" check costs an import: inside the write transaction
every match of the same game and seating (not deleted) is loaded and compared
with the file. The worst case is a group that plays the same four names every
week: a season of such matches, each of 30 hands, and a new file that matches
none of them (each is loaded and compared).

Only the matches holding the file's last hand are loaded; the worst case has
every week end on the same hand. Prints the import with the check and
without it, cold (the folded-state cache emptied first, as after a restart)
and warm, each the median of a few runs. Aim: the checked import of a new
file under 100 ms with a season of 200 matches of the same players, also in
the worst case. Run:
    python benchmarks/bench_reimport.py [--runs 5] [--matches 200]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import db  # noqa: E402
from scorekeeper.model import Match  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def evening(n: int, same_last: bool = False) -> Match:
    """Week `n`: 30 rubber hands that go down (the match never ends); with
    `same_last` every week ends on the same hand (no match is ruled out early)."""
    hands = [
        {
            "declarer": PLAYERS[(n + k) % 4],
            "contract": f"{1 + (n + k) % 3}{'CDHS'[(n * k) % 4]}",
            "tricks": (n + 2 * k) % 6,
        }
        for k in range(30)
    ]
    if same_last:
        hands[-1] = {"declarer": "Ann", "contract": "1C", "tricks": 5}
    return Match("rubber", list(PLAYERS), hands=hands, title=f"Week {n}")


def timed(store, match: Match, check: bool, cold: bool, runs: int) -> float:
    """Median milliseconds of importing `match` (rolled back each time: nothing
    is kept, so every run sees the same store)."""
    times = []
    for _ in range(runs):
        if cold:
            db.forget_folded()
        start = time.perf_counter()
        created = db.create_match(store, match, unless_here=check)
        times.append((time.perf_counter() - start) * 1000)
        with db.writing(store):  # take it out again for the next run
            store.execute("delete from changes where match_id = ?", [created.match_id])
            store.execute("delete from matches where id = ?", [created.match_id])
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--matches", type=int, default=200)
    args = parser.parse_args()
    for same_last in (False, True):
        with tempfile.TemporaryDirectory() as folder:
            path = str(Path(folder) / "bench.db")
            db.migrate(path)
            store = db.connect(path)
            for n in range(args.matches):
                db.create_match(store, evening(n, same_last))
            new = evening(args.matches, same_last)  # none of them: each is ruled out
            ending = "all ending on the same hand" if same_last else "each its own"
            print(f"{args.matches} matches of {', '.join(PLAYERS)}, 30 hands, {ending}")
            for cold in (True, False):
                label = "cold" if cold else "warm"
                unchecked = timed(store, new, False, cold, args.runs)
                checked = timed(store, new, True, cold, args.runs)
                print(f"  {label}: import {unchecked:6.1f} ms, with the check {checked:6.1f} ms")
            try:
                db.create_match(store, evening(0, same_last), unless_here=True)
            except db.AlreadyHere as already:
                print(f"  week 0 again: already here ({already.state.title})")
            store.close()
            db.forget_folded()


if __name__ == "__main__":
    main()
