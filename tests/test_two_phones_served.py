"""Two phones, one deal, and one match file imported twice, as real HTTP clients
of a real waitress server (CSRF on): every round pins who was stored, who got
the refusal, and that nothing was stored twice. No answer is ever 500 or above."""

from __future__ import annotations

import html
import json
import re
from functools import partial
from pathlib import Path

import pytest

from scorekeeper.app import create_app
from tests.phones import Form, Phone, together, watched_table

ROUNDS = 20
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HANDS = [
    {"declarer": "Ann", "level": "1", "strain": "C", "tricks": "6"},
    {"declarer": "Bob", "level": "2", "strain": "H", "tricks": "7"},
    {"declarer": "Cy", "level": "3", "strain": "S", "tricks": "8"},
]
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def stored(hand: dict[str, str]) -> dict:
    return {
        "declarer": hand["declarer"],
        "contract": hand["level"] + hand["strain"],
        "tricks": int(hand["tricks"]),
    }


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("two") / "t.db"), "SECRET_KEY": "phones"}
    )
    with watched_table(app) as phone:
        yield phone


def forms_in(text: str, page: str) -> dict[str, Form]:
    """The forms of an answer by id, each with its action and hidden fields."""
    found = {}
    for attributes, inner in re.findall(r"<form\b([^>]*)>(.*?)</form>", text, re.S):
        form_id = re.search(r'id="([^"]+)"', attributes)
        action = re.search(r'action="([^"]*)"', attributes)
        fields = {}
        for tag in re.findall(r"<input\b([^>]*)>", inner):
            attrs = dict(re.findall(r'([a-z-]+)="([^"]*)"', tag))
            if attrs.get("type") == "hidden" and "name" in attrs:
                fields[attrs["name"]] = html.unescape(attrs.get("value", ""))
        if form_id:
            found[form_id.group(1)] = Form(
                html.unescape(action.group(1)) if action else page, fields
            )
    return found


def revision(phone: Phone, match_id: str) -> int:
    return phone.get(f"/m/{match_id}/live").json()["revision"]


def test_two_phones_saving_the_same_deal_together(table):
    """One is stored; the other hears that they saved the same hand, and its
    "keep theirs" stores nothing and brings the next hand's form."""
    ann, bob = table("Ann's phone"), table("Bob's phone")
    match_id = ann.start("rubber", PLAYERS)
    new = f"/m/{match_id}/hand/new"
    for i in range(ROUNDS):
        hand = HANDS[i % len(HANDS)]
        a, b = together(
            partial(ann.submit, ann.form(new), **hand), partial(bob.submit, bob.form(new), **hand)
        )
        assert sorted([a.status, b.status]) == [302, 409]
        loser, refused = (bob, b) if a.status == 302 else (ann, a)
        winner = "Ann's phone" if loser is bob else "Bob's phone"
        assert f"from {winner}, a moment ago" in html.unescape(refused.text)
        assert "They saved the same hand — nothing to do." in refused.text
        assert len(ann.hands(match_id)) == i + 1
        keep = forms_in(refused.text, new)["keep-theirs-form"]
        before = revision(ann, match_id)
        kept = loser.submit(keep)
        assert (kept.status, kept.location) == (302, new)
        said = html.unescape(loser.get(new).text)
        assert f"Kept hand {i + 1} as {winner} saved it; yours was not saved." in said
        assert revision(ann, match_id) == before
    assert ann.hands(match_id) == [stored(HANDS[i % len(HANDS)]) for i in range(ROUNDS)]


def test_save_mine_as_the_next_hand_tapped_twice_while_a_third_phone_saves(table):
    """Bob's refused hand, saved as the next one with a double tap, races Cy's
    save drawn at the same moment: exactly one of them is stored; Bob's taps get
    one answer between them; when Cy's came first, Bob is refused again."""
    ann, bob, cy = table("Ann's phone"), table("Bob's phone"), table("Cy's phone")
    match_id = ann.start("rubber", PLAYERS)
    new = f"/m/{match_id}/hand/new"
    outcomes = {"Bob first": 0, "Cy first": 0}
    for i in range(ROUNDS):
        theirs, mine, third = HANDS[i % 3], HANDS[(i + 1) % 3], HANDS[(i + 2) % 3]
        old = bob.form(new)
        assert ann.submit(ann.form(new), **theirs).status == 302
        refused = bob.submit(old, **mine)
        assert refused.status == 409
        assert "Same deal — keep theirs, discard mine" in refused.text
        count = len(ann.hands(match_id))
        again = forms_in(refused.text, new)["hand-form"]
        cys = cy.form(new)
        b1, b2, c = together(
            partial(bob.submit, again, **mine),
            partial(bob.submit, again, **mine),
            partial(cy.submit, cys, **third),
        )
        hands = ann.hands(match_id)
        assert len(hands) == count + 1
        if c.status == 302:
            outcomes["Cy first"] += 1
            assert (b1.status, b2.status) == (409, 409)
            assert "Same deal — keep theirs, discard mine" in b1.text
            assert hands[-1] == stored(third)
        else:
            outcomes["Bob first"] += 1
            assert (b1.status, b2.status, c.status) == (302, 302, 409)
            assert hands[-1] == stored(mine)
    assert sum(outcomes.values()) == ROUNDS


def test_two_phones_importing_the_same_file_at_once_make_one_match(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    document = json.loads((EXAMPLES / "chicago.json").read_text())
    made: set[str] = set()
    for i in range(ROUNDS):
        content = json.dumps({**document, "title": f"Evening {i}"}).encode()
        forms = [next(f for f in p.forms("/") if f.action == "/import") for p in (ann, bob)]
        a, b = together(
            partial(ann.upload, "/import", forms[0].fields, "match_file", content),
            partial(bob.upload, "/import", forms[1].fields, "match_file", content),
        )
        assert sorted([a.status, b.status]) == [302, 409]
        first, second = (a, b) if a.status == 302 else (b, a)
        match_id = re.fullmatch(r"/m/([\w-]{16})", first.location).group(1)
        assert "This match is already here (imported a moment ago)." in second.text
        # The other phone never had the match: its address is not handed out.
        assert f'href="/m/{match_id}"' not in second.text
        made.add(match_id)
        # A double tap of "Import a copy": one copy.
        phone = bob if second is b else ann
        copy = forms_in(second.text, "/import")["import-copy-form"]
        assert copy.action == "/import/copy"
        c1, c2 = together(
            partial(phone.upload, "/import/copy", copy.fields, "unused", b""),
            partial(phone.upload, "/import/copy", copy.fields, "unused", b""),
        )
        assert (c1.status, c2.status) == (302, 302)
        assert c1.location == c2.location != first.location
        made.add(c1.location.removeprefix("/m/"))
    assert len(made) == 2 * ROUNDS
