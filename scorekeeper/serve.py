"""Serve the table app with waitress and say which address a phone can open."""

from __future__ import annotations

import socket


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


def serve(host: str = "0.0.0.0", port: int = 8000) -> int:
    from waitress import serve as waitress_serve

    from . import create_app

    app = create_app()
    print(f"Scorekeeper is running. Database: {app.config['DATABASE']}")
    print(f"  On this machine: http://127.0.0.1:{port}/")
    if host == "0.0.0.0":
        address = lan_address()
        if address:
            # The QR codes on the match page point here, even when this machine's
            # own browser opened the app on 127.0.0.1.
            app.config["SHARE_URL"] = f"http://{address}:{port}/"
            print(f"  On a phone on the same network: http://{address}:{port}/")
        else:
            print("  No local network address found; phones cannot reach this machine.")
    else:
        print("  Listening on this machine only (--local).")
    print("Stop with Ctrl+C.", flush=True)
    waitress_serve(app, host=host, port=port, threads=8)
    return 0
