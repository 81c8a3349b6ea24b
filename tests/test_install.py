"""Installed, not checked out (issue 11): the wheel carries the templates and
static files, serves every page from a fresh virtual environment, and keeps its
data in the instance folder it is given or in the user's data folder.

The `install` test builds offline: the wheel with the build backend already in
.venv (`pip wheel --no-build-isolation`, setuptools from the `test` extra), a
virtual environment without pip, the wheel installed with --no-deps and the
dependencies seen through a .pth file naming .venv's site-packages.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import importlib.metadata
import importlib.util
import io
import os
import re
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import tomllib
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from scorekeeper import instance as places
from scorekeeper.app import create_app
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.instance import instance_folder, user_data_folder

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
START_TIMEOUT = 30  # seconds for the installed app to answer its first request


# --- what the build ships ----------------------------------------------------------


def test_the_build_finds_the_packages_itself():
    """No hand-written package list: a new game's folder ships without a line in
    pyproject.toml (the wheel below holds every file of every game)."""
    assert "packages" not in PYPROJECT["tool"]["setuptools"]
    mapped = set(PYPROJECT["tool"]["setuptools"]["package-dir"])
    assert mapped == {"scorekeeper.templates", "scorekeeper.static", "scorekeeper.docs"}
    setup = (ROOT / "setup.py").read_text(encoding="utf-8")
    assert "find_namespace_packages(" in setup
    assert 'include=["scorekeeper", "scorekeeper.*"]' in setup
    assert all(f'"{package}",' in setup for package in mapped)


# --- where the data lives ----------------------------------------------------------


@pytest.fixture
def plain_environment(monkeypatch, tmp_path):
    """No instance chosen, a home folder of our own."""
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    monkeypatch.delenv("XDG_DATA_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    return tmp_path


def test_a_checkout_keeps_its_instance_folder_beside_the_code(plain_environment):
    assert not places.installed()
    assert instance_folder() == ROOT / "instance"


def test_an_installed_app_keeps_its_data_in_the_users_data_folder(plain_environment, monkeypatch):
    monkeypatch.setattr(places, "installed", lambda: True)
    assert instance_folder() == plain_environment / "home" / ".local" / "share" / "scorekeeper"
    monkeypatch.setenv("XDG_DATA_HOME", str(plain_environment / "data"))
    assert instance_folder() == plain_environment / "data" / "scorekeeper"
    # The XDG spec: a relative XDG_DATA_HOME is invalid and ignored.
    monkeypatch.setenv("XDG_DATA_HOME", "relative/data")
    assert user_data_folder() == plain_environment / "home" / ".local" / "share" / "scorekeeper"


def test_instance_option_wins_over_the_variable_which_wins_over_the_default(
    plain_environment, monkeypatch
):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(plain_environment / "from-env"))
    assert instance_folder() == plain_environment / "from-env"
    assert instance_folder(plain_environment / "given") == plain_environment / "given"
    monkeypatch.chdir(plain_environment)
    assert instance_folder("relative") == plain_environment / "relative"


def test_create_app_puts_database_and_secret_key_in_the_chosen_folder(plain_environment):
    app = create_app(instance=plain_environment / "club")
    assert app.instance_path == str(plain_environment / "club")
    assert app.config["DATABASE"] == str(plain_environment / "club" / "scorekeeper.db")
    assert {"scorekeeper.db", "secret_key"} <= {
        p.name for p in (plain_environment / "club").iterdir()
    }
    assert (plain_environment / "club" / "secret_key").stat().st_mode & 0o777 == 0o600


# --- behind a reverse proxy with TLS --------------------------------------------------


def _cookies(response) -> dict[str, str]:
    """Set-Cookie headers by cookie name."""
    return {h.split("=", 1)[0]: h for h in response.headers.getlist("Set-Cookie")}


@pytest.mark.parametrize("value, secure", [("1", True), ("", False), ("0", False)])
def test_secure_cookies_switch_marks_the_session_and_matches_cookies(
    monkeypatch, tmp_path, value, secure
):
    monkeypatch.setenv("SCOREKEEPER_SECURE_COOKIES", value)
    app = create_app(
        {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(tmp_path / "t.db")}
    )
    client = app.test_client()
    match_file = (ROOT / "examples" / "top-game.json").read_bytes()
    answer = client.post("/import", data={"match_file": (io.BytesIO(match_file), "m.json")})
    assert answer.status_code == 302
    cookies = _cookies(answer)
    assert set(cookies) == {"matches", "session"}  # remembered; "Imported …" flashed
    for header in cookies.values():
        assert ("; Secure" in header) is secure, header
        assert "; HttpOnly" in header and "; SameSite=Lax" in header


# --- the wheel, installed and served ------------------------------------------------


@dataclass
class Installed:
    venv: Path
    scripts: Path
    wheel: Path

    def command(self, name: str) -> Path:
        return self.scripts / name


def _offline_build_possible() -> str | None:
    """Why the wheel cannot be built here without a network, or None."""
    if importlib.util.find_spec("pip") is None:
        return "pip is not installed in this environment"
    try:  # its version only: importing setuptools here would replace distutils in pytest
        have = importlib.metadata.version("setuptools")
    except importlib.metadata.PackageNotFoundError:
        return "setuptools (the build backend) is not installed: pip install -e .[test]"
    from packaging.version import Version

    wanted = next(r for r in PYPROJECT["build-system"]["requires"] if r.startswith("setuptools"))
    if Version(have) < Version(wanted.split(">=")[1]):
        return f"the build needs {wanted}, this environment has setuptools {have}"
    return None


def _source_copy(target: Path, root: Path = ROOT) -> Path:
    """What the build reads (pyproject.toml, the readme, every package folder it
    maps), copied so that building writes nothing into the working tree."""
    target.mkdir()
    shutil.copy2(root / "pyproject.toml", target)
    shutil.copy2(root / "setup.py", target)
    shutil.copy2(root / PYPROJECT["project"]["readme"], target)
    folders = {"scorekeeper", *PYPROJECT["tool"]["setuptools"]["package-dir"].values()}
    for folder in folders:
        shutil.copytree(
            # A fresh clone has no .mo files (build outputs): the build compiles them.
            root / folder,
            target / folder,
            ignore=shutil.ignore_patterns("__pycache__", "*.mo"),
        )
    return target


def _run(*args, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(
        [str(a) for a in args], capture_output=True, text=True, timeout=120, **kwargs
    )
    assert done.returncode == 0, f"{args}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Installed:
    return build_and_install(tmp_path_factory.mktemp("install"))


def build_and_install(work: Path, root: Path = ROOT) -> Installed:
    """The wheel built offline from the code at `root`, installed in a new
    virtual environment under `work` (skipped where it cannot be built offline)."""
    why = _offline_build_possible()
    if why:
        pytest.skip(f"cannot build the wheel offline: {why}")
    source = _source_copy(work / "source", root)
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "--no-input"]
    _run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", work, source)
    [wheel] = work.glob("scorekeeper-*.whl")
    venv = work / "venv"
    _run(sys.executable, "-m", "venv", "--without-pip", venv)
    python = venv / "bin" / "python"
    _run(*pip, "--python", python, "install", "--no-deps", "--no-index", wheel)
    # The dependencies: .venv's site-packages, seen by the new environment.
    purelib = _run(python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))")
    ours = dict.fromkeys(sysconfig.get_path(kind) for kind in ("purelib", "platlib"))
    (Path(purelib.stdout.strip()) / "scorekeeper-deps.pth").write_text("\n".join(ours) + "\n")
    return Installed(venv, venv / "bin", wheel)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Browser:
    """A phone talking to the served app over HTTP, with its cookies."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
        )

    def get(self, path: str) -> tuple[int, bytes, str]:
        """Status, body and the address finally answered (after redirects)."""
        try:
            with self.opener.open(self.base + path, timeout=30) as answer:
                return answer.status, answer.read(), answer.url
        except urllib.error.HTTPError as error:
            return error.code, error.read(), path

    def post(self, path: str, fields: dict[str, str]) -> tuple[int, bytes, str]:
        body = urllib.parse.urlencode(fields).encode()
        with self.opener.open(self.base + path, data=body, timeout=30) as answer:
            return answer.status, answer.read(), answer.url


