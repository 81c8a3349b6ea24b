"""Keeping the evening safe (issue 11): `scorekeeper backup FILE` copies the
database while the app writes, `scorekeeper export DIR` and `scorekeeper
import FILE…` move matches as match files, and the home page's "Download all
matches" zips this browser's matches the way export names them."""

from __future__ import annotations

import io
import json
import re
import sqlite3
import threading
import zipfile
from dataclasses import replace
from pathlib import Path

import pytest
from sqlite_utils import Database

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper.app import create_app
from scorekeeper.backup import match_filename, slug
from scorekeeper.changelog import APPEND, DELETE_MATCH, Command, played_on
from scorekeeper.matchfile import MAX_FILE_BYTES, loads
from scorekeeper.report import score_document
from scorekeeper.variants import replay_match
from tests.games import VARIANT_IDS, pinned
from tests.webtools import match_id_in, visible_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.json"))
EXPORTED_NAME = re.compile(r"\d{4}-\d\d-\d\d-[a-z0-9-]+-[A-Za-z0-9_-]{16}\.json")


def scorekeeper(capsys, *args) -> tuple[int, str, str]:
    """`scorekeeper ARGS…` in this process: exit status, standard output, standard error."""
    capsys.readouterr()
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def example(name: str) -> Path:
    return ROOT / "examples" / f"{name}.json"


def scores(text: str) -> dict:
    return score_document(loads(text))


def imported_ids(out: str) -> list[str]:
    return re.findall(r": imported as /m/([\w-]{16}) ", out)


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


def stored_matches(instance: Path) -> list[store.StoredMatch]:
    db = store.connect(str(instance / "scorekeeper.db"))
    try:
        return store.list_matches(db)
    finally:
        db.close()


# --- backup ------------------------------------------------------------------------


def test_a_backup_taken_while_hands_are_written_is_whole_and_consistent(tmp_path, instance, capsys):
    database = create_app(instance=instance).config["DATABASE"]
    evening = loads(example("rubber").read_text(encoding="utf-8"))
    writer = store.connect(database)
    finished: list[str] = []
    stop = threading.Event()
    failure: list[BaseException] = []

    def write_hands():
        """A table saving hands one by one, match after match, as fast as it can."""
        try:
            while not stop.is_set():
                match_id = store.create_match(writer, replace(evening, hands=[])).match_id
                for record in evening.hands:
                    if stop.is_set():
                        return
                    store.apply(writer, match_id, Command(APPEND, record=record))
                finished.append(match_id)
        except BaseException as exc:  # reported below, not lost in the thread
            failure.append(exc)

    thread = threading.Thread(target=write_hands)
    thread.start()
    copies = []
    try:
        while not finished and not failure:
            stop.wait(0.01)
        for number in range(3):
            before = list(finished)
            copy = tmp_path / f"copy-{number}.db"
            status, out, err = scorekeeper(capsys, "backup", "--instance", instance, copy)
            assert (status, err) == (0, ""), err
            copies.append((copy, before, out))
    finally:
        stop.set()
        thread.join()
        writer.close()
    assert not failure, failure
    written_meanwhile = 0
    for copy, before, out in copies:
        assert not copy.with_name(copy.name + "-wal").exists()
        conn = sqlite3.connect(copy)
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("PRAGMA journal_mode").fetchall() == [("delete",)]
        matches = store.list_matches(Database(conn))
        assert out == f"Backed up {len(matches)} matches to {copy}\n"
        ids = {m.id for m in matches}
        assert set(before) <= ids  # every match finished before the backup began
        for stored in matches:
            # One moment: each match holds the first hands of the evening, in order.
            assert stored.records == evening.hands[: len(stored.records)]
            replay_match(stored.match)
            written_meanwhile += len(stored.records) < len(evening.hands)
        conn.close()
    assert written_meanwhile >= 1  # at least one copy caught a match half written
    assert not list(tmp_path.glob(".copy-*"))  # no partial file left behind


