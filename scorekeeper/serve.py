"""Serve the table app with waitress and say which address a phone can open."""

from __future__ import annotations

import contextlib
import gc
import io
import socket
import sys
from pathlib import Path
from typing import Any

import segno

from .instance import instance_folder
from .safekeeping import BACKUP_FOLDER, DEFAULT_INTERVAL, Keeper, serving

# waitress as a club evening needs it (docs/running.md, "How many phones"):
# - every phone keeps a keep-alive connection or two and polls every 2 s, so
#   the default limit of 100 connections freezes a room of 40 tables; 1000
#   open sockets need poll() (select() stops at descriptor 1023);
# - an idle socket (a phone asleep, a closed tab) is dropped after 30 s instead
#   of 120 s: far longer than the 2 s between two polls of a phone awake;
# - a body over the app's own limit (MAX_CONTENT_LENGTH, 2 MB; see
#   `waitress_settings`) is refused before waitress spools it to disk (its
#   default is 1 GB);
# - a request's header lines are bounded to 64 kB (the cookies of a phone are
#   a few kB), so a client dripping a header line every few seconds is cut off
#   after at most 64 kB instead of 256 kB;
# - 8 threads carry 200 phones (benchmarks/bench_club.py); more do not help on
#   a 2-core machine, where one process is bound by Python's one core at a time.
WAITRESS: dict[str, Any] = {
    "threads": 8,
    "connection_limit": 1000,
    "asyncore_use_poll": True,
    "channel_timeout": 30,
    "cleanup_interval": 10,
    "max_request_header_size": 64 * 1024,
}


def waitress_settings(app) -> dict[str, Any]:
    """The waitress settings `scorekeeper serve` runs `app` with."""
    most = max(app.config["MAX_CONTENT_LENGTH"], app.config["MAX_GROUP_FILE_REQUEST"])
    return {**WAITRESS, "max_request_body_size": most}


def room_for_connections(connections: int) -> None:
    """Raise this process's limit of open files to fit `connections` sockets and
    the store's files, as far as the hard limit allows (a systemd service starts
    with a soft limit of 1024)."""
    try:
        import resource
    except ImportError:  # not on Unix
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = connections + 100
    if soft == resource.RLIM_INFINITY or soft >= wanted:
        return
    if hard != resource.RLIM_INFINITY:
        wanted = min(wanted, hard)
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))


def out_of_the_collectors_sight() -> None:
    """What the app loaded (its modules, Jinja's and Babel's tables: some 100 000
    objects) stays for as long as the server runs, yet Python's cyclic collector
    walked it all on each full collection, holding every answer in the room
    meanwhile (a page drawn after a change took twice its usual time once in
    twenty). Frozen (`gc.freeze`), it is left out of every collection; what the
    phones' requests make is collected as before."""
    gc.collect()
    gc.freeze()


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent)."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = probe.getsockname()[0]
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def address_qr(url: str, *, colours: bool = False) -> str:
    """`url` as a QR code drawn with half blocks, for the terminal beside the address:
    the first phone joins with one scan. segno draws light modules as blocks on the
    terminal's dark background; `colours` forces white on black (ANSI) so a light
    terminal shows the code the right way round too."""
    text = io.StringIO()
    segno.make(url, error="m").terminal(out=text, compact=True)
    lines = text.getvalue().splitlines()
    if colours:
        lines = [f"\033[97;40m{line}\033[0m" for line in lines]
    return "\n".join(lines)


def print_scannable(words: str, url: str) -> None:
    """The address a phone opens, then its QR code when the output can show it."""
    code = address_qr(url, colours=sys.stdout.isatty())
    try:  # a Windows console on a legacy code page has no half blocks: the address alone
        code.encode(sys.stdout.encoding or "ascii")
    except (UnicodeEncodeError, LookupError):
        print(f"{words} {url}")
        return
    print(f"{words} {url} (or scan the code below)")
    print(code)


def serve(
    host: str = "0.0.0.0",
    port: int = 8000,
    instance: str | None = None,
    backup_interval: int = DEFAULT_INTERVAL,
) -> int:
    """Serve the app on the instance folder `instance` (None: the default one),
    backing up its store every `backup_interval` seconds after changes (0: never)."""
    folder = instance_folder(instance)
    with contextlib.suppress(OSError):  # a folder it cannot make: create_app says so
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    with serving(folder):  # `scorekeeper restore` waits for no server on the folder
        return _serve(host, port, folder, backup_interval)


def _serve(host: str, port: int, instance: Path, backup_interval: int) -> int:
    from waitress import serve as waitress_serve

    from .app import create_app
    from .instance import InstanceUnwritable

    try:
        app = create_app(instance=instance)
    except InstanceUnwritable as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"Scorekeeper is running. Instance folder: {app.instance_path}")
    print(f"  Database: {app.config['DATABASE']}")
    keeper = None
    backups = instance / BACKUP_FOLDER
    if backup_interval:
        keeper = Keeper(app.config["DATABASE"], backups, backup_interval)
        print(f"  Backups: into {backups} after changes, at most every {every(backup_interval)}.")
        keeper.start()
    else:
        print("  Automatic backups are off (--backup-interval 0).")
    if app.config["SESSION_COOKIE_SECURE"]:
        print(
            "  Cookies are sent over https only (SCOREKEEPER_SECURE_COOKIES):"
            " open the app through its https:// address, or no form can be saved."
        )
    if host == "0.0.0.0":
        print(
            f"  Listening on every network interface of this machine (0.0.0.0), port {port}:"
            " anyone on the same network can reach it, and each match opens only by its own"
            " address. Use --local to keep it on this machine."
        )
        print(f"  On this machine: http://127.0.0.1:{port}/")
        address = lan_address()
        if address:
            # The QR codes on the match page point here, even when this machine's
            # own browser opened the app on 127.0.0.1.
            app.config["SHARE_URL"] = f"http://{address}:{port}/"
            print_scannable("  On a phone on the same network:", f"http://{address}:{port}/")
        else:
            print("  No local network address found; phones cannot reach this machine.")
    elif host.startswith("127.") or host in ("localhost", "::1"):
        print(f"  Listening on this machine only ({host}), port {port} (--local).")
        print(f"  Open http://{host}:{port}/ here; phones cannot reach it.")
    else:
        print_scannable(f"  Listening on {host}, port {port} only:", f"http://{host}:{port}/")
    print("Stop with Ctrl+C.", flush=True)
    out_of_the_collectors_sight()
    try:
        room_for_connections(WAITRESS["connection_limit"])
        waitress_serve(app, host=host, port=port, **waitress_settings(app))
    except OSError as exc:
        print(f"Cannot listen on {host} port {port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    finally:
        if keeper is not None:
            keeper.stop()
    return 0


def every(seconds: int) -> str:
    """An interval as read: "hour", "2 hours", "10 minutes", "90 seconds"."""
    for unit, size in (("hour", 3600), ("minute", 60), ("second", 1)):
        if seconds % size == 0:
            count = seconds // size
            return unit if count == 1 else f"{count} {unit}s"
    return f"{seconds} seconds"
