"""PDF export with WeasyPrint: the match page's sheet laid out for paper.

Nothing is fetched from the network: stylesheets come from our own static
folder on disk, fonts from the machine (DejaVu Sans, and for what it lacks any
font fontconfig finds: Noto Color Emoji and WenQuanYi Micro Hei once
scripts/setup.sh has run), and every other URL is refused. A character that no
font on the machine has is spelt out as its code point ("U+1F0A1") rather than
printed as an empty box.

Each PDF is laid out in a worker process of its own (one at a time, as before)
whose layout is stopped when it has used RENDER_SECONDS of CPU time (and which
is killed when the clock passes BUSY_SECONDS: a busy machine): the biggest
sheet (500 entries, every hand explained, long names spelt out as code points)
would otherwise hold the one render slot for minutes while every other table
waits. Such a sheet gets a clear "too large" answer instead, remembered for
its content so that asking again costs nothing.
"""

from __future__ import annotations

import atexit
import base64
import gc
import hashlib
import json
import logging
import mimetypes
import os
import pickle
import platform
import queue
import re
import signal
import subprocess
import sys
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from functools import lru_cache
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from .folders import StaticFolders

# Without Pango the rest of the app still works; only the PDF says what to install.
try:
    from weasyprint import CSS, HTML
    from weasyprint import html as weasyprint_html
    from weasyprint.css.counters import CounterStyle
    from weasyprint.text.fonts import FontConfiguration
    from weasyprint.urls import URLFetcher, URLFetcherResponse
except OSError as exc:  # cffi could not load libpango / libpangoft2 / fontconfig
    MISSING_LIBRARIES: str | None = str(exc)
    URLFetcher = object  # type: ignore[assignment,misc]
    HTML = object  # type: ignore[assignment,misc]
else:
    MISSING_LIBRARIES = None
