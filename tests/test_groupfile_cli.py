"""Groups on the command line and in the backup: `scorekeeper export DIR`
writes a group file per group into DIR/groups (the match files as before),
`scorekeeper import` takes group files too, `scorekeeper backup` copies the
group tables."""

from __future__ import annotations

import json
import re
import sqlite3

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.app import create_app
from scorekeeper.matchfile import MAX_FILE_BYTES
from tests.test_backup import imported_ids, scorekeeper
from tests.test_groupfile import friday

GROUP_TABLES = ("groups", "group_members", "group_matches", "group_payments", "group_changes")


def store_of(instance):
    create_app(instance=instance)  # made and migrated as `scorekeeper` makes it
    return store.connect(str(instance / "scorekeeper.db"))


def test_import_takes_a_group_file_and_export_writes_it_back(tmp_path, capsys):
    source = tmp_path / "friday.group.json"
    source.write_text(json.dumps(friday(), indent=2), encoding="utf-8")
    instance = tmp_path / "instance"
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, source)
    assert (status, err) == (0, "")
    [group_id] = re.findall(r"/g/([\w-]{16}) ", out)
    assert out == f"{source}: imported as the group /g/{group_id} (4 matches)\n"
    exported = tmp_path / "out"
    status, out, err = scorekeeper(capsys, "export", "--instance", instance, exported)
    assert (status, err) == (0, "")
    assert out == (f"Exported 4 matches to {exported}\nExported 1 group to {exported / 'groups'}\n")
    [written] = (exported / "groups").iterdir()
    assert written.name == f"friday-four-{group_id}.group.json"
    assert json.loads(written.read_text(encoding="utf-8")) == friday()
    # The match files are the match page's export, as before groups existed.
    client = create_app(instance=instance).test_client()
    for path in exported.glob("*.json"):
        match_id = path.stem[-16:]
        assert path.read_text(encoding="utf-8") == client.get(f"/m/{match_id}/match.json").text

    # Into another store: the same group file comes out again.
    elsewhere = tmp_path / "elsewhere"
    status, out, err = scorekeeper(capsys, "import", "--instance", elsewhere, written)
    assert (status, err) == (0, "")
    scorekeeper(capsys, "export", "--instance", elsewhere, tmp_path / "again")
    [again] = (tmp_path / "again" / "groups").iterdir()
    assert again.read_text(encoding="utf-8") == written.read_text(encoding="utf-8")


def test_export_of_a_store_without_groups_writes_no_groups_folder(tmp_path, capsys):
    instance = tmp_path / "instance"
    example = tmp_path / "x.json"
    example.write_text(json.dumps(friday()["matches"][0]["match"]), encoding="utf-8")
    status, out, _ = scorekeeper(capsys, "import", "--instance", instance, example)
    assert status == 0 and len(imported_ids(out)) == 1
    status, out, _ = scorekeeper(capsys, "export", "--instance", instance, tmp_path / "out")
    assert out == f"Exported 1 match to {tmp_path / 'out'}\n"
    assert not (tmp_path / "out" / "groups").exists()


def test_import_refuses_a_bad_group_file_line_by_line_and_one_already_here(tmp_path, capsys):
    instance = tmp_path / "instance"
    good = tmp_path / "good.json"
    good.write_text(json.dumps(friday()), encoding="utf-8")
    bad_doc = friday()
    bad_doc["matches"][1]["mapping"]["Dee"] = "Eve"
    bad_doc["payments"][0]["date"] = "yesterday"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_doc), encoding="utf-8")
    status, out, err = scorekeeper(capsys, "import", "--instance", instance, good, bad, good)
    assert status == 2
    [group_id] = re.findall(r"/g/([\w-]{16})", out)
    assert err.splitlines() == [
        f"{bad}: not imported: matches[1]: mapping: Dee: 'Eve' is not one of the members",
        f"{bad}: not imported: payments[0]: date: 'yesterday' is not a day written like"
        ' "2026-11-20"',
        f"{good}: not imported: the group Friday four is already here, as /g/{group_id}",
        "2 of 3 files not imported.",
    ]
    db = store.connect(str(instance / "scorekeeper.db"))
    try:
        assert (db["groups"].count, db["matches"].count) == (1, 4)
    finally:
        db.close()


def test_a_backup_holds_every_group_table_row_for_row(tmp_path, capsys):
    instance = tmp_path / "instance"
    db = store_of(instance)
    try:
        made = gf.import_group(db, gf.loads(json.dumps(friday())))
        g.apply_group(db, made.group_id, g.GroupCommand(g.RENAME, {"name": "Friday five"}))
        expected = {
            table: [tuple(r) for r in db.conn.execute(f"select * from {table} order by 1, 2")]
            for table in GROUP_TABLES
        }
    finally:
        db.close()
    copy = tmp_path / "copy.db"
    status, out, err = scorekeeper(capsys, "backup", "--instance", instance, copy)
    assert (status, out, err) == (0, f"Backed up 4 matches to {copy}\n", "")
    backed = sqlite3.connect(copy)
    try:
        found = {
            table: [tuple(r) for r in backed.execute(f"select * from {table} order by 1, 2")]
            for table in GROUP_TABLES
        }
    finally:
        backed.close()
    assert found == expected
    assert [len(found[t]) for t in GROUP_TABLES] == [1, 4, 4, 1, 4]
    # The copy opened as a store holds the same group, name and all.
    db = store.connect(str(copy))
    try:
        state = g.load_group(db, made.group_id)
        assert state.name == "Friday five"
        assert gf.group_document(db, state)["matches"] == friday()["matches"]
    finally:
        db.close()


def test_import_reads_enough_to_tell_a_group_file_over_its_limit():
    assert max(MAX_FILE_BYTES, gf.MAX_GROUP_FILE_BYTES) + 1 == cli.MAX_IMPORT_READ
