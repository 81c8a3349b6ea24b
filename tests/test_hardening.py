"""Who may open a match, what every answer carries, the limits of a match, CSV
cells a spreadsheet will not run, and storage faults that answer plainly."""

from __future__ import annotations

import base64
import csv
import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

from scorekeeper import db as store
from scorekeeper import pdf
from scorekeeper.app import create_app
from scorekeeper.instance import InstanceUnwritable
from scorekeeper.matchfile import MAX_ENTRIES
from tests.webtools import Actions, parse, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
PLAYERS = ("Ann", "Bob", "Cy", "Dee")
NOT_SAVED = (
    "Not saved: the score store cannot be written right now (disk full / read-only);"
    " nothing was changed."
)


def example(name: str) -> dict:
    return json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def defeated(count: int) -> list[dict]:
    """Rubber hands that never make a game: the match never finishes."""
    return [{"declarer": PLAYERS[n % 4], "contract": "1C", "tricks": n % 7} for n in range(count)]


def rubber_document(hands: list[dict], **extra) -> dict:
    return {
        "format": "scorekeeper-match/1",
        "variant": "rubber",
        "players": list(PLAYERS),
        "hands": hands,
        **extra,
    }


def listed(phone: Actions) -> set[str]:
    """The match addresses this browser's home page links to."""
    links = (a.attrs.get("href") or "" for a in parse(phone.page("/")).find_all("a"))
    return {href for href in links if re.fullmatch(r"/m/[\w-]{16}", href)}


# --- who may open a match ---------------------------------------------------------


