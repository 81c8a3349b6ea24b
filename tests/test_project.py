"""The shape of the project itself: markers that mark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str) -> list[str]:
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    return [line for line in done.stdout.splitlines() if "::" in line]


def test_not_browser_leaves_out_every_browser_test_and_only_those():
    browser = collected("-m", "browser", "tests/browser", "tests/test_csrf.py")
    rest = collected("-m", "not browser", "tests/browser", "tests/test_csrf.py")
    assert browser and all(t.startswith("tests/browser/") for t in browser)
    assert rest and all(not t.startswith("tests/browser/") for t in rest)
    assert len(collected("tests/browser")) == len(browser)