INSTALL_HINT = (
    "PDF export needs Pango and a font: "
    "apt-get install libpango-1.0-0 libpangoft2-1.0-0 fontconfig fonts-dejavu-core"
    " fonts-noto-color-emoji fonts-wqy-microhei"
)
# What to install elsewhere, after WeasyPrint's own installation notes ("First
# Steps", the version we pin): its Pango (1.44 or later) through the system's
# packages; on Windows MSYS2's, in the folder WeasyPrint looks in by default.
OTHER_HINTS = {
    "fedora": "PDF export needs Pango: dnf install pango",
    "arch": "PDF export needs Pango: pacman -S pango",
    "alpine": "PDF export needs Pango: apk add so:libpango-1.0.so.0 so:libpangoft2-1.0.so.0"
    " so:libharfbuzz.so.0 so:libharfbuzz-subset.so.0 so:libfontconfig.so.1",
    "Darwin": "PDF export needs Pango: install Homebrew (brew.sh), then run: brew install pango",
    "Windows": "PDF export needs Pango: install MSYS2 (msys2.org) in C:\\msys64, its usual"
    " folder, then in its terminal run: pacman -S mingw-w64-ucrt-x86_64-pango",
}
GENERIC_HINT = (
    "PDF export needs Pango 1.44 or later: install it with this system's packages"
    " (WeasyPrint's installation notes name them for each system)"
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

_render_lock = threading.Lock()  # one render at a time: one worker, and the machine's cores
# How long a request waits for another table's render before giving up (seconds).
WAIT_FOR_RENDER = 10
# The most layout one render may cost (seconds of the worker's own CPU time,
# where the system can count it: not Windows): past it the sheet is "too large",
# remembered for its content. A 3-rubber sheet costs about 0.25 s; 500 entries
# without explanations 1.3 s, a full season's ledger or statistics about 3 s.
RENDER_SECONDS = 8.0
# The most one render may hold the render slot on the clock (seconds): a machine
# busy with other work (loaded 9 deep on 2 cores, the season's ledger took 20 s
# for its 2.7 s of layout) then answers "try again", never "too large", and the
# worker is replaced. Where CPU time cannot be counted, RENDER_SECONDS is the
# clock's limit too, and "too large" as before.
BUSY_SECONDS = 24.0
# The most HTML one render is given (characters, after spelling out the
# characters no font has): far above any evening, refused without trying.
MAX_HTML_CHARS = 2_000_000
MAX_PDF_BYTES = 32 * 1024 * 1024  # what one answer may weigh
# How long a fresh worker may take to start (imports, fonts) before the PDF is "not yet".
START_SECONDS = 60.0
# Recently rendered PDFs by content: asking again for an unchanged sheet (the
# phone's viewer reloading it, sharing it after looking at it) costs no render.
CACHE_SIZE = 32
_rendered: OrderedDict[str, bytes] = OrderedDict()
_too_costly: OrderedDict[str, str] = OrderedDict()  # key -> why it was refused
_cache_lock = threading.Lock()


def install_hint(system: str | None = None, release: dict[str, str] | None = None) -> str:
    """What to install for the PDF on the machine the server runs on: by
    `platform.system()` and, on Linux, the distribution /etc/os-release names."""
    system = platform.system() if system is None else system
    if system != "Linux":
        return OTHER_HINTS.get(system, GENERIC_HINT)
    release = _os_release() if release is None else release
    family = [release.get("ID", ""), *release.get("ID_LIKE", "").split()]
    if "debian" in family or "ubuntu" in family:
        return INSTALL_HINT
    for name in family:
        if name in OTHER_HINTS:
            return OTHER_HINTS[name]
    return GENERIC_HINT


def _os_release() -> dict[str, str]:
    try:
        return platform.freedesktop_os_release()
    except OSError:
        return {}


def unavailable() -> str | None:
    """Why no PDF can be made here, with what to install; None when it can."""
    return None if MISSING_LIBRARIES is None else install_hint()


class RefusedURL(ValueError):
    """A URL the PDF may not load: anything but our own static files."""


class PdfUnavailable(RuntimeError):
    """WeasyPrint's system libraries are missing on this machine."""


class PdfBusy(RuntimeError):
    """Another PDF is being made and did not finish within WAIT_FOR_RENDER."""


class PdfTooCostly(RuntimeError):
    """This sheet is too large to lay out within RENDER_SECONDS (or MAX_HTML_CHARS)."""


class PdfFailed(RuntimeError):
    """The worker could not make the PDF: WeasyPrint's own error, said in words."""


def static_folders(static: StaticFolders | str | Path) -> StaticFolders:
    """The static folders: the shared one alone when given a folder."""
    return static if isinstance(static, StaticFolders) else StaticFolders(str(static))


class StaticFetcher(URLFetcher):
    """Serves BASE_URL/static/… from the static folders on disk (the shared one and
    the games', scorekeeper/folders.py) and refuses any other URL."""

    def __init__(self, static: StaticFolders | str | Path, static_url_path: str = "/static"):
        super().__init__(allowed_protocols=("http", "data"), allow_redirects=False)
        self.folders = static_folders(static)
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
        path = self.folders.find(unquote(parts.path[len(self.prefix) :]))
        if path is None:
            raise RefusedURL(f"not loading {url}: no such static file")
        mime = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        return URLFetcherResponse(url, path.read_bytes(), {"Content-Type": mime})


@lru_cache(maxsize=1)
def _font_config() -> FontConfiguration:
    # No @font-face anywhere, so one configuration serves every render.
    return FontConfiguration()


@lru_cache(maxsize=8)
def _stylesheet(folders: StaticFolders, name: str, mtime: float) -> CSS:
    """Parsed once per file version (mtime in the key: an edited file is re-read)."""
    return CSS(
        string=(Path(folders.shared) / name).read_text(encoding="utf-8"),
        base_url=f"{BASE_URL}static/{name}",
        url_fetcher=StaticFetcher(folders),
        font_config=_font_config(),
    )


@lru_cache(maxsize=len(PAPER_SIZES))
def _paper(size: str) -> CSS:
    return CSS(string=f"@page {{ size: {size} }}", font_config=_font_config())


def stylesheets(static: StaticFolders | str | Path, paper: str = "a4") -> list[CSS]:
    """print.css and the paper size, parsed once and reused."""
    folders = static_folders(static)
    sheets = []
    for name in STYLESHEETS:
        mtime = (Path(folders.shared) / name).stat().st_mtime
        sheets.append(_stylesheet(folders, name, mtime))
    sheets.append(_paper(PAPER_SIZES[paper]))
    return sheets


# WeasyPrint's stylesheet for HTML styles the ::marker, ::footnote-call,
# ::footnote-marker, ::note-call, ::note-marker and ::note-callback of every
# element, so each element of a sheet has six pseudo-elements' styles computed,
# most of the time of applying CSS. Only a list item has a marker, and no paper
# of ours has footnotes or notes: the same stylesheet with those rules narrowed
# to li::marker and left out prints the same pages.
_UNUSED_PSEUDO = re.compile(r"^::(?:footnote|note)-[a-z]+ \{[^}\n]*\}$", re.M)


def paper_ua(stylesheet: str) -> str:
    """WeasyPrint's HTML stylesheet without the rules no paper of ours uses."""
    return _UNUSED_PSEUDO.sub("", stylesheet.replace("\n::marker {", "\nli::marker {"))


@lru_cache(maxsize=1)
def _paper_ua_stylesheet() -> CSS:
    # Its @counter-style rules are WeasyPrint's own, which every document already
    # has (HTML._ua_counter_style): read here into a counter style of their own.
    return CSS(string=paper_ua(weasyprint_html.UA), counter_style=CounterStyle())


class PaperHTML(HTML):
    """A sheet's HTML, styled by the narrowed stylesheet (WeasyPrint asks each
    document for its user-agent stylesheets through this method)."""

    def _ua_stylesheets(self, forms: bool = False) -> list[CSS]:
        return [_paper_ua_stylesheet()]


def svg_data_uri(svg: str) -> str:
    """An SVG drawing as an image's address: WeasyPrint then draws it from the SVG
    alone, without laying out each of its elements as part of the HTML first."""
    return "data:image/svg+xml;base64," + base64.b64encode(svg.strip().encode()).decode()


class _DanglingHandLinks(logging.Filter):
    """The shared sheet templates link each hand number to #hand-N, which only
    the appendix defines; without it those links simply go nowhere."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (
            record.msg == "No anchor #%s for internal URI reference"
            and str(record.args and record.args[0]).startswith("hand-")
        )


logging.getLogger("weasyprint").addFilter(_DanglingHandLinks())


def write_pdf(html: str, static_folder: StaticFolders | str | Path, paper: str = "a4") -> bytes:
    """Render an HTML document (from templates/pdf/) to PDF bytes."""
    if MISSING_LIBRARIES is not None:
        raise PdfUnavailable(f"{install_hint()} ({MISSING_LIBRARIES})")
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


def _render(html: str, static_folder: StaticFolders | str | Path, paper: str) -> bytes:
    """The PDF of `html`, made by the worker within RENDER_SECONDS (or PdfTooCostly)."""
    if len(html) > MAX_HTML_CHARS:
        raise PdfTooCostly(f"the sheet is {len(html):,} characters of HTML")
    return _the_worker().render(html, static_folders(static_folder), paper, RENDER_SECONDS)


def _render_here(html: str, static_folder: StaticFolders | str | Path, paper: str) -> bytes:
    """The layout itself, in this process: what the worker runs."""
    html = spell_out_missing(html)
    if len(html) > MAX_HTML_CHARS:  # spelt out, a name can be seven times as long
        raise PdfTooCostly(f"the sheet is {len(html):,} characters of HTML, spelt out")
    document = PaperHTML(string=html, base_url=BASE_URL, url_fetcher=StaticFetcher(static_folder))
    return document.write_pdf(
        stylesheets=stylesheets(static_folder, paper), font_config=_font_config()
    )


# --- the worker process --------------------------------------------------------
# A thread cannot be stopped halfway through a WeasyPrint layout; a process can.
# The worker is a fresh interpreter (never a fork of a server with threads, and
# never a re-run of the server's own main script, as multiprocessing's "spawn"
# would do) that loads WeasyPrint and the fonts once and then lays out one sheet
# after another: warm, a render costs what it cost in-process. Requests and
# answers are pickles on its stdin and stdout. When a render runs past its time
# the worker is killed and a new one started at once, so it is warm again by the
# time the next phone asks.

# The worker imports exactly what the server imported: the server's sys.path, in order.
_WORKER_MAIN = (
    "import json, sys; sys.path[:] = json.loads(sys.argv[1]);"
    " from scorekeeper.pdf import serve_renders; serve_renders()"
)


class _Collected(logging.Handler):
    """WeasyPrint's warnings in the worker, sent back with the answer."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[tuple[int, str]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append((record.levelno, record.getMessage()))


def serve_renders() -> None:
    """The worker's loop: (html, static folder, paper, CPU seconds) in, ("pdf",
    bytes, warnings) out; "out of time" when the layout used up its CPU seconds."""
    # Ctrl-C at the server's terminal reaches the whole process group: the
    # worker leaves when the server closes its end of the pipe, not before.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    answers = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)  # anything printed goes to the log, never into the answers
    sys.stdout = sys.stderr
    asked_for = sys.stdin.buffer
    collected = _Collected()
    weasyprint_log = logging.getLogger("weasyprint")
    weasyprint_log.addHandler(collected)
    weasyprint_log.propagate = False  # said once, by the server that asked
    pickle.dump(("ready",), answers)
    answers.flush()
    settled = False
    while True:
        try:
            asked = pickle.load(asked_for)
        except (EOFError, OSError, pickle.UnpicklingError):  # the server is gone
            return
        if asked is None:
            return
        collected.lines = []
        html, static_folder, paper, seconds = asked
        try:
            with _cpu_limit(seconds):
                answer: tuple = ("pdf", _render_here(html, static_folder, paper), collected.lines)
        except _OutOfCpu:
            answer = ("out of time", f"laying it out took more than {seconds:g} s", collected.lines)
        except PdfTooCostly as exc:
            answer = ("too costly", str(exc), collected.lines)
        except Exception as exc:  # noqa: BLE001 - said to the server, which decides
            answer = ("failed", f"{type(exc).__name__}: {exc}", collected.lines)
        pickle.dump(answer, answers, protocol=pickle.HIGHEST_PROTOCOL)
        answers.flush()
        if not settled and answer[0] == "pdf":
            settled = _settle_garbage_collector()


# A layout makes hundreds of thousands of short-lived objects, and Python's
# cyclic garbage collector, counting them, would walk the worker's whole heap
# (WeasyPrint, Pango's fonts, the parsed stylesheets) again and again during
# one sheet: about a tenth of the sheet's time. After the first sheet (when the
# fonts and stylesheets are loaded) what the worker keeps is frozen out of the
# collector's sight, and it looks for cycles less often.
GC_THRESHOLD = 20_000  # new objects between two young collections (Python's default: 700)


def _settle_garbage_collector() -> bool:
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    return True


# The worker's CPU time is counted by the system's profiling timer (Unix).
CPU_COUNTED = hasattr(signal, "setitimer") and hasattr(signal, "SIGPROF")


class _OutOfCpu(BaseException):
    """The render used up its CPU time (a BaseException: nothing in WeasyPrint
    that catches Exception to carry on may swallow it)."""


def _out_of_cpu(signum: int, frame: Any) -> None:
    raise _OutOfCpu


@contextmanager
def _cpu_limit(seconds: float) -> Iterator[None]:
    """Raise _OutOfCpu inside the block once this process has used `seconds` of CPU."""
    if not CPU_COUNTED:
        yield
        return
    signal.signal(signal.SIGPROF, _out_of_cpu)
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)


