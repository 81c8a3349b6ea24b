"""A long change log: fold by index (the same answer as one change at a time),
the change limit that no command gets round, the folded state kept between
requests, the `matches` cookie read once per match, the history in pages and a
malformed `since` refused. (What they cost: benchmarks/bench_fold.py.)"""

from __future__ import annotations

import random
import re

import pytest

from scorekeeper import changelog
from scorekeeper import db as store
from scorekeeper.changelog import (
    APPEND,
    DELETE,
    DELETE_MATCH,
    MATCH_RESERVE,
    MAX_CHANGES,
    RESTORE,
    RESTORE_MATCH,
    SETTINGS,
    UNDO,
    Command,
    Refused,
    decide,
    step,
)
from tests.webtools import links, visible_text

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]


def down(n: int) -> dict:
    """A rubber hand that goes down: the match never ends."""
    return {"declarer": PLAYERS[n % 4], "contract": f"{1 + n % 3}C", "tricks": n % 6}


def grow(app, match_id: str, commands) -> changelog.MatchState:
    """Decide each command as the write path does and store the changes in one go
    (thousands of changes in a fraction of a second); the state after them."""
    db = store.connect(app.config["DATABASE"])
    try:
        state = store.load_match(db, match_id)
        rows = []
        for command in commands:
            change, _ = decide(state, command, store.now())
            step(state, change)
            rows.append(store._change_row(match_id, change))
        with store.writing(db):
            db["changes"].insert_all(rows)
        return state
    finally:
        db.close()


def snapshot(state: changelog.MatchState) -> tuple:
    log = [(e.change, e.number, e.previous, e.undone_by) for e in state.log]
    return state.revision, state.live, state.removed, state.title, state.deleted, log


# --- fold -----------------------------------------------------------------------


def test_fold_numbers_and_undo_marks_agree_with_counting_from_scratch():
    """A random evening of saves, deletes, bring-backs and undos: each change's hand
    number and each undone mark as a reader would count them."""
    rng = random.Random(17)
    state = changelog.fold(
        changelog.MatchState("m", "rubber", PLAYERS, {}, "", "w"),
        [changelog.Change(1, changelog.CREATE, settings={"title": ""})],
    )
    for n in range(600):
        roll = rng.random()
        if roll < 0.4 or not state.live:
            command = Command(APPEND, record=down(n))
        elif roll < 0.55:
            command = Command(DELETE, hand=rng.choice(state.keys))
        elif roll < 0.65 and state.removed:
            command = Command(RESTORE, hand=rng.choice(sorted(state.removed)))
        elif state.undoable() is not None:
            command = Command(UNDO)
        else:
            continue
        live_before = sorted(state.live)
        change, _ = decide(state, command, "")
        step(state, change)
        entry = state.log[-1]
        key = change.hand
        if change.kind == DELETE:
            assert entry.number == live_before.index(key) + 1
        else:
            assert entry.number == sorted(state.live).index(key) + 1
        assert state.keys == sorted(state.live)
    undone = {e.change.undoes: e.change.revision for e in state.log if e.change.undoes}
    assert {e.change.revision: e.undone_by for e in state.log if e.undone_by} == undone
    assert len(undone) > 50  # the walk did undo a good deal


# --- the limit ----------------------------------------------------------------------


def test_no_command_stores_past_the_limit():
    """Past MAX_CHANGES only deleting and bringing back the match (and undoing
    those) are stored, MATCH_RESERVE times; then every command is refused."""
    state = changelog.fold(
        changelog.MatchState("m", "rubber", PLAYERS, {}, "", "w"),
        [changelog.Change(1, changelog.CREATE, settings={"title": ""})],
    )
    change, _ = decide(state, Command(APPEND, record=down(1)), "")
    step(state, change)
    state.revision = MAX_CHANGES - 1  # as if a long evening came before
    cycle = [DELETE_MATCH, UNDO, DELETE_MATCH, RESTORE_MATCH, APPEND]
    said = set()
    for n in range(200):
        kind = cycle[n % len(cycle)]
        command = Command(kind, record=down(n) if kind == APPEND else None)
        try:
            change, _ = decide(state, command, "")
        except Refused as refusal:
            said.add(refusal.message.split(":")[0])
            continue
        step(state, change)
    assert state.revision == MAX_CHANGES + MATCH_RESERVE
    full = f"This match has {MAX_CHANGES + MATCH_RESERVE} changes, the most one match keeps"
    assert said == {
        f"This match has {MAX_CHANGES} changes, the most one match keeps",  # hands, settings
        "The match was deleted; bring it back first.",
        full,
    }
    for kind in (DELETE_MATCH, RESTORE_MATCH, UNDO, APPEND, SETTINGS):
        with pytest.raises(Refused):
            decide(state, Command(kind, record=down(0), settings={"title": "x"}), "")
    match_level = RESTORE_MATCH if state.deleted else DELETE_MATCH
    with pytest.raises(Refused, match=f"^{full}: nothing more can be stored in it"):
        decide(state, Command(match_level), "")


