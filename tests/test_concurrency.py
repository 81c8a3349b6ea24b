"""Several phones at one table, as real HTTP clients of a real waitress server.

Every test runs at least 50 rounds and pins the exact outcome of each: a form
sent twice stores one hand, a stale form is refused and names the change, of
two phones saving the same hand exactly one is stored, an edit racing a delete
is never answered "saved" for a hand that is gone, and phones on different
matches never block each other into an error. No answer is ever 500 or above.
"""

from __future__ import annotations

import json
import re
import threading

import pytest

from scorekeeper.app import create_app
from tests.phones import Answer, Phone, at_once, watched_table

ROUNDS = 50
PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
CONTRACTS = [("Ann", "1", "C", "6"), ("Bob", "2", "H", "7"), ("Cy", "3", "S", "8")]


def down(i: int) -> dict[str, str]:
    """A rubber hand that goes down (above the line only: the match never ends)."""
    declarer, level, strain, tricks = CONTRACTS[i % len(CONTRACTS)]
    return {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}


def stored_record(i: int) -> dict:
    declarer, level, strain, tricks = CONTRACTS[i % len(CONTRACTS)]
    return {"declarer": declarer, "contract": f"{level}{strain}", "tricks": int(tricks)}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The app under waitress with CSRF on, as at a real table."""
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("phones") / "t.db"), "SECRET_KEY": "phones"}
    )
    with watched_table(app) as phone:
        yield phone


def test_the_same_form_twice_in_a_row_stores_one_hand(table):
    ann = table("Ann's phone")
    match_id = ann.start("rubber", PLAYERS)
    for i in range(ROUNDS):
        form = ann.form(f"/m/{match_id}/hand/new")
        first = ann.submit(form, **down(i))
        again = ann.submit(form, **down(i))
        assert (first.status, again.status) == (302, 302)
        assert again.location == first.location == f"/m/{match_id}/hand/new"
        assert len(ann.hands(match_id)) == i + 1
    assert ann.hands(match_id) == [stored_record(i) for i in range(ROUNDS)]


def test_the_same_form_twice_at_once_stores_one_hand(table):
    ann = table("Ann's phone")
    match_id = ann.start("rubber", PLAYERS)
    for i in range(ROUNDS):
        form = ann.form(f"/m/{match_id}/hand/new")
        first, second = at_once((ann, form, down(i)), (ann, form, down(i)))
        assert (first.status, second.status) == (302, 302)
        assert first.location == second.location == f"/m/{match_id}/hand/new"
    assert ann.hands(match_id) == [stored_record(i) for i in range(ROUNDS)]


def test_a_stale_form_is_refused_naming_the_hand_saved_meanwhile(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    match_id = ann.start("rubber", PLAYERS)
    for i in range(ROUNDS):
        old = bob.form(f"/m/{match_id}/hand/new")
        assert ann.submit(ann.form(f"/m/{match_id}/hand/new"), **down(i)).status == 302
        refused = bob.submit(old, **down(i + 1))
        assert refused.status == 409
        assert "Not saved: the match changed since this form was drawn" in refused.text
        assert f"Hand {i + 1} saved: " in refused.text and "from Ann&#39;s phone" in refused.text
        # Another phone saved the hand this form was for: the same deal, most likely.
        assert "Same deal — keep theirs, discard mine" in refused.text
        assert f"Save mine as hand {i + 2}</button>" in refused.text
        assert len(bob.hands(match_id)) == i + 1
    assert bob.hands(match_id) == [stored_record(i) for i in range(ROUNDS)]


def test_two_phones_saving_the_same_hand_at_once_store_exactly_one(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    match_id = ann.start("rubber", PLAYERS)
    won = {"Ann": 0, "Bob": 0}
    for i in range(ROUNDS):
        form_a = ann.form(f"/m/{match_id}/hand/new")
        form_b = bob.form(f"/m/{match_id}/hand/new")
        a, b = at_once((ann, form_a, down(0)), (bob, form_b, down(1)))
        assert sorted([a.status, b.status]) == [302, 409]
        winner = 0 if a.status == 302 else 1
        won["Ann" if winner == 0 else "Bob"] += 1
        loser = b if winner == 0 else a
        assert f"Hand {i + 1} saved: " in loser.text
        assert ann.hands(match_id)[-1] == stored_record(winner)
        assert len(ann.hands(match_id)) == i + 1
    assert sum(won.values()) == ROUNDS


def _last_key(phone: Phone, match_id: str) -> int:
    """The key of the last hand in play, from the match page's edit links."""
    keys = re.findall(rf'href="/m/{match_id}/hand/(\d+)"', phone.get(f"/m/{match_id}").text)
    return int(keys[-1])


