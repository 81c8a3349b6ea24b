"""A save sent by the page's script (static/save.js) is answered with the next
hand's form in the same answer, from one load of the match and two replays at
most (none and one when the save before it left the match's drawing kept);
without the script the form and its redirect work as before."""

from __future__ import annotations

import re

import pytest

from scorekeeper import changelog, db, variants
from scorekeeper.kept import forget_all
from scorekeeper.views import hands as hand_views
from scorekeeper.views import pages
from scorekeeper.views import same_deal as same_deal_views
from tests.webtools import visible_text

SCRIPT = {"X-Requested-With": "fetch"}
FOUR_SPADES = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
TWO_HEARTS = {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "8"}


@pytest.fixture
def counted(monkeypatch):
    """How often the match is loaded from the store and replayed by the rules."""
    counts = {"loads": 0, "replays": 0}

    def counting(name, inner):
        def wrapper(*args, **kwargs):
            counts[name] += 1
            return inner(*args, **kwargs)

        return wrapper

    monkeypatch.setattr(db, "load_match", counting("loads", db.load_match))
    monkeypatch.setattr(pages, "load_match", counting("loads", pages.load_match))
    # Every replay goes through variants.replay: called by variants.replay_match and
    # imported by name in these modules.
    for module in (variants, changelog, hand_views, same_deal_views):
        monkeypatch.setattr(module, "replay", counting("replays", module.replay))
    return counts


def test_a_save_by_script_answers_with_the_next_form(client, actions, counted):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    form = {**TWO_HEARTS, "revision": str(actions.revision(match_id)), "key": "next-form-key-1"}
    counted.update(loads=0, replays=0)

    answer = client.post(f"/m/{match_id}/hand/new", data=form, headers=SCRIPT)

    assert answer.status_code == 200
    # The match as the save of hand 1 left it is kept with its replay (drawn.py):
    # the one replay is the write path's check of hand 2, and the next form is
    # drawn from it.
    assert counted == {"loads": 0, "replays": 1}
    text = visible_text(answer)
    assert "Hand 2 saved. Undo" in text
    assert "Save hand 3" in text
    assert actions.hands(match_id)[1] == {"declarer": "Bob", "contract": "2H", "tricks": 8}
    # The answer shown, its message is gone: the next page does not repeat it.
    assert "Hand 2 saved" not in actions.text(f"/m/{match_id}/hand/new")


def test_the_next_form_alone_costs_one_load_and_one_replay(client, actions, counted):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    counted.update(loads=0, replays=0)
    assert client.get(f"/m/{match_id}/hand/new").status_code == 200
    assert counted == {"loads": 0, "replays": 0}  # the save's own replay, kept
    forget_all()  # as in another process, or after a restart: loaded and replayed once
    assert client.get(f"/m/{match_id}/hand/new").status_code == 200
    assert counted == {"loads": 1, "replays": 1}


def test_the_pages_after_a_save_are_drawn_from_the_write_paths_replay(client, actions, counted):
    """The write path replays the match to check a hand: that replay is kept for
    the save's revision, so the phones at the table redrawing their sheet and the
    next hand's form after it load and replay nothing."""
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    actions.page(f"/m/{match_id}")  # the save's message, shown once
    form = {**TWO_HEARTS, "revision": str(actions.revision(match_id)), "key": "kept-replay-key"}
    counted.update(loads=0, replays=0)
    assert client.post(f"/m/{match_id}/hand/new", data=form).status_code == 302
    assert counted == {"loads": 0, "replays": 1}
    assert "2 2H by Bob, made" in actions.text(f"/m/{match_id}").replace("♥", "H")
    assert "Save hand 3" in actions.text(f"/m/{match_id}/hand/new")
    assert counted == {"loads": 0, "replays": 1}


def test_a_form_refused_because_another_phone_saved_first_replays_nothing(client, actions, counted):
    """The four other phones at the table send their form for the hand just
    saved: each is refused, with both versions side by side, from the replays
    kept for the match as it is now and as their form was drawn from it."""
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    revision = actions.revision(match_id)
    assert "Save hand 2" in actions.text(f"/m/{match_id}/hand/new")  # every phone's form
    form = {**TWO_HEARTS, "revision": str(revision), "key": "first-phone-key"}
    assert client.post(f"/m/{match_id}/hand/new", data=form).status_code == 302
    actions.page(f"/m/{match_id}")  # the save's message, shown once
    counted.update(loads=0, replays=0)
    late = {**TWO_HEARTS, "tricks": "9", "revision": str(revision), "key": "late-phone-key"}
    refused = client.post(f"/m/{match_id}/hand/new", data=late)
    assert refused.status_code == 409
    assert counted == {"loads": 0, "replays": 0}
    text = visible_text(refused)
    assert "Not saved: the match changed since this form was drawn." in text
    assert "Hand 2 saved: 2♥ by Bob, made · Bob +60, Di +60 — from another phone" in text
    assert "Theirs and yours differ in: Tricks won by declarer's side: theirs 8 · yours 9" in text


