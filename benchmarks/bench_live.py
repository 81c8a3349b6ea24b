"""Fifty phones at ten tables against one server: live polls and saves under load.

Starts the app exactly as the README says, `bash scripts/serve.sh --local
--port N` (waitress as `scorekeeper serve` sets it up), in a process of its own
on a temporary instance folder, then runs the phones as threads of this
process; every 5 phones share one rubber match. A phone does what
a browser with `static/live.js` does:
- it polls `/m/<id>/live?since=N` every 2 s with `If-None-Match` (a 304 when
  nothing changed); when the revision moved it redraws its sheet (GET the match
  page) and polls with the new `since`;
- every 3–8 s (random) it draws the new-hand form, takes 1–2 s to fill it in
  (polling meanwhile, without redrawing) and saves it, then follows the redirect
  to the sheet. A 409 means another phone at the table saved first: an expected
  refusal, counted apart from errors.
Contracts are part scores and defeated contracts, and each match plays up to 100
rubbers, so no match finishes during the run. At the end the hands stored for
each match are counted against the saves acknowledged with a 302. `--turn T`
makes the phones hurry: each waits 0.5–1.5 T before drawing the next hand and
as long again to fill it in (`--phones 30 --turn 0.5`: the busy room of issue 17,
where every phone's sheet is redrawn after every change). Run:
    python benchmarks/bench_live.py [--seconds 60] [--phones 50] [--turn 0.5]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the phones of the web tests are the benchmark's clients

from tests.phones import Answer, Phone, accepting, free_port  # noqa: E402

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
PHONES_PER_TABLE = 5
POLL_SECONDS = 2.0  # as live.js
SAVE_EVERY = (3.0, 8.0)
FILL_IN = (1.0, 2.0)
RUBBERS = "100"  # the most the option allows: no match finishes during a run
# (level, strain, tricks): part scores made and contracts defeated, so a game
# takes several hands and a rubber a dozen or more
CONTRACTS = [
    ("1", "C", "7"),
    ("1", "D", "8"),
    ("2", "C", "7"),
    ("3", "H", "8"),
    ("4", "S", "8"),
    ("3", "NT", "7"),
    ("5", "D", "9"),
    ("6", "S", "10"),
]
EXPECTED = {"poll": {200, 304}, "sheet": {200}, "form": {200}, "save": {302, 409}}
KINDS = tuple(EXPECTED)
CONNECTION_ERROR = "connection error"
_REVISION = re.compile(r'data-revision="(\d+)"')


@dataclass
class Tally:
    """One phone's requests: latencies (ms) and statuses by kind of request."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: {k: [] for k in KINDS})
    statuses: dict[str, Counter] = field(default_factory=lambda: {k: Counter() for k in KINDS})
    acknowledged: int = 0  # saves answered 302: each one a stored hand


class TimedPhone(Phone):
    """A phone that times every request it makes under the kind it is doing."""

    def __init__(self, base: str, name: str):
        super().__init__(base, name)
        self.tally = Tally()
        self.kind = "sheet"

    def request(self, method, path, data=None, headers=None) -> Answer:
        began = time.perf_counter()
        try:
            answer = super().request(method, path, data, headers)
        except (OSError, http.client.HTTPException):
            self.tally.statuses[self.kind][CONNECTION_ERROR] += 1
            raise
        self.tally.latencies[self.kind].append((time.perf_counter() - began) * 1000)
        self.tally.statuses[self.kind][answer.status] += 1
        return answer


