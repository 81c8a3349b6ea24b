"""Serve the table app with waitress and say which address a phone can open."""

from __future__ import annotations

import io
import socket
import sys

import segno


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


def serve(host: str = "0.0.0.0", port: int = 8000, instance: str | None = None) -> int:
    """Serve the app on the instance folder `instance` (None: the default one)."""
    from waitress import serve as waitress_serve

    from . import InstanceUnwritable, create_app

    try:
        app = create_app(instance=instance)
    except InstanceUnwritable as exc:
        print(exc, file=sys.stderr)
        return 1
    print(f"Scorekeeper is running. Instance folder: {app.instance_path}")
    print(f"  Database: {app.config['DATABASE']}")
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
    try:
        waitress_serve(app, host=host, port=port, threads=8)
    except OSError as exc:
        print(f"Cannot listen on {host} port {port}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    return 0
