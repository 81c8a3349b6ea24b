"""Nothing lost even if the server's disk is (issue 24, point 11): `scorekeeper
serve` keeps backups by itself in instance/backups/ after changes, and
`scorekeeper restore FILE` brings one back after checking it, refusing a
damaged or foreign file with one line and leaving the store as it was."""

from __future__ import annotations

import gc
import http.client
import json
import os
import re
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlite_utils import Database

from scorekeeper import db as store
from scorekeeper import safekeeping
from scorekeeper.app import create_app
from scorekeeper.changelog import APPEND, Command
from scorekeeper.matchfile import dumps, loads
from scorekeeper.report import score_document
from tests.games import VARIANT_IDS
from tests.phones import Phone, accepting, free_port
from tests.test_backup import EXAMPLES, example, imported_ids
from tests.test_backup import scorekeeper as run_command
from tests.test_groupfile import friday

ROOT = Path(__file__).resolve().parent.parent
# Any game's example evening will do: the first and the last of the catalog.
FIRST, LAST = VARIANT_IDS[0], VARIANT_IDS[-1]
# What filled_instance stores: every example, and the matches of Friday's group.
STORED = len(EXAMPLES) + len(friday()["matches"])


def scorekeeper(capsys, *args) -> tuple[int, str, str]:
    """`scorekeeper ARGS…` in this process, its store closed after it as when a
    command's process ends (the app it opened keeps a connection until collected)."""
    try:
        return run_command(capsys, *args)
    finally:
        gc.collect()


def make_store(instance: Path) -> str:
    """The instance's store, made and migrated as `scorekeeper` makes it."""
    app = create_app(instance=instance)
    app.extensions["scorekeeper_keeper"].close()  # as when the command ends
    return app.config["DATABASE"]


def read_only(path: str | Path) -> Database:
    """A store or backup, opened to read only (store.connect would switch a
    backup to a write-ahead log)."""
    return Database(sqlite3.connect(f"{Path(path).resolve().as_uri()}?mode=ro", uri=True))


def stored_counts(database: str | Path) -> tuple[int, int]:
    db = read_only(database)
    try:
        return (
            db.execute("select count(*) from matches").fetchone()[0],
            db.execute("select count(*) from groups").fetchone()[0],
        )
    finally:
        db.close()


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def backups_in(instance: Path) -> list[str]:
    return sorted(p.name for p in (instance / "backups").iterdir())


def files_in(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


# --- which backups are kept ---------------------------------------------------------

NOW = datetime(2026, 3, 14, 21, 30, tzinfo=UTC)


def hours_before(*hours: float) -> list[datetime]:
    return [NOW - timedelta(hours=h) for h in hours]


@pytest.mark.parametrize(
    "made, kept",
    [
        # Fewer than 48: every one.
        (hours_before(0, 1, 2, 30), hours_before(0, 1, 2, 30)),
        # 60 hourly backups (it is 21:30): hours 46 to 59 fell on the day before
        # yesterday, whose last one (hour 46) is among the 48 newest.
        (hours_before(*range(60)), hours_before(*range(48))),
        # 100 hourly backups: also the last of each older day, hours 70 and 94.
        (hours_before(*range(100)), hours_before(*range(48), 70, 94)),
        # A weekly club, three backups an evening for 30 weeks: 16 evenings
        # fill the 48 newest, which hold every evening of the last 30 days.
        (
            [NOW - timedelta(days=7 * week, hours=h) for week in range(30) for h in range(3)],
            [NOW - timedelta(days=7 * week, hours=h) for week in range(16) for h in range(3)],
        ),
    ],
    ids=["fewer-than-48", "sixty-hours", "a-hundred-hours", "thirty-weekly-evenings"],
)
def test_backups_kept_are_the_48_newest_and_the_last_of_each_of_30_days(made, kept):
    assert sorted(safekeeping.to_keep(made, NOW, zone=UTC)) == sorted(kept)


def test_one_backup_a_day_is_kept_for_30_days_beyond_the_48_newest():
    # One backup an hour for 40 days: the 48 newest (today, yesterday and the
    # day before's last hours), then the last backup of each day back to the
    # 29th day before today; none older.
    made = [NOW - timedelta(hours=h) for h in range(40 * 24)]
    kept = safekeeping.to_keep(made, NOW, zone=UTC)
    newest = set(made[:48])
    older = kept - newest
    assert newest <= kept and len(kept) == 48 + 27
    assert sorted(m.date() for m in older) == [
        NOW.date() - timedelta(days=d) for d in range(29, 2, -1)
    ]
    for moment in older:  # the last backup of its day
        assert moment == max(m for m in made if m.date() == moment.date())


def test_pruning_removes_only_automatic_backups_not_kept(tmp_path):
    folder = tmp_path / "backups"
    folder.mkdir()
    made = [NOW - timedelta(days=d) for d in range(100)]
    for moment in made:
        (folder / safekeeping.backup_name(moment)).write_text("copy")
    (folder / "before-restore-20250101T000000Z.db").write_text("kept by hand")
    (folder / "mine.db").write_text("mine")
    safekeeping.prune(folder, NOW)
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [safekeeping.backup_name(m) for m in made[:48]]
        + ["before-restore-20250101T000000Z.db", "mine.db"]
    )


