"""The match page does not redo work that cannot have changed: the two share codes
are drawn once per address, the CSRF field once per page. What it costs in time is
printed by benchmarks/bench_page.py, never asserted here."""

import re

import segno

from scorekeeper.app import create_app
from scorekeeper.views import pages as page_helpers
from tests.test_pdf import example, store

SVG = re.compile(r'<figure class="qr-box" id="share-(play|watch)">(<svg.*?</svg>)')


def test_share_codes_are_drawn_once_for_each_address(client, monkeypatch):
    match_id = store(client, example("rubber"))
    drawn, draw = [], segno.make

    def make(url, **options):
        drawn.append(url)
        return draw(url, **options)

    page_helpers.qr_svg.cache_clear()
    monkeypatch.setattr(page_helpers.segno, "make", make)
    pages = [client.get(f"/m/{match_id}").text for _ in range(3)]
    watch = store_watch(client, match_id)
    assert drawn == [f"http://localhost/m/{match_id}", f"http://localhost/w/{watch}"]
    codes = [dict(SVG.findall(page)) for page in pages]
    assert codes[0] == codes[1] == codes[2]
    assert codes[0]["play"] == str(page_helpers.qr_svg(f"http://localhost/m/{match_id}"))
    # The same match reached by another address has codes of its own.
    other = client.get(f"/m/{match_id}", base_url="http://192.168.1.20:8000").text
    assert drawn[2:] == [
        f"http://192.168.1.20:8000/m/{match_id}",
        f"http://192.168.1.20:8000/w/{watch}",
    ]
    assert dict(SVG.findall(other))["play"] != codes[0]["play"]
    page_helpers.qr_svg.cache_clear()


def store_watch(client, match_id: str) -> str:
    from scorekeeper.db import get_db, load_match

    with client.application.app_context():
        return load_match(get_db(), match_id).watch


def test_every_form_on_the_match_page_carries_the_pages_csrf_token(tmp_path):
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "csrf.db")})
    client = app.test_client()
    match_id = store(client, example("rubber"))
    page = client.get(f"/m/{match_id}").text
    forms = re.findall(r"<form method=\"post\".*?</form>", page, re.S)
    tokens = [re.findall(r'name="csrf_token" type="hidden" value="([^"]+)"', f) for f in forms]
    # The 12 hands' Delete, Delete this match, this phone's name (the match is
    # finished: no Stop; imported: nothing to undo).
    assert len(forms) == 14
    assert all(len(found) == 1 for found in tokens)
    assert len({found[0] for found in tokens}) == 1
    # The token drawn once is a valid one: the last hand's Delete is accepted.
    delete = [form for form in forms if re.search(r'action="[^"]*/hand/\d+/delete"', form)][-1]
    action = re.search(r'action="([^"]+)"', delete).group(1)
    fields = dict(re.findall(r'name="([a-z_]+)" (?:type="hidden" )?value="([^"]*)"', delete))
    answer = client.post(action, data=fields)
    assert answer.status_code == 302, answer.text