def test_the_limit_holds_through_the_web_delete_restore_and_undo(app, actions, client):
    match_id = actions.start("rubber", PLAYERS)
    commands = [Command(APPEND, record=down(n)) if n % 2 else Command(UNDO) for n in range(1, 4999)]
    assert grow(app, match_id, commands).revision == MAX_CHANGES - 1
    answers = []
    for n in range(40):
        action = ["delete", "undo", "delete", "restore"][n % 4]
        answers.append(client.post(f"/m/{match_id}/{action}"))
    assert all(a.status_code == 302 for a in answers)
    assert actions.revision(match_id) == MAX_CHANGES + MATCH_RESERVE
    refused = actions.followed(client.post(f"/m/{match_id}/delete"))
    assert "nothing more can be stored in it" in refused
    assert actions.revision(match_id) == MAX_CHANGES + MATCH_RESERVE


# --- the folded state kept between requests -------------------------------------------


def test_a_kept_fold_gives_the_same_match_as_folding_from_scratch(app, actions, client):
    match_id = actions.start("rubber", PLAYERS)
    for _ in range(6):
        actions.save_hand(match_id, {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "5"})
    client.post(f"/m/{match_id}/hand/2/delete")
    db = store.connect(app.config["DATABASE"])
    try:
        store.load_match(db, match_id)  # kept
        grow(app, match_id, [Command(UNDO), Command(APPEND, record=down(3))])
        kept = store.load_match(db, match_id)
        store.forget_folded()
        assert snapshot(kept) == snapshot(store.load_match(db, match_id))
        # The newest change stored otherwise than the kept one (a store put back
        # from a backup, then written): the kept fold is not used.
        store.load_match(db, match_id)
        db.execute(
            "update changes set created = 'x', record = ? where match_id = ? and revision = ?",
            ['{"declarer": "Bob", "contract": "2C", "tricks": 2}', match_id, kept.revision],
        )
        again = store.load_match(db, match_id)
        assert again.live[max(again.live)] == {"declarer": "Bob", "contract": "2C", "tricks": 2}
        store.forget_folded()
        assert snapshot(again) == snapshot(store.load_match(db, match_id))
    finally:
        db.close()


def test_a_kept_fold_is_never_changed_by_the_state_a_caller_moves_on(app, actions):
    match_id = actions.start("rubber", PLAYERS)
    db = store.connect(app.config["DATABASE"])
    try:
        first = store.load_match(db, match_id)
        first.live[99] = {"end": True}
        first.log.clear()
        assert store.load_match(db, match_id).live == {}
        assert len(store.load_match(db, match_id).log) == 1
    finally:
        db.close()


# --- the matches cookie ----------------------------------------------------------------


def test_a_match_named_sixty_times_in_the_cookie_is_loaded_once(app, actions, client, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)
    other = actions.start("rubber", PLAYERS)
    client.set_cookie("matches", ".".join([match_id] * 30 + [other] + [match_id] * 29))
    loads = []
    real = store.load_match
    monkeypatch.setattr(store, "load_match", lambda db, i: loads.append(i) or real(db, i))
    home = actions.page("/")
    assert sorted(loads) == sorted([match_id, other])
    assert f"/m/{match_id}" in home and f"/m/{other}" in home
    with app.test_request_context(headers={"Cookie": f"matches={match_id}.{other}.{match_id}"}):
        from scorekeeper.views.phone import my_matches

        assert my_matches() == [match_id, other]