def test_a_backup_name_says_its_moment_in_utc():
    assert safekeeping.backup_name(NOW) == "scorekeeper-20260314T213000Z.db"
    assert safekeeping.backup_moment("scorekeeper-20260314T213000Z.db") == NOW
    assert safekeeping.backup_moment("scorekeeper-2026.db") is None
    assert safekeeping.backup_moment("before-restore-20260314T213000Z.db") is None


# --- a backup after changes ----------------------------------------------------------


def test_a_round_backs_up_only_after_a_change(tmp_path):
    instance = tmp_path / "instance"
    database = make_store(instance)
    keeper = safekeeping.Keeper(database, instance / "backups", interval=3600)
    first = keeper.round()
    assert first is not None and first.parent == instance / "backups"
    assert mode(instance / "backups") == 0o700 and mode(first) == 0o600
    assert keeper.round() is None  # nothing changed: no second copy
    evening = loads(example(FIRST).read_text())
    db = store.connect(database)
    match_id = store.create_match(db, replace(evening, hands=[])).match_id
    second = keeper.round()
    assert second is not None and second != first
    assert stored_counts(second) == (1, 0)
    store.apply(db, match_id, Command(APPEND, record=evening.hands[0]))
    db.close()
    third = keeper.round()
    assert third is not None
    assert [m.revision for m in store.list_matches(read_only(third))] == [2]
    assert backups_in(instance) == sorted(p.name for p in (first, second, third))


def test_a_new_server_backs_up_only_when_the_store_changed_since_the_newest_backup(tmp_path):
    instance = tmp_path / "instance"
    database = make_store(instance)
    made = safekeeping.Keeper(database, instance / "backups", interval=3600).round()
    # The next server finds the newest backup holding what the store holds.
    assert safekeeping.Keeper(database, instance / "backups", interval=3600).round() is None
    db = store.connect(database)
    store.create_match(db, loads(example(LAST).read_text()))
    db.close()
    again = safekeeping.Keeper(database, instance / "backups", interval=3600).round()
    assert again is not None and again != made


def test_a_partial_copy_left_by_a_kill_is_removed_by_the_next_round(tmp_path):
    instance = tmp_path / "instance"
    database = make_store(instance)
    folder = instance / "backups"
    folder.mkdir(mode=0o700)
    stray = folder / ".scorekeeper-20260314T213000Z.db.abc123.part"
    stray.write_bytes(b"SQLite format 3\x00 half a copy")
    made = safekeeping.Keeper(database, folder, interval=3600).round()
    assert backups_in(instance) == [made.name]


def test_the_backup_thread_backs_up_a_change_and_stops(tmp_path):
    instance = tmp_path / "instance"
    database = make_store(instance)
    keeper = safekeeping.Keeper(database, instance / "backups", interval=1)
    keeper.start()
    try:
        first = wait_for(lambda: automatic(instance), "a first backup")
        db = store.connect(database)
        store.create_match(db, loads(example(LAST).read_text()))
        db.close()
        later = wait_for(
            lambda: automatic(instance) if len(automatic(instance)) == 2 else [], "a second"
        )
    finally:
        keeper.stop()
    assert not keeper.is_alive()
    assert later[0] == first[0]
    assert [stored_counts(instance / "backups" / name) for name in later] == [(0, 0), (1, 0)]