def test_two_new_matches_have_ids_of_96_random_bits_that_differ(actions):
    first, second = actions.start("rubber", PLAYERS), actions.start("rubber", PLAYERS)
    raw = [base64.urlsafe_b64decode(i + "=" * (-len(i) % 4)) for i in (first, second)]
    assert [len(r) for r in raw] == [12, 12]  # 96 bits each, at least the 64 asked
    differing = bin(int.from_bytes(raw[0], "big") ^ int.from_bytes(raw[1], "big")).count("1")
    assert differing > 0
    ids = {store.new_match_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(re.fullmatch(r"[A-Za-z0-9_-]{16}", i) for i in ids)


@pytest.mark.parametrize(
    "path",
    [
        "/m/1",
        "/m/1/hand/new",
        "/m/1/sheet.pdf",
        "/m/18446744073709551616",
        "/m/99999999999999999999999999/hands.csv",
        "/m/AAAAAAAAAAAAAAAA",
        "/m/AAAAAAAAAAAAAAAA/live",
    ],
)
def test_a_numbered_or_unknown_match_address_is_a_404(actions, path):
    actions.start("rubber", PLAYERS)
    assert actions.client.get(path).status_code == 404


def test_hand_keys_and_revisions_beyond_64_bits_are_404s(actions):
    match_id = actions.start("rubber", PLAYERS)
    huge = str(2**64 + 1)
    for path in (f"/m/{match_id}/hand/{huge}", f"/m/{match_id}/hand/{huge}/delete"):
        assert actions.client.get(path).status_code in (404, 405)
        assert actions.client.post(path, data={}).status_code == 404
    restore = actions.client.post(
        f"/m/{match_id}/history/{huge}/restore", data={"version": "before"}
    )
    assert restore.status_code == 404


def test_the_home_page_lists_only_the_matches_this_browser_started_or_opened(app):
    ann, bob, cy = (Actions(app.test_client()) for _ in range(3))
    anns = ann.start("rubber", ("Ann", "Bob", "Cy", "Dee"))
    bobs = bob.start("rubber", ("Eve", "Fay", "Gus", "Hal"))
    assert listed(ann) == {f"/m/{anns}"}
    assert listed(bob) == {f"/m/{bobs}"}
    home = cy.page("/")
    assert f"/m/{anns}" not in home and f"/m/{bobs}" not in home
    assert "Eve" not in visible_text(home)
    cy.page(f"/m/{bobs}")  # given the address: opened
    assert listed(cy) == {f"/m/{bobs}"}


def test_the_watch_address_does_not_add_the_match_to_the_home_page(app):
    ann, guest = Actions(app.test_client()), Actions(app.test_client())
    match_id = ann.start("rubber", PLAYERS)
    token = store.load_match(_db(app), match_id).watch
    guest.page(f"/w/{token}")
    assert f"/m/{match_id}" not in guest.page("/")


def _db(app):
    return store.connect(app.config["DATABASE"])


def test_the_remembered_list_is_a_small_httponly_lax_cookie(actions):
    for _ in range(70):
        match_id = actions.start("rubber", PLAYERS)
    cookie = actions.client.get_cookie("matches")
    assert cookie.http_only and cookie.same_site == "Lax"
    assert cookie.value.split(".")[0] == match_id
    assert len(cookie.value.split(".")) == 60 and len(cookie.value) < 1100


# --- security headers on every kind of answer --------------------------------------


def _answers(actions):
    match_id = actions.imported(example("top-game"))
    pdf.clear_cache()
    client = actions.client
    return {
        "html": client.get(f"/m/{match_id}"),
        "json": client.get(f"/m/{match_id}/live"),
        "match file": client.get(f"/m/{match_id}/match.json"),
        "csv": client.get(f"/m/{match_id}/hands.csv"),
        "pdf": client.get(f"/m/{match_id}/sheet.pdf"),
        "static": client.get("/static/app.css"),
        "404": client.get("/m/1"),
        "redirect": client.post("/new", data={"variant": "rubber", "player1": "A"}),
    }


def test_every_kind_of_answer_carries_the_security_headers(actions):
    answers = _answers(actions)
    assert answers["pdf"].mimetype == "application/pdf"
    assert answers["csv"].mimetype == "text/csv"
    for kind, answer in answers.items():
        headers = answer.headers
        csp = headers.get("Content-Security-Policy", "")
        assert "default-src 'self'" in csp, kind
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp, kind
        assert "frame-ancestors 'none'" in csp, kind
        assert headers.get("X-Content-Type-Options") == "nosniff", kind
        assert headers.get("Referrer-Policy") == "same-origin", kind


def test_the_session_and_phone_cookies_are_httponly_and_samesite_lax(actions):
    match_id = actions.start("rubber", PLAYERS)
    actions.client.post(
        f"/m/{match_id}/settings",
        data={"title": "x" * 101, "stake_amount": "", "stake_per": "", "stake_currency": ""},
    )  # flashes nothing
    actions.client.post("/phone", data={"name": "Ann's phone", "next": "/"})
    for name in ("session", "phone"):
        cookie = actions.client.get_cookie(name)
        assert cookie is not None, name
        assert cookie.http_only and cookie.same_site == "Lax", name


def test_no_page_has_an_inline_script_or_style_attribute(actions):
    match_id = actions.imported(example("bridge-for-three"))
    for path in ("/", "/new", f"/m/{match_id}", f"/m/{match_id}/hand/new", "/rules/"):
        page = actions.client.get(path, follow_redirects=True).text
        scripts = re.findall(r"<script\b([^>]*)>", page)
        assert all("src=" in s or "application/json" in s for s in scripts), (path, scripts)
        assert not re.search(r"\son[a-z]+=", page), path


# --- limits of a match -------------------------------------------------------------


def test_an_import_of_501_entries_is_refused_naming_the_limit(actions):
    response = actions.import_file(rubber_document(defeated(MAX_ENTRIES + 1)))
    assert response.status_code == 302 and response.location == "/"
    home = actions.text("/")
    assert "hands: 501 entries; a match holds at most 500" in home
    assert "Not imported: 1 problem in this file." in home and "/m/" not in actions.page("/")


def test_an_import_of_500_entries_is_taken_and_the_501st_hand_is_refused(actions):
    match_id = actions.imported(rubber_document(defeated(MAX_ENTRIES)))
    refused = actions.post_hand(
        match_id, {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "3"}
    )
    assert refused.status_code < 500
    assert "the most a match holds is 500" in actions.followed(refused)
    assert len(actions.hands(match_id)) == MAX_ENTRIES


def test_an_import_over_one_megabyte_is_refused_naming_the_limit(actions):
    document = rubber_document(defeated(3), title="x" * 1_100_000)
    response = actions.import_file(document)
    assert response.status_code == 302
    home = actions.text("/")
    assert "file: larger than 1 MB" in home and "at most 500 entries" in home


def test_an_upload_over_the_request_limit_is_refused_without_a_500(actions):
    # The import form takes a group file of 4 MB: its requests may be that large.
    assert actions.import_file(b" " * (5 * 1024 * 1024)).status_code == 413


@pytest.mark.parametrize(
    "field, value, message",
    [
        ("title", "x" * 101, "title: give text of at most 100 characters"),
        ("players", ["A" * 41, "Bob", "Cy", "Dee"], "player 1 has 41 characters, at most 40"),
    ],
)
def test_titles_and_names_over_their_limits_are_refused(actions, field, value, message):
    response = actions.import_file(rubber_document([], **{field: value}))
    assert response.status_code == 302
    assert message in actions.text("/")


def test_a_settings_title_over_100_characters_is_refused(actions):
    match_id = actions.start("rubber", PLAYERS)
    page = actions.client.post(
        f"/m/{match_id}/settings",
        data={"title": "x" * 101, "stake_amount": "", "stake_per": "", "stake_currency": ""},
    )
    assert page.status_code == 200
    assert (
        "Title has 101 characters; a title has at most 100. Shorten it (a date or a place will do)."
        in visible_text(page)
    )
    assert actions.revision(match_id) == 1


def test_no_pdf_is_made_of_a_match_over_the_limit(app, actions):
    match_id = actions.imported(rubber_document(defeated(10)))
    db = _db(app)
    with store.writing(db):  # as if stored before the limit existed
        for key in range(11, MAX_ENTRIES + 2):
            db["changes"].insert(
                {
                    "match_id": match_id,
                    "revision": key - 9,
                    "kind": "append",
                    "hand": key,
                    "record": json.dumps(defeated(key)[-1]),
                    "created": "2026-11-23T20:00:00+00:00",
                }
            )
    answer = actions.client.get(f"/m/{match_id}/sheet.pdf")
    assert answer.status_code == 413
    assert "this match has 501 entries" in visible_text(answer)
    assert actions.client.get(f"/m/{match_id}/hands.csv").status_code == 200


def test_a_pdf_that_waits_too_long_for_another_answers_503(actions, monkeypatch):
    match_id = actions.imported(example("top-game"))
    pdf.clear_cache()
    monkeypatch.setattr(pdf, "WAIT_FOR_RENDER", 0.05)
    with pdf._render_lock:
        answer = actions.client.get(f"/m/{match_id}/sheet.pdf")
    assert answer.status_code == 503
    assert "another table's score sheet is being printed" in visible_text(answer)
    assert actions.client.get(f"/m/{match_id}/sheet.pdf").status_code == 200


# --- CSV safe for spreadsheets -------------------------------------------------------


@pytest.mark.parametrize("name", ["=HYPERLINK(x)", "+SUM(A1)", "-2+3", "@cmd", "=1+1"])
def test_a_csv_cell_that_a_spreadsheet_would_run_starts_with_a_quote(actions, name):
    document = rubber_document(
        [{"declarer": name, "contract": "2H", "tricks": 8}],
        players=[name, "Bob", "Cy", "Dee"],
    )
    match_id = actions.imported(document)
    rows = list(csv.reader(io.StringIO(actions.client.get(f"/m/{match_id}/hands.csv").text)))
    assert rows[0][7] == "'" + name
    assert rows[1][1] == "'" + name  # the dealer
    assert rows[1][3:7] == ["'" + name, "2H", "8", "made"]  # declarer, contract, tricks
    assert rows[1][7:11] == ["0", "0", "0", "0"] or all(
        re.fullmatch(r"-?\d+", c) for c in rows[1][7:11]
    )
    assert all(not c.startswith("'") for c in rows[-1][7:11])  # totals stay numbers


@pytest.mark.parametrize(
    "cell, written",
    [
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("=x", "'=x"),
        ("a=b", "a=b"),
        ("", ""),
        (-40, -40),
        (0, 0),
    ],
)
def test_spreadsheet_safe_prefixes_text_only(cell, written):
    from scorekeeper.viewmodels.downloads import spreadsheet_safe

    assert spreadsheet_safe(cell) == written


def test_negative_scores_stay_numbers_in_the_csv(actions):
    match_id = actions.imported(rubber_document(defeated(2)))
    rows = list(csv.reader(io.StringIO(actions.client.get(f"/m/{match_id}/hands.csv").text)))
    assert rows[0] == [
        *["hand", "dealer", "counted", "declarer", "contract", "tricks", "result"],
        *PLAYERS,
        "explanation",
    ]
    assert [r[0] for r in rows] == ["hand", "1", "2", "total"]
    assert not any(cell.startswith("'") for row in rows for cell in row)


# --- storage faults ------------------------------------------------------------------


def _stored_revisions(app, match_id: str) -> int:
    db = _db(app)
    try:
        return store.revision(db, match_id)
    finally:
        db.close()


def _read_only(monkeypatch):
    """Open the database as SQLite opens a file it may not write."""
    real = sqlite3.connect

    def connect(path, *args, **kwargs):
        return real(f"file:{path}?mode=ro", *args, uri=True, **kwargs)

    monkeypatch.setattr(store.sqlite3, "connect", connect)
    store.close_idle()  # the requests' kept connections: the next one opens the store so


def _disk_full(monkeypatch):
    """The disk fills while the change is written: SQLite reports SQLITE_FULL at
    COMMIT (injected here; the tmpfs test below fills a real filesystem)."""
    real = store.connect

    def connect(path):
        db = real(path)
        execute = db.execute

        def full_at_commit(sql, *args, **kwargs):
            if sql == "COMMIT":
                raise sqlite3.OperationalError("database or disk is full")
            return execute(sql, *args, **kwargs)

        db.execute = full_at_commit
        return db

    monkeypatch.setattr(store, "connect", connect)
    store.close_idle()  # the requests' kept connections: the next one opens the store so


@pytest.mark.parametrize("fault", ["read-only", "disk full"])
def test_a_store_that_cannot_be_written_answers_503_and_keeps_reading(
    app, actions, monkeypatch, fault
):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, declarer="Ann", level="2", strain="H", tricks="8")
    before = actions.hands(match_id)
    (_read_only if fault == "read-only" else _disk_full)(monkeypatch)
    big = {"declarer": "Bob", "level": "3", "strain": "NT", "tricks": "9"}
    answers = [
        actions.post_hand(match_id, big),
        actions.client.post(
            f"/m/{match_id}/settings",
            data={"title": "T" * 100, "stake_amount": "", "stake_per": "", "stake_currency": ""},
        ),
        actions.client.post(
            "/new",
            data={"variant": "rubber", **{f"player{i}": p for i, p in enumerate(PLAYERS, 1)}},
        ),
        actions.client.post(f"/m/{match_id}/undo"),
    ]
    for answer in answers:
        assert answer.status_code == 503
        assert NOT_SAVED in visible_text(answer)
    actions.page(f"/m/{match_id}")  # reading still works
    assert actions.revision(match_id) == 2
    monkeypatch.undo()
    assert actions.hands(match_id) == before
    assert _stored_revisions(app, match_id) == 2
    assert len(list(_db(app).query("select id from matches"))) == 1


