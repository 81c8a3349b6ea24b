"""PDF export with WeasyPrint: the match page's sheet laid out for paper.

Nothing is fetched from the network: stylesheets come from our own static
folder on disk, fonts from the machine (DejaVu Sans or the system sans-serif),
and every other URL is refused.
"""

from __future__ import annotations

import atexit
import gc
import hashlib
import logging
import mimetypes
import os
import threading
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

# Without Pango the rest of the app still works; only the PDF says what to install.
try:
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse
except OSError as exc:  # cffi could not load libpango / libpangoft2 / fontconfig
    MISSING_LIBRARIES: str | None = str(exc)
    URLFetcher = object  # type: ignore[assignment,misc]
else:
    MISSING_LIBRARIES = None
INSTALL_HINT = (
    "PDF export needs Pango and a font: "
    "apt-get install libpango-1.0-0 libpangoft2-1.0-0 fontconfig fonts-dejavu-core"
)

# The document's base URL. It is never resolved: the fetcher below maps its
# /static/ paths to files on disk, so the sheet templates can use url_for().
BASE_URL = "http://scorekeeper.invalid/"
PAPER_SIZES = {"a4": "A4", "letter": "letter"}
# print.css is given to WeasyPrint as a user stylesheet: it is parsed once,
# it replaces app.css as the base for paper (page rules, sizes in pt, the
# colours as CSS variables), and the variant's own stylesheet, linked by its
# sheet template, still wins over it as author CSS.
STYLESHEETS = ("print.css",)

_render_lock = threading.Lock()  # one render at a time: Pango and fontconfig are shared
# How long a request waits for another table's render before giving up (seconds).
WAIT_FOR_RENDER = 10
# Recently rendered PDFs by content: asking again for an unchanged sheet (the
# phone's viewer reloading it, sharing it after looking at it) costs no render.
CACHE_SIZE = 32
_rendered: OrderedDict[str, bytes] = OrderedDict()
_cache_lock = threading.Lock()


class RefusedURL(ValueError):
    """A URL the PDF may not load: anything but our own static files."""


class PdfUnavailable(RuntimeError):
    """WeasyPrint's system libraries are missing on this machine."""


class PdfBusy(RuntimeError):
    """Another PDF is being made and did not finish within WAIT_FOR_RENDER."""


class StaticFetcher(URLFetcher):
    """Serves BASE_URL/static/… from the static folder on disk and refuses any other URL."""

    def __init__(self, static_folder: str | Path, static_url_path: str = "/static"):
        super().__init__(allowed_protocols=("http", "data"), allow_redirects=False)
        self.root = Path(static_folder).resolve()
        self.prefix = static_url_path.rstrip("/") + "/"
        self.origin = urlsplit(BASE_URL)

    def fetch(self, url: str, headers: Any = None) -> URLFetcherResponse:
        parts = urlsplit(url)
        if parts.scheme == "data":  # inline in the document, never a download
            return super().fetch(url, headers)
        if (parts.scheme, parts.netloc) != (self.origin.scheme, self.origin.netloc) or not (
            parts.path.startswith(self.prefix)
        ):
            raise RefusedURL(f"not loading {url}: a PDF uses only our own static files")
        path = (self.root / unquote(parts.path[len(self.prefix) :])).resolve()
        if not path.is_relative_to(self.root) or not path.is_file():
            raise RefusedURL(f"not loading {url}: no such static file")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


@lru_cache(maxsize=1)
def _font_config() -> FontConfiguration:
    # No @font-face anywhere, so one configuration serves every render.
    return FontConfiguration()


@lru_cache(maxsize=8)
def _stylesheet(static_folder: str, name: str, mtime: float) -> CSS:
    """Parsed once per file version (mtime in the key: an edited file is re-read)."""
    return CSS(
        string=(Path(static_folder) / name).read_text(encoding="utf-8"),
        base_url=f"{BASE_URL}static/{name}",
        url_fetcher=StaticFetcher(static_folder),
        font_config=_font_config(),
    )


@lru_cache(maxsize=len(PAPER_SIZES))
def _paper(size: str) -> CSS:
    return CSS(string=f"@page {{ size: {size} }}", font_config=_font_config())