def shown(phone: Phone, answer: Answer) -> str:
    """What the phone sees after an answer: the page it is sent to, or the answer."""
    return phone.get(answer.location).text if answer.status == 302 else answer.text


def test_an_edit_racing_a_delete_is_never_answered_saved_for_a_hand_that_is_gone(table):
    ann, bob = table("Ann's phone"), table("Bob's phone")
    match_id = ann.start("rubber", PLAYERS)
    outcomes = {"edit first": 0, "delete first": 0}
    for _ in range(ROUNDS):
        assert ann.submit(ann.form(f"/m/{match_id}/hand/new"), **down(0)).status == 302
        count = len(ann.hands(match_id))
        edit_path = f"/m/{match_id}/hand/{_last_key(ann, match_id)}"
        edit = ann.form(edit_path)
        delete = bob.form(f"/m/{match_id}", f"{edit_path}/delete")
        edited, deleted = at_once((ann, edit, down(2)), (bob, delete, {}))
        ann_sees, bob_sees = shown(ann, edited), shown(bob, deleted)
        hands = ann.hands(match_id)
        if f"Hand {count} saved." in ann_sees:
            outcomes["edit first"] += 1
            assert hands[-1] == stored_record(2) and len(hands) == count
            assert "Not done: the match changed since this page was drawn." in bob_sees
            assert f"Hand {count} changed to " in bob_sees
        else:
            outcomes["delete first"] += 1
            assert len(hands) == count - 1
            assert "nothing was saved" in ann_sees and f"Hand {count} saved." not in ann_sees
            assert f"Hand {count} deleted." in bob_sees
    assert sum(outcomes.values()) == ROUNDS


def test_eight_phones_on_eight_matches_saving_at_once_are_all_stored(table):
    phones = [table(f"Phone {n}") for n in range(8)]
    matches = [phone.start("rubber", PLAYERS) for phone in phones]
    for i in range(ROUNDS):
        forms = [p.form(f"/m/{m}/hand/new") for p, m in zip(phones, matches, strict=True)]
        answers = at_once(*[(p, f, down(i)) for p, f in zip(phones, forms, strict=True)])
        assert [a.status for a in answers] == [302] * 8
    for phone, match_id in zip(phones, matches, strict=True):
        assert phone.hands(match_id) == [stored_record(i) for i in range(ROUNDS)]


HOSTILE_HANDS = [
    {"declarer": "Ann", "level": "²", "strain": "H", "tricks": "8"},
    {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "٨"},
    {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "9" * 5000},
    {"declarer": "Ann", "level": "2"},
    {"declarer": "=HYPERLINK(1)", "level": "2", "strain": "H", "tricks": "8"},
    {},
]


def test_hostile_forms_racing_real_saves_never_500_and_never_store(table):
    """Two phones save real hands while two others send broken forms to the same
    match and probe addresses that do not exist: every valid save is stored
    once, nothing broken is stored, no answer is a 500, every cookie stays small."""
    ann = table("Ann's phone")
    match_id = ann.start("rubber", PLAYERS)
    savers = [table("Ann's phone"), table("Bob's phone")]
    attackers = [table("Eve's phone"), table("Mal's phone")]
    for phone in savers + attackers:
        phone.get(f"/m/{match_id}")
    saved: list[int] = []
    lock = threading.Lock()

    def save(phone: Phone, offset: int) -> None:
        for i in range(offset, ROUNDS // 2, 2):
            form = phone.form(f"/m/{match_id}/hand/new")
            answer = phone.submit(form, **down(i))
            if answer.status == 302:
                with lock:
                    saved.append(i)

    def attack(phone: Phone) -> None:
        for _ in range(3):
            for fields in HOSTILE_HANDS:
                form = phone.form(f"/m/{match_id}/hand/new")
                answer = phone.submit(form, **fields)
                assert answer.status in (200, 409), (fields, answer.status)
            for path in ("/m/1", f"/m/{match_id}/hand/{2**70}", "/m/AAAAAAAAAAAAAAAA/live"):
                assert phone.get(path).status == 404
            big = {**phone.forms("/new")[0].fields, "title": "x" * 5000, "stake_amount": "²"}
            assert phone.post("/new", big).status == 200

    threads = [threading.Thread(target=save, args=(p, n)) for n, p in enumerate(savers)]
    threads += [threading.Thread(target=attack, args=(p,)) for p in attackers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    stored = ann.hands(match_id)
    assert sorted(stored, key=json.dumps) == sorted(
        (stored_record(i) for i in saved), key=json.dumps
    )
    assert len(stored) == len(saved) > 0
    for phone in savers + attackers:
        assert all(len(k) + len(v) < 4000 for k, v in phone.cookies.items())
