"""Each revision of a match drawn once (drawn.py): what the match page, the watch
page, the hand form and the live poll show is kept by (match, revision), never
shown stale, even when another process changed the match; a phone that has the
page gets a 304; the kept drawings stay within their bound; and many phones
reading while two save never see a page older than an acknowledged save."""

from __future__ import annotations

import hashlib
import os
import re
import sqlite3
import subprocess
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from flask import template_rendered

from scorekeeper import assets, drawn
from scorekeeper import db as store
from scorekeeper.app import create_app
from scorekeeper.folders import StaticFolders
from scorekeeper.forms import ConfirmForm
from scorekeeper.kept import Recent
from scorekeeper.views import hands as hand_views
from scorekeeper.views import live as live_views
from scorekeeper.views import matches as match_views
from scorekeeper.views.pages import drawn_once
from tests.phones import watched_table
from tests.webtools import visible_text

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
ROOT = Path(__file__).resolve().parent.parent
REVISION = re.compile(r'data-revision="(\d+)"')


def hand(declarer: str, level: str, strain: str, tricks: str) -> dict[str, str]:
    return {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}


def rubber(actions) -> str:
    """A rubber match with two hands saved, its pages read once (and kept)."""
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, hand("Ann", "1", "C", "7"))
    actions.save_hand(match_id, hand("Bob", "2", "H", "8"))
    return match_id


@contextmanager
def templates_drawn(app) -> Iterator[list[str]]:
    """The names of the templates drawn inside the block, in order."""
    drawn: list[str] = []

    def note(sender, template, context, **extra):
        drawn.append(template.name)

    with template_rendered.connected_to(note, app):
        yield drawn


def watch_token(actions, match_id: str) -> str:
    page = actions.page(f"/m/{match_id}")
    return re.search(r"/w/([\w-]+)</code>", page).group(1)


# Another process writes through the one write path, on the same file.
WRITER = """
import json, sys
from scorekeeper.changelog import EDIT, Command
from scorekeeper.db import apply, connect, load_match
db = connect(sys.argv[1])
match_id = sys.argv[2]
state = load_match(db, match_id)
key = state.keys[0]
record = {"declarer": "Dee", "contract": "4S", "tricks": 10}
applied = apply(db, match_id, Command(EDIT, hand=key, record=record, revision=state.revision))
print(applied.change.revision)
"""