def test_an_unopenable_database_answers_503_not_500(actions, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)

    def broken(path, *args, **kwargs):
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(store.sqlite3, "connect", broken)
    store.close_idle()  # the requests' kept connections: the next one must open the store
    answer = actions.client.get(f"/m/{match_id}")
    assert answer.status_code == 503 and NOT_SAVED in visible_text(answer)


def test_an_instance_folder_that_cannot_be_created_is_named(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(blocker / "instance"))
    with pytest.raises(InstanceUnwritable) as raised:
        create_app()
    message = str(raised.value)
    assert str(blocker / "instance") in message and "SCOREKEEPER_INSTANCE" in message
    assert "\n" not in message


@contextmanager
def tmpfs(folder: Path, options: str):
    """A real small filesystem on `folder`, where mounting is allowed (root on Linux)."""
    folder.mkdir(exist_ok=True)
    made = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(folder)], capture_output=True
    )
    if made.returncode != 0:
        pytest.skip(f"cannot mount a filesystem here: {made.stderr.decode().strip()}")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], check=False)


@pytest.fixture
def small_disk(tmp_path):
    """A 2 MB filesystem to fill."""
    with tmpfs(tmp_path / "small", "size=2m") as mount:
        yield mount


def test_a_full_disk_answers_503_stores_nothing_and_keeps_reading(small_disk):
    app = create_app(
        {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(small_disk / "t.db")}
    )
    phone = Actions(app.test_client())
    match_id = phone.start("rubber", PLAYERS)
    phone.page(f"/m/{match_id}")
    filler = small_disk / "filler"
    with open(filler, "wb") as handle:  # fill every free block
        try:
            while True:
                handle.write(b"\0" * 65536)
                handle.flush()
        except OSError:
            pass
    hand = {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8", "revision": "1"}
    answers = [phone.post_hand(match_id, hand) for _ in range(3)]
    assert {a.status_code for a in answers} == {503}
    assert NOT_SAVED in visible_text(answers[0])
    phone.page(f"/m/{match_id}")
    filler.unlink()
    assert phone.hands(match_id) == []
    phone.save_hand(match_id, hand)
    assert len(phone.hands(match_id)) == 1


@pytest.fixture
def unwritable_folder(tmp_path):
    """A folder this process cannot write: a read-only filesystem for root
    (root ignores file modes), mode 555 for anyone else."""
    folder = tmp_path / "instance"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        yield folder
        folder.chmod(0o755)
        return
    with tmpfs(folder, "ro,size=1m"):
        yield folder


def test_serve_on_an_unwritable_instance_folder_stops_with_one_line(unwritable_folder):
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "serve", "--local", "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(Path(__file__).resolve().parent.parent),
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(unwritable_folder)},
    )
    assert done.returncode == 1
    assert done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"Scorekeeper cannot write its instance folder {unwritable_folder}")
    assert "Read-only file system" in lines[0] or "Permission denied" in lines[0]
    assert "SCOREKEEPER_INSTANCE" in lines[0]


