"""The day a match was played (issue #27 item 4): kept with each match, the
evening rule (a match started before 06:00 counts for the day before), carried
in every match file and group file, and changed like any other change of a
match from its settings page (history, undo, stale and repeated forms)."""

from __future__ import annotations

import io
import json
import time
import zipfile
from datetime import date

import pytest

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.changelog import played_on
from scorekeeper.migrations import migrations
from scorekeeper.views.pages import load_or_404
from scorekeeper.views.sheets import match_html
from tests.webtools import errors_on, visible_text

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
HAND = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
NO_STAKE = {"title": "", "stake_amount": "", "stake_per": "", "stake_currency": ""}


@pytest.fixture(autouse=True)
def in_utc(monkeypatch):
    """The server's clock in UTC, so the stamps below read as written."""
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def at(monkeypatch, stamp: str) -> None:
    """The store's clock reads `stamp` from now on."""
    monkeypatch.setattr(store, "now", lambda: stamp)


# --- the evening rule ------------------------------------------------------------------


@pytest.mark.parametrize(
    "stamp, day",
    [
        ("2026-11-27T19:00:00.000+00:00", date(2026, 11, 27)),
        ("2026-11-27T23:30:00.000+00:00", date(2026, 11, 27)),
        ("2026-11-28T00:40:00.000+00:00", date(2026, 11, 27)),  # after midnight: Friday
        ("2026-11-28T05:59:59.999+00:00", date(2026, 11, 27)),
        ("2026-11-28T06:00:00.000+00:00", date(2026, 11, 28)),  # a morning game: Saturday
        ("2026-01-01T02:00:00.000+00:00", date(2025, 12, 31)),  # New Year's Eve party
    ],
)
def test_a_match_started_before_six_counts_for_the_day_before(stamp, day):
    assert played_on(stamp) == day


