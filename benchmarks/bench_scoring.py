"""Scoring speed: hands per second for every variant, and 1,000 against 10,000 hands.

Builds valid match files of 1,000 and 10,000 entries of `hands` for each variant,
scores them through `score_document` (replay, explanations, settlement) and prints
the best of five timings. Scoring replays every hand once, so 10 times the hands
should take about 10 times as long. Run:
    python benchmarks/bench_scoring.py

The rules cap some matches well below 10,000 entries (option limits, and matches
end by their own rules), so each variant's entries are built as the rules allow:
- one match of 10,000 deals: bridge-for-three (pegs kept
  moving back and forth below hole 11), rubber and honeymoon (`rubbers` 100:
  mostly defeated contracts, a game every 60 hands), mini-bridge and
  mini-bridge-3 (`target` 100000, small scores, every other deal a redeal or a
  scrapped deal);
- one match padded with the entries that do not count, since the counted hands are
  capped: top-game (`hands_per_half` at most 30: 60 counted hands, the rest
  misinformation redeals), chicago (`rounds` at most 100: 400 deals, the rest
  passed-out deals, which are dealt again);
- several full matches, since nothing can pad them: need-a-fourth (`hands` at most
  99) and calypso (`games` at most 50).
"""

from __future__ import annotations

import gc
import json
import random
import time
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from scorekeeper.games.catalog import VARIANTS
from scorekeeper.matchfile import from_document, loads
from scorekeeper.model import Match, Stake
from scorekeeper.report import score_document

SIZES = (1_000, 10_000)
REPEATS = 5
STRAINS = ("C", "D", "H", "S", "NT")
NAMES = ["Ann", "Bob", "Cy", "Dee"]

Hands = list[dict[str, Any]]
# (players, options, hands) for one match
MatchSpec = tuple[list[str], dict[str, Any], Hands]