def test_a_backup_replaces_an_earlier_copy_of_the_same_name(tmp_path, instance, capsys):
    scorekeeper(capsys, "import", "--instance", instance, example("top-game"))
    copy = tmp_path / "nightly.db"
    copy.write_text("last night's copy")
    assert scorekeeper(capsys, "backup", "--instance", instance, copy) == (
        0,
        f"Backed up 1 match to {copy}\n",
        "",
    )
    assert [m.title for m in store.list_matches(Database(sqlite3.connect(copy)))] == [
        "Friday at Ann's"
    ]


def test_a_backup_onto_the_database_itself_is_refused(instance, capsys):
    scorekeeper(capsys, "import", "--instance", instance, example("top-game"))
    database = instance / "scorekeeper.db"
    assert scorekeeper(capsys, "backup", "--instance", instance, database) == (
        2,
        "",
        f"{database}: not written: it is the database itself\n",
    )
    assert len(stored_matches(instance)) == 1


def test_a_backup_into_a_missing_folder_is_refused_and_leaves_nothing(tmp_path, instance, capsys):
    target = tmp_path / "no-such-folder" / "copy.db"
    assert scorekeeper(capsys, "backup", "--instance", instance, target) == (
        1,
        "",
        f"{target}: not written: No such file or directory\n",
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["instance"]


@pytest.mark.parametrize("command", [["backup", "copy.db"], ["export", "out"], ["matches"]])
def test_an_instance_folder_that_cannot_be_made_is_named_in_one_line(tmp_path, capsys, command):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    status, out, err = scorekeeper(capsys, *command, "--instance", blocker / "instance")
    assert (status, out) == (1, "")
    assert err == (
        f"Scorekeeper cannot write its instance folder {blocker / 'instance'} (Not a directory):"
        " make it writable by this user, free disk space, or choose another folder with"
        " --instance DIR or SCOREKEEPER_INSTANCE=DIR.\n"
    )


# --- export and import ------------------------------------------------------------


def test_export_then_import_gives_back_every_example_with_the_same_scores(
    tmp_path, instance, capsys
):
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, *EXAMPLES)
    assert (status, err) == (0, "")
    ids = imported_ids(out)
    assert out.splitlines() == [
        f"{path}: imported as /m/{match_id} ({pinned(path.stem, 'EXAMPLE_RESULTS').hands} hands)"
        for path, match_id in zip(EXAMPLES, ids, strict=True)
    ]
    exported = tmp_path / "exported"
    assert scorekeeper(capsys, "export", "--instance", instance, exported) == (
        0,
        f"Exported {len(VARIANT_IDS)} matches to {exported}\n",
        "",
    )
    files = {path.name: path.read_text(encoding="utf-8") for path in exported.iterdir()}
    assert len(files) == len(EXAMPLES) and all(EXPORTED_NAME.fullmatch(n) for n in files)
    client = create_app(instance=instance).test_client()
    for path, match_id in zip(EXAMPLES, ids, strict=True):
        [name] = [n for n in files if n.endswith(f"-{match_id}.json")]
        # The same writer as the match page's export, and the same scores.
        assert files[name] == client.get(f"/m/{match_id}/match.json").get_data(as_text=True)
        assert scores(files[name]) == scores(path.read_text(encoding="utf-8"))

    # ... and into another store, which exports the same files again.
    elsewhere = tmp_path / "elsewhere"
    status, out, err = scorekeeper(
        capsys, "import", "--instance", elsewhere, *sorted(exported.iterdir())
    )
    assert (status, err, len(imported_ids(out))) == (0, "", len(EXAMPLES))
    scorekeeper(capsys, "export", "--instance", elsewhere, tmp_path / "again")
    again = [p.read_text(encoding="utf-8") for p in (tmp_path / "again").iterdir()]
    assert sorted(again) == sorted(files.values())