def edit_from_another_process(database: str, match_id: str) -> int:
    done = subprocess.run(
        [sys.executable, "-c", WRITER, database, match_id],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return int(done.stdout)


def test_a_hand_changed_by_another_process_is_shown_by_the_next_page(app, client, actions):
    match_id = rubber(actions)
    token = watch_token(actions, match_id)
    pages = [f"/m/{match_id}", f"/w/{token}", f"/m/{match_id}/hand/new"]
    before = [actions.page(url) for url in pages]
    assert [REVISION.findall(page)[0] for page in before] == ["3", "3", "3"]
    assert client.get(f"/m/{match_id}/live?since=3").json["revision"] == 3
    assert "Ann & Cy 20 · Bob & Dee 60 Cy deals · rubber 1, game 1" in visible_text(before[2])

    assert edit_from_another_process(app.config["DATABASE"], match_id) == 4

    match_page, watch_page, form = (actions.page(url) for url in pages)
    for page in (match_page, watch_page):
        assert REVISION.findall(page) == ["4"]
        text = visible_text(page)
        assert "1 4♠ by Dee, made Bob +120 Dee +120" in text
        assert "Totals Ann Bob Cy Dee 0 +180 0 +180" in text
        assert "1 1♣ by Ann" not in text
    assert REVISION.findall(form)[0] == "4"
    assert 'name="revision" value="4"' in form
    assert "Ann & Cy 0 · Bob & Dee 180 Cy deals · rubber 1, game 2" in visible_text(form)
    live = client.get(f"/m/{match_id}/live?since=3").json
    assert (live["revision"], live["hands_changed"]) == (4, True)
    assert live["changes"] == [
        "Hand 1 changed to 4♠ by Dee, made · Bob +120, Dee +120"
        " (was: 1♣ by Ann, made · Ann +20, Cy +20) — from another phone, a moment ago"
    ]


def test_a_repeated_page_is_answered_304_and_a_changed_one_200(client, actions):
    match_id = rubber(actions)
    token = watch_token(actions, match_id)
    for url in (f"/m/{match_id}", f"/w/{token}"):
        first = client.get(url)
        etag = first.headers["ETag"]
        assert re.fullmatch(r'W/"r3-[0-9a-f]{20}"', etag)
        assert first.headers["Cache-Control"] == "no-cache, private"
        assert "Cookie" in first.headers["Vary"]
        again = client.get(url, headers={"If-None-Match": etag})
        assert (again.status_code, again.get_data(), again.headers["ETag"]) == (304, b"", etag)
        assert again.headers["Cache-Control"] == "no-cache, private"

    etags = {url: client.get(url).headers["ETag"] for url in (f"/m/{match_id}", f"/w/{token}")}
    actions.save_hand(match_id, hand("Cy", "3", "NT", "9"))
    # The answer's message waits in the session: the next page shows it, without an ETag.
    shown = client.get(f"/m/{match_id}", headers={"If-None-Match": etags[f"/m/{match_id}"]})
    assert (shown.status_code, shown.headers.get("ETag")) == (200, None)
    assert "Hand 3 saved." in visible_text(shown)
    for url, etag in etags.items():
        changed = client.get(url, headers={"If-None-Match": etag})
        assert changed.status_code == 200
        assert changed.headers["ETag"].startswith('W/"r4-')
        assert "3 3NT by Cy, made Ann +100 Cy +100" in visible_text(changed)
    # The hand opened (?hand=) is part of what the page shows.
    first_hand = actions.hand_ids(match_id)[0]
    opened = client.get(f"/m/{match_id}?hand={first_hand}")
    assert opened.headers["ETag"] != client.get(f"/m/{match_id}").headers["ETag"]
    assert '<details id="hand-1" open>' in opened.get_data(as_text=True)


KEY = re.compile(r'name="key" value="([\w-]+)"')
CSRF_VALUE = re.compile(r'(name="csrf_token"[^>]*value=")[^"]+"')


def keyless(page: str) -> str:
    """A page without what each answer has of its own: its one-time keys, and its
    CSRF token (signed with the second it was asked in, so two answers a second
    apart differ; the tests with CSRF on below check whose token a page carries)."""
    return CSRF_VALUE.sub(r'\1token"', KEY.sub("key", page))


PHONE_NAME = re.compile(r'id="phone-name" name="name" maxlength="30" value="([^"]*)"')


def test_a_repeated_hand_form_is_drawn_once_with_fresh_keys(app, client, actions, monkeypatch):
    """Every phone at the table asks for the next hand's form after each change:
    the page is drawn once per revision, each answer with one-time keys of its own,
    and it is the very page drawn for one phone alone."""
    match_id = rubber(actions)
    actions.page(f"/m/{match_id}")  # the last save's message, shown once
    url = f"/m/{match_id}/hand/new"
    with templates_drawn(app) as drawn_templates:
        pages = [actions.page(url) for _ in range(3)]
    assert drawn_templates == ["games/rubber/hand.html"]
    keys = [KEY.findall(page) for page in pages]
    assert [len(found) for found in keys] == [2, 2, 2]  # the hand form and Passed out
    assert len({key for found in keys for key in found}) == 6
    assert "Save hand 3" in visible_text(pages[2])

    edit = f"/m/{match_id}/hand/{actions.hand_ids(match_id)[0]}"
    edits = [actions.page(edit) for _ in range(2)]
    assert "Edit hand 1" in visible_text(edits[1])

    monkeypatch.setattr(hand_views, "_a_form_with_nothing_of_its_own", lambda *args: False)
    alone = actions.page(url)
    assert [keyless(page) for page in pages] == [keyless(alone)] * 3
    alone = actions.page(edit)
    assert [keyless(page) for page in edits] == [keyless(alone)] * 2


def test_a_repeated_match_page_is_drawn_once_with_fresh_keys_and_its_phones_name(
    app, client, actions, monkeypatch
):
    """After each change every phone at the table asks for the match page: the
    whole page is drawn once per revision, each answer with one-time keys of its
    own and the asking phone's name, and it is the very page drawn for one phone
    alone."""
    match_id = rubber(actions)
    url = f"/m/{match_id}"
    actions.page(url)  # the last save's message, shown once
    with templates_drawn(app) as drawn_templates:
        pages = [actions.page(url) for _ in range(3)]
        client.set_cookie("phone", "Ann")
        named = actions.page(url)
    assert drawn_templates == ["matches/show.html"]
    keys = [KEY.findall(page) for page in [*pages, named]]
    assert [len(found) for found in keys] == [5, 5, 5, 5]  # 2 hands, Stop, Undo, Delete match
    assert len({key for found in keys for key in found}) == 20
    assert [PHONE_NAME.findall(page) for page in [*pages, named]] == [[""]] * 3 + [["Ann"]]

    monkeypatch.setattr(match_views, "the_same_for_every_phone", lambda *args: False)
    assert keyless(actions.page(url)) == keyless(named)
    client.delete_cookie("phone")
    assert keyless(actions.page(url)) == keyless(pages[0])


def test_a_repeated_watch_page_is_drawn_once(app, client, actions, monkeypatch):
    """Everyone following a table from a watch link asks for its page after each
    change: the whole page is drawn once per revision, and it is the very page
    drawn for one watcher alone."""
    match_id = rubber(actions)
    url = f"/w/{watch_token(actions, match_id)}"
    with templates_drawn(app) as drawn_templates:
        pages = [actions.page(url) for _ in range(3)]
    assert drawn_templates == ["matches/_live_watch.html", "matches/watch.html"]
    assert len(set(pages)) == 1
    assert "2 2♥ by Bob, made Bob +60 Dee +60" in visible_text(pages[0])

    actions.save_hand(match_id, hand("Cy", "3", "NT", "9"))
    actions.page(f"/m/{match_id}")  # the save's message, shown once
    with templates_drawn(app) as drawn_templates:
        changed = [actions.page(url) for _ in range(2)]
    assert drawn_templates == ["matches/_live_watch.html", "matches/watch.html"]
    assert "3 3NT by Cy, made Ann +100 Cy +100" in visible_text(changed[1])

    monkeypatch.setattr(live_views, "the_same_for_every_phone", lambda *args: False)
    assert keyless(actions.page(url)) == keyless(changed[0])


def test_a_kept_watch_page_gives_no_watcher_a_session(app, actions):
    """A watch page has no form: the watcher whose visit draws a revision's page
    gets no session cookie (no CSRF token made for a page that has none), just as
    every other watcher, and all get the same page and ETag."""
    match_id = rubber(actions)
    url = f"/w/{watch_token(actions, match_id)}"
    answers = [app.test_client().get(url) for _ in range(3)]
    assert [answer.headers.getlist("Set-Cookie") for answer in answers] == [[], [], []]
    assert len({answer.headers["ETag"] for answer in answers}) == 1
    assert len({answer.text for answer in answers}) == 1


def test_a_watch_page_asked_by_head_first_is_the_one_a_get_draws(app, actions):
    """A HEAD (a link preview, a checker) draws the page a GET would: the watch
    page it leaves kept sends the text size switch back to the very address asked."""
    match_id = rubber(actions)
    token = watch_token(actions, match_id)
    url = f"/w/{token}?from=qr"
    watcher = app.test_client()
    assert watcher.head(url).status_code == 200
    page = watcher.get(url).text
    assert page.count(f"back=/w/{token}?from%3Dqr") == 3
    assert page.count("back=") == 3


TOKEN = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


def test_every_token_on_a_kept_page_is_the_asking_phones_own(tmp_path):
    """With CSRF on: a page drawn once for Ann and given to Bob carries Bob's
    token in every form, the language switch at its foot included, so Bob can
    switch the language from it."""
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "kept"})
    with watched_table(app) as phone:
        ann, bob = phone("Ann's phone"), phone("Bob's phone")
        match_id = ann.start("rubber", list(PLAYERS))
        ann.get(f"/m/{match_id}")  # the start's message, if any, shown
        for url in (f"/m/{match_id}", f"/m/{match_id}/hand/new"):
            # A token is signed with the second it was made: its session's part before the dot.
            pages = [who.get(url).text for who in (ann, bob, bob)]
            tokens = [{token.split(".")[0] for token in TOKEN.findall(page)} for page in pages]
            assert [len(found) for found in tokens] == [1, 1, 1]
            assert tokens[0] != tokens[1] == tokens[2]
            switch = next(form for form in bob.forms(url) if form.action == "/language")
            answer = bob.submit(switch, lang="fr")
            assert (answer.status, answer.location) == (303, url)
            del bob.cookies["lang"]