def automatic(instance: Path) -> list[str]:
    folder = instance / "backups"
    if not folder.is_dir():
        return []
    return sorted(p.name for p in folder.iterdir() if safekeeping.backup_moment(p.name))


def wait_for(found, what: str, seconds: float = 30):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        result = found()
        if result:
            return result
        time.sleep(0.01)
    raise AssertionError(f"no {what} within {seconds:g} s")


# --- restore -------------------------------------------------------------------------


def filled_instance(tmp_path, capsys) -> Path:
    """A store with every example match and a group with members, matches and a payment."""
    instance = tmp_path / "home"
    group_file = tmp_path / "friday.group.json"
    group_file.write_text(json.dumps(friday()), encoding="utf-8")
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, *EXAMPLES, group_file)
    assert (status, err) == (0, ""), err
    assert len(imported_ids(out)) == len(EXAMPLES)
    return instance


def everything(instance: Path) -> dict[str, object]:
    """What a player can read of each match and group of the store: the match
    file, the score output, the group file and the group's ledger."""
    app = create_app(instance=instance)
    app.extensions["scorekeeper_keeper"].close()
    client = app.test_client()
    db = read_only(app.config["DATABASE"])
    try:
        matches = store.list_matches(db)
        group_ids = [row["id"] for row in db["groups"].rows]
    finally:
        db.close()
    seen: dict[str, object] = {}
    for match in matches:
        seen[f"/m/{match.id}/match.json"] = client.get(f"/m/{match.id}/match.json").text
        seen[f"score {match.id}"] = score_document(match.match)
    for group_id in group_ids:
        for page in ("group.json", "ledger.csv", "statistics.csv"):
            answer = client.get(f"/g/{group_id}/{page}")
            assert answer.status_code == 200
            seen[f"/g/{group_id}/{page}"] = answer.text
    store.close_idle(app.config["DATABASE"])  # the app is done: no file of it stays open
    return seen


def test_a_restore_into_a_fresh_instance_gives_back_every_match_and_group(tmp_path, capsys):
    home = filled_instance(tmp_path, capsys)
    copy = tmp_path / "copy.db"
    assert scorekeeper(capsys, "backup", "--instance", home, copy)[0] == 0
    fresh = tmp_path / "fresh"
    assert scorekeeper(capsys, "restore", "--instance", fresh, copy) == (
        0,
        f"Restored {STORED} matches and 1 group from {copy}.\n",
        "",
    )
    assert mode(fresh / "scorekeeper.db") == 0o600
    before, after = everything(home), everything(fresh)
    assert len(before) == STORED * 2 + 3
    assert after == before


def test_a_restore_keeps_the_store_it_replaces_so_it_can_be_undone(tmp_path, capsys):
    home = filled_instance(tmp_path, capsys)
    copy = tmp_path / "copy.db"
    assert scorekeeper(capsys, "backup", "--instance", home, copy)[0] == 0
    other = tmp_path / "other"
    scorekeeper(capsys, "import", "--instance", other, example(LAST))
    status, out, err = scorekeeper(capsys, "restore", "--instance", other, copy)
    assert (status, err) == (0, "")
    [kept] = re.findall(r"The store as it was is in (\S+) \(restore that file to undo\)\.", out)
    assert out == (
        f"Restored {STORED} matches and 1 group from {copy}.\n"
        f"The store as it was is in {kept} (restore that file to undo).\n"
    )
    assert Path(kept).parent == other / "backups" and mode(Path(kept)) == 0o600
    assert re.fullmatch(r"before-restore-\d{8}T\d{6}Z\.db", Path(kept).name)
    assert stored_counts(other / "scorekeeper.db") == (STORED, 1)
    status, out, err = scorekeeper(capsys, "restore", "--instance", other, kept)
    assert (status, err) == (0, "")
    assert out.startswith(f"Restored 1 match and 0 groups from {kept}.\n")
    assert [
        m.variant for m in store.list_matches(store.connect(str(other / "scorekeeper.db")))
    ] == [LAST]