def test_export_names_files_by_day_title_and_id(instance, capsys, tmp_path):
    status, out, _ = scorekeeper(capsys, "import", "--instance", instance, example("top-game"))
    [match_id] = imported_ids(out)
    [stored] = stored_matches(instance)
    day = played_on(stored.created).isoformat()  # the file names no day: its start's evening
    scorekeeper(capsys, "export", "--instance", instance, tmp_path / "out")
    assert [p.name for p in (tmp_path / "out").iterdir()] == [
        f"{day}-friday-at-ann-s-{match_id}.json"
    ]
    assert match_filename(replace(stored, title="")) == f"{day}-top-game-{match_id}.json"


@pytest.mark.parametrize(
    "title, expected",
    [
        ("Friday at Ann's", "friday-at-ann-s"),
        ("Vendredi chez Aïcha", "vendredi-chez-aicha"),  # accents folded, not dropped
        ("♠ Club night ♥", "club-night"),
        ("♠♥♦♣", ""),  # nothing readable: the variant id stands in
        ("A" * 30 + " " + "B" * 30, "a" * 30 + "-" + "b" * 9),  # 40 characters at most
        ("A" * 39 + " B", "a" * 39),  # never ends on a dash
    ],
)
def test_a_title_becomes_a_file_name_part(title, expected):
    assert slug(title) == expected


def test_deleted_matches_are_exported_into_their_own_folder(tmp_path, instance, capsys):
    status, out, _ = scorekeeper(
        capsys, "import", "--instance", instance, example("top-game"), example("calypso")
    )
    kept, deleted = imported_ids(out)
    db = store.connect(str(instance / "scorekeeper.db"))
    store.apply(db, deleted, Command(DELETE_MATCH))
    db.close()
    out_dir = tmp_path / "out"
    assert scorekeeper(capsys, "export", "--instance", instance, out_dir) == (
        0,
        f"Exported 1 match to {out_dir}, and 1 deleted in {out_dir / 'deleted'}\n",
        "",
    )
    [live] = out_dir.glob("*.json")
    assert live.name.endswith(f"-{kept}.json")
    [gone] = (out_dir / "deleted").iterdir()
    assert gone.name.endswith(f"-{deleted}.json")
    assert scores(gone.read_text()) == scores(example("calypso").read_text())


def test_export_into_a_file_is_refused(tmp_path, instance, capsys):
    blocker = tmp_path / "notes.txt"
    blocker.write_text("")
    assert scorekeeper(capsys, "export", "--instance", instance, blocker) == (
        1,
        "",
        f"{blocker}: not written: it is a file, not a folder\n",
    )


def _broken_at_hand_3() -> bytes:
    doc = json.loads(example("top-game").read_text(encoding="utf-8"))
    doc["hands"][2]["tricks"] = 14
    return json.dumps(doc).encode()


# (file name, content or None for no such file, the problem line after "not imported: ")
REFUSED = [
    (
        "not-json.json",
        b"{not json",
        "file: not valid JSON: Expecting property name enclosed in double quotes"
        " at line 1 column 2",
    ),
    ("latin-1.json", "Zoë".encode("latin-1"), "file: not a UTF-8 text file"),
    (
        "too-big.json",
        b" " * (MAX_FILE_BYTES + 1),
        "file: larger than 1 MB; a match holds at most 500 entries, names of at most 40"
        " characters, a title of at most 100, in a file of at most 1 MB",
    ),
    ("missing.json", None, "cannot read: No such file or directory"),
]


@pytest.mark.parametrize("name, content, problem", REFUSED)
def test_import_refuses_a_bad_file_by_name_and_still_loads_the_good_ones(
    tmp_path, instance, capsys, name, content, problem
):
    bad = tmp_path / name
    if content is not None:
        bad.write_bytes(content)
    status, out, err = scorekeeper(
        capsys, "import", "--instance", instance, bad, example("calypso")
    )
    assert status == 2
    assert err == f"{bad}: not imported: {problem}\n1 of 2 files not imported.\n"
    assert imported_ids(out) == [m.id for m in stored_matches(instance)]
    assert [m.variant for m in stored_matches(instance)] == ["calypso"]


