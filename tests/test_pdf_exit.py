"""The PDF module at the edges of a process: its exit, and a render that is taking long.

A process that made PDFs must exit with status 0, whatever it imported first:
the cached font configuration has to be freed while Pango is still loaded
(pdf._release_fonts), or the interpreter segfaults at shutdown after all its
work is done. Each evening runs in a fresh interpreter, since only its exit
shows the fault.
"""

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from scorekeeper import pdf
from scorekeeper.games.catalog import GAMES

ROOT = Path(__file__).resolve().parent.parent
# A variant of each game, so every game's sheet template and stylesheet.
EVENINGS = tuple(game.variants[0].id for game in GAMES)
RUNS = 2  # fresh processes per import order, side by side

MAKE_APP = """
from scorekeeper.app import create_app
app = create_app(
    {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": sys.argv[1]}
)
"""
PRINT_EVENINGS = """
client = app.test_client()
for name in sys.argv[2:]:
    upload = (io.BytesIO(Path("examples", f"{name}.json").read_bytes()), f"{name}.json")
    imported = client.post(
        "/import", data={"match_file": upload}, content_type="multipart/form-data"
    )
    assert imported.status_code == 302, (name, imported.status_code)
    # The match's address as the app gives it: ids are not assumed to be numbers.
    match_page = urlsplit(imported.location).path.rstrip("/")
    sheet = client.get(f"{match_page}/sheet.pdf")
    assert sheet.status_code == 200, (match_page, sheet.status_code)
    assert sheet.data.startswith(b"%PDF"), match_page
print("printed", len(sys.argv) - 2)
"""
# (imported before the app, imported after it): which module loads Pango, and
# when, decides the order of the finalizers at shutdown.
IMPORT_ORDERS = {
    "weasyprint first": ("import weasyprint", ""),
    "scorekeeper first": ("", ""),
    "pdf module first": ("import scorekeeper.pdf", ""),
    "pdf module after the app": ("", "import scorekeeper.pdf"),
    "sqlite_utils first": ("import sqlite_utils", ""),
    # What shutdown may do on its own, made certain: libpangoft2 unloaded by an
    # atexit hook registered before the app's, so run after pdf's own hook (last
    # in, first out). Without pdf's hook this process exits with -11.
    "Pango unloaded at exit": (
        "import atexit\n"
        "from weasyprint.text.ffi import ffi, pangoft2\n"
        "atexit.register(ffi.dlclose, pangoft2)",
        "",
    ),
}


def evening_script(before: str, after_app: str) -> str:
    header = "import io\nimport sys\nfrom pathlib import Path\nfrom urllib.parse import urlsplit\n"
    return "\n".join([header, before, MAKE_APP, after_app, PRINT_EVENINGS])


@pytest.mark.parametrize("order", list(IMPORT_ORDERS))
def test_process_that_printed_sheets_exits_cleanly(tmp_path, order):
    script = evening_script(*IMPORT_ORDERS[order])
    runs = [
        subprocess.Popen(
            # faulthandler: a crash at exit names itself on stderr.
            [sys.executable, "-X", "faulthandler", "-c", script, str(tmp_path / f"{n}.db")]
            + list(EVENINGS),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(RUNS)
    ]
    for run in runs:
        stdout, stderr = run.communicate(timeout=120)
        # -11 is SIGSEGV (139 in a shell).
        assert run.returncode == 0, f"exit {run.returncode}\n{stderr[-3000:]}"
        assert stdout == f"printed {len(EVENINGS)}\n"
        assert "Segmentation fault" not in stderr
        assert "Traceback" not in stderr


class Watched:
    """The render lock, with the time each asker offered to wait for it."""

    def __init__(self):
        self.lock = threading.Lock()
        self.waits: list[float] = []

    def acquire(self, blocking=True, timeout=-1):
        self.waits.append(timeout)
        return self.lock.acquire(blocking, timeout)

    def release(self):
        self.lock.release()


def test_render_in_progress_makes_the_next_one_busy_instead_of_waiting(app, monkeypatch):
    """It waits WAIT_FOR_RENDER, then gives up: read from the wait it asked for, not
    from the clock after it (a busy machine wakes a thread late: 1 s late failed a
    check that it took under a second)."""
    monkeypatch.setattr(pdf, "WAIT_FOR_RENDER", 0.1)
    monkeypatch.setattr(pdf, "_render_lock", Watched())
    pdf._render_lock.acquire()  # another table's sheet is being made
    started = time.monotonic()
    with pytest.raises(pdf.PdfBusy, match="^another PDF is being made$"):
        pdf.write_pdf("<p>Ann</p>", app.static_folder)
    waited = time.monotonic() - started
    pdf._render_lock.release()
    assert pdf._render_lock.waits == [-1, 0.1]  # ours held it; the render waited 0.1 s at most
    assert waited >= 0.1
    # Once it is done, the next render goes ahead.
    assert pdf.write_pdf("<p>Ann</p>", app.static_folder).startswith(b"%PDF")