class Seat:
    """One phone at a table, driven by its own thread until the deadline.

    As in a browser, each page loaded has its own live URL (`since` = the
    revision the page was drawn at) and the poll sends the ETag of the last answer
    to that URL; a sheet redrawn in place keeps its URL, as live.js does.
    """

    def __init__(self, base: str, match_id: int, number: int, seed: int, turn: float = 0):
        self.phone = TimedPhone(base, f"Phone {number}")
        # (pause before drawing a hand, time to fill it in): ranges in seconds
        self.pace = ((turn / 2, turn * 1.5),) * 2 if turn else (SAVE_EVERY, FILL_IN)
        self.match_id = match_id
        self.rng = random.Random(seed)
        self.since = 0  # the live URL of the page on screen
        self.shown = 0  # the revision the page on screen shows
        self.etag = ""

    def _do(self, kind: str, action):
        self.phone.kind = kind
        try:
            return action()
        except (OSError, http.client.HTTPException, AssertionError):
            return None  # counted by the phone; a phone simply carries on

    def _page(self, revision: int, reload: bool) -> None:
        self.shown = revision
        if reload:
            self.since, self.etag = revision, ""

    def sheet(self, path: str | None = None, reload: bool = True) -> None:
        """Load the sheet (or redraw it in place: the live URL stays)."""
        page = self._do("sheet", lambda: self.phone.get(path or f"/m/{self.match_id}"))
        shown = _REVISION.search(page.text) if page is not None and page.status == 200 else None
        if shown:
            self._page(int(shown.group(1)), reload)

    def poll(self, on_sheet: bool) -> None:
        headers = {"If-None-Match": self.etag} if self.etag else {}
        url = f"/m/{self.match_id}/live?since={self.since}"
        answer = self._do("poll", lambda: self.phone.get(url, **headers))
        if answer is None or answer.status != 200:
            return
        self.etag = answer.headers.get("etag", "")
        if on_sheet and answer.json()["revision"] != self.shown:
            self.sheet(reload=False)

    def draw(self):
        form = self._do("form", lambda: self.phone.form(f"/m/{self.match_id}/hand/new"))
        if form is not None:
            self._page(int(form.fields["revision"]), reload=True)
        return form

    def save(self, form) -> None:
        level, strain, tricks = self.rng.choice(CONTRACTS)
        declarer = self.rng.choice(PLAYERS)
        answer = self._do(
            "save",
            lambda: self.phone.submit(
                form, declarer=declarer, level=level, strain=strain, tricks=tricks
            ),
        )
        if answer is not None and answer.status == 302:
            # The answer is the next hand's form; this phone glances at the sheet too.
            self.phone.tally.acknowledged += 1
        self.sheet()

    def run(self, deadline: float) -> None:
        rng = self.rng
        now = time.monotonic()
        next_poll = now + rng.uniform(0, POLL_SECONDS)
        save_every, fill_in = self.pace
        next_draw = now + rng.uniform(0, save_every[1])
        form, submit_at = None, 0.0
        while True:
            wake = min(next_poll, submit_at if form else next_draw)
            if wake >= deadline:
                return
            time.sleep(max(0.0, wake - time.monotonic()))
            if wake == next_poll:
                self.poll(on_sheet=form is None)
                next_poll = max(next_poll + POLL_SECONDS, time.monotonic())
            elif form is None:
                next_draw = time.monotonic() + rng.uniform(*save_every)
                form = self.draw()
                submit_at = time.monotonic() + rng.uniform(*fill_in)
            else:
                self.save(form)
                form = None


