"""A whole club on one server (issue 17, points 1 and 2): waitress configured
exactly as `scorekeeper serve` configures it keeps answering a new phone while
150 idle connections are open, and refuses a body over the app's 2 MB limit
before spooling it to disk. (How many phones one process carries is measured
by benchmarks/bench_club.py, not here: no timing in tests.)"""

from __future__ import annotations

import gc
import select
import socket
import tempfile
import threading
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import pytest

from scorekeeper import serve as serving
from scorekeeper.app import create_app
from scorekeeper.serve import WAITRESS, waitress_settings
from tests.phones import Phone, stop

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
LIMIT = 4 * 1024 * 1024 + 64 * 1024  # a group file's import; every other form 2 MB


@pytest.fixture
def app(store_path):
    return create_app({"DATABASE": store_path, "SECRET_KEY": "club" * 8})


@contextmanager
def served_as_serve(app) -> Iterator[tuple[str, int]]:
    """The app under waitress on 127.0.0.1 with `scorekeeper serve`'s settings."""
    from waitress.server import create_server

    server = create_server(app, host="127.0.0.1", port=0, **waitress_settings(app))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}", server.effective_port
    finally:
        stop(server, thread)


def test_serve_runs_waitress_with_the_club_settings(app):
    settings = waitress_settings(app)
    assert settings == {
        "threads": 8,
        "connection_limit": 1000,
        "asyncore_use_poll": True,
        "channel_timeout": 30,
        "cleanup_interval": 10,
        "max_request_header_size": 64 * 1024,
        "max_request_body_size": LIMIT,
    }
    assert settings["max_request_body_size"] == app.config["MAX_GROUP_FILE_REQUEST"]
    assert app.config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    # An idle socket is dropped well after a phone's next poll (every 2 s) and
    # checked for often enough that it is dropped near its time.
    assert 2 < WAITRESS["cleanup_interval"] < WAITRESS["channel_timeout"]


def test_serve_puts_what_it_loaded_out_of_the_collectors_sight(monkeypatch, tmp_path):
    """Python's cyclic collector, on a full collection, walks every object the
    process holds (the app, its modules, Jinja's and Babel's tables: about
    100 000) while every other answer waits: the tail of a page drawn after a
    change (benchmarks/bench_page.py). `serve` moves what the app loaded out of
    its sight (`gc.freeze`) before waitress answers the first phone."""
    frozen_when_served = []
    monkeypatch.setattr(serving, "lan_address", lambda: None)
    monkeypatch.setattr(
        "waitress.serve", lambda app, **options: frozen_when_served.append(gc.get_freeze_count())
    )
    gc.unfreeze()
    try:
        assert serving.serve(port=8123, instance=str(tmp_path / "instance")) == 0
    finally:
        gc.unfreeze()  # this test process keeps collecting as before
    assert len(frozen_when_served) == 1
    assert frozen_when_served[0] > 10_000


def _idle(port: int, count: int, match_id: str) -> list[socket.socket]:
    """`count` open connections doing nothing: every other one after a kept-alive
    request (a phone's browser between two polls), the rest silent from the start."""
    held = []
    for n in range(count):
        sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        held.append(sock)
        if n % 2:
            continue
        sock.sendall(f"GET /m/{match_id}/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
        answer = b""
        while not answer.endswith(b"}\n") and b"\r\n\r\n{" not in answer:
            chunk = sock.recv(65536)
            assert chunk, "the server closed a kept-alive connection"
            answer += chunk
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:60]
    return held


def test_150_idle_connections_do_not_stop_a_new_phone(app):
    with served_as_serve(app) as (base, port):
        host = Phone(base, "Ann's phone")
        match_id = host.start("rubber", PLAYERS)
        held = _idle(port, 150, match_id)
        try:
            # Waitress's default limit (100) stopped accepting here: the new
            # phone waited until idle sockets timed out, 120 s later.
            newcomer = Phone(base, "Bob's phone")
            assert newcomer.get("/").status == 200
            assert newcomer.get(f"/m/{match_id}").status == 200
            form = newcomer.form(f"/m/{match_id}/hand/new")
            saved = newcomer.submit(form, declarer="Ann", level="2", strain="H", tricks="8")
            assert saved.status == 302
            assert newcomer.hands(match_id) == [{"declarer": "Ann", "contract": "2H", "tricks": 8}]
            # The idle connections are still there, not dropped to make room.
            alive = held[1]
            alive.setblocking(False)
            with pytest.raises(BlockingIOError):
                alive.recv(1)
        finally:
            for sock in held:
                sock.close()


