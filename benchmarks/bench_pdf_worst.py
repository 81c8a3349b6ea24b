"""The worst PDF one table can ask for, and what another table waits meanwhile.

    python benchmarks/bench_pdf_worst.py [--entries 500]

The sheet: a rubber match of `--entries` hands (500, the most a match holds),
every hand explained (?appendix=1), four players whose 40-character names are
in a script no font here has, so each letter is printed as its code point
("U+0915"). A first, small PDF warms WeasyPrint up. Then the worst sheet is
asked for, and half a second later another table's 12-hand sheet: the script
prints each answer's status and time, the worst sheet asked again (its answer
remembered), and the same 500 hands without explanations. scorekeeper/pdf.py
bounds one render to RENDER_SECONDS; before that bound the worst sheet took
minutes and the other table got "No PDF yet" after 10 s.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import pdf  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.db import create_match, get_db  # noqa: E402
from scorekeeper.matchfile import from_document  # noqa: E402

NAME_LENGTH = 40


def renamed(value, names: dict[str, str]):
    if isinstance(value, dict):
        return {key: renamed(item, names) for key, item in value.items()}
    if isinstance(value, list):
        return [renamed(item, names) for item in value]
    return names.get(value, value) if isinstance(value, str) else value


def example(name: str) -> dict:
    return json.loads((ROOT / "examples" / f"{name}.json").read_text(encoding="utf-8"))


def worst_sheet(entries: int) -> dict:
    """examples/rubber.json played on to `entries` hands, players named in Devanagari."""
    document = example("rubber")
    hands = document["hands"]
    document["options"] = {**document["options"], "rubbers": 100}
    document["hands"] = (hands * (entries // len(hands) + 1))[:entries]
    names = [
        "".join(chr(0x0915 + (seat * 7 + i) % 30) for i in range(NAME_LENGTH - 1))
        + chr(0x0905 + seat)
        for seat in range(4)
    ]
    return renamed(document, dict(zip(document["players"], names, strict=True)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=500)
    args = parser.parse_args()
    seconds = getattr(pdf, "RENDER_SECONDS", None)

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "bench.db")})
        with app.app_context():
            worst = create_match(get_db(), from_document(worst_sheet(args.entries))).match_id
            small = create_match(get_db(), from_document(example("top-game"))).match_id
            warm = create_match(get_db(), from_document(example("calypso"))).match_id

        def ask(path: str) -> tuple[int, float, int]:
            began = time.perf_counter()
            answer = app.test_client().get(path)
            return answer.status_code, time.perf_counter() - began, len(answer.data)

        ask(f"/m/{warm}/sheet.pdf")
        answers: dict[str, tuple[int, float, int]] = {}
        worst_path = f"/m/{worst}/sheet.pdf?appendix=1"
        asking = threading.Thread(target=lambda: answers.update(worst=ask(worst_path)))
        asking.start()
        time.sleep(0.5)
        answers["other"] = ask(f"/m/{small}/sheet.pdf")
        asking.join()
        answers["again"] = ask(worst_path)
        pdf.clear_cache()
        answers["plain"] = ask(f"/m/{worst}/sheet.pdf")

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    bound = f"RENDER_SECONDS = {seconds:g}" if seconds else "no bound on a render"
    print(
        f"Worst PDF: {args.entries} entries, glyph-less 40-character names"
        f" ({bound}, load {load:.1f})"
    )
    for key, label in [
        ("worst", "worst sheet, every hand explained"),
        ("other", "another table's 12-hand sheet, meanwhile"),
        ("again", "worst sheet asked again"),
        ("plain", f"the {args.entries} hands without explanations"),
    ]:
        status, took, size = answers[key]
        print(f"  {label:44} {status:4}  {took:7.2f} s  {size / 1024:8.1f} kB")


if __name__ == "__main__":
    main()