@dataclass
class Served:
    browser: Browser
    instance: Path
    env: dict[str, str]
    startup: str  # what `scorekeeper serve` printed before serving


@pytest.fixture(scope="module")
def served(installed, tmp_path_factory) -> Iterator[Served]:
    with serving(installed, tmp_path_factory.mktemp("home")) as started:
        yield started


@contextlib.contextmanager
def serving(installed: Installed, home: Path) -> Iterator[Served]:
    """`scorekeeper serve` of the installed app, from `home`, until the block ends."""
    instance = home / "club-instance"
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCOREKEEPER_")}
    env.update(HOME=str(home), XDG_DATA_HOME=str(home / "data"), PYTHONDONTWRITEBYTECODE="1")
    port = _free_port()
    log = home / "serve.log"
    with open(log, "w") as output:
        server = subprocess.Popen(
            [installed.command("scorekeeper"), "serve", "--local", "--port", str(port)]
            + ["--instance", str(instance)],
            cwd=home,  # not the checkout: nothing may be found beside the code
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while "Stop with Ctrl+C." not in log.read_text():
            if server.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the installed app did not start:\n{log.read_text()}")
            time.sleep(0.05)
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"the installed app does not answer:\n{log.read_text()}")
                time.sleep(0.05)
        yield Served(Browser(f"http://127.0.0.1:{port}"), instance, env, log.read_text())
    finally:
        server.terminate()
        server.wait(timeout=30)