def stylesheets(static_folder: str | Path, paper: str = "a4") -> list[CSS]:
    """print.css and the paper size, parsed once and reused."""
    sheets = []
    for name in STYLESHEETS:
        mtime = (Path(static_folder) / name).stat().st_mtime
        sheets.append(_stylesheet(str(static_folder), name, mtime))
    sheets.append(_paper(PAPER_SIZES[paper]))
    return sheets


class _DanglingHandLinks(logging.Filter):
    """The shared sheet templates link each hand number to #hand-N, which only
    the appendix defines; without it those links simply go nowhere."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.msg == "No anchor #%s for internal URI reference"
            and str(record.args and record.args[0]).startswith("hand-")
        )


logging.getLogger("weasyprint").addFilter(_DanglingHandLinks())


def write_pdf(html: str, static_folder: str | Path, paper: str = "a4") -> bytes:
    """Render an HTML document (from templates/pdf/) to PDF bytes."""
    if MISSING_LIBRARIES is not None:
        raise PdfUnavailable(f"{INSTALL_HINT} ({MISSING_LIBRARIES})")
    if paper not in PAPER_SIZES:
        raise ValueError(f"paper: {paper!r} is not one of {', '.join(PAPER_SIZES)}")
    with _rendering():
        return _render(html, static_folder, paper)


@contextmanager
def _rendering() -> Iterator[None]:
    """The render lock, waited for at most WAIT_FOR_RENDER seconds (then PdfBusy)."""
    if not _render_lock.acquire(timeout=WAIT_FOR_RENDER):
        raise PdfBusy("another PDF is being made")
    try:
        yield
    finally:
        _render_lock.release()


def _render(html: str, static_folder: str | Path, paper: str) -> bytes:
    document = HTML(string=html, base_url=BASE_URL, url_fetcher=StaticFetcher(static_folder))
    return document.write_pdf(
        stylesheets=stylesheets(static_folder, paper), font_config=_font_config()
    )


def sheet_key(html: str, static_folder: str | Path, paper: str) -> str:
    """What a PDF depends on: its HTML, the paper and the stylesheets' versions."""
    digest = hashlib.sha256(f"{paper}\n".encode())
    with os.scandir(static_folder) as entries:
        for entry in sorted(entries, key=lambda e: e.name):
            if entry.name.endswith(".css"):
                digest.update(f"{entry.name}:{entry.stat().st_mtime_ns}\n".encode())
    digest.update(html.encode("utf-8"))
    return digest.hexdigest()[:32]


def cached_pdf(html: str, static_folder: str | Path, paper: str = "a4") -> tuple[str, bytes]:
    """(key, PDF bytes): rendered once per distinct content, kept for the last few."""
    key = sheet_key(html, static_folder, paper)
    cached = _cached(key)
    if cached is not None:
        return key, cached
    if MISSING_LIBRARIES is not None or paper not in PAPER_SIZES:
        write_pdf(html, static_folder, paper)  # raises, saying what is wrong
    with _rendering():
        # Another phone may have asked for the same sheet while this one waited.
        cached = _cached(key)
        if cached is not None:
            return key, cached
        body = _render(html, static_folder, paper)
    with _cache_lock:
        _rendered[key] = body
        while len(_rendered) > CACHE_SIZE:
            _rendered.popitem(last=False)
    return key, body


def _cached(key: str) -> bytes | None:
    with _cache_lock:
        if key in _rendered:
            _rendered.move_to_end(key)
            return _rendered[key]
    return None


def clear_cache() -> None:
    with _cache_lock:
        _rendered.clear()


@atexit.register
def _release_fonts() -> None:
    # The cached FontConfiguration (directly and through the cached CSS) stays
    # reachable from the weasyprint logger's filter until the very end, and its
    # Pango font map's finalizer would then run after shutdown has unloaded
    # libpangoft2: a segfault on exit. Free them now, while Pango is loaded.
    clear_cache()
    _paper.cache_clear()
    _stylesheet.cache_clear()
    _font_config.cache_clear()
    gc.collect()