def test_a_match_started_at_2330_and_finished_at_0040_counts_for_the_day_it_started(
    actions, monkeypatch
):
    at(monkeypatch, "2026-11-27T23:30:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    at(monkeypatch, "2026-11-28T00:40:00.000+00:00")
    actions.save_hand(match_id, HAND)
    assert actions.document(match_id)["played"] == "2026-11-27"


def test_a_match_started_after_midnight_counts_for_the_evening_before(actions, monkeypatch):
    at(monkeypatch, "2026-11-28T01:10:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    assert actions.document(match_id)["played"] == "2026-11-27"


# --- match files ---------------------------------------------------------------------


def test_the_day_of_an_imported_file_is_kept_and_exported_again(actions):
    document = {
        "format": "scorekeeper-match/1",
        "variant": "top-game",
        "played": "2026-10-02",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [{"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}],
    }
    match_id = actions.imported(document)
    assert actions.document(match_id) == document


def test_an_exported_file_counts_in_the_ledger_command_by_its_day(
    actions, monkeypatch, capsys, tmp_path
):
    at(monkeypatch, "2026-11-28T00:30:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    actions.save_hand(match_id, HAND)
    path = tmp_path / "m.json"
    path.write_text(json.dumps(actions.document(match_id)))
    status = cli.main(["ledger", "--from", "2026-11-27", "--to", "2026-11-27", str(path)])
    assert (status, json.loads(capsys.readouterr().out)["matches"]) == (0, 1)
    status = cli.main(["ledger", "--from", "2026-11-28", str(path)])
    assert (status, json.loads(capsys.readouterr().out)["matches"]) == (0, 0)


# --- changing the day ------------------------------------------------------------------


def started_friday(actions, monkeypatch) -> str:
    at(monkeypatch, "2026-11-27T20:00:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    at(monkeypatch, "2026-11-28T10:00:00.000+00:00")
    return match_id


def test_the_settings_page_shows_the_day_played(actions, monkeypatch):
    match_id = started_friday(actions, monkeypatch)
    page = actions.page(f"/m/{match_id}/settings")
    assert '<input id="played" name="played" required type="date" value="2026-11-27">' in page


def test_the_day_is_changed_in_the_settings_said_in_the_history_and_undone(actions, monkeypatch):
    match_id = started_friday(actions, monkeypatch)
    answer = actions.client.post(
        f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"}
    )
    assert answer.status_code == 302
    assert actions.document(match_id)["played"] == "2026-11-20"
    assert "Day played changed to Friday 20 November 2026 (was Friday 27 November 2026)" in (
        actions.text(f"/m/{match_id}/history")
    )
    answer = actions.client.post(f"/m/{match_id}/undo")
    assert answer.status_code == 302
    assert actions.document(match_id)["played"] == "2026-11-27"


def test_a_settings_form_without_the_day_keeps_it(actions, monkeypatch):
    """A page drawn before the day could be changed sends no day: it changes the
    title and stake only."""
    match_id = started_friday(actions, monkeypatch)
    actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"})
    answer = actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "title": "Fri"})
    assert answer.status_code == 302
    document = actions.document(match_id)
    assert (document["title"], document["played"]) == ("Fri", "2026-11-20")


@pytest.mark.parametrize("typed", ["2026-02-30", "27/11/2026", "", "2026-11-27x", "0000-01-01"])
def test_a_day_that_is_not_a_real_date_is_refused_naming_the_field(actions, monkeypatch, typed):
    match_id = started_friday(actions, monkeypatch)
    revision = actions.revision(match_id)
    answer = actions.client.post(
        f"/m/{match_id}/settings", data={**NO_STAKE, "title": "Kept", "played": typed}
    )
    assert answer.status_code == 200
    assert errors_on(answer.get_data(as_text=True), "played") == [
        "Day played: give a real day, written like 2026-11-20."
    ]
    assert 'value="Kept"' in answer.get_data(as_text=True)  # what was typed stays
    assert actions.revision(match_id) == revision
    assert actions.document(match_id)["played"] == "2026-11-27"


def test_a_stale_day_form_is_refused_naming_the_other_change(actions, monkeypatch, app):
    match_id = started_friday(actions, monkeypatch)
    drawn = actions.revision(match_id)
    other = app.test_client()
    other.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-26"})
    answer = actions.client.post(
        f"/m/{match_id}/settings",
        data={**NO_STAKE, "played": "2026-11-20", "revision": str(drawn)},
    )
    assert answer.status_code == 409
    assert "Day played changed to Thursday 26 November 2026" in visible_text(answer)
    assert actions.document(match_id)["played"] == "2026-11-26"


def test_a_day_form_sent_twice_is_stored_once(actions, monkeypatch):
    match_id = started_friday(actions, monkeypatch)
    sent = {**NO_STAKE, "played": "2026-11-20", "revision": "1", "key": "k" * 22}
    first = actions.client.post(f"/m/{match_id}/settings", data=sent)
    second = actions.client.post(f"/m/{match_id}/settings", data=sent)
    assert (first.status_code, second.status_code) == (302, 302)
    assert actions.revision(match_id) == 2


# --- the store: a migration gives every match its day --------------------------------


def test_the_migration_gives_each_match_the_day_of_its_evening(tmp_path):
    path = str(tmp_path / "old.db")
    old = store.connect(path)
    with store.writing(old):
        migrations.apply(old, stop_before="m007_day_played")
    for match_id, created in (
        ("a" * 16, "2026-11-27T21:00:00.000+00:00"),
        ("b" * 16, "2026-11-28T01:30:00.000+00:00"),
    ):
        old["matches"].insert(
            {
                "id": match_id,
                "variant": "top-game",
                "players": '["Ann","Bob","Cy"]',
                "options": "{}",
                "created": created,
                "watch": match_id + "w",
            }
        )
        old["changes"].insert(
            {
                "match_id": match_id,
                "revision": 1,
                "kind": "create",
                "hands": "[]",
                "settings": '{"title":"","stake":null}',
                "created": created,
            }
        )
    old.close()
    store.migrate(path)
    db = store.connect(path)
    assert [(r["id"][0], r["played"]) for r in db.query("select * from matches order by id")] == [
        ("a", "2026-11-27"),
        ("b", "2026-11-27"),
    ]
    assert store.load_match(db, "b" * 16).match.played == date(2026, 11, 27)


# --- the names of exported match files ------------------------------------------------


def zipped_names(actions) -> list[str]:
    """The file names in this phone's "Download all matches" zip (the same names
    as `scorekeeper export` writes: backup.match_filename)."""
    answer = actions.client.get("/matches.zip")
    with zipfile.ZipFile(io.BytesIO(answer.data)) as archive:
        return archive.namelist()


def test_an_exported_file_is_named_by_the_day_played_by_the_evening_rule(actions, monkeypatch):
    at(monkeypatch, "2026-11-28T00:30:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    assert zipped_names(actions) == [f"2026-11-27-chicago-{match_id}.json"]


def test_an_exported_file_is_named_by_the_day_set_in_the_settings(actions, monkeypatch):
    match_id = started_friday(actions, monkeypatch)
    actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"})
    assert zipped_names(actions) == [f"2026-11-20-chicago-{match_id}.json"]


def test_an_exported_file_is_named_by_the_day_its_imported_file_says(actions, monkeypatch):
    at(monkeypatch, "2026-11-28T10:00:00.000+00:00")
    document = {
        "format": "scorekeeper-match/1",
        "variant": "top-game",
        "played": "2026-10-02",
        "players": ["Ann", "Bob", "Cy"],
        "hands": [],
    }
    match_id = actions.imported(document)
    assert zipped_names(actions) == [f"2026-10-02-top-game-{match_id}.json"]


# --- group files and the printed sheet -------------------------------------------------


def test_a_day_changed_in_a_group_travels_in_its_group_file(actions, monkeypatch, app, tmp_path):
    match_id = started_friday(actions, monkeypatch)
    actions.save_hand(match_id, HAND)
    actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"})
    db = store.connect(app.config["DATABASE"])
    made = g.create_group(db, "Friday four", list(PLAYERS))
    g.apply_group(db, made.group_id, g.GroupCommand(g.ADD_MATCH, {"match": match_id}))
    document = gf.group_document(db, g.load_group(db, made.group_id))
    assert [m["match"]["played"] for m in document["matches"]] == ["2026-11-20"]
    elsewhere = tmp_path / "elsewhere.db"
    store.migrate(str(elsewhere))
    other = store.connect(str(elsewhere))
    moved = gf.import_group(other, gf.loads(gf.dumps(document)))
    [moved_id] = g.load_group(other, moved.group_id).matches
    assert store.load_match(other, moved_id).played == date(2026, 11, 20)
    assert gf.group_document(other, g.load_group(other, moved.group_id)) == document


def test_the_printed_sheet_is_dated_with_the_day_played(actions, monkeypatch, app):
    match_id = started_friday(actions, monkeypatch)
    actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"})
    with app.test_request_context():
        printed = visible_text(match_html(load_or_404(match_id)))
    assert "Date 20 November 2026" in printed