def test_a_kept_hand_form_is_drawn_for_each_language_and_text_size(client, actions):
    """The hand form kept by revision is a whole page: a phone at another text size
    or in another language, or asking at another address, gets its own drawing,
    never the first asker's."""
    match_id = rubber(actions)
    actions.page(f"/m/{match_id}")
    url = f"/m/{match_id}/hand/new"
    assert '<html lang="en" dir="ltr" data-text-size="100">' in actions.page(url)
    client.set_cookie("text_size", "150")
    assert 'data-text-size="150"' in actions.page(url)
    client.set_cookie("lang", "fr")
    assert '<html lang="fr" dir="ltr" data-text-size="150">' in actions.page(url)
    asked = actions.page(url + "?from=sheet")
    assert "back=/m/" + match_id + "/hand/new?from%3Dsheet" in asked.replace("&amp;", "&")


def test_a_kept_hand_form_carries_each_phones_own_token_and_saves(tmp_path):
    """With CSRF on: the form drawn once for Ann is given Bob's token for Bob,
    and each phone's form saves (the second one, drawn at the same revision, is
    refused as stale, its entries kept)."""
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "kept"})
    with watched_table(app) as phone:
        ann, bob = phone("Ann's phone"), phone("Bob's phone")
        match_id = ann.start("rubber", list(PLAYERS))
        ann.get(f"/m/{match_id}")  # the start's message, if any, shown
        forms = [who.form(f"/m/{match_id}/hand/new") for who in (ann, bob)]
        assert forms[0].fields["csrf_token"] != forms[1].fields["csrf_token"]
        assert forms[0].fields["key"] != forms[1].fields["key"]
        assert bob.submit(forms[1], **hand("Bob", "2", "H", "8")).status == 302
        assert ann.submit(forms[0], **hand("Ann", "1", "C", "7")).status == 409
        assert ann.hands(match_id) == [{"declarer": "Bob", "contract": "2H", "tricks": 8}]