def start_server(instance: Path, log) -> tuple[subprocess.Popen, str]:
    """`bash scripts/serve.sh --local --port N` on `instance`, once it accepts."""
    port = free_port()
    env = {
        **os.environ,
        "SCOREKEEPER_INSTANCE": str(instance),
        # This checkout's code, whichever checkout the virtual environment points at.
        "PYTHONPATH": str(ROOT),
    }
    server = subprocess.Popen(
        ["bash", "scripts/serve.sh", "--local", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    # The first run may set up the environment first.
    return server, accepting(server, port, seconds=120)


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) used so far by process `pid` (Linux /proc)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def percentile_line(latencies: list[float]) -> str:
    if len(latencies) < 2:
        return "too few answers for percentiles"
    cuts = statistics.quantiles(latencies, n=100, method="inclusive")
    return f"p50 {cuts[49]:.1f} ms, p95 {cuts[94]:.1f} ms, p99 {cuts[98]:.1f} ms"


def report(seats: list[Seat], elapsed: float) -> int:
    """Print the figures; returns the number of errors."""
    latencies = {k: [ms for s in seats for ms in s.phone.tally.latencies[k]] for k in KINDS}
    statuses = {k: sum((s.phone.tally.statuses[k] for s in seats), Counter()) for k in KINDS}
    total = sum(sum(c.values()) for c in statuses.values())
    print(f"requests: {total} in {elapsed:.1f} s = {total / elapsed:.1f} requests/s")
    errors = 0
    for kind in KINDS:
        counts = ", ".join(
            f"{status}: {n}" for status, n in sorted(statuses[kind].items(), key=str)
        )
        print(f"  {kind:5}  {sum(statuses[kind].values()):6} requests  ({counts})")
        print(f"         {percentile_line(latencies[kind])}")
        for status, n in statuses[kind].items():
            if status not in EXPECTED[kind]:
                errors += n
    print(f"saved (302): {statuses['save'][302]}")
    print(f"refused stale (expected, 409): {statuses['save'][409]}")
    print(f"errors (status >= 500, connection errors, unexpected statuses): {errors}")
    return errors


def check_stored(base: str, seats: list[Seat]) -> bool:
    """Hands stored per match = saves acknowledged for it (302 answers)."""
    reader = Phone(base)
    ok = True
    by_match: dict[int, list[Seat]] = {}
    for seat in seats:
        by_match.setdefault(seat.match_id, []).append(seat)
    print("stored hands = acknowledged saves, per match:")
    for match_id, table in sorted(by_match.items()):
        acknowledged = sum(s.phone.tally.acknowledged for s in table)
        stored = len(reader.hands(match_id))
        same = stored == acknowledged
        ok &= same
        print(
            f"  match {match_id:3}: stored {stored:4}, acknowledged {acknowledged:4}  "
            f"{'ok' if same else 'MISMATCH'}"
        )
    print(f"check: {'ok' if ok else 'FAILED'}")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--phones", type=int, default=50, help="how many phones (default 50)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    parser.add_argument(
        "--turn",
        type=float,
        default=0,
        help="seconds a phone takes per hand, on average, to pause and to fill it in"
        " (default: 3-8 s pause, 1-2 s to fill in)",
    )
    args = parser.parse_args()
    seed = random.randrange(2**32) if args.seed is None else args.seed
    tables = -(-args.phones // PHONES_PER_TABLE)
    # Stopped from outside (timeout, kill): still stop the server it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            server, base = start_server(Path(tmp) / "instance", log)
            try:
                host = Phone(base, "Host")
                matches = [
                    host.start("rubber", PLAYERS, opt_rubbers=RUBBERS) for _ in range(tables)
                ]
                seats = [
                    Seat(base, matches[n // PHONES_PER_TABLE], n + 1, seed + n, args.turn)
                    for n in range(args.phones)
                ]
                for seat in seats:
                    seat.sheet()
                    for kind in KINDS:  # joining the table is not part of the run
                        seat.phone.tally.latencies[kind].clear()
                        seat.phone.tally.statuses[kind].clear()
                pace = f"a turn every {args.turn:g} s" if args.turn else "3-8 s between hands"
                print(
                    f"{args.phones} phones at {tables} tables for {args.seconds:g} s, {pace} "
                    f"(seed {seed}), server: bash scripts/serve.sh --local, {base}"
                )
                began = time.monotonic()
                server_cpu, phones_cpu = cpu_seconds(server.pid), cpu_seconds(os.getpid())
                deadline = began + args.seconds
                threads = [threading.Thread(target=s.run, args=(deadline,)) for s in seats]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                elapsed = time.monotonic() - began
                print(f"load average at the end: {os.getloadavg()[0]:.2f}")
                print(
                    f"CPU used: server {cpu_seconds(server.pid) - server_cpu:.1f} s,"
                    f" phones {cpu_seconds(os.getpid()) - phones_cpu:.1f} s"
                    f" in {elapsed:.1f} s on {os.cpu_count()} cores"
                )
                errors = report(seats, elapsed)
                ok = check_stored(base, seats)
            finally:
                os.killpg(server.pid, signal.SIGTERM)
                server.wait(timeout=10)
        tracebacks = log_path.read_text(errors="replace").count("Traceback")
        print(f"server log: {tracebacks} tracebacks")
        if tracebacks:
            print(log_path.read_text(errors="replace")[-4000:])
    return 0 if ok and not errors and not tracebacks else 1


if __name__ == "__main__":
    sys.exit(main())
