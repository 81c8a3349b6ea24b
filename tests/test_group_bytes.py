"""A group's own download always imports back, however long its matches: a
group stops growing where it grows (adding or starting a match, Mark as paid)
once its group file reaches what a group holds (groups.MAX_GROUP_BYTES), and
the import takes that and the room left above it for the matches still being
played (groups.MAX_GROUP_FILE_BYTES), on the web and on the command line."""

from __future__ import annotations

import io
import json
import re
from datetime import date, timedelta
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.matchfile import from_document
from tests.test_backup import scorekeeper
from tests.test_groupfile import friday, group_ledger
from tests.webtools import visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RUBBER = json.loads((EXAMPLES / "rubber.json").read_text(encoding="utf-8"))
MEMBERS = RUBBER["players"]  # Margaret, Tom, Helen, Richard
MB = 1024 * 1024


def long_evening(week: int):
    """A long evening of rubber bridge: eight rubbers, 48 hands, as a real
    table plays them (the example's two rubbers, four times over)."""
    played = date(2016, 1, 1) + timedelta(weeks=week)
    doc = {
        **RUBBER,
        "title": f"Friday {played.isoformat()} at the Hendersons'",
        "options": {"rubbers": 8, "round_to_hundreds": True},
        "played": played.isoformat(),
        "hands": RUBBER["hands"] * 4,
    }
    return from_document(doc)


def a_group_of_long_evenings(db, weeks: int, payments: int) -> str:
    """A group built as the app builds it (the store's own write paths): the
    matches started one by one, joined to the group, the payments recorded."""
    made = g.create_group(db, "Fridays at the Hendersons'", MEMBERS)
    ids = {m.name: m.id for m in made.state.members}
    joined = []
    for week in range(weeks):
        started = store.create_match(db, long_evening(week))
        joined.append({"match": started.match_id, "mapping": {p: ids[p] for p in MEMBERS}})
    cmd = g.GroupCommand(g.ADD_MATCHES, {"matches": joined}, None, None, "Tom's phone")
    g.apply_group(db, made.group_id, cmd)
    paid = [
        {
            "payer": ids[MEMBERS[i % 4]],
            "payee": ids[MEMBERS[(i + 1) % 4]],
            "amount": "2.50",
            "currency": "GBP",
            "date": (date(2016, 1, 1) + timedelta(days=i)).isoformat(),
            "by": "Tom's phone",
        }
        for i in range(payments)
    ]
    g.apply_group(db, made.group_id, g.GroupCommand(g.PAY, {"payments": paid}, None, None, "Tom"))
    return made.group_id


def same_ledger(there, here) -> None:
    """The same balances, standings and settle-up (each match's own key and
    day aside: an imported match is a new match, started on the day it was
    played)."""
    assert there.balances == here.balances
    assert there.standings == here.standings
    assert there.settle_up == here.settle_up
    # Each evening Tom and Richard win 4.00 GBP each of Margaret and Helen
    # (eight rubbers at 0.50 GBP per 100); the payments go round and cancel out.
    assert {c: {m: str(v) for m, v in p.items()} for c, p in here.balances.items()} == BALANCES


BALANCES = {
    "GBP": {"Margaret": "-2000.00", "Tom": "2000.00", "Helen": "-2000.00", "Richard": "2000.00"}
}


def upload(client, raw: bytes, path: str = "/import"):
    data = {"match_file": (io.BytesIO(raw), "fridays.group.json")}
    return client.post(path, data=data, content_type="multipart/form-data")


@pytest.fixture(scope="module")
def full_group(tmp_path_factory, migrated_template):
    """Ten years of long Fridays: the most matches and payments a group holds,
    each match an evening of 48 hands (a group file of about 2 MB)."""
    path = tmp_path_factory.mktemp("full") / "full.db"
    path.write_bytes(migrated_template.read_bytes())
    db = store.connect(str(path))
    try:
        group_id = a_group_of_long_evenings(db, g.MAX_GROUP_MATCHES, g.MAX_GROUP_PAYMENTS)
        text = gf.dumps(gf.group_document(db, g.load_group(db, group_id)))
        ledger = group_ledger(db, group_id)
    finally:
        db.close()
    return path, group_id, text.encode(), ledger


