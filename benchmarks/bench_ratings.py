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

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_group import aim_line, big_group, line, options, timed, warm_lines  # noqa: E402

from scorekeeper import db as store  # noqa: E402
from scorekeeper import groups as g  # noqa: E402
from scorekeeper.ratings import head_to_head, played_order, ratings  # noqa: E402
from scorekeeper.viewmodels.ratings import group_matches  # noqa: E402


def main() -> int:
    args = options(__doc__).parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench = big_group(tmp, args.matches)
        page = f"/g/{bench.group_id}"
        warm = {
            "ratings page": f"{page}/ratings",
            "ratings CSV": f"{page}/ratings.csv",
            "head-to-head page": f"{page}/head-to-head",
        }
        worst = warm_lines(bench.get, warm, args.runs)
        with bench.app.test_request_context():
            state = g.load_group(store.get_db(), bench.group_id)
            matches = group_matches(state)
            found = ratings(matches)
            print(line("reading the 500 summaries", timed(lambda: group_matches(state), args.runs)))
            print(line("ratings alone", timed(lambda: ratings(played_order(matches)), args.runs)))
            print(line("head to head alone", timed(lambda: head_to_head(matches), args.runs)))
            print(f"matches rated: {len(found.rated)}, members: {len(found.overall)}")
        print(aim_line(worst))
    return 0


if __name__ == "__main__":
    sys.exit(main())