def spread_out(n: int, cap: int) -> set[int]:
    """Where the counted hands go: cap × n / 10,000 of them, evenly, the last one last
    (the match is then finished exactly at its last entry)."""
    count = max(1, cap * n // SIZES[-1])
    every = n // count
    return {n - 1 - i * every for i in range(count)}


def top_game(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:3]
    counted = spread_out(n, 60)
    hands: Hands = []
    for k in range(n):
        declarer = players[k % 3]
        opponent = players[(k + 1) % 3]
        if k not in counted:
            hands.append({"declarer": declarer, "misinformation": opponent})
            continue
        bid, dummy_tops = rng.randint(2, 6), rng.randint(1, 5)
        hand: dict[str, Any] = {"declarer": declarer, "bid": bid, "dummy_tops": dummy_tops}
        pn = bid + dummy_tops
        if pn > 4:
            strain = rng.choice(STRAINS)
            level = pn - 4 if strain == "NT" else pn - 3
            doubled = rng.choice(["", "", "X", "XX"]) if pn <= 10 else ""
            hand |= {"contract": f"{level}{strain}{doubled}", "tricks": rng.randint(5, 13)}
            if doubled:
                hand["doubler"] = opponent
        hands.append(hand)
    return [(players, {"hands_per_half": 30}, hands)]


def need_a_fourth(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:3]
    matches = []
    for start in range(0, n, 99):
        hands: Hands = []
        for k in range(min(99, n - start)):
            if k % 10 == 9:
                hands.append({"auction": ["P", "P", "P"], "passed_out": True})
                continue
            chooser = players[rng.randrange(3)]
            partner = rng.choice([p for p in players if p != chooser])
            level, doubled = rng.randint(1, 7), rng.choice(["", "", "X", "XX"])
            hand = {"chooser": chooser, "partner": partner}
            hand["contract"] = f"{level}{rng.choice(STRAINS)}{doubled}"
            if doubled == "XX":
                hand["redoubled_by"] = rng.choice([chooser, partner])
            hand["tricks"] = rng.randint(max(0, level + 3), 13)
            hands.append(hand)
        matches.append((players, {"hands": 99}, hands))
    return matches


def bridge_for_three(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:4]
    pegs = dict.fromkeys(players, 0)
    hands: Hands = []
    for k in range(n):
        playing = [players[(k + i) % 4] for i in range(3)]
        if k % 10 == 9:
            hands.append({"passed_out": True})
            continue
        seat = rng.randrange(3)
        declarer = playing[seat]
        level = 2
        # Below hole 5 the declarer makes, from 0 up they may go down: never 11, never −6.
        if pegs[declarer] < 0 or (pegs[declarer] < 5 and rng.random() < 0.5):
            doubled = pegs[declarer] <= 2 and rng.random() < 0.3
            tricks = rng.randint(8, 13)
            pegs[declarer] += level * (2 if doubled else 1)
        else:
            doubled = False
            tricks = rng.randint(6, 7)
            pegs[declarer] -= 8 - tricks
        bid = f"{level}{rng.choice(STRAINS)}"
        hand: dict[str, Any] = {"declarer": declarer, "contract": bid + ("X" if doubled else "")}
        if rng.random() < 0.3:
            hand["auction"] = ["P"] * seat + [bid] + (["X", "P", "P"] if doubled else ["P", "P"])
        hands.append({**hand, "tricks": tricks})
    return [(players, {}, hands)]


def mini_bridge(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:4]
    hands: Hands = []
    for k in range(n):
        if k % 2:
            hands.append({"hcp": dict.fromkeys(players, 10)})  # 20–20: dealt again
            continue
        strong = rng.randrange(2)
        hcp = {p: (12 if i % 2 == strong else 9) for i, p in enumerate(players)}
        hcp[players[strong + 2]] -= 2  # 12 + 10 against 9 + 9
        made = rng.random() < 2 / 3
        hands.append(
            {"hcp": hcp, "game": False, "strain": rng.choice("CD"), "tricks": 7 if made else 6}
        )
    return [(players, {"target": 100_000}, hands)]


def mini_bridge_3(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:3]
    hands: Hands = []
    for k in range(n):
        if k % 2:
            hands.append({"hcp": {"Ann": 10, "Bob": 10, "Cy": 11}, "scrapped": True})
            continue
        declarer = rng.randrange(3)
        hcp = {p: (15 if i == declarer else 8) for i, p in enumerate(players)}
        made = rng.random() < 3 / 4
        hands.append(
            {"hcp": hcp, "game": False, "strain": rng.choice("CD"), "tricks": 7 if made else 6}
        )
    return [(players, {"target": 100_000}, hands)]


def rubber_hands(n: int, rng: random.Random, players: list[str]) -> Hands:
    """Defeated contracts and passed-out deals; every 60th hand a game, sides in turn."""
    hands: Hands = []
    games = 0
    for k in range(n):
        if k % 60 == 59:
            declarer = players[games % 2]  # We, They, We, … : each rubber goes 2–1
            games += 1
            hands.append({"declarer": declarer, "contract": "4S", "tricks": rng.randint(10, 13)})
        elif k % 10 == 9:
            hands.append({"passed_out": True})
        else:
            level, strain = rng.randint(1, 7), rng.choice(STRAINS)
            hand = {
                "declarer": rng.choice(players),
                "contract": f"{level}{strain}{rng.choice(['', '', 'X', 'XX'])}",
                "tricks": rng.randint(max(0, level + 2), level + 5),
            }
            if rng.random() < 0.2:
                points = 150 if strain == "NT" else rng.choice([100, 150])
                hand["honors"] = {"holder": rng.choice(players), "points": points}
            hands.append(hand)
    return hands


def rubber(n: int, rng: random.Random) -> list[MatchSpec]:
    return [(NAMES[:4], {"rubbers": 100}, rubber_hands(n, rng, NAMES[:4]))]


def honeymoon(n: int, rng: random.Random) -> list[MatchSpec]:
    return [(NAMES[:2], {"rubbers": 100}, rubber_hands(n, rng, NAMES[:2]))]


def chicago(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:4]
    counted = spread_out(n, 400)
    hands: Hands = []
    for k in range(n):
        if k not in counted:
            hands.append({"passed_out": True})  # not counted: the same dealer deals again
            continue
        level = rng.randint(1, 7)
        hands.append(
            {
                "declarer": rng.choice(players),
                "contract": f"{level}{rng.choice(STRAINS)}{rng.choice(['', '', 'X'])}",
                "tricks": rng.randint(level + 4, 13),
            }
        )
    return [(players, {"rounds": 100}, hands)]


def calypso(n: int, rng: random.Random) -> list[MatchSpec]:
    players = NAMES[:4]
    matches = []
    for start in range(0, n, 50):
        games: Hands = []
        for _ in range(min(50, n - start)):
            tallies = {}
            left = 208
            for player in players:
                calypsos, incomplete = rng.randint(0, 2), rng.randint(0, 12)
                left -= 13 * calypsos + incomplete
                tallies[player] = {"calypsos": calypsos, "incomplete": incomplete, "discards": 0}
            for i in range(left):
                tallies[players[i % 4]]["discards"] += 1
            games.append({"tallies": tallies})
        matches.append((players, {"games": len(games)}, games))
    return matches


GENERATORS: dict[str, Callable[[int, random.Random], list[MatchSpec]]] = {
    "top-game": top_game,
    "need-a-fourth": need_a_fourth,
    "bridge-for-three": bridge_for_three,
    "mini-bridge": mini_bridge,
    "mini-bridge-3": mini_bridge_3,
    "rubber": rubber,
    "honeymoon": honeymoon,
    "chicago": chicago,
    "calypso": calypso,
}


def build(variant: str, n: int) -> list[Match]:
    """The match files for `n` entries, checked (loaded and replayed) once."""
    found = []
    for players, options, hands in GENERATORS[variant](n, random.Random(n)):
        doc = {
            "format": "scorekeeper-match/1",
            "variant": variant,
            "players": players,
            "options": options,
            "hands": hands,
        }
        match = from_document(doc)
        match.stake = Stake(Decimal("0.10"), 10)
        found.append(match)
    return found


def best_time(run: Callable[[], object], collect: bool = True) -> float:
    """Best of REPEATS; `collect=False` pauses Python's cyclic garbage collector, whose
    passes over every live object make big runs look slightly worse than linear."""
    times = []
    for _ in range(REPEATS):
        if not collect:
            gc.disable()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
        gc.enable()
    return min(times)


def main() -> None:
    print(f"best of {REPEATS}; score = score_document(match): replay, explanations, settlement")
    head = (
        f"{'variant':17} {'matches':>7} {'counted':>7} {'finished':>8} "
        f"{'1,000 s':>8} {'10,000 s':>9} {'ratio':>6} {'no-GC ratio':>11} {'hands/s':>8} "
        f"{'CLI path s':>10}"
    )
    print(head)
    print("-" * len(head))
    assert list(GENERATORS) == list(VARIANTS)
    for variant in GENERATORS:
        timing, no_gc = {}, {}
        for n in SIZES:
            matches = build(variant, n)
            assert sum(len(m.hands) for m in matches) == n
            run = lambda matches=matches: [score_document(m) for m in matches]  # noqa: E731
            timing[n], no_gc[n] = best_time(run), best_time(run, collect=False)
        docs = [score_document(m) for m in matches]
        counted = sum(h["counted"] for d in docs for h in d["hands"])
        finished = sum(d["finished"] for d in docs)
        texts = [json.dumps(m.as_json()) for m in matches]
        # What `scorekeeper score` does: parse and check (one replay), score (another).
        cli_path = best_time(
            lambda texts=texts: [json.dumps(score_document(loads(t))) for t in texts]
        )
        small, big = SIZES
        print(
            f"{variant:17} {len(matches):7} {counted:7} {finished:>5}/{len(matches):<2} "
            f"{timing[small]:8.3f} {timing[big]:9.3f} {timing[big] / timing[small]:6.1f} "
            f"{no_gc[big] / no_gc[small]:11.1f} {big / timing[big]:8.0f} {cli_path:10.3f}"
        )


if __name__ == "__main__":
    main()
