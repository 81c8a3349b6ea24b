"""A save the server acknowledged survives the server being killed.

The server runs in its own process, as `scorekeeper serve` does; four phones at
two tables save hands as fast as their answers come, and the server is killed
with SIGKILL in the middle of the burst, ten times over on the same database.
After each kill the file must pass `PRAGMA integrity_check`, and after the
restart every save answered with a 302 must be stored: the hand under the key
its answer named, with the contract that phone sent. A save whose answer was cut
off by the kill may or may not be stored; nothing else may be.
"""

from __future__ import annotations

import http.client
import itertools
import random
import re
import signal
import sqlite3
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tests.phones import Phone, serve_process

ROUNDS = 10
KILL_AFTER = (0.2, 1.0)  # seconds into the burst
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
# A save is acknowledged by the redirect to the next hand's form.
_NEXT_FORM = re.compile(r"^/m/([\w-]{16})/hand/new$")
# Defeated contracts only (level, strain, tricks): no game is ever won, so the
# match never finishes, and the records differ from one another.
DEFEATED = [
    (level, strain, tricks)
    for level in range(1, 8)
    for strain in ("C", "D", "H", "S", "NT")
    for tricks in range(6 + level)
]


@dataclass
class Burst:
    """What the phones of one burst were told."""

    acknowledged: list[tuple[str, dict]] = field(default_factory=list)  # match, hand
    unanswered: dict[int, int] = field(default_factory=dict)  # match -> saves cut off
    unexpected: list[str] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)


def save_until(phone: Phone, match_id: str, hands, stop: threading.Event, burst: Burst) -> None:
    """Draw the form and save the next hand, again and again, until `stop`."""
    while not stop.is_set():
        try:
            form = phone.form(f"/m/{match_id}/hand/new")
        except (OSError, http.client.HTTPException):
            continue  # the server is gone: nothing was sent
        except AssertionError as refused:  # the form page did not answer 200
            with burst.lock:
                burst.unexpected.append(f"form: {refused}")
            return
        declarer, (level, strain, tricks) = next(hands)
        fields = {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}
        try:
            answer = phone.submit(form, **{k: str(v) for k, v in fields.items()})
        except (OSError, http.client.HTTPException):
            with burst.lock:  # cut off by the kill: maybe stored, never acknowledged
                burst.unanswered[match_id] = burst.unanswered.get(match_id, 0) + 1
            continue
        saved = _NEXT_FORM.match(answer.location) if answer.status == 302 else None
        hand = {"declarer": declarer, "contract": f"{level}{strain}", "tricks": tricks}
        with burst.lock:
            if saved and saved.group(1) == match_id:
                burst.acknowledged.append((match_id, hand))
            elif answer.status != 409:  # 409: the other phone at the table saved first
                burst.unexpected.append(f"{answer.status} {answer.location} {answer.text[:300]}")


def integrity(database: Path) -> str:
    check = sqlite3.connect(database)
    try:
        return check.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        check.close()


def test_acknowledged_saves_survive_sigkill(tmp_path):
    database = tmp_path / "crash.db"
    rng = random.Random()
    # Each table's two phones take two declarers each and walk through the defeated
    # contracts, so no two hands of a match are alike.
    contracts = {
        seat: itertools.cycle(itertools.product(PLAYERS[seat::2], DEFEATED)) for seat in range(4)
    }
    acknowledged: dict[str, list[dict]] = {}  # match -> hands, over all rounds
    unanswered: dict[int, int] = {}
    server, base = serve_process(database)
    try:
        host = Phone(base, "Host")
        matches = [host.start("rubber", PLAYERS, opt_rubbers="100") for _ in range(2)]
        for round_number in range(1, ROUNDS + 1):
            burst, stop = Burst(), threading.Event()
            phones = [
                threading.Thread(
                    target=save_until,
                    args=(Phone(base, f"Phone {seat}"), matches[seat // 2], contracts[seat]),
                    kwargs={"stop": stop, "burst": burst},
                )
                for seat in range(4)
            ]
            for phone in phones:
                phone.start()
            time.sleep(rng.uniform(*KILL_AFTER))
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=10)
            stop.set()
            for phone in phones:
                phone.join(timeout=30)
            assert not any(phone.is_alive() for phone in phones)
            assert burst.unexpected == [], f"round {round_number}"
            assert integrity(database) == "ok", f"round {round_number}"

            for match_id, hand in burst.acknowledged:  # no two hands of a match are alike
                assert hand not in acknowledged.setdefault(match_id, []), (round_number, hand)
                acknowledged[match_id].append(hand)
            for match_id, count in burst.unanswered.items():
                unanswered[match_id] = unanswered.get(match_id, 0) + count

            server, base = serve_process(database)
            reader = Phone(base)
            for match_id in matches:
                stored = reader.hands(match_id)
                mine = acknowledged.get(match_id, [])
                # Every acknowledged hand is stored, once.
                lost = [hand for hand in mine if stored.count(hand) != 1]
                assert lost == [], f"round {round_number}, match {match_id}: lost {lost}"
                # Every stored hand was sent by a phone: acknowledged, or cut off.
                assert len(stored) <= len(mine) + unanswered.get(match_id, 0), (
                    round_number,
                    match_id,
                )
        assert all(len(acknowledged.get(m, {})) > 0 for m in matches)
    finally:
        server.kill()
        server.wait(timeout=10)