class _Worker:
    """One worker process, and a thread that reads its answers into a queue."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _WORKER_MAIN, json.dumps(sys.path)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        self.answers: queue.Queue[tuple | None] = queue.Queue()
        threading.Thread(target=self._read, name="pdf-worker-answers", daemon=True).start()
        self.ready = False

    def _read(self) -> None:
        out = self.process.stdout
        try:
            while True:
                self.answers.put(pickle.load(out))  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - EOF: killed, crashed or stopped
            self.answers.put(None)

    def wait_ready(self, seconds: float) -> bool:
        if not self.ready:
            with suppress(queue.Empty):
                self.ready = self.answers.get(timeout=seconds) == ("ready",)
        return self.ready

    def render(self, html: str, static_folder: StaticFolders, paper: str, seconds: float) -> bytes:
        if not self.wait_ready(START_SECONDS):
            _replace_worker()
            raise PdfBusy("the PDF maker is starting")
        asked = (html, static_folder, paper, seconds)
        try:
            pickle.dump(asked, self.process.stdin)  # type: ignore[arg-type]
            self.process.stdin.flush()  # type: ignore[union-attr]
            answer = self.answers.get(timeout=BUSY_SECONDS if CPU_COUNTED else seconds)
        except queue.Empty:
            _replace_worker()
            if CPU_COUNTED:  # its CPU time was not used up: the machine is busy
                raise PdfBusy("the machine is too busy to finish it now") from None
            raise PdfTooCostly(f"laying it out took more than {seconds:g} s") from None
        except OSError:  # its end of the pipe is closed: it died
            answer = None
        if answer is None:  # out of memory, a crash in a library
            _replace_worker()
            raise PdfFailed("the PDF maker stopped")
        kind, body, warnings = answer
        log = logging.getLogger("weasyprint")
        for level, message in warnings:
            log.log(level, "%s", message)
        if kind == "out of time":
            _replace_worker()  # stopped halfway through a layout: start afresh
        if kind in ("too costly", "out of time"):
            raise PdfTooCostly(body)
        if kind != "pdf":
            raise PdfFailed(body)
        if len(body) > MAX_PDF_BYTES:
            raise PdfTooCostly(f"the PDF is {len(body) // (1024 * 1024)} MB")
        return body

    def kill(self) -> None:
        self.process.kill()
        self.process.wait()
        self._close()

    def stop(self, seconds: float = 5.0) -> None:
        """Let it finish on its own (it frees its fonts at exit), or kill it."""
        try:
            self.process.stdin.close()  # type: ignore[union-attr]
            self.process.wait(seconds)
        except (OSError, subprocess.TimeoutExpired):
            self.process.kill()
            self.process.wait()
        self._close()

    def _close(self) -> None:
        for pipe in (self.process.stdin, self.process.stdout):
            with suppress(OSError):
                pipe.close()  # type: ignore[union-attr]


_worker: _Worker | None = None


def _the_worker() -> _Worker:
    """The running worker (started on first use); call with the render lock held."""
    global _worker
    if _worker is not None and _worker.process.poll() is not None:
        _worker.kill()  # it died between two sheets: its pipes go with it
        _worker = None
    if _worker is None:
        _worker = _Worker()
    return _worker


def _replace_worker() -> None:
    """Kill the worker and start its successor now, so it warms up while nobody waits."""
    global _worker
    if _worker is not None:
        _worker.kill()
    _worker = _Worker()


# --- characters no font on this machine has ----------------------------------
# A name can hold anything a phone shows. Pango draws a character DejaVu Sans
# lacks with any font fontconfig knows that has it (a colour one for emoji); a
# character no font has would print as .notdef, an empty box. Such characters
# are spelt out instead, each run of them in one <span class="code-point">:
# "U+1F0A1 U+1F0CF". Fontconfig is asked once which characters its fonts have.

_FONTCONFIG = """
typedef int FcBool;
typedef unsigned int FcChar32;
typedef unsigned char FcChar8;
typedef enum { FcResultMatch, FcResultNoMatch, FcResultTypeMismatch, FcResultNoId,
               FcResultOutOfMemory } FcResult;
