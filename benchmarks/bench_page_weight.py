"""Page weight of the record-hand page of every variant: HTML + CSS + JS, in bytes,
as files and as sent to a phone (compressed, as Chromium asks over plain http).

Prints a figure per variant; the target is under 50 KB on the wire. Run:
    python benchmarks/bench_page_weight.py
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

from scorekeeper.app import create_app
from scorekeeper.games.catalog import VARIANTS

TARGET = 50 * 1024
# A stylesheet or script the page links, without its fingerprint (?v=…).
STATIC = rb'(?:href|src)="(/static/[^"?]+\.(?:css|js))(?:\?[^"]*)?"'
PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve"]
ON_THE_WIRE = {"Accept-Encoding": "gzip, deflate"}


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(
            {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(Path(tmp) / "weight.db")}
        )
        client = app.test_client()
        print(
            f"{'variant':18} {'html':>7} {'css':>7} {'js':>7} {'total':>8} {'wire':>7}"
            f"  target {TARGET} on the wire"
        )
        for cls in VARIANTS.values():
            players = PLAYERS[: max(cls.player_counts) if cls.id != "bridge-for-three" else 4]
            data = {"variant": cls.id, **{f"player{i}": p for i, p in enumerate(players, 1)}}
            started = client.post("/new", data=data)
            assert started.status_code == 302, started.status_code
            page = client.get(started.location)  # the first hand's form
            assert page.status_code == 200, page.status_code
            html = page.data
            sizes = {"css": 0, "js": 0}
            wire = len(client.get(started.location, headers=ON_THE_WIRE).data)
            for ref in re.findall(STATIC, html):
                kind = "css" if ref.endswith(b".css") else "js"
                sizes[kind] += len(client.get(ref.decode()).data)
                wire += len(client.get(ref.decode(), headers=ON_THE_WIRE).data)
            total = len(html) + sizes["css"] + sizes["js"]
            flag = "ok" if wire < TARGET else "OVER"
            print(
                f"{cls.id:18} {len(html):7} {sizes['css']:7} {sizes['js']:7} {total:8} {wire:7}"
                f"  {flag}"
            )


if __name__ == "__main__":
    main()