def test_an_automatic_backup_restores_like_a_manual_one(tmp_path, capsys):
    home = filled_instance(tmp_path, capsys)
    made = safekeeping.Keeper(str(home / "scorekeeper.db"), home / "backups", 3600).round()
    fresh = tmp_path / "fresh"
    assert scorekeeper(capsys, "restore", "--instance", fresh, made)[:2] == (
        0,
        f"Restored {STORED} matches and 1 group from {made}.\n",
    )
    assert everything(fresh) == everything(home)


def test_a_store_of_an_older_version_is_brought_up_to_date_when_restored(tmp_path, capsys):
    old = tmp_path / "old.db"
    db = store.connect(str(old))
    store.migrations.apply(db, stop_before="m005_hand_numbers")
    db.close()
    fresh = tmp_path / "fresh"
    assert scorekeeper(capsys, "restore", "--instance", fresh, old) == (
        0,
        f"Restored 0 matches and 0 groups from {old}.\n",
        "",
    )
    db = store.connect(str(fresh / "scorekeeper.db"))
    assert store.migrations.pending(db) == []
    db.close()


def damaged(kind: str, good: Path, tmp_path: Path) -> Path:
    """A file that must not become the store, made from the good backup `good`."""
    bad = tmp_path / f"{kind}.db"
    raw = good.read_bytes()
    if kind == "empty":
        bad.write_bytes(b"")
    elif kind == "text":
        bad.write_text("Friday: Ann 120, Bob 80\n", encoding="utf-8")
    elif kind == "truncated":
        bad.write_bytes(raw[: len(raw) // 2])
    elif kind == "flipped":
        # Every byte of a page in the middle turned over (a disk's bad sector).
        page = 4096
        middle = (len(raw) // page // 2) * page
        flipped = bytes(b ^ 0xFF for b in raw[middle : middle + page])
        bad.write_bytes(raw[:middle] + flipped + raw[middle + page :])
    elif kind == "another-program":
        conn = sqlite3.connect(bad)
        conn.execute("create table notes (id integer primary key, text)")
        conn.execute("insert into notes (text) values ('milk')")
        conn.commit()
        conn.close()
    elif kind == "newer-version":
        bad.write_bytes(raw)
        conn = sqlite3.connect(bad)
        conn.execute(
            "insert into _sqlite_migrations (migration_set, name, applied_at)"
            " values ('scorekeeper', 'm099_from_the_future', '2030-01-01')"
        )
        conn.commit()
        conn.close()
    return bad


REFUSALS = {
    "empty": "an empty file, not a Scorekeeper backup",
    "text": "not a SQLite database, so not a Scorekeeper backup",
    "truncated": "damaged: it ends at byte {half} of {whole} (cut short)",
    "flipped": "damaged: database disk image is malformed",
    "another-program": "a SQLite database of another program, not a Scorekeeper backup",
    "newer-version": "made by a newer version of Scorekeeper (its store has the change"
    " m099_from_the_future, unknown to this one): upgrade Scorekeeper, then restore it",
}


@pytest.mark.parametrize("kind", list(REFUSALS))
def test_a_damaged_or_foreign_file_is_refused_in_one_line_and_the_store_untouched(
    tmp_path, capsys, kind
):
    home = filled_instance(tmp_path, capsys)
    good = tmp_path / "good.db"
    assert scorekeeper(capsys, "backup", "--instance", home, good)[0] == 0
    current = tmp_path / "current"
    scorekeeper(capsys, "import", "--instance", current, example(FIRST))
    database = current / "scorekeeper.db"
    files_before = sorted(p.name for p in current.iterdir())
    seen_before = everything(current)
    bad = damaged(kind, good, tmp_path)
    status, out, err = scorekeeper(capsys, "restore", "--instance", current, bad)
    expected = REFUSALS[kind].format(half=len(good.read_bytes()) // 2, whole=len(good.read_bytes()))
    assert (status, out) == (2, "")
    assert err == f"{bad}: not restored: {expected}\n"
    assert everything(current) == seen_before
    assert sorted(p.name for p in current.iterdir()) == files_before
    assert stored_counts(database) == (1, 0)


def test_a_missing_file_and_the_store_itself_are_refused(tmp_path, capsys):
    instance = tmp_path / "instance"
    make_store(instance)
    missing = tmp_path / "missing.db"
    assert scorekeeper(capsys, "restore", "--instance", instance, missing) == (
        2,
        "",
        f"{missing}: not restored: cannot read: No such file or directory\n",
    )
    database = instance / "scorekeeper.db"
    assert scorekeeper(capsys, "restore", "--instance", instance, database) == (
        2,
        "",
        f"{database}: not restored: it is the database itself; restore a backup of it\n",
    )


def test_a_restore_is_refused_while_a_server_runs_on_the_instance(tmp_path, capsys):
    home = filled_instance(tmp_path, capsys)
    copy = tmp_path / "copy.db"
    scorekeeper(capsys, "backup", "--instance", home, copy)
    instance = tmp_path / "served"
    make_store(instance)
    with safekeeping.serving(instance):
        assert scorekeeper(capsys, "restore", "--instance", instance, copy) == (
            1,
            "",
            f"{copy}: not restored: a server is running on {instance};"
            " stop it, restore, then start it again\n",
        )
    assert stored_counts(instance / "scorekeeper.db") == (0, 0)
    assert scorekeeper(capsys, "restore", "--instance", instance, copy)[0] == 0


# --- the interval --------------------------------------------------------------------


@pytest.mark.parametrize("value", ["-1", "an hour", "1.5", ""])
def test_a_backup_interval_that_is_no_whole_number_of_seconds_is_refused(
    tmp_path, capsys, monkeypatch, value
):
    monkeypatch.setenv("SCOREKEEPER_BACKUP_INTERVAL", value)
    assert scorekeeper(capsys, "serve", "--instance", tmp_path, "--local") == (
        2,
        "",
        f"SCOREKEEPER_BACKUP_INTERVAL: {value!r} is not a whole number of seconds"
        " (0 switches automatic backups off)\n",
    )


# --- kill -9 in the middle of a backup ---------------------------------------------


def scorekeeper_serve(instance: Path, port: int, log: Path) -> subprocess.Popen:
    """`scorekeeper serve` as scripts/serve.sh runs it, in a process of its own,
    backing up every second."""
    command = Path(sys.executable).with_name("scorekeeper")
    with open(log, "ab") as out:
        return subprocess.Popen(
            [command, "serve", "--local", "--port", str(port), "--instance", instance],
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            env={**os.environ, "SCOREKEEPER_BACKUP_INTERVAL": "1"},
        )


BIG = 3000  # matches: a backup of them takes long enough to be killed in


def big_store(instance: Path, matches: int) -> tuple[str, str]:
    """A store of many matches, so that a backup takes long enough to be killed
    in, and one more without hands, to play; the store and that match's id."""
    database = make_store(instance)
    evening = loads(example("rubber").read_text(encoding="utf-8"))
    db = store.connect(database)
    with store.writing(db):
        for _ in range(matches):
            store.create_match(db, evening)
    played = store.create_match(db, replace(evening, hands=[])).match_id
    db.close()
    return database, played


# Defeated contracts only, each declarer in turn: the match never ends and no
# two hands are alike, so each acknowledged hand can be found once.
DEFEATED = [
    {"declarer": declarer, "contract": f"{level}{strain}", "tricks": tricks}
    for level in range(1, 8)
    for strain in ("C", "D", "H", "S", "NT")
    for tricks in range(6 + level)
    for declarer in ("Margaret", "Tom", "Helen", "Richard")  # the rubber example's players
]


def save_hands(phone: Phone, match_id: str, hands, stop: threading.Event, saved: list) -> None:
    """Save the next hand, again and again, until `stop` or the server is gone;
    each hand acknowledged (the redirect to the next hand's form) into `saved`."""
    while not stop.is_set():
        hand = next(hands)
        contract = hand["contract"]
        fields = {"declarer": hand["declarer"], "level": contract[0], "strain": contract[1:]}
        try:
            form = phone.form(f"/m/{match_id}/hand/new")
            answer = phone.submit(form, **fields, tricks=str(hand["tricks"]))
        except (OSError, http.client.HTTPException):
            return  # killed, maybe with this save on its way: never acknowledged
        if answer.status == 302 and answer.location == f"/m/{match_id}/hand/new":
            saved.append(hand)
        else:
            saved.append(f"not saved: {answer.status} {answer.text[:300]}")


def test_a_kill_during_a_backup_loses_nothing(tmp_path):
    instance = tmp_path / "instance"
    database, match_id = big_store(instance, matches=BIG)
    log = tmp_path / "serve.log"
    hands = iter(DEFEATED)
    acknowledged: list[dict] = []
    for _attempt in range(5):
        port = free_port()
        server = scorekeeper_serve(instance, port, log)
        try:
            phone = Phone(accepting(server, port, seconds=30), "Ann's phone")
            stop = threading.Event()
            saver = threading.Thread(
                target=save_hands, args=(phone, match_id, hands, stop, acknowledged)
            )
            saver.start()
            # A backup done, then another under way: kill the server in it.
            wait_for(lambda: automatic(instance), "completed backup", seconds=60)
            wait_for(lambda: partials(instance), "backup under way", seconds=60)
            server.send_signal(signal.SIGKILL)
            server.wait(timeout=10)
            stop.set()
            saver.join(timeout=30)
        finally:
            server.kill()
            server.wait(timeout=10)
        if partials(instance):  # the kill came in the middle of a backup
            break
    assert partials(instance), "no kill landed in the middle of a backup"
    assert [hand for hand in acknowledged if isinstance(hand, str)] == []
    assert len(acknowledged) > 0
    # The store and every completed backup are whole, readable and private.
    assert integrity(Path(database)) == "ok"
    completed = automatic(instance)
    for name in completed:
        path = instance / "backups" / name
        assert integrity(path) == "ok" and mode(path) == 0o600
        assert stored_counts(path) == (BIG + 1, 0)
    # Started again: every acknowledged hand is there once, and the next backup
    # clears the partial copy and holds every hand.
    port = free_port()
    server = scorekeeper_serve(instance, port, log)
    try:
        stored = Phone(accepting(server, port, seconds=30)).hands(match_id)
        assert [hand for hand in acknowledged if stored.count(hand) != 1] == []
        wait_for(
            lambda: len(automatic(instance)) > len(completed) and not partials(instance),
            "backup after the restart",
        )
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=10)
    [after] = [name for name in automatic(instance) if name not in completed]
    copy = read_only(instance / "backups" / after)
    assert json.loads(dumps(store.load_match(copy, match_id).match))["hands"] == stored
    copy.close()


def partials(instance: Path) -> list[str]:
    folder = instance / "backups"
    return (
        sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))
        if folder.is_dir()
        else []
    )


def integrity(path: Path) -> str:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def test_a_damaged_store_is_replaced_and_kept_as_it_was(tmp_path, capsys):
    home = filled_instance(tmp_path, capsys)
    good = tmp_path / "good.db"
    assert scorekeeper(capsys, "backup", "--instance", home, good)[0] == 0
    broken = tmp_path / "broken"
    broken.mkdir()
    database = broken / "scorekeeper.db"
    damaged("flipped", good, tmp_path).rename(database)
    raw = database.read_bytes()
    with pytest.raises(sqlite3.DatabaseError, match="^database disk image is malformed$"):
        integrity(database)
    status, out, err = scorekeeper(capsys, "restore", "--instance", broken, good)
    assert (status, err) == (0, "")
    [kept] = re.findall(r"is in (\S+) \(restore that file to undo\)", out)
    assert out == (
        f"Restored {STORED} matches and 1 group from {good}.\n"
        f"The store as it was (damaged, with its -wal file if it had one) is in {kept}"
        " (restore that file to undo).\n"
    )
    assert Path(kept).read_bytes() == raw and mode(Path(kept)) == 0o600
    assert everything(broken) == everything(home)