def test_a_hand_form_with_a_message_or_an_error_is_drawn_for_its_phone(client, actions):
    match_id = rubber(actions)
    url = f"/m/{match_id}/hand/new"
    assert "Hand 2 saved. Undo" in actions.text(url)  # the answer of the save, once
    assert "Hand 2 saved" not in actions.text(url)
    refused = client.post(url, data={"declarer": "Ann", "level": "9"})
    assert refused.status_code == 200
    assert "Not saved" in visible_text(refused)
    assert "Not saved" not in actions.text(url)


def test_a_304_keeps_this_phones_token_and_another_session_gets_its_own_page(tmp_path):
    """With CSRF on: a second phone sending the first phone's ETag gets a page
    of its own (its token differs); the first phone's kept page still saves."""
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "kept"})
    with watched_table(app) as phone:
        ann, bob = phone("Ann's phone"), phone("Bob's phone")
        match_id = ann.start("rubber", list(PLAYERS))
        ann.get(f"/m/{match_id}/hand/new")  # the message of the start is shown there
        page = ann.get(f"/m/{match_id}")
        etag = page.headers["etag"]
        assert ann.get(f"/m/{match_id}", **{"If-None-Match": etag}).status == 304
        bob.get(f"/m/{match_id}")
        other = bob.get(f"/m/{match_id}", **{"If-None-Match": etag})
        assert other.status == 200 and other.headers["etag"] != etag
        # Each form of the page has its own one-time key, new on every page drawn.
        keys = re.findall(r'name="key" value="([\w-]+)"', page.text)
        assert len(keys) == len(set(keys)) == 2  # Stop here, Delete this match
        assert not set(keys) & set(re.findall(r'name="key" value="([\w-]+)"', other.text))
        stop = re.search(
            rf'action="/m/{match_id}/end".*?name="csrf_token"[^>]*value="([^"]+)".*?'
            r'name="revision" value="(\d+)".*?name="key" value="([\w-]+)"',
            page.text,
            re.S,
        )
        token, revision, key = stop.groups()
        done = ann.post(
            f"/m/{match_id}/end", {"csrf_token": token, "revision": revision, "key": key}
        )
        assert done.status == 302
        assert ann.hands(match_id) == [{"end": True}]


