"""Server time of a group's ratings page, its CSV and its head-to-head page with
500 matches.

    python benchmarks/bench_ratings.py [--matches 500] [--runs 10]

Builds the group of benchmarks/bench_group.py (the example files of every game
in turn, six members, days spread over a year), asks for the group page once
so that every match's summary is kept, then asks through the app (Flask's test
client) for the ratings page, the ratings CSV and the head-to-head page warm,
and times the arithmetic alone (scorekeeper/ratings.py on the 500 summaries).

Prints the median and p95 wall time of each. The aim for warm pages is under 300 ms.
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
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_group import AIM_MS, build, line, timed  # noqa: E402

from scorekeeper import db as store  # noqa: E402
from scorekeeper import groups as g  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.ratings import head_to_head, played_order, ratings  # noqa: E402
from scorekeeper.viewmodels.ratings import group_matches  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=500)
    parser.add_argument("--runs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "bench.db")
        app = create_app({"TESTING": True, "DATABASE": path})
        start = time.perf_counter()
        group_id = build(path, args.matches)
        print(f"stored {args.matches} matches in one group in {time.perf_counter() - start:.1f} s")
        client = app.test_client()

        def get(url: str) -> None:
            answer = client.get(url)
            assert answer.status_code == 200, (url, answer.status_code)

        page = f"/g/{group_id}"
        print(line("group page, cold (replays all)", timed(lambda: get(page), 1)))
        warm = {
            "ratings page": f"{page}/ratings",
            "ratings CSV": f"{page}/ratings.csv",
            "head-to-head page": f"{page}/head-to-head",
        }
        worst = 0.0
        for name, url in warm.items():
            get(url)
            wall = timed(lambda url=url: get(url), args.runs)
            worst = max(worst, statistics.median(wall))
            print(line(f"{name}, warm", wall))
        with app.test_request_context():
            state = g.load_group(store.get_db(), group_id)
            matches = group_matches(state)
            found = ratings(matches)
            print(line("reading the 500 summaries", timed(lambda: group_matches(state), args.runs)))
            print(line("ratings alone", timed(lambda: ratings(played_order(matches)), args.runs)))
            print(line("head to head alone", timed(lambda: head_to_head(matches), args.runs)))
            print(f"matches rated: {len(found.rated)}, members: {len(found.overall)}")
        print(f"aim: warm pages under {AIM_MS:.0f} ms: {'met' if worst < AIM_MS else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
