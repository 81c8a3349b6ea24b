"""Server time of a group's night's report with 500 matches in the group.

    python benchmarks/bench_night.py [--matches 500] [--runs 10]

Builds the group of benchmarks/bench_group.py (six members, the example files
of every game in turn, stakes in two currencies and none, started on days
spread over a year: about six matches a night, and the last `--one-night`
matches, 40 unless told, all on one night), asks for the group page once
(every match replayed and its summary kept), then through the app (Flask's
test client), warm:

- the night's report of the last night played (no day asked);
- the night's report of a chosen day;
- a day the group did not play;

and the night's PDF once (cold: printed by WeasyPrint), then again (warm: the
kept PDF). Prints the median and p95 wall time of each. The aim for the warm
page is under 300 ms.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_group import aim_line, big_group, line, options, timed, warm_lines  # noqa: E402

from scorekeeper.db import connect  # noqa: E402

AIM_MS = 300.0


def spread(path: str, one_night: int) -> int:
    """Each match played on the day it was started (bench_group stores them all as
    played today), save the last `one_night`, left on one night: the worst night."""
    db = connect(path)
    ids = [row[0] for row in db.execute("select id from matches order by rowid")]
    spread_ids = ids[: len(ids) - one_night]
    db.conn.executemany(
        "update matches set played = substr(created, 1, 10) where id = ?",
        [(match_id,) for match_id in spread_ids],
    )
    db.conn.commit()
    db.close()
    return len(ids) - len(spread_ids)


def main() -> int:
    parser = options(__doc__)
    parser.add_argument("--one-night", type=int, default=40, help="matches on the last night")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        bench = big_group(tmp, args.matches, lambda path: spread(path, args.one_night))
        one_night, get = bench.prepared, bench.get
        night = f"/g/{bench.group_id}/night"
        chosen = f"{night}?day=2026-03-03"
        html = get(chosen).decode()
        shown = html.count('class="button night-match"')
        print(f"matches on 2026-03-03: {shown}")
        warm = {
            f"night's report, last night ({one_night} matches)": night,
            "night's report, 3 Mar 2026": chosen,
            "night's report, a day not played": f"{night}?day=2026-03-30",
        }
        worst = warm_lines(get, warm, args.runs)
        pdf = f"/g/{bench.group_id}/night.pdf?day=2026-03-03"
        print(line("night's PDF, cold (printed)", timed(lambda: get(pdf), 1)))
        print(line("night's PDF, warm (kept)", timed(lambda: get(pdf), args.runs)))
        print(aim_line(worst, AIM_MS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
