"""The store's files (issue 17, points 5, 6 and 14): a backup never lands on the
live store's own files, a damaged database is answered as a store fault, the
secret key is long enough or the app does not start, every file the app makes
is its owner's only, and an export never writes through a symbolic link."""

from __future__ import annotations

import io
import os
import sqlite3
import stat
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper.app import create_app
from scorekeeper.instance import SecretKeyTooShort
from tests.webtools import visible_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
NOT_SAVED = (
    "Not saved: the score store cannot be written right now (disk full / read-only);"
    " nothing was changed."
)


def scorekeeper(capsys, *args) -> tuple[int, str, str]:
    """`scorekeeper ARGS…` in this process: exit status, standard output, standard error."""
    capsys.readouterr()
    status = cli.main([str(a) for a in args])
    out, err = capsys.readouterr()
    return status, out, err


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def instance(tmp_path) -> Path:
    return tmp_path / "instance"


def stored_titles(instance: Path) -> list[str]:
    db = store.connect(str(instance / "scorekeeper.db"))
    try:
        return sorted(m.title for m in store.list_matches(db))
    finally:
        db.close()


# --- 5. a backup onto the live store's own files --------------------------------------


def _store_files(instance: Path) -> tuple[set[str], bytes, bytes]:
    names = {p.name for p in instance.iterdir()}
    database = instance / "scorekeeper.db"
    return names, database.read_bytes(), Path(f"{database}-wal").read_bytes()


@pytest.mark.parametrize(
    "suffix, why",
    [
        ("-wal", "it is the database's write-ahead log (-wal), part of the live store"),
        ("-shm", "it is the database's shared-memory index (-shm), part of the live store"),
        ("-journal", "it is the database's rollback journal (-journal), part of the live store"),
        ("", "it is the database itself"),
    ],
)
def test_a_backup_onto_the_live_stores_own_files_is_refused_and_the_data_stays(
    instance, capsys, suffix, why
):
    for name in ("top-game", "rubber", "calypso"):
        assert (
            scorekeeper(capsys, "import", "--instance", instance, EXAMPLES / f"{name}.json")[0] == 0
        )
    database = instance / "scorekeeper.db"
    # The app is running: its connection keeps the changes in the -wal file,
    # not yet copied into the database file.
    app = create_app(instance=instance)
    keeper = app.extensions["scorekeeper_keeper"]
    db = store.connect(str(database))
    db.execute("PRAGMA wal_autocheckpoint = 0")
    with store.writing(db):
        db.execute("update changes set summary = 'in the WAL only' where revision = 1")
    db.close()
    before = _store_files(instance)
    assert (instance / "scorekeeper.db-wal").stat().st_size > 0
    target = Path(f"{database}{suffix}")
    assert scorekeeper(capsys, "backup", "--instance", instance, target) == (
        2,
        "",
        f"{target}: not written: {why}\n",
    )
    # No file added; the database and its -wal not changed by a byte (the -shm is
    # the readers' shared index: the backup command's own reading touches it).
    assert _store_files(instance) == before
    keeper.close()
    assert stored_titles(instance) == [
        "Calypso night at Bob's",
        "Friday at Ann's",
        "Two rubbers at the Hendersons'",
    ]
    check = store.connect(str(database))
    summaries = {r["summary"] for r in check.query("select summary from changes")}
    assert summaries == {"in the WAL only"}
    check.close()


def test_a_backup_through_a_link_to_the_wal_is_refused(tmp_path, instance, capsys):
    scorekeeper(capsys, "import", "--instance", instance, EXAMPLES / "top-game.json")
    app = create_app(instance=instance)  # keeps the -wal file there
    link = tmp_path / "nightly.db"
    link.symlink_to(instance / "scorekeeper.db-wal")
    status, out, err = scorekeeper(capsys, "backup", "--instance", instance, link)
    assert (status, out) == (2, "")
    why = "it is the database's write-ahead log (-wal), part of the live store"
    assert err == f"{link}: not written: {why}\n"
    app.extensions["scorekeeper_keeper"].close()
    assert stored_titles(instance) == ["Friday at Ann's"]


# --- 5. a damaged database is a store fault ------------------------------------------


def _error(kind: type, message: str, code: int | None) -> sqlite3.Error:
    exc = kind(message)
    if code is not None:
        exc.sqlite_errorcode = code
    return exc