def test_scorekeeper_matches_lists_every_stored_match_with_its_address(tmp_path):
    from scorekeeper.matchfile import from_document

    store.migrate(str(tmp_path / "scorekeeper.db"))
    db = store.connect(str(tmp_path / "scorekeeper.db"))
    ids = [
        store.create_match(db, from_document({**example("top-game"), "title": title})).match_id
        for title in ("Friday", "Saturday")
    ]
    db.close()
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "matches"],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "SCOREKEEPER_INSTANCE": str(tmp_path)},
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2
    for match_id, title in zip(ids, ("Friday", "Saturday"), strict=True):
        [line] = [x for x in lines if x.startswith(f"/m/{match_id}  ")]
        assert f"The Top Game  {title}  Ann, Bob, Cy" in line


# --- found in review ------------------------------------------------------------------


def test_a_thousands_separator_is_refused_not_read_as_decimals(actions):
    page = actions.client.post("/new", data={"variant": "rubber", "stake_amount": "1,000"})
    assert page.status_code == 200
    assert "'1,000' is not an amount: write it like 0.50 or 0,50, with no thousands separator." in (
        visible_text(page)
    )
    assert actions.start("rubber", PLAYERS) and actions.client.post(
        "/new", data={"variant": "rubber", "stake_amount": "0,5", "player1": "Ann"}
    ).status_code in (200, 302)