def test_a_file_refused_at_its_third_hand_stores_nothing_of_it(tmp_path, instance, capsys):
    bad = tmp_path / "friday.json"
    bad.write_bytes(_broken_at_hand_3())
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, bad)
    assert (status, out) == (2, "")
    lines = err.splitlines()
    assert lines[-1] == "1 of 1 file not imported."
    assert lines[:-1] and all(
        line.startswith(f"{bad}: not imported: hand 3: ") for line in lines[:-1]
    )
    assert stored_matches(instance) == []


def test_import_of_a_folder_is_refused(tmp_path, instance, capsys):
    assert scorekeeper(capsys, "import", "--instance", instance, tmp_path) == (
        2,
        "",
        f"{tmp_path}: not imported: cannot read: Is a directory\n1 of 1 file not imported.\n",
    )


# --- "Download all matches" ----------------------------------------------------------


def import_page(client, name: str) -> str:
    """Import an example from the home page's form; the new match's id."""
    answer = client.post(
        "/import", data={"match_file": (io.BytesIO(example(name).read_bytes()), f"{name}.json")}
    )
    assert answer.status_code == 302, answer.text
    return match_id_in(answer.headers["Location"])


def zipped(answer) -> dict[str, str]:
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        return {name: archive.read(name).decode("utf-8") for name in archive.namelist()}


def test_download_all_matches_zips_exactly_this_browsers_matches(app):
    ann, bob = app.test_client(), app.test_client()
    friday, rubber = import_page(ann, "top-game"), import_page(ann, "rubber")
    calypso = import_page(bob, "calypso")
    assert ann.post(f"/m/{rubber}/delete").status_code == 302

    home = ann.get("/")
    assert 'href="/matches.zip"' in home.text and "Download all matches" in visible_text(home)
    answer = ann.get("/matches.zip")
    assert answer.status_code == 200 and answer.mimetype == "application/zip"
    assert answer.headers["Content-Disposition"] == 'attachment; filename="scorekeeper-matches.zip"'
    assert "Set-Cookie" not in answer.headers  # reading changes nothing
    files = zipped(answer)
    with app.app_context():
        db = store.get_db()
        names = {i: match_filename(store.load_match(db, i)) for i in (friday, rubber, calypso)}
    assert set(files) == {names[friday], f"deleted/{names[rubber]}"}
    assert scores(files[names[friday]]) == scores(example("top-game").read_text())
    assert scores(files[f"deleted/{names[rubber]}"]) == scores(example("rubber").read_text())
    assert files[names[friday]] == ann.get(f"/m/{friday}/match.json").text

    assert set(zipped(bob.get("/matches.zip"))) == {names[calypso]}


def test_a_browser_that_knows_no_match_gets_no_link_and_an_empty_zip(client):
    assert "Download all matches" not in visible_text(client.get("/"))
    assert zipped(client.get("/matches.zip")) == {}


def test_download_all_matches_works_with_the_real_security_setup(tmp_path):
    app = create_app(instance=tmp_path)  # CSRF on, the instance's own secret key
    db = store.connect(app.config["DATABASE"])
    match_id = store.create_match(db, loads(example("chicago").read_text())).match_id
    db.close()
    client = app.test_client()
    client.set_cookie("matches", match_id)
    answer = client.get("/matches.zip")
    assert answer.status_code == 200
    assert answer.headers["Content-Security-Policy"].startswith("default-src 'self'")
    [(name, text)] = zipped(answer).items()
    assert name.endswith(f"-{match_id}.json")
    assert scores(text) == scores(example("chicago").read_text())
