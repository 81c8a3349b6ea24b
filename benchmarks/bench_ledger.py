"""Ledger and statistics of a 500-match group: with every match replayed, and with
each match's summary kept (as a store keeps it per match revision).

Builds 500 matches from the nine example files, varied: the players renamed from a
pool of eight members (some as "Annie"-style aliases mapped back with `same`), a
day in 2026 for each, the stake's currency EUR, GBP or none. Then prints the best
of five timings of
  1. replay included: parse + replay + settlement + summary of every match, then
     the ledger (all time, and one month) and the statistics;
  2. summaries kept: each summary read back from its stored JSON, then the same;
  3. summaries in memory: the ledger and statistics alone.
Target: under 300 ms for 2 (issue 20). Run:
    python benchmarks/bench_ledger.py
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections.abc import Callable
from datetime import date, timedelta
from decimal import Decimal
from pathlib import Path

from scorekeeper.ledger import Period, Transfer, ledger, select
from scorekeeper.matchfile import loads
from scorekeeper.model import MatchSummary
from scorekeeper.report import match_summary
from scorekeeper.stats import statistics

ROOT = Path(__file__).resolve().parent.parent
MATCHES = 500
REPEATS = 5
MEMBERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
ALIASES = {"Annie": "Ann", "Bobby": "Bob"}
CURRENCIES = ["EUR", "EUR", "GBP", None]


def group_files(rng: random.Random) -> list[tuple[str, str]]:
    """(key, match file text) of MATCHES matches made from the examples."""
    examples = [
        json.loads(p.read_text(encoding="utf-8"))
        for p in sorted((ROOT / "examples").glob("*.json"))
    ]
    files = []
    for n in range(MATCHES):
        doc = json.loads(json.dumps(examples[n % len(examples)]))
        cast = rng.sample(MEMBERS, len(doc["players"]))
        if "Ann" in cast and rng.random() < 0.3:
            cast[cast.index("Ann")] = "Annie"
        rename = dict(zip(doc["players"], cast, strict=True))
        text = json.dumps(doc)
        for old, new in rename.items():  # names appear in hands too (declarer, hcp, tallies…)
            text = text.replace(f'"{old}"', f'"@{new}@"')
        text = text.replace('"@', '"').replace('@"', '"')
        doc = json.loads(text)
        doc["played"] = (date(2026, 1, 1) + timedelta(days=rng.randrange(365))).isoformat()
        currency = rng.choice(CURRENCIES)
        if currency is None:
            doc.pop("stake", None)
        else:
            doc["stake"]["currency"] = currency
        files.append((f"m{n:03}", json.dumps(doc)))
    return files


def best_of(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEATS):
        gc.collect()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


PAID = [Transfer("Bob", "Ann", Decimal("7.50"), "EUR", date(2026, 6, 1))]
JUNE = Period(date(2026, 6, 1), date(2026, 6, 30))


def books(summaries: list[MatchSummary]) -> tuple[int, int]:
    whole = ledger(summaries, same=ALIASES, paid=PAID)
    month = ledger(summaries, same=ALIASES, period=JUNE, paid=PAID)
    statistics(whole.matches)
    statistics(select(summaries, same=ALIASES, period=JUNE))
    return len(whole.matches), len(month.matches)


def main() -> None:
    files = group_files(random.Random(20))
    summaries = [match_summary(loads(text), key=key) for key, text in files]
    stored = [json.dumps(s.as_json()) for s in summaries]
    hands = sum(len(json.loads(text)["hands"]) for _, text in files)
    whole, month = books(summaries)
    book = ledger(summaries, same=ALIASES, paid=PAID)
    print(f"{MATCHES} matches, {hands} entries of hands; all time {whole}, June {month} matches")
    purses = ", ".join(f"{c or '(none)'} {len(m)} members" for c, m in book.balances.items())
    print(f"balances: {purses}; settle-up payments: {len(book.settle_up)}")
    size = sum(len(text) for text in stored)
    print(f"stored summaries: {size / MATCHES:.0f} bytes a match on average")

    replayed = best_of(lambda: books([match_summary(loads(t), key=k) for k, t in files]))
    kept = best_of(lambda: books([MatchSummary.from_json(json.loads(s)) for s in stored]))
    memory = best_of(lambda: books(summaries))
    print(f"replay included            {replayed * 1000:8.1f} ms")
    print(f"summaries kept (from JSON) {kept * 1000:8.1f} ms   target < 300 ms")
    print(f"summaries in memory        {memory * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
