"""A match at the table app's limit (500 entries): what its pages, exports and
PDF cost, and whether another table's page waits while its PDF is made.

Imports a rubber match of 500 defeated contracts (it never finishes) through the
test client on a temporary database, times each page and export (median of a
few runs), the PDF (fresh render, then the cached one) and the peak memory of
the process, then fetches a small match's page while the big PDF is rendered in
another thread. Run:
    python benchmarks/bench_limits.py [--runs 5]
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import pdf  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.matchfile import MAX_ENTRIES  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def document(entries: int) -> dict:
    hands = [
        {"declarer": PLAYERS[n % 4], "contract": f"{1 + n % 3}C", "tricks": n % 7}
        for n in range(entries)
    ]
    return {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "players": PLAYERS,
        "hands": hands,
    }


def import_match(client, doc: dict) -> str:
    payload = io.BytesIO(json.dumps(doc).encode())
    answer = client.post(
        "/import", data={"match_file": (payload, "m.json")}, content_type="multipart/form-data"
    )
    assert answer.status_code == 302, answer.text[:300]
    return answer.location.rsplit("/", 1)[1]


def timed(fetch, runs: int) -> tuple[float, int]:
    times, size = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        answer = fetch()
        times.append(time.perf_counter() - start)
        assert answer.status_code == 200, answer.status_code
        size = len(answer.data)
    return statistics.median(times), size


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": f"{folder}/b.db"})
        client = app.test_client()
        start = time.perf_counter()
        big = import_match(client, document(MAX_ENTRIES))
        print(f"import of {MAX_ENTRIES} entries: {time.perf_counter() - start:.2f} s")
        small = import_match(client, document(12))
        for label, path in [
            ("match page", f"/m/{big}"),
            ("hand form", f"/m/{big}/hand/new"),
            ("history", f"/m/{big}/history"),
            ("live poll", f"/m/{big}/live?since=1"),
            ("match file", f"/m/{big}/match.json"),
            ("CSV", f"/m/{big}/hands.csv"),
        ]:
            median, size = timed(lambda path=path: client.get(path), args.runs)
            print(f"{label:12} {median * 1000:8.1f} ms  {size / 1024:8.1f} kB")
        pdf.clear_cache()
        start = time.perf_counter()
        first = client.get(f"/m/{big}/sheet.pdf")
        print(
            f"PDF (render) {(time.perf_counter() - start) * 1000:8.1f} ms"
            f"  {len(first.data) / 1024:8.1f} kB  status {first.status_code}"
        )
        median, _ = timed(lambda: client.get(f"/m/{big}/sheet.pdf"), args.runs)
        print(f"PDF (cached) {median * 1000:8.1f} ms")

        pdf.clear_cache()
        other = app.test_client()
        render = threading.Thread(target=lambda: client.get(f"/m/{big}/sheet.pdf"))
        render.start()
        time.sleep(0.2)
        waits = []
        while render.is_alive():
            begin = time.perf_counter()
            assert other.get(f"/m/{small}").status_code == 200
            waits.append(time.perf_counter() - begin)
        render.join()
        if waits:
            print(
                f"another table's page during that render: {len(waits)} loads,"
                f" median {statistics.median(waits) * 1000:.1f} ms, max {max(waits) * 1000:.1f} ms"
            )
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"peak memory of this process: {peak:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