def test_an_import_over_the_entry_limit_is_refused_before_anything_is_replayed(
    actions, monkeypatch
):
    from scorekeeper import variants

    def no_replay(*args):
        raise AssertionError("replayed an import over the limit")

    monkeypatch.setattr(variants, "replay", no_replay)
    hands = [{"passed_out": True}] * 20_000
    document = {**rubber_document(hands), "variant": "chicago"}
    response = actions.import_file(document)
    assert response.status_code == 302
    assert "hands: 20000 entries; a match holds at most 500" in actions.text("/")


def test_a_refusal_keeps_its_heading_before_a_long_list_of_changes(actions):
    match_id = actions.start("rubber", PLAYERS)
    drawn = actions.revision(match_id)
    for n in range(14):
        # the phone shows the page it is sent to (and the message)
        actions.followed(actions.save_hand(match_id, defeated_form(n)))
    refused = actions.client.post(f"/m/{match_id}/undo", data={"revision": str(drawn)})
    assert refused.status_code == 302
    shown = actions.followed(refused)
    assert "Not done: the match changed since this page was drawn." in shown
    assert "… and 5 more changes." in shown
    assert shown.index("Not done") < shown.index("Hand 1 saved")


def defeated_form(n: int) -> dict[str, str]:
    record = defeated(n + 1)[-1]
    return {
        "declarer": record["declarer"],
        "level": "1",
        "strain": "C",
        "tricks": str(record["tricks"]),
    }


