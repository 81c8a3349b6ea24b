"""A whole club on one server: idle sockets, then 200 phones at 40 tables.

Starts the app exactly as the README says, `bash scripts/serve.sh --local
--port N`, in a process of its own, on a temporary instance folder
(SCOREKEEPER_INSTANCE, so instance/ is never touched) and with this checkout's
code first on the path. Then:

1. 150 idle connections held open (half of them sent one request and keep the
   connection alive, as a phone's browser does; the others sent nothing), and
   a new phone loads the home page and a match page on a fresh connection.
   Waitress's default limit of 100 connections froze the whole room here.
2. 200 phones at 40 tables (5 a table), each with a keep-alive connection as a
   browser has, polling its table's `/live` every 2 s like `static/live.js`
   (a 304 while nothing changed; when the revision moved, the sheet is
   redrawn); one phone a table draws the hand form every 3–6 s, fills it in
   for 1–2 s and saves it. A connection the server closed (its idle timeout)
   is opened again, as a browser does.

It prints the requests, failures (connection errors and unexpected statuses),
answers >= 500, and the poll, sheet and save latencies (p50/p99), then checks
that each table stored exactly the hands acknowledged to it. Aim: 0 failures,
0 answers >= 500, poll p99 under 250 ms. Run:
    python benchmarks/bench_club.py [--seconds 60] [--phones 200] [--idle 150]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import signal
import socket
import sys
import tempfile
import threading
import time
from collections import Counter
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from bench_live import (  # noqa: E402  (the phones of bench_live, kept alive here)
    CONNECTION_ERROR,
    KINDS,
    PLAYERS,
    RUBBERS,
    Seat,
    TimedPhone,
    check_stored,
    cpu_seconds,
    percentile_line,
    start_server,
)

from tests.phones import Answer, Phone  # noqa: E402

PHONES_PER_TABLE = 5
POLL_SECONDS = 2.0  # as live.js
SAVE_EVERY = (3.0, 6.0)
FILL_IN = (1.0, 2.0)
EXPECTED = {"poll": {200, 304}, "sheet": {200}, "form": {200}, "save": {302}}


class KeptPhone(Phone):
    """A phone whose browser keeps one connection open between requests. When the
    server closed it meanwhile (its idle timeout), the request goes again on a
    new connection, as a browser does: the request never reached the app."""

    def __init__(self, base: str, name: str | None = None):
        super().__init__(base, name)
        self.conn: http.client.HTTPConnection | None = None
        self.reconnects = 0

    def _send(self, method: str, path: str, body: str | None, sent: dict) -> Answer:
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        self.conn.request(method, path, body=body, headers=sent)
        response = self.conn.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            for key, morsel in SimpleCookie(header).items():
                self.cookies[key] = morsel.coded_value
        if response.will_close:
            self.close()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)

    def request(self, method: str, path: str, data: dict | None = None, headers=None) -> Answer:
        body = urlencode(data or {}, doseq=True) if method == "POST" else None
        sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if body is not None:
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        reused = self.conn is not None
        try:
            return self._send(method, path, body, sent)
        except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
            self.close()
            if not reused:
                raise
            self.reconnects += 1
            return self._send(method, path, body, sent)
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


class ClubPhone(TimedPhone, KeptPhone):
    """A kept-alive phone that times each request under the kind it is doing."""


class Table(Seat):
    """One phone at a table: it polls (and redraws its sheet); the table's
    scorer also enters a hand every few seconds."""

    def __init__(self, base: str, match_id: str, number: int, seed: int, scorer: bool):
        super().__init__(base, match_id, number, seed)
        self.phone = ClubPhone(base, f"Phone {number}")
        self.scorer = scorer

    def run(self, deadline: float) -> None:
        rng = self.rng
        now = time.monotonic()
        next_poll = now + rng.uniform(0, POLL_SECONDS)
        next_draw = now + rng.uniform(0, SAVE_EVERY[1]) if self.scorer else float("inf")
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
                next_draw = time.monotonic() + rng.uniform(*SAVE_EVERY)
                form = self.draw()
                submit_at = time.monotonic() + rng.uniform(*FILL_IN)
            else:
                self.save(form)
                form = None


# --- the server, started as the README says ------------------------------------


# --- 1. idle connections and a new phone ------------------------------------------


def hold_idle(port: int, count: int, match_id: str) -> list[socket.socket]:
    """`count` open connections doing nothing: half after one kept-alive request,
    half before sending anything."""
    held = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        if n % 2 == 0:
            sock.sendall(
                f"GET /m/{match_id}/live HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n\r\n".encode()
            )
            received = b""
            while b"\r\n\r\n" not in received:
                chunk = sock.recv(65536)
                if not chunk:
                    break
                received += chunk
        held.append(sock)
    return held


def new_phone_with_idle(base: str, port: int, count: int, match_id: str) -> int:
    """Print what a new phone gets while `count` idle connections are open;
    returns the number of failures."""
    held = hold_idle(port, count, match_id)
    failures = 0
    try:
        time.sleep(0.5)  # let the server take in every connection
        phone = Phone(base, "New phone")
        for path in ("/", f"/m/{match_id}"):
            began = time.perf_counter()
            try:
                answer = phone.get(path)
                status: object = answer.status
            except (OSError, http.client.HTTPException) as exc:
                status = f"failed ({exc.__class__.__name__})"
            ms = (time.perf_counter() - began) * 1000
            failures += status != 200
            print(
                f"  {count} idle connections open: a new phone GET {path[:20]:20} {status}"
                f" in {ms:.0f} ms"
            )
    finally:
        for sock in held:
            sock.close()
    return failures


# --- 2. the evening -----------------------------------------------------------------


def report(tables: list[Table], elapsed: float) -> int:
    """Print the figures; returns the number of failures and answers >= 500."""
    statuses = {k: sum((t.phone.tally.statuses[k] for t in tables), Counter()) for k in KINDS}
    latencies = {k: [ms for t in tables for ms in t.phone.tally.latencies[k]] for k in KINDS}
    total = sum(sum(c.values()) for c in statuses.values())
    failed = sum(
        n for kind in KINDS for status, n in statuses[kind].items() if status not in EXPECTED[kind]
    )
    server_errors = sum(
        n
        for kind in KINDS
        for status, n in statuses[kind].items()
        if isinstance(status, int) and status >= 500
    )
    connection_errors = sum(statuses[k][CONNECTION_ERROR] for k in KINDS)
    print(f"requests: {total} in {elapsed:.1f} s = {total / elapsed:.1f} requests/s")
    for kind in KINDS:
        counts = ", ".join(f"{s}: {n}" for s, n in sorted(statuses[kind].items(), key=str))
        print(f"  {kind:5} {sum(statuses[kind].values()):6} ({counts})")
        print(f"        {percentile_line(latencies[kind])}")
    print(f"failed requests: {failed} (connection errors: {connection_errors})")
    print(f"answers >= 500: {server_errors}")
    print(
        f"connections the server closed and the phone opened again: "
        f"{sum(t.phone.reconnects for t in tables)}"
    )
    return failed + server_errors


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="how long (default 60)")
    parser.add_argument("--phones", type=int, default=200, help="how many phones (default 200)")
    parser.add_argument("--idle", type=int, default=150, help="idle connections (default 150)")
    parser.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    args = parser.parse_args()
    seed = random.randrange(2**32) if args.seed is None else args.seed
    # Stopped from outside (timeout, kill): still stop the server it started.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    count = -(-args.phones // PHONES_PER_TABLE)
    print(f"machine: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at start")
    with tempfile.TemporaryDirectory() as tmp:
        log_path = Path(tmp) / "server.log"
        with log_path.open("wb") as log:
            server, base = start_server(Path(tmp) / "instance", log)
            port = int(base.rsplit(":", 1)[1])
            try:
                host = Phone(base, "Host")
                matches = [host.start("rubber", PLAYERS, opt_rubbers=RUBBERS) for _ in range(count)]
                print(f"server: bash scripts/serve.sh --local --port {port} (pid {server.pid})")
                print(f"1. {args.idle} idle connections, then a new phone:")
                failures = new_phone_with_idle(base, port, args.idle, matches[0])
                tables = [
                    Table(
                        base,
                        matches[n // PHONES_PER_TABLE],
                        n + 1,
                        seed + n,
                        scorer=n % PHONES_PER_TABLE == 0,
                    )
                    for n in range(args.phones)
                ]
                for table in tables:
                    table.sheet()
                    for kind in KINDS:  # joining the table is not part of the run
                        table.phone.tally.latencies[kind].clear()
                        table.phone.tally.statuses[kind].clear()
                print(
                    f"2. {args.phones} phones at {count} tables for {args.seconds:g} s"
                    f" (seed {seed}),"
                    f" one scorer a table saving every {SAVE_EVERY[0]:g}-{SAVE_EVERY[1]:g} s"
                )
                began = time.monotonic()
                server_cpu, phones_cpu = cpu_seconds(server.pid), cpu_seconds(os.getpid())
                deadline = began + args.seconds
                threads = [threading.Thread(target=t.run, args=(deadline,)) for t in tables]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                elapsed = time.monotonic() - began
                print(f"load average at the end: {os.getloadavg()[0]:.2f}")
                # The share of the 2 cores each side had: the phones run on the
                # same machine, and other work may take the rest.
                print(
                    f"CPU used: server {cpu_seconds(server.pid) - server_cpu:.1f} s,"
                    f" phones {cpu_seconds(os.getpid()) - phones_cpu:.1f} s"
                    f" in {elapsed:.1f} s on {os.cpu_count()} cores"
                )
                failures += report(tables, elapsed)
                for table in tables:
                    table.phone.close()
                ok = check_stored(base, tables)
            finally:
                os.killpg(server.pid, 15)
                server.wait(timeout=10)
        text = log_path.read_text(errors="replace")
        tracebacks = text.count("Traceback")
        print(f"server log: {tracebacks} tracebacks")
        if tracebacks:
            print(text[-4000:])
    return 0 if ok and not failures and not tracebacks else 1


if __name__ == "__main__":
    sys.exit(main())