# --- the history in pages --------------------------------------------------------------


def revisions_on(page: str) -> list[int]:
    return [int(r) for r in re.findall(r'<li id="change-(\d+)"', page)]


def test_the_history_of_a_long_match_comes_a_hundred_changes_a_page(app, actions, client):
    match_id = actions.start("rubber", PLAYERS)
    grow(app, match_id, [Command(SETTINGS, settings={"title": f"T{n}"}) for n in range(249)])
    first = actions.page(f"/m/{match_id}/history")
    assert revisions_on(first) == list(range(250, 150, -1))
    assert links(first, "Older changes") == [f"/m/{match_id}/history?upto=150"] * 2
    assert links(first, "Newer changes") == []
    middle = actions.page(f"/m/{match_id}/history?upto=150")
    assert revisions_on(middle) == list(range(150, 50, -1))
    assert links(middle, "Newer changes") == [f"/m/{match_id}/history"] * 2
    assert links(middle, "Older changes") == [f"/m/{match_id}/history?upto=50"] * 2
    last = actions.page(f"/m/{match_id}/history?upto=50")
    assert revisions_on(last) == list(range(50, 0, -1))
    assert links(last, "Older changes") == []
    assert links(last, "Newer changes") == [f"/m/{match_id}/history?upto=150"] * 2
    assert 'class="button small" href' in last  # a tap target of 44 px, as every button
    assert revisions_on(actions.page(f"/m/{match_id}/history?upto=999999")) == revisions_on(first)
    for bad in ("abc", "0", "-3", "1.5", "", "１２"):
        assert client.get(f"/m/{match_id}/history?upto={bad}").status_code == 400


def test_a_short_history_is_one_page_without_page_links(actions):
    match_id = actions.start("rubber", PLAYERS)
    page = actions.page(f"/m/{match_id}/history")
    assert revisions_on(page) == [1]
    assert "Older changes" not in visible_text(page) and "Newer changes" not in visible_text(page)


# --- a malformed since ----------------------------------------------------------------


@pytest.mark.parametrize("since", ["abc", "-1", "1.5", "", "１２", "1e3", "9" * 13, "0x10"])
def test_live_with_a_malformed_since_answers_400_saying_what_is_allowed(actions, client, since):
    match_id = actions.start("rubber", PLAYERS)
    answer = client.get(f"/m/{match_id}/live?since={since}")
    assert answer.status_code == 400
    assert answer.json == {
        "error": "since must be the revision this page shows, a whole number: since=12"
    }


def test_live_without_since_or_with_a_number_answers_as_before(actions, client):
    match_id = actions.start("rubber", PLAYERS)
    assert client.get(f"/m/{match_id}/live").json["revision"] == 1
    assert client.get(f"/m/{match_id}/live?since=1").json["changes"] == []


def test_every_page_gives_live_js_a_since_it_accepts(actions, client):
    match_id = actions.start("rubber", PLAYERS)
    watch = re.search(r"/w/([\w-]+)", actions.page(f"/m/{match_id}")).group(1)
    for path in (f"/m/{match_id}", f"/m/{match_id}/hand/new", f"/w/{watch}"):
        url = re.search(r'data-live-url="([^"]+)"', actions.page(path)).group(1)
        assert client.get(url.replace("&amp;", "&")).status_code == 200, path


# --- writes of one server take turns ------------------------------------------------


def test_a_write_waiting_its_turn_past_the_timeout_answers_503_and_stores_nothing(
    actions, monkeypatch
):
    match_id = actions.start("rubber", PLAYERS)
    monkeypatch.setattr(store, "BUSY_TIMEOUT", 0.2)
    with store._write_turn:  # another thread of this server is writing, for long
        busy = actions.post_hand(
            match_id, {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"}
        )
    assert busy.status_code == 503
    assert "Not saved: the score store cannot be written right now" in visible_text(busy)
    assert actions.hands(match_id) == []
    saved = actions.post_hand(
        match_id, {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"}
    )
    assert saved.status_code == 302 and len(actions.hands(match_id)) == 1