def test_static_files_do_not_vary_by_cookie(actions):
    actions.start("rubber", PLAYERS)
    # Only by the encoding: a static file is sent compressed to a phone that asks.
    assert actions.client.get("/static/app.css").headers["Vary"] == "Accept-Encoding"


def test_a_wrong_query_is_a_bug_not_a_full_disk(actions, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)

    def broken(db, match_id):
        raise broken_query

    monkeypatch.setattr("scorekeeper.views.pages.load_match", broken)
    broken_query = sqlite3.OperationalError("no such column: nope")
    broken_query.sqlite_errorcode = sqlite3.SQLITE_ERROR
    with pytest.raises(sqlite3.OperationalError):
        actions.client.get(f"/m/{match_id}")


def test_a_pdf_asked_for_while_the_same_one_renders_is_not_rendered_twice(actions, monkeypatch):
    from scorekeeper.views.sheets import match_html

    match_id = actions.imported(example("top-game"))
    pdf.clear_cache()
    app = actions.client.application
    with app.test_request_context():
        from scorekeeper.views.pages import load_or_404

        html = match_html(load_or_404(match_id))
    static = app.static_folder
    renders = []
    monkeypatch.setattr(pdf, "_render", lambda *args: renders.append(args) or b"%PDF-new")
    answers = []
    with pdf._render_lock:  # a first phone's render is under way
        waiting = threading.Thread(target=lambda: answers.append(pdf.cached_pdf(html, static)))
        waiting.start()
        key = pdf.sheet_key(html, static, "a4")
        with pdf._cache_lock:
            pdf._rendered[key] = b"%PDF-first"  # ... and it finishes
    waiting.join(timeout=10)
    pdf.clear_cache()  # the stand-in bytes must not reach another test
    assert answers == [(key, b"%PDF-first")] and renders == []


def test_a_runaway_match_can_still_be_deleted(monkeypatch):
    from scorekeeper import changelog

    state = changelog.MatchState(
        id="m" * 16, variant="rubber", players=list(PLAYERS), options={}, created="", watch="w"
    )
    state.revision = changelog.MAX_CHANGES
    with pytest.raises(changelog.Refused):
        changelog.decide(state, changelog.Command(changelog.SETTINGS, revision=state.revision), "")
    change, _ = changelog.decide(
        state, changelog.Command(changelog.DELETE_MATCH, revision=state.revision), "now"
    )
    assert change.kind == changelog.DELETE_MATCH
