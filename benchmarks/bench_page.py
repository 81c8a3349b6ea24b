"""Server time of the match page: a 20-hand rubber match drawn through the test client.

    python benchmarks/bench_page.py [--runs 200] [--hands 20] [--profile] [--locale fr]
    python benchmarks/bench_page.py --languages [--locale fr]

Builds a rubber match of 20 hands (examples/rubber.json, its first rubber played
again: three rubbers, not finished; `--hands` plays its hands on to that many)
and asks for its page `--runs` times after
a few warm-up requests, as a phone does after every change at its table. Prints
the median and p95 wall time and the median CPU time of one GET /m/<id> (a
revision drawn before: the page around its kept live part), the same GET from a
phone that has the page (If-None-Match: a 304), the first GET after a change
(hand 1 edited each time, outside the timing: the revision replayed and drawn
anew), the next hand's form and the watch page (each drawn once per revision
too), that form sent one change late (a 409: refused, drawn again with what was
typed), the live poll of a phone one change behind, the next hand saved (a 302;
the match grows a hand each run), and the parts of the page: loading the stored
match, its replay, the share links (with their two QR codes). `--profile` adds
cProfile's top functions by cumulative time for the first page after a change.
The aim is under 5 ms; a repeated page under 1 ms.

`--locale` asks for every page in that language (the phone's choice, a
cookie). `--languages` compares the whole page without catalogs (an app whose
translations folder is empty: every word the English in the code) with the
page in English and in `--locale` through the catalogs, in turn on one match,
and prints how much more each costs (the aim: under 10 % more).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.changelog import EDIT, Command  # noqa: E402
from scorekeeper.db import apply, create_match, get_db, load_match  # noqa: E402
from scorekeeper.matchfile import from_document  # noqa: E402
from scorekeeper.variants import replay_match  # noqa: E402
from scorekeeper.views.pages import share_links  # noqa: E402

AIM_MS = 5.0
HANDS = 20
FORM_DATA = {"declarer": "Margaret", "level": "2", "strain": "C", "tricks": "8"}  # a part score
LANGUAGE_AIM = 10.0  # per cent more than the page without catalogs


def twenty_hands(count: int = HANDS) -> dict:
    """examples/rubber.json with its hands played again: 20 hands are 3 rubbers."""
    document = json.loads((ROOT / "examples" / "rubber.json").read_text(encoding="utf-8"))
    hands = document["hands"]
    document["options"] = {**document["options"], "rubbers": 100}
    document["hands"] = (hands * (count // len(hands) + 1))[:count]
    return document


def timed(action: Callable[[], object], runs: int) -> tuple[list[float], list[float]]:
    """Wall and CPU milliseconds of each of `runs` calls, after five warm-up calls."""
    for _ in range(5):
        action()
    wall, cpu = [], []
    for _ in range(runs):
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        action()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    return wall, cpu


def timed_after(change: Callable[[], object], action: Callable[[], object], runs: int):
    """As `timed`, with `change()` made before each call, outside the timing."""
    wall, cpu = [], []
    for _ in range(runs):
        change()
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        action()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start_wall) * 1000)
    return wall, cpu


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20, method="inclusive")[18]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--hands", type=int, default=HANDS, help="hands in the match (20)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top 25")
    parser.add_argument("--locale", default="", help="the phone's language (a catalog's code)")
    parser.add_argument(
        "--languages", action="store_true", help="with catalogs against without (see above)"
    )
    args = parser.parse_args()
    if args.languages:
        compare_languages(args.runs, args.hands, args.locale or "fr")
        return

    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "bench.db")})
        with app.app_context():
            match_id = create_match(get_db(), from_document(twenty_hands(args.hands))).match_id
        client = app.test_client()
        if args.locale:
            client.set_cookie("lang", args.locale)

        def page() -> None:
            response = client.get(f"/m/{match_id}")
            assert response.status_code == 200, response.status_code

        def form() -> None:
            response = client.get(f"/m/{match_id}/hand/new")
            assert response.status_code == 200, response.status_code

        keys = iter(range(10**9))

        def refused() -> None:
            """The next hand's form drawn one change ago, sent with its session, as
            three in four saves of bench_live's busy tables are: refused (409),
            the typed hand drawn again."""
            data = {
                **FORM_DATA,
                "revision": str(behind),
                "key": f"stale-{next(keys)}",
                "csrf_token": token,
            }
            response = client.post(f"/m/{match_id}/hand/new", data=data)
            assert response.status_code == 409, response.status_code

        def poll() -> None:
            """The live poll of a phone one change behind (the change in words)."""
            response = client.get(f"/m/{match_id}/live?since={behind}")
            assert response.status_code == 200, response.status_code

        def saved() -> None:
            """The next hand saved from a form drawn at the match's revision (302)."""
            with app.app_context():
                revision = load_match(get_db(), match_id).revision
            data = {**FORM_DATA, "revision": str(revision), "key": f"saved-{next(keys)}"}
            response = client.post(f"/m/{match_id}/hand/new", data={**data, "csrf_token": token})
            assert response.status_code == 302, response.status_code

        def watch() -> None:
            """The watch page of someone following the table (drawn once per revision)."""
            response = client.get(watch_url)
            assert response.status_code == 200, response.status_code

        def again() -> None:
            response = client.get(f"/m/{match_id}", headers={"If-None-Match": etag})
            assert response.status_code in (200, 304), response.status_code

        first_hand = [dict(h) for h in twenty_hands(args.hands)["hands"][:1]][0]
        edits = iter(range(10**9))

        def change() -> None:
            """Hand 1 edited (a trick more, a trick less): the match keeps its length."""
            with app.app_context():
                db = get_db()
                state = load_match(db, match_id)
                record = {**first_hand, "tricks": first_hand["tricks"] + next(edits) % 2}
                apply(db, match_id, Command(EDIT, hand=state.keys[0], record=record))

        def part(work: Callable[[], object]) -> Callable[[], object]:
            def run() -> object:
                with app.test_request_context(f"/m/{match_id}"):
                    return work()

            return run

        def load():
            return load_match(get_db(), match_id)

        def one_change_behind() -> int:
            """The match changed once more: the revision a phone one change behind has."""
            behind = part(load)().revision
            change()
            return behind

        form_page = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form_page).group(1)
        stored = part(load)()
        page()
        watch_url = re.search(r"(/w/[\w-]+)</code>", client.get(f"/m/{match_id}").text).group(1)
        etag = client.get(f"/m/{match_id}").headers.get("ETag", "")
        rows = [
            ("GET /m/<id> (the whole page)", timed(page, args.runs)),
            ("  again, the phone has it (304)", timed(again, args.runs)),
            ("  first after a change", timed_after(change, page, args.runs)),
            ("GET /m/<id>/hand/new (next hand)", timed(form, args.runs)),
            ("GET /w/<token> (the watch page)", timed(watch, args.runs)),
        ]
        behind = one_change_behind()  # the 409 and the poll of a phone one change behind
        rows += [
            ("POST a stale hand form (409)", timed(refused, args.runs)),
            ("GET /m/<id>/live (a poll)", timed(poll, args.runs)),
            ("  load the stored match", timed(part(load), args.runs)),
            (
                f"  replay its {args.hands} hands",
                timed(lambda: replay_match(stored.match), args.runs),
            ),
            ("  share links and QR codes", timed(part(lambda: share_links(stored)), args.runs)),
            # last: each save makes the match a hand longer
            ("POST the next hand (302)", timed(saved, args.runs)),
        ]
        if args.profile:
            profile = cProfile.Profile()  # the page a change makes: the one that costs
            for _ in range(args.runs):
                change()
                profile.enable()
                page()
                profile.disable()
            stats = pstats.Stats(profile).sort_stats("cumulative")

    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Match page of a {args.hands}-hand rubber match, {args.runs} runs, load {load_avg:.1f}:")
    print(f"  {'':34} {'median ms':>10} {'p95 ms':>8} {'cpu ms':>8}")
    for label, (wall, cpu) in rows:
        median, cpu_median = statistics.median(wall), statistics.median(cpu)
        print(f"  {label:34} {median:10.2f} {p95(wall):8.2f} {cpu_median:8.2f}")
    whole = statistics.median(rows[0][1][0])
    verdict = "within" if whole < AIM_MS else "above"
    print(f"Match page: {whole:.2f} ms median, {verdict} the {AIM_MS:g} ms aim.")
    if args.profile:
        print()
        stats.print_stats(60)