@pytest.mark.install
def test_the_installed_wheel_runs_from_its_own_environment(installed):
    where = _run(
        installed.command("python"),
        "-c",
        "import scorekeeper.instance as i; print(i.__file__); print(i.installed())",
        cwd=installed.venv,
    )
    package, flag = where.stdout.split()
    assert Path(package).is_relative_to(installed.venv) and flag == "True"
    carried = Path(package).parent
    # docs/: its Markdown (the rules pages show each variant's decisions from it).
    for folder, files in (("templates", "*.*"), ("static", "*.*"), ("docs", "*.md")):
        shipped = sorted(p.relative_to(carried / folder) for p in (carried / folder).rglob(files))
        in_repo = sorted(
            p.relative_to(ROOT / folder)
            for p in (ROOT / folder).rglob(files)
            if "__pycache__" not in p.parts
        )
        assert shipped == in_repo, folder
    # Each game's folder whole: its code, its templates/ and static/ (found by the build).
    games = ROOT / "scorekeeper" / "games"
    in_repo = sorted(
        p.relative_to(games) for p in games.rglob("*.*") if "__pycache__" not in p.parts
    )
    shipped = sorted(
        p.relative_to(carried / "games")
        for p in (carried / "games").rglob("*.*")
        if "__pycache__" not in p.parts
    )
    assert shipped == in_repo
    # Each language's catalog, and the .mo the build compiled from it.
    translations = carried / "translations"
    for po in (ROOT / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"):
        shipped_po = translations / po.relative_to(ROOT / "scorekeeper" / "translations")
        assert shipped_po.read_bytes() == po.read_bytes()
        assert shipped_po.with_suffix(".mo").stat().st_size > 0, shipped_po
    french = _run(
        installed.command("python"),
        "-c",
        "from flask_babel import force_locale, gettext\n"
        "from scorekeeper import create_app\n"
        "import tempfile\n"
        "app = create_app({'TESTING': True}, instance=tempfile.mkdtemp())\n"
        "with app.test_request_context(), force_locale('fr'):\n"
        "    print(gettext('Start a match'))",
        cwd=installed.venv,
    )
    assert french.stdout.strip() == "Commencer un match"


@pytest.mark.install
def test_the_installed_app_serves_every_page_and_asset(served, installed):
    browser, instance, env = served.browser, served.instance, served.env
    assert served.startup.startswith(f"Scorekeeper is running. Instance folder: {instance}\n")
    status, home, _ = browser.get("/")
    assert status == 200 and b"Start a match" in home

    # Start a match through the New match form, its CSRF token included.
    status, form, _ = browser.get("/new")
    token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', form)
    assert status == 200 and token, form[:500]
    status, hand_page, address = browser.post(
        "/new",
        {
            "csrf_token": token.group(1).decode(),
            "variant": "top-game",
            "player1": "Ann",
            "player2": "Bob",
            "player3": "Cy",
        },
    )
    assert status == 200 and re.search(r"/m/[\w-]{16}/hand/new$", address), address
    assert b"Ann" in hand_page and b"csrf_token" in hand_page

    # A match brought in by the installed command line, then its pages.
    loaded = _run(
        installed.command("scorekeeper"),
        "import",
        "--instance",
        instance,
        ROOT / "examples" / "rubber.json",
        env=env,
    )
    match_id = re.search(r"imported as /m/([\w-]{16}) ", loaded.stdout).group(1)
    for page in ("", "/hand/new", "/hand/1", "/history", "/settle", "/match.json"):
        status, body, _ = browser.get(f"/m/{match_id}{page}")
        assert status == 200, (page, body[:300])
    status, pdf, _ = browser.get(f"/m/{match_id}/sheet.pdf")
    assert status == 200 and pdf.startswith(b"%PDF-")
    for page in ["/rules/", *(f"/rules/{variant}" for variant in VARIANTS)]:
        assert browser.get(page)[0] == 200, page
    # The decisions come from the shipped docs/variants/top-game.md.
    assert (
        "the informer loses 4 and each other player gains 2"
        in browser.get("/rules/top-game")[1].decode()
    )

    # Every static file, byte for byte as in the repository.
    for path in sorted((ROOT / "static").rglob("*.*")):
        status, body, _ = browser.get(f"/static/{path.relative_to(ROOT / 'static').as_posix()}")
        assert status == 200 and body == path.read_bytes(), path
    # And every game's, from its own folder, at /static/games/<family>/….
    for path in sorted((ROOT / "scorekeeper" / "games").glob("*/static/*.*")):
        status, body, _ = browser.get(f"/static/games/{path.parent.parent.name}/{path.name}")
        assert status == 200 and body == path.read_bytes(), path

    assert {"scorekeeper.db", "secret_key"} <= {p.name for p in instance.iterdir()}
    assert not (Path(env["XDG_DATA_HOME"]) / "scorekeeper").exists()  # --instance won