@pytest.mark.parametrize("enabled", [True, False])
def test_the_csrf_field_drawn_once_is_the_one_wtforms_draws(tmp_path, enabled):
    """The match page's many buttons share one CSRF field, drawn without building
    a form: the same bytes as WTForms' own field, or nothing with CSRF off."""
    app = create_app(
        {"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "kept", "WTF_CSRF_ENABLED": enabled}
    )
    with app.test_request_context("/m/x"):
        form = ConfirmForm()
        expected = str(form.csrf_token()) if enabled else ""
        assert str(drawn_once().csrf_token) == expected
        assert (
            expected.startswith('<input id="csrf_token" name="csrf_token" type="hidden" value="')
            == enabled
        )


def test_requests_reuse_their_store_connections_until_the_store_is_replaced(
    app, client, actions, monkeypatch
):
    """A request borrows an idle connection to the store and gives it back (opening
    one cost a tenth of a page); once they are closed, as `scorekeeper restore`
    does before it puts a backup in place, the next page reads the new file."""
    match_id = actions.start("rubber", PLAYERS)
    database = app.config["DATABASE"]
    copy = Path(database).with_name("copy.db")
    store.backup(database, copy)  # the match with no hand
    actions.save_hand(match_id, hand("Ann", "1", "C", "7"))
    opened: list[str] = []
    real_connect = sqlite3.connect

    def counted(path, *args, **kwargs):
        opened.append(Path(path).name)
        return real_connect(path, *args, **kwargs)

    monkeypatch.setattr(sqlite3, "connect", counted)
    for _ in range(3):
        assert "1 1♣ by Ann" in actions.text(f"/m/{match_id}")
    assert opened == []

    store.close_idle(database)  # as `scorekeeper restore` does, with no server running
    os.replace(copy, database)
    for suffix in ("-wal", "-shm"):
        Path(f"{database}{suffix}").unlink(missing_ok=True)
    drawn_page = actions.text(f"/m/{match_id}")
    assert "1 1♣ by Ann" not in drawn_page
    assert opened == ["t.db"]


def test_the_kept_drawings_stay_within_their_bound(actions, monkeypatch):
    kept = Recent(3, 10**9, drawn.Drawing.size)
    monkeypatch.setattr(drawn, "_drawings", kept)
    matches = [actions.start("rubber", PLAYERS) for _ in range(5)]
    for match_id in matches:
        actions.page(f"/m/{match_id}/hand/new")
        actions.page(f"/m/{match_id}")
    assert drawn.kept_drawings()[0] == 3
    assert [kept.get((m, 1)) is not None for m in matches] == [False, False, True, True, True]
    # By size: a drawing weighs its changes (estimated) and the parts drawn of it.
    newest = kept.get((matches[-1], 1))
    # Kept per address, language and text size too: each phone draws the page in its own.
    assert list(newest.parts) == [
        ("hand form", f"/m/{matches[-1]}/hand/new?", None, "", "en", 100),
        ("matches/_live_match.html", (None, None), "", "en", 100),
        ("match page", f"/m/{matches[-1]}?", (None, None, "http://localhost/"), "", "en", 100),
    ]
    one = newest.size()
    assert one == drawn.CHANGE_SIZE + sum(len(part) for part in newest.parts.values())
    kept.most_size = one
    kept.grown((matches[-1], 1), newest)
    assert drawn.kept_drawings() == (1, one)
    assert kept.get((matches[-1], 1)) is not None


def test_recent_drops_the_least_recently_used_by_count_and_by_size():
    kept: Recent[str] = Recent(3, 10, len)
    for key, value in [("a", "xxx"), ("b", "xxx"), ("c", "xxx")]:
        kept.put(key, value)
    assert kept.get("a") == "xxx"  # now the most recently used
    kept.put("d", "x")
    assert [k for k in "abcd" if kept.get(k) is not None] == ["a", "c", "d"]
    kept.put("e", "xxxxxxxx")  # 15 in all: the oldest go until the rest fit in 10
    assert [k for k in "abcde" if kept.get(k) is not None] == ["d", "e"]
    kept.put("f", "x" * 50)  # the newest stays, whatever its size
    assert [k for k in "abcdef" if kept.get(k) is not None] == ["f"]


READERS = 6
SAVES = 12  # each of the two phones saving


@pytest.fixture
def table(tmp_path):
    app = create_app({"DATABASE": str(tmp_path / "t.db"), "SECRET_KEY": "kept"})
    with watched_table(app) as phone:
        yield phone


def test_phones_reading_while_two_save_never_see_a_page_older_than_a_save(table):
    host = table("Host")
    match_id = host.start("rubber", list(PLAYERS), opt_rubbers="100")
    token = re.search(r"/w/([\w-]+)</code>", host.get(f"/m/{match_id}").text).group(1)
    acknowledged = [0]
    lock = threading.Lock()
    stale: list[tuple[str, int, int]] = []
    unexpected: list[tuple[str, int]] = []
    stop = threading.Event()

    def hands_on(page: str) -> int:
        return len(re.findall(r'<details id="hand-\d+"', page))

    def save(name: str, contract: tuple[str, str, str, str]) -> None:
        phone, saved = table(name), 0
        while saved < SAVES:
            form = phone.form(f"/m/{match_id}/hand/new")
            answer = phone.submit(form, **hand(*contract))
            if answer.status != 302:  # the other phone saved first: a stale form
                unexpected.extend([] if answer.status == 409 else [(name, answer.status)])
                continue
            saved += 1
            with lock:
                acknowledged[0] += 1
                floor = acknowledged[0]
            for url in (f"/m/{match_id}", f"/w/{token}"):
                shown = hands_on(phone.get(url).text)
                if shown < floor:
                    stale.append((url, shown, floor))

    def read(number: int) -> None:
        phone = table(f"Reader {number}")
        kept: dict[str, tuple[str, int]] = {}  # the page this phone has: its ETag, its hands
        while not stop.is_set():
            for url in (f"/m/{match_id}", f"/w/{token}", f"/m/{match_id}/live?since=1"):
                with lock:
                    floor = acknowledged[0]
                headers = {"If-None-Match": kept[url][0]} if url in kept else {}
                answer = phone.get(url, **headers)
                if answer.status == 200:
                    kept[url] = (answer.headers.get("etag", ""), hands_on(answer.text))
                elif answer.status != 304:
                    unexpected.append((url, answer.status))
                    continue
                if "/live" not in url and kept[url][1] < floor:  # a 304: the page it has
                    stale.append((url, kept[url][1], floor))

    readers = [threading.Thread(target=read, args=(n,)) for n in range(READERS)]
    savers = [
        threading.Thread(target=save, args=("Ann's phone", ("Ann", "1", "C", "6"))),
        threading.Thread(target=save, args=("Bob's phone", ("Bob", "2", "H", "7"))),
    ]
    for thread in readers + savers:
        thread.start()
    for thread in savers:
        thread.join(timeout=120)
    stop.set()
    for thread in readers:
        thread.join(timeout=60)
    assert (stale, unexpected) == ([], [])
    assert acknowledged[0] == 2 * SAVES
    assert len(host.hands(match_id)) == 2 * SAVES


def test_a_static_file_changed_gets_its_new_address_within_a_second(tmp_path, monkeypatch):
    """The hash in a static file's address is looked up on disk at most once a
    second (a page names ten of them), and a changed file gets its new hash."""
    clock = [1000.0]
    monkeypatch.setattr(assets.time, "monotonic", lambda: clock[0])
    (tmp_path / "app.css").write_text("body { color: black }")
    prints = assets.Fingerprints(StaticFolders(str(tmp_path)))
    first = prints.of("app.css")
    assert first == hashlib.sha256(b"body { color: black }").hexdigest()[:12]
    (tmp_path / "app.css").write_text("body { color: navy }")
    os.utime(tmp_path / "app.css", ns=(1, 1))  # another time than the first file's
    clock[0] += 0.5
    assert prints.of("app.css") == first
    clock[0] += 0.6
    assert prints.of("app.css") == hashlib.sha256(b"body { color: navy }").hexdigest()[:12]
    assert prints.of("missing.css") is None


def test_a_static_file_looked_at_again_is_not_searched_for_again(tmp_path, monkeypatch):
    """Looking a file up again (once a second) is one stat of the file found the
    first time, not a new search of its folders; a file gone is searched for,
    and has no address."""
    clock = [1000.0]
    monkeypatch.setattr(assets.time, "monotonic", lambda: clock[0])
    (tmp_path / "app.css").write_text("body { color: black }")
    folders = StaticFolders(str(tmp_path))
    searched = []
    monkeypatch.setattr(
        StaticFolders, "find", lambda self, name: searched.append(name) or tmp_path / name
    )
    prints = assets.Fingerprints(folders)
    first = prints.of("app.css")
    for _ in range(3):
        clock[0] += 1.1
        assert prints.of("app.css") == first
    assert searched == ["app.css"]
    (tmp_path / "app.css").unlink()
    clock[0] += 1.1
    assert prints.of("app.css") is None
    assert searched == ["app.css", "app.css"]