typedef struct _FcPattern FcPattern;
typedef struct _FcObjectSet FcObjectSet;
typedef struct _FcCharSet FcCharSet;
typedef struct _FcFontSet { int nfont; int sfont; FcPattern **fonts; } FcFontSet;
FcPattern *FcPatternCreate(void);
void FcPatternDestroy(FcPattern *p);
FcObjectSet *FcObjectSetCreate(void);
FcBool FcObjectSetAdd(FcObjectSet *os, const char *object);
void FcObjectSetDestroy(FcObjectSet *os);
FcFontSet *FcFontList(void *config, FcPattern *p, FcObjectSet *os);
void FcFontSetDestroy(FcFontSet *s);
FcResult FcPatternGetString(const FcPattern *p, const char *object, int n, FcChar8 **s);
FcResult FcPatternGetCharSet(const FcPattern *p, const char *object, int n, FcCharSet **c);
FcCharSet *FcCharSetCreate(void);
FcBool FcCharSetMerge(FcCharSet *a, const FcCharSet *b, FcBool *changed);
FcBool FcCharSetHasChar(const FcCharSet *fcs, FcChar32 ucs4);
"""
_FONTCONFIG_NAMES = (
    "libfontconfig.so.1", "libfontconfig.1.dylib", "libfontconfig-1.dll", "fontconfig"
)  # fmt: skip
# The outline formats Pango draws (since 1.44 it skips Type 1 and bitmap fonts,
# which fontconfig still lists: URW's Type 1 Standard Symbols has U+F8FF).
_PANGO_FORMATS = (b"TrueType", b"CFF")
# Variation selectors and the combining grapheme joiner: default-ignorable like
# the format characters (Cf: joiners, bidi marks, tags), never drawn by Pango.
_INVISIBLE_MARKS = ((0x034F, 0x034F), (0x180B, 0x180F), (0xFE00, 0xFE0F), (0xE0100, 0xE01EF))


@lru_cache(maxsize=1)
def _coverage() -> Callable[[int], bool] | None:
    """Whether some font Pango can use has a code point: fontconfig asked once.

    None when libfontconfig cannot be loaded (then nothing is spelt out).
    """
    from cffi import FFI  # WeasyPrint's own dependency, as is libfontconfig

    ffi = FFI()
    ffi.cdef(_FONTCONFIG)
    for name in _FONTCONFIG_NAMES:
        try:
            fontconfig = ffi.dlopen(name)
            break
        except OSError:
            continue
    else:
        logging.getLogger(__name__).warning("libfontconfig not found: no glyph check")
        return None
    # Kept for the life of the process, like fontconfig's own cache: a few kB.
    union = fontconfig.FcCharSetCreate()
    pattern, objects = fontconfig.FcPatternCreate(), fontconfig.FcObjectSetCreate()
    for name in (b"fontformat", b"charset"):
        fontconfig.FcObjectSetAdd(objects, name)
    fonts = fontconfig.FcFontList(ffi.NULL, pattern, objects)
    try:
        found, charset = ffi.new("FcChar8 **"), ffi.new("FcCharSet **")
        for i in range(fonts.nfont if fonts != ffi.NULL else 0):
            font = fonts.fonts[i]
            if (
                fontconfig.FcPatternGetString(font, b"fontformat", 0, found) == 0
                and ffi.string(found[0]) in _PANGO_FORMATS
                and fontconfig.FcPatternGetCharSet(font, b"charset", 0, charset) == 0
            ):
                fontconfig.FcCharSetMerge(union, charset[0], ffi.NULL)
    finally:
        if fonts != ffi.NULL:
            fontconfig.FcFontSetDestroy(fonts)
        fontconfig.FcObjectSetDestroy(objects)
        fontconfig.FcPatternDestroy(pattern)
    return lambda code_point: bool(fontconfig.FcCharSetHasChar(union, code_point))


def _invisible(char: str) -> bool:
    """A default-ignorable character (ZWJ, VS16, a bidi mark…): no glyph to miss."""
    code_point = ord(char)
    return unicodedata.category(char) == "Cf" or any(
        low <= code_point <= high for low, high in _INVISIBLE_MARKS
    )


@lru_cache(maxsize=4096)
def can_draw(char: str) -> bool:
    """True when some font on this machine has `char` (or it is never drawn)."""
    covered = _coverage()
    return covered is None or covered(ord(char)) or _invisible(char)


def code_points(text: str) -> str:
    """'🂡\u200d🃏' -> 'U+1F0A1 U+1F0CF': what prints where no font has a character."""
    return " ".join(f"U+{ord(char):04X}" for char in text if not _invisible(char))


def _one_of(chars: set[str]) -> str:
    return f"[{re.escape(''.join(sorted(chars)))}]"


# Markup is kept as it is: tags (with their attribute values), comments, and
# the <title>, <style> and <script> elements, whose text is never drawn.
_MARKUP = re.compile(r"<(title|style|script)\b.*?</\1\s*>|<!--.*?-->|<[^>]*>", re.S | re.I)


def spell_out_missing(html: str, drawable: Callable[[str], bool] = can_draw) -> str:
    """`html` with each run of characters no font has spelt out as code points.

    A run takes along the invisible characters inside and after it (the ZWJ of
    an emoji sequence, its VS16). Plain ASCII is never looked up; a document
    whose characters all print is returned as it is.
    """
    present = {char for char in set(html) if char > "\x7f"}
    missing = {char for char in present if not drawable(char)}
    if not missing:
        return html
    invisible = {char for char in present if _invisible(char)}
    run = re.compile(f"{_one_of(missing)}{_one_of(missing | invisible)}*")

    def spelt(found: re.Match[str]) -> str:
        return f'<span class="code-point">{code_points(found.group())}</span>'

    pieces, start = [], 0
    for markup in _MARKUP.finditer(html):
        pieces += [run.sub(spelt, html[start : markup.start()]), markup.group()]
        start = markup.end()
    pieces.append(run.sub(spelt, html[start:]))
    return "".join(pieces)


def sheet_key(html: str, static_folder: StaticFolders | str | Path, paper: str) -> str:
    """What a PDF depends on: its HTML, the paper and the stylesheets' versions
    (the shared ones and the games')."""
    digest = hashlib.sha256(f"{paper}\n".encode())
    for path in static_folders(static_folder).stylesheets():
        digest.update(f"{path}:{path.stat().st_mtime_ns}\n".encode())
    digest.update(html.encode("utf-8"))
    return digest.hexdigest()[:32]


def cached_pdf(
    html: str, static_folder: StaticFolders | str | Path, paper: str = "a4"
) -> tuple[str, bytes]:
    """(key, PDF bytes): rendered once per distinct content, kept for the last few.

    A sheet found too costly is remembered too: asking again answers at once.
    """
    key = sheet_key(html, static_folder, paper)
    cached = _cached(key)
    if cached is not None:
        return key, cached
    if MISSING_LIBRARIES is not None or paper not in PAPER_SIZES:
        write_pdf(html, static_folder, paper)  # raises, saying what is wrong
    _refuse_again(key)
    with _rendering():
        # Another phone may have asked for the same sheet while this one waited.
        cached = _cached(key)
        if cached is not None:
            return key, cached
        _refuse_again(key)
        try:
            body = _render(html, static_folder, paper)
        except PdfTooCostly as exc:
            with _cache_lock:
                _too_costly[key] = str(exc)
                while len(_too_costly) > CACHE_SIZE:
                    _too_costly.popitem(last=False)
            raise
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


def _refuse_again(key: str) -> None:
    with _cache_lock:
        reason = _too_costly.get(key)
    if reason is not None:
        raise PdfTooCostly(reason)


def clear_cache() -> None:
    with _cache_lock:
        _rendered.clear()
        _too_costly.clear()


@atexit.register
def _release_fonts() -> None:
    # The cached FontConfiguration (directly and through the cached CSS) stays
    # reachable from the weasyprint logger's filter until the very end, and its
    # Pango font map's finalizer would then run after shutdown has unloaded
    # libpangoft2: a segfault on exit. Free them now, while Pango is loaded.
    global _worker
    if _worker is not None:
        _worker.stop()
        _worker = None
    clear_cache()
    _paper.cache_clear()
    _stylesheet.cache_clear()
    _paper_ua_stylesheet.cache_clear()
    _font_config.cache_clear()
    gc.collect()