def compare_languages(runs: int, hands: int, locale: str) -> None:
    """GET /m/<id> without catalogs, in English and in `locale` with them: the
    three timed in turn, run after run, so that the machine's load falls on each."""
    with tempfile.TemporaryDirectory() as tmp:
        clients = {}
        for label, folder, language in (
            ("no catalogs", str(Path(tmp) / "none"), ""),
            ("English, with catalogs", "translations", "en"),
            (f"{locale}, with catalogs", "translations", locale),
        ):
            app = create_app(
                {
                    "TESTING": True,
                    "DATABASE": str(Path(tmp) / f"{len(clients)}.db"),
                    "BABEL_TRANSLATION_DIRECTORIES": folder,
                }
            )
            with app.app_context():
                match_id = create_match(get_db(), from_document(twenty_hands(hands))).match_id
            client = app.test_client()
            if language:
                client.set_cookie("lang", language)
            clients[label] = (client, f"/m/{match_id}")
        for client, path in clients.values():  # warm up: draw and keep each revision
            for _ in range(5):
                assert client.get(path).status_code == 200
        wall: dict[str, list[float]] = {label: [] for label in clients}
        for _ in range(runs):
            for label, (client, path) in clients.items():
                start = time.perf_counter()
                client.get(path)
                wall[label].append((time.perf_counter() - start) * 1000)
    load_avg = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"Match page of a {hands}-hand rubber match, {runs} runs each, load {load_avg:.1f}:")
    base = statistics.median(wall["no catalogs"])
    for label, times in wall.items():
        median = statistics.median(times)
        more = 100 * (median - base) / base
        print(f"  {label:28} {median:7.2f} ms median  {p95(times):7.2f} p95  {more:+6.1f} %")
    worst = max(statistics.median(t) for t in wall.values())
    verdict = "within" if 100 * (worst - base) / base < LANGUAGE_AIM else "above"
    print(f"Translations: {verdict} the {LANGUAGE_AIM:g} % aim.")


if __name__ == "__main__":
    main()
