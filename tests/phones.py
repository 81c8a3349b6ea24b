"""Phones at a table, as real HTTP clients of a real waitress server.

`served(app)` runs the app under waitress on a free local port in a thread;
`Phone` keeps its own cookies (session, CSRF, its name) like a browser, draws a
form with GET (its CSRF token, revision and one-time key) and submits it with
POST, without following redirects. Only the standard library is used, so the
load benchmark uses the same phones.
"""

from __future__ import annotations

import contextlib
import html
import http.client
import json
import os
import re
import select
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode, urlsplit


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def served(app, threads: int = 8) -> Iterator[str]:
    """The app under waitress on 127.0.0.1; yields its base address."""
    from waitress.server import create_server

    # Port 0: the system gives it a free port as it binds (a port found free first
    # could be taken by another process before the server bound it).
    server = create_server(app, host="127.0.0.1", port=0, threads=threads)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.effective_port}"
    finally:
        stop(server, thread)


def stop(server, thread: threading.Thread) -> None:
    """Stop a waitress server running in `thread`. Its sockets are closed from its
    own loop (closed from here, they race its select(): "Bad file descriptor" at
    shutdown); with none left the loop returns, then the workers stop."""
    from waitress import wasyncore

    try:
        server.trigger.pull_trigger(lambda: wasyncore.close_all(server._map))
    except OSError:
        # Its trigger is already closed (seen once in CI, cause not found): the
        # loop no longer listens to it, so close what is left from here.
        wasyncore.close_all(server._map)
    thread.join(timeout=5)
    if thread.is_alive():
        server.close()
    server.task_dispatcher.shutdown()


# The app under waitress in a process of its own: database, port[, a pipe's fd on
# which to say the port it listens on, once it listens (asked for port 0)].
SERVER = """
import os, sys
from waitress.server import create_server
from scorekeeper.app import create_app
app = create_app({"DATABASE": sys.argv[1], "SECRET_KEY": "phones"})
server = create_server(app, host="127.0.0.1", port=int(sys.argv[2]), threads=8)
if len(sys.argv) > 3:
    os.write(int(sys.argv[3]), f"{server.effective_port}\\n".encode())
    os.close(int(sys.argv[3]))
server.run()
"""


def serve_process(database: str | Path, log=subprocess.DEVNULL) -> tuple[subprocess.Popen, str]:
    """The app under waitress in a process of its own (8 threads, as `scorekeeper
    serve`), on `database`, once it accepts connections; and its base address.
    It binds port 0 and says which port it got: a port found free here first could
    be taken by another process while this one starts (then the test would talk
    to that one, or to nothing)."""
    said, told = os.pipe()
    server = subprocess.Popen(
        [sys.executable, "-c", SERVER, str(database), "0", str(told)],
        cwd=Path(__file__).resolve().parent.parent,
        stdout=log,
        stderr=subprocess.STDOUT,
        pass_fds=(told,),
    )
    os.close(told)
    with os.fdopen(said) as pipe:
        ready, _, _ = select.select([pipe], [], [], 30)
        port = pipe.readline().strip() if ready else ""
    if not port.isdigit():
        server.kill()
        server.wait(timeout=10)
        raise RuntimeError(f"the server did not listen within 30 s (status {server.returncode})")
    return server, f"http://127.0.0.1:{port}"