@pytest.fixture
def spools(tmp_path, monkeypatch) -> Path:
    """Waitress spools a request body over 512 kB to a temporary file: make those
    files visible in a folder of their own, so their size can be read."""
    folder = tmp_path / "spool"
    folder.mkdir()
    made = tempfile.NamedTemporaryFile

    def visible(mode="w+b", *args, **kwargs):
        return made(mode, dir=folder, delete=False)

    monkeypatch.setattr(tempfile, "TemporaryFile", visible)
    return folder


def _answer(sock: socket.socket) -> bytes:
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = sock.recv(65536)
        if not chunk:
            break
        received += chunk
    return received


def test_a_body_announced_over_the_limit_is_refused_before_it_is_sent(app, spools):
    with served_as_serve(app) as (base, port):
        with closing(socket.create_connection(("127.0.0.1", port), timeout=30)) as sock:
            sock.sendall(
                b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: multipart/form-data; boundary=x\r\n"
                b"Content-Length: 1000000000\r\n\r\n--x\r\n"
            )
            # Not one byte of the gigabyte follows: the answer comes anyway.
            assert _answer(sock).startswith(b"HTTP/1.1 413 Request Entity Too Large\r\n")
        assert list(spools.iterdir()) == []
        assert Phone(base).get("/").status == 200


def test_a_chunked_body_over_the_limit_is_refused_and_spools_at_most_the_limit(app, spools):
    chunk = b"x" * 65536
    with served_as_serve(app) as (base, port):
        with closing(socket.create_connection(("127.0.0.1", port), timeout=30)) as sock:
            sock.sendall(
                b"POST /import HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: multipart/form-data; boundary=x\r\n"
                b"Transfer-Encoding: chunked\r\n\r\n"
            )
            sent = 0
            try:
                while sent < 3 * LIMIT:  # 12 MB offered
                    sock.sendall(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    sent += len(chunk)
            except (BrokenPipeError, ConnectionResetError):
                pass  # refused and closed while the body was still coming
            answer = _answer(sock)
        assert answer.startswith(b"HTTP/1.1 413 Request Entity Too Large\r\n"), answer[:80]
        sizes = [path.stat().st_size for path in spools.iterdir()]
        assert sizes, "a body over 512 kB was spooled to a file"
        assert max(sizes) <= LIMIT + len(chunk) + 16
        assert Phone(base).get("/").status == 200


def _drip_headers(port: int) -> bytes | None:
    """Send header lines until the server answers; its answer, or None when the
    connection was reset before it could be read (the server closed with our
    last line still unread: TCP then drops the answer on the way)."""
    with closing(socket.create_connection(("127.0.0.1", port), timeout=30)) as sock:
        line = b"X-Drip: " + b"y" * 1000 + b"\r\n"
        try:
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            for _ in range(70):
                sock.sendall(line)
                if select.select([sock], [], [], 0.02)[0]:
                    break  # the server has answered: send no more
            return _answer(sock)
        except (BrokenPipeError, ConnectionResetError):
            return None


def test_header_lines_over_64_kb_are_refused(app):
    """A client dripping header lines is cut off after 64 kB of them (waitress has
    no deadline for a whole request: each line counts as activity)."""
    with served_as_serve(app) as (_, port):
        for _ in range(5):  # a reset hides the answer: try again, a few times at most
            answer = _drip_headers(port)
            if answer is not None:
                break
    assert answer is not None, "every attempt was reset before its answer could be read"
    assert answer.split(b"\r\n")[0].endswith(b" 431 Request Header Fields Too Large")


@pytest.mark.parametrize(
    "soft, hard, wanted",
    [
        (1024, 524288, (1100, 524288)),  # a systemd service's usual limits: raised
        (1024, 1050, (1050, 1050)),  # as far as the hard limit allows
        (4096, 4096, None),  # room enough already: left alone
    ],
)
def test_serve_raises_its_open_file_limit_to_fit_its_connections(monkeypatch, soft, hard, wanted):
    import resource

    from scorekeeper.serve import room_for_connections

    asked = []
    monkeypatch.setattr(resource, "getrlimit", lambda which: (soft, hard))
    monkeypatch.setattr(resource, "setrlimit", lambda which, limits: asked.append(limits))
    room_for_connections(1000)
    assert asked == ([wanted] if wanted else [])