@pytest.mark.parametrize(
    "kind, message, code, fault",
    [
        (sqlite3.DatabaseError, "database disk image is malformed", sqlite3.SQLITE_CORRUPT, True),
        (sqlite3.DatabaseError, "file is not a database", sqlite3.SQLITE_NOTADB, True),
        (sqlite3.OperationalError, "database is locked", sqlite3.SQLITE_BUSY, True),
        (sqlite3.OperationalError, "database is locked", None, True),
        (sqlite3.OperationalError, "no such table: x", sqlite3.SQLITE_ERROR, False),
        (
            sqlite3.IntegrityError,
            "UNIQUE constraint failed",
            sqlite3.SQLITE_CONSTRAINT_UNIQUE,
            False,
        ),
        (sqlite3.DatabaseError, "something else", None, False),
        (sqlite3.ProgrammingError, "Cannot operate on a closed database.", None, False),
    ],
)
def test_store_fault_sees_a_damaged_database_and_not_a_wrong_query(kind, message, code, fault):
    assert store.store_fault(_error(kind, message, code)) is fault


def _damage(database: Path) -> None:
    """Overwrite the database file from its third page on, as a bad disk or a
    file copied over the store would: SQLite then reads "malformed"."""
    db = store.connect(str(database))
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    size = database.stat().st_size
    with database.open("r+b") as handle:
        handle.seek(2 * 4096)
        handle.write(b"\xff" * (size - 2 * 4096))


def test_a_malformed_database_answers_not_saved_instead_of_500(tmp_path):
    app = create_app(
        {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(tmp_path / "d.db")}
    )
    client = app.test_client()
    document = (EXAMPLES / "rubber.json").read_bytes()
    imported = client.post(
        "/import",
        data={"match_file": (io.BytesIO(document), "m.json")},
        content_type="multipart/form-data",
    )
    match_id = imported.location.rsplit("/", 1)[1]
    _damage(tmp_path / "d.db")
    with pytest.raises(sqlite3.DatabaseError) as raised:
        check = store.connect(str(tmp_path / "d.db"))
        store.load_match(check, match_id)
    assert raised.value.sqlite_errorcode & 0xFF == sqlite3.SQLITE_CORRUPT
    answers = [
        client.get(f"/m/{match_id}"),
        client.get("/", headers={"Cookie": f"matches={match_id}"}),
        client.post(
            f"/m/{match_id}/settings",
            data={
                "revision": "1",
                "title": "x",
                "stake_amount": "",
                "stake_per": "",
                "stake_currency": "",
            },
        ),
        client.post(f"/m/{match_id}/hand/new", data={"revision": "1", "declarer": "Ann"}),
    ]
    for answer in answers:
        assert answer.status_code == 503
        assert NOT_SAVED in visible_text(answer)


# --- 6. the secret key --------------------------------------------------------------


def test_an_empty_secret_key_file_is_replaced_with_a_warning(instance, capsys):
    instance.mkdir(mode=0o700)
    (instance / "secret_key").write_text("")
    app = create_app(instance=instance)
    key = (instance / "secret_key").read_text()
    assert app.config["SECRET_KEY"] == key and len(key) == 64
    assert mode(instance / "secret_key") == 0o600
    assert capsys.readouterr().err == (
        f"Scorekeeper: the secret key file {instance / 'secret_key'} was empty"
        " (a first start cut short); made a new key.\n"
    )
    assert app.test_client().get("/").status_code == 200
    create_app(instance=instance)  # the next start keeps it, silently
    assert (instance / "secret_key").read_text() == key
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("key", ["x", "  \n", "0123456789abcdef0123456789abcde"])
def test_a_short_secret_key_file_stops_the_start_with_one_line(instance, capsys, key):
    instance.mkdir(mode=0o700)
    (instance / "secret_key").write_text(key)
    if not key.strip():  # only blanks: as empty, replaced
        assert len(create_app(instance=instance).config["SECRET_KEY"]) == 64
        return
    with pytest.raises(SecretKeyTooShort) as raised:
        create_app(instance=instance)
    assert str(raised.value) == (
        f"Scorekeeper will not start: the secret key file {instance / 'secret_key'} holds a key"
        f" of {len(key)} characters; a secret key needs at least 32. Delete the file (a new"
        " key is made at the next start) or give a longer key."
    )
    assert (instance / "secret_key").read_text() == key  # left for the operator
    status, out, err = scorekeeper(capsys, "matches", "--instance", instance)
    assert (status, out, err) == (1, "", str(raised.value) + "\n")


def test_a_short_key_in_the_environment_is_refused_and_a_long_one_used(instance, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "k")
    with pytest.raises(
        SecretKeyTooShort, match="SCOREKEEPER_SECRET_KEY holds a key of 1 characters"
    ):
        create_app(instance=instance)
    monkeypatch.setenv("SCOREKEEPER_SECRET_KEY", "k" * 32)
    assert create_app(instance=instance).config["SECRET_KEY"] == "k" * 32


def test_serve_stops_on_a_short_key_with_one_line(instance, capsys):
    from scorekeeper.serve import serve

    instance.mkdir()
    (instance / "secret_key").write_text("short")
    assert serve(host="127.0.0.1", port=0, instance=str(instance)) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1 and err.startswith(
        "Scorekeeper will not start: the secret key file"
    )


