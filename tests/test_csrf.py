"""CSRF on every POST route: the route list comes from the app's URL map, so a
new POST route without protection fails here instead of going unnoticed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from scorekeeper import db as store
from scorekeeper import groups
from scorekeeper.app import create_app
from tests.webtools import visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# Routes that take no CSRF token on purpose, and what they answer instead.
EXEMPT = {"live.watch_write": 403, "groups.watch_write": 403}  # a watch address refuses every write
# The match of `guarded` is finished: a hand form sent without its token goes
# to the sheet, which says no hand may follow (nothing stored either way).
FINISHED = {"hands.new": 302}
SESSION_LOST = re.compile(r"Not (saved|started)[:.] [Tt]his phone's session was lost")


@pytest.fixture
def guarded(store_path):
    """The app as served: CSRF on. One match with a hand, started with a token."""
    app = create_app({"TESTING": True, "DATABASE": store_path})
    client = app.test_client()
    form = client.get("/").text
    token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', form).group(1)
    document = (EXAMPLES / "rubber.json").read_bytes()
    imported = client.post(
        "/import",
        data={"csrf_token": token, "match_file": (io.BytesIO(document), "m.json")},
        content_type="multipart/form-data",
    )
    assert imported.status_code == 302, imported.text
    match_id = imported.location.rsplit("/", 1)[1]
    db = store.connect(app.config["DATABASE"])
    state = store.load_match(db, match_id)
    group = groups.create_group(db, "Friday", ["Ann", "Bob"]).state
    values = {
        "group_id": group.id,
        "member_id": 1,
        "match_id": match_id,
        "hand_id": state.keys[0],
        "revision": state.revision,
        "token": state.watch,
        "rest": "hand/new",
    }
    return app, client, values, token


def post_rules(app):
    return [rule for rule in app.url_map.iter_rules() if "POST" in rule.methods]


def test_every_post_route_is_listed(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "routes.db")})
    endpoints = {rule.endpoint for rule in post_rules(app)}
    assert endpoints == {
        "matches.new",
        "matches.import_file",
        "matches.import_copy",
        "matches.settings",
        "matches.delete",
        "matches.restore",
        "hands.new",
        "hands.edit",
        "hands.delete",
        "hands.end",
        "hands.undo",
        "hands.keep_theirs",
        "history.restore",
        "live.watch_write",
        "live.name_phone",
        "groups.new",
        "groups.rename",
        "groups.add_member",
        "groups.rename_member",
        "groups.order",
        "groups.stake",
        "groups.undo",
        "groups.remove_match",
        "groups.add_match",
        "groups.import_file",
        "groups.watch_write",
        "groups.pay",
        "groups.retire",  # members and mappings (issue 27)
        "groups.bring_back",
        "groups.remap",
        "groupfile.import_copy",
        "language.switch",  # a phone's language (views/language.py)
    }


def test_every_post_route_refuses_a_form_without_its_token_and_stores_nothing(guarded):
    app, client, values, _ = guarded
    match_id = values["match_id"]
    before = client.get(f"/m/{match_id}/match.json").text
    revision = values["revision"]
    for rule in post_rules(app):
        url = rule.build({k: values[k] for k in rule.arguments})[1]
        data = {"revision": str(revision), "declarer": "Ann", "title": "x", "variant": "rubber"}
        answer = client.post(url, data=data)
        expected = EXEMPT.get(rule.endpoint, FINISHED.get(rule.endpoint, 400))
        assert answer.status_code == expected, (rule.rule, answer.status_code)
        if expected == 400:
            assert SESSION_LOST.search(visible_text(answer)), rule.rule
    assert client.get(f"/m/{match_id}/match.json").text == before
    assert client.get(f"/m/{match_id}/live").json["revision"] == revision
    assert client.get(f"/g/{values['group_id']}/live").json["revision"] == 1
    assert client.get_cookie("phone") is None


def test_a_wrong_token_is_refused_too(guarded):
    app, client, values, token = guarded
    match_id = values["match_id"]
    forged = token[:-4] + ("AAAA" if not token.endswith("AAAA") else "BBBB")
    answer = client.post(
        f"/m/{match_id}/undo", data={"csrf_token": forged, "revision": str(values["revision"])}
    )
    assert answer.status_code == 400
    assert json.loads(client.get(f"/m/{match_id}/match.json").text)["hands"]


def test_with_its_token_the_same_post_goes_through(guarded):
    app, client, values, token = guarded
    match_id = values["match_id"]
    answer = client.post(
        f"/m/{match_id}/settings",
        data={
            "csrf_token": token,
            "revision": str(values["revision"]),
            "title": "Friday",
            "stake_amount": "",
            "stake_per": "",
            "stake_currency": "",
        },
    )
    assert answer.status_code == 302
    assert client.get(f"/m/{match_id}/live").json["revision"] == values["revision"] + 1