def test_a_group_of_long_evenings_at_the_limits_downloads_and_imports_back(app, full_group):
    path, group_id, raw, ledger = full_group
    assert len(raw) > 1536 * 1024  # past what the import used to take
    assert len(raw) <= g.MAX_GROUP_BYTES
    # Its download, as the group page serves it, is that file.
    app.config["DATABASE"] = str(path)
    client = app.test_client()
    download = client.get(f"/g/{group_id}/group.json")
    assert (download.status_code, download.data) == (200, raw)
    # Imported on the web (as a copy: it is here already): the same group and ledger.
    answer = upload(client, raw, "/import/group-copy")
    assert answer.status_code == 302, visible_text(client.get("/"))[-600:]
    copy_id = answer.location.removeprefix("/g/")
    db = store.connect(str(path))
    try:
        assert gf.group_document(db, g.load_group(db, copy_id)) == json.loads(raw)
        same_ledger(group_ledger(db, copy_id), ledger)
    finally:
        db.close()


def test_the_same_download_imports_on_the_command_line(tmp_path, capsys, full_group):
    _, _, raw, ledger = full_group
    source = tmp_path / "fridays.group.json"
    source.write_bytes(raw)
    instance = tmp_path / "instance"
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, source)
    assert (status, err) == (0, "")
    assert re.fullmatch(
        f"{re.escape(str(source))}: imported as the group /g/[\\w-]{{16}} \\(500 matches\\)\n", out
    ), out
    db = store.connect(str(instance / "scorekeeper.db"))
    try:
        (group_id,) = [row["id"] for row in db.query("select id from groups")]
        same_ledger(group_ledger(db, group_id), ledger)
    finally:
        db.close()


# --- just over the limit ------------------------------------------------------------------

OVER = (
    f"file: larger than 4 MB; a group file holds at most 40 members, {g.MAX_GROUP_MATCHES}"
    f" matches and {g.MAX_GROUP_PAYMENTS} payments, in a file of at most 4 MB"
)


def just_over() -> bytes:
    head = b'{"format": "scorekeeper-group/1", "name": "'
    return head + b"x" * (g.MAX_GROUP_FILE_BYTES - len(head) - 1) + b'"}'


def test_the_limits_are_what_the_docs_say():
    assert (g.MAX_GROUP_BYTES, g.MAX_GROUP_FILE_BYTES) == (3 * MB, 4 * MB)
    assert cli.MAX_IMPORT_READ == g.MAX_GROUP_FILE_BYTES + 1
    assert len(just_over()) == g.MAX_GROUP_FILE_BYTES + 1


@pytest.mark.parametrize("path", ["/import", "/import/group-copy"])
def test_a_file_just_over_the_limit_is_refused_on_the_web_in_one_line(client, path):
    answer = upload(client, just_over(), path)
    assert answer.status_code == 302
    page = visible_text(client.get("/"))
    assert f"Not imported: 1 problem in this group file. {OVER}" in page, page[:800]


def test_a_file_just_over_the_limit_is_refused_on_the_command_line(tmp_path, capsys):
    source = tmp_path / "big.group.json"
    source.write_bytes(just_over())
    status, out, err = scorekeeper(capsys, "import", "--instance", tmp_path / "i", source)
    assert (status, out) == (cli.EXIT_INVALID, "")
    assert err == f"{source}: not imported: {OVER}\n1 of 1 file not imported.\n"


def test_other_forms_keep_the_small_request_limit(client):
    """Only the group file's import takes a request of 4 MB; a match import
    and every other form keep the app's 2 MB."""
    assert upload(client, b" " * (3 * MB), "/import/copy").status_code == 413
    assert upload(client, b" " * (5 * MB), "/import").status_code == 413


def test_a_file_written_tightly_is_refused_when_the_app_would_write_it_larger(db_path, monkeypatch):
    """The import measures the group as the app writes it (its own download
    must import back): a file within the limit only by leaving out spaces is
    refused, naming both sizes, and nothing is stored."""
    tight = json.dumps(friday(), separators=(",", ":")).encode()
    monkeypatch.setattr(gf, "MAX_GROUP_FILE_BYTES", len(tight))
    db = store.connect(db_path)
    try:
        with pytest.raises(g.GroupRefused) as refused:
            gf.import_group(db, gf.read_group_file(tight))
        spaced = len(gf.dumps(friday()).encode())
        assert str(refused.value) == (
            f"As this app writes it, this group's file would be {spaced // 1024} kB,"
            f" more than the {len(tight) // 1024} kB a group file holds."
        )
        assert (db["groups"].count, db["matches"].count) == (0, 0)
    finally:
        db.close()


@pytest.fixture
def db_path(store_path) -> str:
    return store_path