# --- 6. files the app makes are its owner's only ---------------------------------------


def test_the_instance_its_database_wal_shm_and_key_are_the_owners_only(tmp_path, capsys):
    old = os.umask(0o022)  # a usual login's umask: the app must not rely on a stricter one
    try:
        instance = tmp_path / "new" / "instance"
        app = create_app(instance=instance)
        client = app.test_client()
        assert client.get("/").status_code == 200
        status, out, _ = scorekeeper(
            capsys, "import", "--instance", instance, EXAMPLES / "top-game.json"
        )
        assert status == 0
        backup = tmp_path / "copy.db"
        assert scorekeeper(capsys, "backup", "--instance", instance, backup)[0] == 0
        exported = tmp_path / "out" / "matches"
        assert scorekeeper(capsys, "export", "--instance", instance, exported)[0] == 0
    finally:
        os.umask(old)
    names = {p.name for p in instance.iterdir()}
    assert {"scorekeeper.db", "scorekeeper.db-wal", "scorekeeper.db-shm", "secret_key"} <= names
    assert mode(instance) == 0o700
    for name in ("scorekeeper.db", "scorekeeper.db-wal", "scorekeeper.db-shm", "secret_key"):
        assert mode(instance / name) == 0o600, name
    assert mode(backup) == 0o600
    assert mode(exported) == 0o700
    files = list(exported.iterdir())
    assert len(files) == 1 and mode(files[0]) == 0o600
    app.extensions["scorekeeper_keeper"].close()


def test_an_older_store_readable_by_everyone_is_tightened_at_start(tmp_path):
    instance = tmp_path / "instance"
    app = create_app(instance=instance)
    app.extensions["scorekeeper_keeper"].close()
    db = store.connect(str(instance / "scorekeeper.db"))  # keeps -wal and -shm there
    for name in ("scorekeeper.db", "scorekeeper.db-wal", "scorekeeper.db-shm", "secret_key"):
        (instance / name).chmod(0o644)
    app = create_app(instance=instance)
    for name in ("scorekeeper.db", "scorekeeper.db-wal", "scorekeeper.db-shm", "secret_key"):
        assert mode(instance / name) == 0o600, name
    db.close()
    app.extensions["scorekeeper_keeper"].close()


# --- 14. export never writes through a symbolic link ------------------------------------


def _export_names(instance: Path, capsys) -> tuple[str, str]:
    """(file name of the one match in play, of the one deleted) as export writes them."""
    first = EXAMPLES / "top-game.json"
    second = EXAMPLES / "rubber.json"
    assert scorekeeper(capsys, "import", "--instance", instance, first, second)[0] == 0
    db = store.connect(str(instance / "scorekeeper.db"))
    from scorekeeper.backup import match_filename
    from scorekeeper.changelog import DELETE_MATCH, Command

    matches = store.list_matches(db)
    gone = next(m for m in matches if m.variant == "rubber")
    store.apply(db, gone.id, Command(DELETE_MATCH, revision=1))
    matches = {m.variant: m for m in store.list_matches(db)}
    db.close()
    return match_filename(matches["top-game"]), match_filename(matches["rubber"])


def test_export_replaces_a_link_named_like_its_file_and_leaves_the_target_alone(
    tmp_path, instance, capsys
):
    name, deleted_name = _export_names(instance, capsys)
    out = tmp_path / "out"
    (out / "deleted").mkdir(parents=True)
    precious = tmp_path / "precious.txt"
    precious.write_text("keep me")
    elsewhere = tmp_path / "elsewhere.txt"  # a link to a file that is not there yet
    (out / name).symlink_to(precious)
    (out / "deleted" / deleted_name).symlink_to(elsewhere)
    status, message, err = scorekeeper(capsys, "export", "--instance", instance, out)
    assert (status, err) == (0, "")
    assert message == f"Exported 1 match to {out}, and 1 deleted in {out / 'deleted'}\n"
    assert precious.read_text() == "keep me"
    assert not elsewhere.exists()
    for written in (out / name, out / "deleted" / deleted_name):
        assert not written.is_symlink() and written.read_text().startswith("{\n")
        assert mode(written) == 0o600
    assert sorted(p.name for p in out.iterdir()) == sorted([name, "deleted"])


def test_export_refuses_a_deleted_folder_that_is_a_link(tmp_path, instance, capsys):
    _export_names(instance, capsys)
    out = tmp_path / "out"
    out.mkdir()
    outside = tmp_path / "outside"
    outside.mkdir()
    (out / "deleted").symlink_to(outside)
    status, message, err = scorekeeper(capsys, "export", "--instance", instance, out)
    assert (status, message) == (1, "")
    assert err == (
        f"{out}: not written: {out / 'deleted'} is a symbolic link;"
        " remove it or export into another folder\n"
    )
    assert list(outside.iterdir()) == []
