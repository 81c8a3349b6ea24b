"""The group file on the web: "Download group file" on the group page, a group
file sent with the first page's import form (detected by its format key), the
same file twice, a copy, a double tap, and two phones importing it at once
under waitress."""

from __future__ import annotations

import io
import json
import re
from functools import partial

import pytest

from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.app import create_app
from tests.phones import Phone, served, together
from tests.test_groupfile import friday
from tests.webtools import visible_text

GROUP_ID = re.compile(r"/g/([\w-]{16})$")


def upload(client, document, path="/import", key=None):
    raw = document if isinstance(document, bytes) else json.dumps(document).encode()
    data = {"match_file": (io.BytesIO(raw), "friday.group.json")}
    if key:
        data["key"] = key
    return client.post(path, data=data, content_type="multipart/form-data")


def group_of(response) -> str:
    assert response.status_code == 302, visible_text(response)[:500]
    return GROUP_ID.search(response.headers["Location"]).group(1)


def test_a_group_file_sent_with_the_import_form_becomes_the_group(app, client):
    group_id = group_of(upload(client, friday()))
    page = visible_text(client.get(f"/g/{group_id}"))
    assert "Imported the group Friday four: 4 members, 4 matches, 1 payment." in page
    assert "Group · Ann · Bob · Cy · Dan" in page
    assert "Matches (4)" in page
    # The first page lists the group on this phone.
    assert "Friday four" in visible_text(client.get("/"))
    with app.app_context():
        db = store.get_db()
        assert gf.group_document(db, g.load_group(db, group_id)) == friday()


def test_the_group_page_offers_its_group_file(app, client):
    group_id = group_of(upload(client, friday()))
    page = client.get(f"/g/{group_id}").get_data(as_text=True)
    assert f'href="/g/{group_id}/group.json"' in page
    assert "Download group file" in visible_text(page)
    answer = client.get(f"/g/{group_id}/group.json")
    assert answer.status_code == 200
    assert answer.headers["Content-Type"] == "application/json"
    assert answer.headers["Content-Disposition"] == (
        f'attachment; filename="friday-four-{group_id}.group.json"'
    )
    assert json.loads(answer.get_data(as_text=True)) == friday()
    assert client.get("/g/AAAAAAAAAAAAAAAA/group.json").status_code == 404


def test_the_same_file_again_is_already_here_then_a_copy_on_request(app, client):
    first = group_of(upload(client, friday()))
    again = upload(client, friday())
    assert again.status_code == 409
    text = visible_text(again)
    assert "This group is already here (imported a moment ago). Nothing was imported." in text
    assert "Friday four Ann · Bob · Cy · Dan · 4 matches · 1 payment" in text
    assert f'href="/g/{first}"' in again.get_data(as_text=True)
    assert 'action="/import/group-copy"' in again.get_data(as_text=True)
    copy = group_of(upload(client, friday(), path="/import/group-copy"))
    assert copy != first
    assert "Imported a copy of the group Friday four" in visible_text(client.get(f"/g/{copy}"))
    with app.app_context():
        db = store.get_db()
        assert (db["groups"].count, db["matches"].count) == (2, 8)


def test_a_double_tap_of_the_import_form_makes_one_group(app, client):
    first = group_of(upload(client, friday(), key="k" * 22))
    second = group_of(upload(client, friday(), key="k" * 22))
    assert second == first
    with app.app_context():
        assert store.get_db()["groups"].count == 1


def test_a_bad_group_file_says_each_problem_and_stores_nothing(app, client):
    doc = friday()
    doc["matches"][2]["match"]["hands"][2]["contract"] = "8S"
    doc["payments"][0]["amount"] = "-1"
    answer = upload(client, doc)
    assert answer.status_code == 302 and answer.headers["Location"] == "/"
    text = visible_text(client.get("/"))
    assert "Not imported: 2 problems in this group file." in text
    assert "matches[2]: hand 3: contract: level 8 is not allowed, use 1–7" in text
    assert "payments[0]: amount: Write an amount above 0 with at most two decimals" in text
    with app.app_context():
        db = store.get_db()
        assert (db["groups"].count, db["matches"].count) == (0, 0)


def test_a_group_file_over_the_limit_is_named_as_a_group_file(app, client):
    raw = b'{"format": "scorekeeper-group/1", "name": "' + b"x" * gf.MAX_GROUP_FILE_BYTES + b'"}'
    upload(client, raw)
    assert "file: larger than 4 MB; a group file holds at most 40 members" in visible_text(
        client.get("/")
    )


def test_a_match_file_still_imports_as_a_match(client, actions):
    match_id = actions.imported(friday()["matches"][0]["match"])
    assert client.get(f"/m/{match_id}").status_code == 200


# --- two phones at once under waitress ----------------------------------------------


@pytest.fixture
def served_app(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "phones"})
    with served(app) as base:
        yield app, base


@pytest.mark.parametrize("round_", range(3))
def test_two_phones_importing_the_same_group_file_at_once_make_one_group(served_app, round_):
    app, base = served_app
    raw = json.dumps(friday()).encode()
    phones = [Phone(base, "Ann's phone"), Phone(base, "Bob's phone")]
    forms = [  # the import form, with CSRF and key (the language switch is another)
        next(form for form in phone.forms("/") if form.action == "/import") for phone in phones
    ]
    assert all(form.action == "/import" for form in forms)
    answers = together(
        *(
            partial(phone.upload, "/import", form.fields, "match_file", raw, "friday.group.json")
            for phone, form in zip(phones, forms, strict=True)
        )
    )
    statuses = sorted(a.status for a in answers)
    assert statuses == [302, 409]
    made = next(a for a in answers if a.status == 302)
    told = next(a for a in answers if a.status == 409)
    group_id = GROUP_ID.search(made.location).group(1)
    assert "This group is already here" in visible_text(told.text)
    # The other phone never had the group: its address is not handed out.
    assert f'href="/g/{group_id}"' not in told.text
    assert "It is not on this phone's list" in visible_text(told.text)
    db = store.connect(app.config["DATABASE"])
    try:
        assert (db["groups"].count, db["matches"].count, db["group_payments"].count) == (1, 4, 1)
    finally:
        db.close()