def test_without_the_script_a_save_still_redirects(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    answer = client.post(f"/m/{match_id}/hand/new", data=FOUR_SPADES)
    assert answer.status_code == 302
    assert answer.headers["Location"] == f"/m/{match_id}/hand/new"


def test_the_same_form_sent_again_by_script_is_stored_once(client, actions, counted):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    revision = actions.revision(match_id)
    form = {**FOUR_SPADES, "revision": str(revision), "key": "once-only-key-1"}
    first = client.post(f"/m/{match_id}/hand/new", data=form, headers=SCRIPT)
    counted.update(loads=0, replays=0)
    again = client.post(f"/m/{match_id}/hand/new", data=form, headers=SCRIPT)
    assert counted == {"loads": 0, "replays": 0}  # the first answer's match, kept
    assert first.status_code == again.status_code == 200
    assert "Hand 1 saved. Undo" in visible_text(again)
    assert "Save hand 2" in visible_text(again)
    assert len(actions.hands(match_id)) == 1


def test_a_stale_form_sent_by_script_keeps_its_entries(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    revision = actions.revision(match_id)
    actions.save_hand(match_id, FOUR_SPADES)  # another phone, first
    form = {**TWO_HEARTS, "revision": str(revision), "key": "stale-form-key-1"}
    answer = client.post(f"/m/{match_id}/hand/new", data=form, headers=SCRIPT)
    assert answer.status_code == 409
    page = answer.get_data(as_text=True)
    assert "Not saved: the match changed since this form was drawn." in visible_text(answer)
    assert re.search(r'value="Bob"\s+checked>', page)  # the declarer tapped is still chosen
    assert len(actions.hands(match_id)) == 1


def test_an_edit_by_script_still_goes_to_the_sheet(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    [hand] = actions.hand_ids(match_id)
    answer = client.post(f"/m/{match_id}/hand/{hand}", data=TWO_HEARTS, headers=SCRIPT)
    assert answer.status_code == 302
    assert answer.headers["Location"].startswith(f"/m/{match_id}?hand={hand}")


def test_pages_are_compressed(client, actions):
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    page = client.get(f"/m/{match_id}/hand/new", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    # The live poll keeps its own ETag, so an unchanged match is still a 304.
    live = client.get(f"/m/{match_id}/live?since=1", headers={"Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in live.headers
    again = client.get(
        f"/m/{match_id}/live?since=1",
        headers={"Accept-Encoding": "gzip", "If-None-Match": live.headers["ETag"]},
    )
    assert again.status_code == 304
    # Static files go compressed too (deflate, as Flask-Compress streams them),
    # keep their year-long cache when fingerprinted, and answer 304 to their ETag.
    chrome = {"Accept-Encoding": "gzip, deflate"}  # what Chromium offers over plain http
    page = client.get(f"/m/{match_id}/hand/new")
    [script] = re.findall(r'src="(/static/save\.js\?v=[0-9a-f]+)"', page.get_data(as_text=True))
    js = client.get(script, headers=chrome)
    assert js.headers["Content-Encoding"] == "deflate"
    assert js.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    again = client.get(script, headers={**chrome, "If-None-Match": js.headers["ETag"]})
    assert again.status_code == 304


def test_downloads_are_sent_as_they_are(client, actions):
    """Zips (streamed), CSV and match files are not re-encoded: their bytes and
    headers stay what the views make (the PDF's ETag and 304: tests/test_pdf.py)."""
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Di"])
    actions.save_hand(match_id, FOUR_SPADES)
    chrome = {"Accept-Encoding": "gzip, deflate, br, zstd"}
    for url in ("/matches.zip", f"/m/{match_id}/hands.csv", f"/m/{match_id}/match.json"):
        answer = client.get(url, headers=chrome)
        assert answer.status_code == 200, url
        assert "Content-Encoding" not in answer.headers, url
    assert client.get("/matches.zip", headers=chrome).data[:2] == b"PK"
