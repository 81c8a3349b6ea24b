"""How long a PDF score sheet takes, warm, against the floor of WeasyPrint itself.

    python benchmarks/bench_pdf.py [--runs 15]

Prints the median time of GET /m/<id>/sheet.pdf (replay, template and
WeasyPrint) for a 12-hand Top Game match (examples/top-game.json: 12 counted
hands and one redeal) and for a 3-rubber match (built from
examples/rubber.json), and, on the same run, of a one-line WeasyPrint document:
the floor. Each is rendered twice first so fonts, stylesheets and templates
are loaded. "render" empties the PDF cache before every request, so WeasyPrint
lays the sheet out each time; "repeat" asks again for an unchanged match, which
the cache in scorekeeper/pdf.py answers. Wall time is what a player waits; CPU
time (this process's and the PDF worker's, which does the layout) is less
disturbed by other work on the machine.

Then, unless --no-big: the biggest sheet without explanations (a rubber match of
500 entries, the most a match holds; aim under 2 s), and the ledger and
statistics PDFs of a group holding all a group can (tests/seasons.py: 500
matches, 40 members, 2000 payments), each the median of a few fresh renders
with its status: 200 is printed, 413 "too large" (over RENDER_SECONDS of CPU),
503 "try again" (the machine too busy to finish within BUSY_SECONDS).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from weasyprint import HTML  # noqa: E402

from scorekeeper import pdf  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.db import create_match, get_db  # noqa: E402
from scorekeeper.matchfile import from_document  # noqa: E402
from scorekeeper.variants import replay_match  # noqa: E402
from tests.seasons import a_full_season  # noqa: E402

BIG_RUNS = 3
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]

TARGET = 5.0  # times the floor: the bound of issue 28
AIM = 3.0  # times the floor: what it aims for


def top_game() -> dict:
    return json.loads((ROOT / "examples" / "top-game.json").read_text(encoding="utf-8"))


def three_rubbers() -> dict:
    """examples/rubber.json (two rubbers, 12 hands) with its first rubber played again."""
    document = json.loads((ROOT / "examples" / "rubber.json").read_text(encoding="utf-8"))
    hands = document["hands"]
    first_rubber = hands[:8]
    document["title"] = "Three rubbers at the Hendersons'"
    document["options"] = {**document["options"], "rubbers": 3}
    document["hands"] = [*hands, *first_rubber]
    return document


def five_hundred_hands() -> dict:
    """A rubber match of 500 defeated contracts (it never finishes), as in bench_limits.py."""
    hands = [
        {"declarer": PLAYERS[n % 4], "contract": f"{1 + n % 3}C", "tricks": n % 7}
        for n in range(500)
    ]
    return {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "players": PLAYERS,
        "hands": hands,
    }


def worker_cpu() -> float:
    """CPU seconds of the PDF worker process so far (Linux /proc; 0 elsewhere)."""
    worker = getattr(pdf, "_worker", None)
    try:
        fields = Path(f"/proc/{worker.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (AttributeError, OSError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def cpu_time() -> float:
    """This process's CPU time and its PDF worker's: a render is done in the worker."""
    return time.process_time() + worker_cpu()


def timed(render: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall and CPU milliseconds of `runs` renders after two warm-up renders."""
    render()
    render()
    wall, cpu = [], []
    for _ in range(runs):
        start_wall, start_cpu = time.perf_counter(), cpu_time()
        render()
        cpu.append(cpu_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000


def fresh(client, path: str) -> tuple[float, float, int]:
    """Median wall and CPU ms of BIG_RUNS fresh renders of `path` (the whole
    request: the page's data, its HTML and the PDF), and the last status."""
    wall, cpu, status = [], [], 0
    for _ in range(BIG_RUNS):
        pdf.clear_cache()
        start_wall, start_cpu = time.perf_counter(), cpu_time()
        status = client.get(path).status_code
        cpu.append(cpu_time() - start_cpu)
        wall.append(time.perf_counter() - start_wall)
    return statistics.median(wall) * 1000, statistics.median(cpu) * 1000, status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--no-big", action="store_true", help="leave out 500 hands and a season")
    args = parser.parse_args()
    big_rows: list[tuple[str, float, float, int]] = []

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "bench.db")})
        matches = {}
        with app.app_context():
            for label, document in (
                ("Top Game, 12 hands", top_game()),
                ("Rubber, 3 rubbers", three_rubbers()),
            ):
                match = from_document(document)
                outcome = replay_match(match)
                assert outcome.finished, label
                matches[label] = create_match(get_db(), match).match_id
        client = app.test_client()

        def sheet(match_id: int, cached: bool) -> Callable[[], object]:
            def render() -> bytes:
                if not cached:
                    pdf.clear_cache()
                response = client.get(f"/m/{match_id}/sheet.pdf")
                assert response.status_code == 200
                return response.data

            return render

        floor = timed(lambda: HTML(string="<p>Scorekeeper</p>").write_pdf(), args.runs)
        rows = [("One-line WeasyPrint document (floor)", *floor)]
        for label, match_id in matches.items():
            rows.append((f"{label}: render", *timed(sheet(match_id, False), args.runs)))
            rows.append((f"{label}: repeat", *timed(sheet(match_id, True), args.runs)))

        if not args.no_big:
            with app.app_context():
                big = create_match(get_db(), from_document(five_hundred_hands())).match_id
                season = a_full_season(get_db())
            for label, path in (
                ("500 hands, no explanations", f"/m/{big}/sheet.pdf"),
                ("500-match season: ledger", f"/g/{season}/ledger.pdf"),
                ("500-match season: statistics", f"/g/{season}/statistics.pdf"),
            ):
                big_rows.append((label, *fresh(client, path)))

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    floor_wall, floor_cpu = floor
    print(f"PDF score sheets, warm, median of {args.runs} runs (load average {load:.1f}):")
    print(f"  {'':44} {'wall ms':>8} {'x floor':>8} {'cpu ms':>8} {'x floor':>8}")
    for label, wall, cpu in rows:
        ratios = f"{wall / floor_wall:8.1f} {cpu:8.1f} {cpu / floor_cpu:8.1f}"
        print(f"  {label:44} {wall:8.1f} {ratios}")
    for label, wall, cpu, status in big_rows:
        print(f"  {label:44} {wall:8.1f} {'':8} {cpu:8.1f} {'':8} status {status}")
    worst = max(wall / floor_wall for label, wall, _ in rows if label.endswith("render"))
    verdict = "within" if worst <= TARGET else "above"
    print(
        f"Slowest full render: {worst:.1f}x the floor (wall), {verdict} the {TARGET:.0f}x bound"
        f" (aim {AIM:.0f}x)."
    )


if __name__ == "__main__":
    main()