def accepting(server: subprocess.Popen, port: int, seconds: float) -> str:
    """Wait until the server process accepts connections on `port` (killed if it
    does not within `seconds`); its base address."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise RuntimeError(f"the server exited with status {server.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.05)
    server.kill()
    raise RuntimeError(f"the server did not accept connections within {seconds:g} s")


@dataclass
class Answer:
    status: int
    headers: dict[str, str]
    text: str

    @property
    def location(self) -> str:
        return self.headers.get("location", "")

    def json(self):
        return json.loads(self.text)


@dataclass
class Form:
    """A form as drawn on a page: where it posts and its hidden fields."""

    action: str
    fields: dict[str, str]


_FORM = re.compile(r"<form\b([^>]*)>(.*?)</form>", re.S)
_INPUT = re.compile(r"<input\b([^>]*)>")
_ATTR = re.compile(r'([a-z-]+)="([^"]*)"')


def _hidden(inner: str) -> dict[str, str]:
    fields = {}
    for attributes in _INPUT.findall(inner):
        attrs = dict(_ATTR.findall(attributes))
        if attrs.get("type") == "hidden" and "name" in attrs:
            fields[attrs["name"]] = html.unescape(attrs.get("value", ""))
    return fields


_ACTION = re.compile(r'action="([^"]*)"')


class Phone:
    """One phone: its cookies, and GET/POST over a fresh connection each time."""

    def __init__(self, base: str, name: str | None = None):
        self.base = base
        split = urlsplit(base)
        self.host, self.port = split.hostname, split.port
        self.cookies: dict[str, str] = {}
        if name:
            self.cookies["phone"] = json.dumps(name)  # quoted as werkzeug quotes it

    def request(
        self,
        method: str,
        path: str,
        data: dict | None = None,
        headers=None,
        body: bytes | None = None,
    ) -> Answer:
        """One request on a fresh connection: `data` as a urlencoded form, or a
        `body` already made (its Content-Type in `headers`)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=30)
        sent = {"Host": f"{self.host}:{self.port}", **(headers or {})}
        if body is None and method == "POST":
            body = urlencode(data or {}, doseq=True).encode()
            sent["Content-Type"] = "application/x-www-form-urlencoded"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        try:
            conn.request(method, path, body=body, headers=sent)
            response = conn.getresponse()
            text = response.read().decode("utf-8", "replace")
            for header in response.headers.get_all("Set-Cookie") or []:
                for key, morsel in SimpleCookie(header).items():
                    self.cookies[key] = morsel.coded_value
            return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, text)
        finally:
            conn.close()

    def get(self, path: str, **headers) -> Answer:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict) -> Answer:
        return self.request("POST", path, data)

    def forms(self, path: str) -> list[Form]:
        """Every form on a page with its hidden fields (CSRF token, revision, key)."""
        page = self.get(path)
        assert page.status == 200, (path, page.status)
        found = []
        for attributes, inner in _FORM.findall(page.text):
            action = _ACTION.search(attributes)
            fields = _hidden(inner)
            found.append(Form(html.unescape(action.group(1)) if action else path, fields))
        return found

    def form(self, path: str, action: str | None = None) -> Form:
        """The form of `path` that posts to `action` (default: the page itself)."""
        wanted = action or path
        for form in self.forms(path):
            if form.action == wanted and "revision" in form.fields:
                return form
        raise AssertionError(f"no form posting to {wanted} on {path}")

    def submit(self, form: Form, **fields) -> Answer:
        return self.post(form.action, {**form.fields, **fields})

    def upload(
        self, path: str, fields: dict[str, str], name: str, content: bytes, filename: str = "m.json"
    ) -> Answer:
        """Send a file as a browser does (multipart/form-data): the form's `fields`
        and `content` as the file field `name`."""
        boundary = uuid.uuid4().hex
        body = b"".join(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode()
            for k, v in fields.items()
        )
        body += (
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}";'
            f' filename="{filename}"\r\nContent-Type: application/json\r\n\r\n'
        ).encode()
        body += content + f"\r\n--{boundary}--\r\n".encode()
        content_type = {"Content-Type": f"multipart/form-data; boundary={boundary}"}
        return self.request("POST", path, headers=content_type, body=body)

    def start(self, variant: str, players: list[str], **extra) -> str:
        """Start a match through the new-match form; returns its id."""
        form = self.forms("/new")[0]
        data = {**form.fields, "variant": variant, **extra}
        data.update({f"player{i}": name for i, name in enumerate(players, 1)})
        answer = self.post("/new", data)
        assert answer.status == 302, answer.text[:500]
        return re.search(r"/m/([\w-]{16})/", answer.location).group(1)

    def hands(self, match_id: str) -> list[dict]:
        """The hands as stored, read through the match-file export."""
        answer = self.get(f"/m/{match_id}/match.json")
        assert answer.status == 200
        return answer.json()["hands"]


class Watched(Phone):
    """A phone whose every answer is kept in `answers` (shared by the phones of
    one table), so a test can insist that none was 500 or above."""

    answers: list[Answer]

    def request(self, *args, **kwargs) -> Answer:
        answer = super().request(*args, **kwargs)
        self.answers.append(answer)
        return answer


@contextlib.contextmanager
def watched_table(app) -> Iterator[Callable[..., Watched]]:
    """The app under waitress; yields a maker of phones (`phone("Ann's phone")`)
    whose answers are all kept, and at the end insists none was 500 or above."""
    answers: list[Answer] = []
    with served(app) as base:

        def phone(name: str | None = None) -> Watched:
            made = Watched(base, name)
            made.answers = answers
            return made

        yield phone
    assert [(a.status, a.text[:200]) for a in answers if a.status >= 500] == []


def together(*jobs: Callable[[], Answer]) -> list[Answer]:
    """Run each job in its own thread, released together; their answers in order."""
    start = threading.Barrier(len(jobs))
    answers: list = [None] * len(jobs)

    def run(i: int) -> None:
        start.wait()
        answers[i] = jobs[i]()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def at_once(*submissions: tuple[Phone, Form, dict[str, str]]) -> list[Answer]:
    """Submit each (phone, form, fields) from its own thread, released together;
    the answers in the same order."""
    return together(
        *(lambda p=phone, f=form, x=fields: p.submit(f, **x) for phone, form, fields in submissions)
    )
