"""Hands are numbered as players count them, on every surface that shows a number.

The Top Game (docs/variants/top-game.md): a match is two halves of six counted
hands; A deals the first hand of the second half, hand 7. Wrong information
about dummy is not a hand: the same dealer deals the same hand again, so the
entry bears the number of the hand dealt again and shows the redeal mark ↻
where a list or a sheet numbers its rows. The match file keeps every entry in
order (13 entries for 12 hands).

The match here is entered through the hand form, as at the table: hands 1–5,
a redeal of hand 6 (Bob misinformed), hand 6, then hands 7–12.
"""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from scorekeeper.app import create_app
from scorekeeper.changelog import APPEND, Change, Entry
from scorekeeper.words import REDEAL_MARK
from tests.games import VARIANT_IDS, pinned
from tests.phones import Phone, at_once, served
from tests.webtools import parse, texts, visible_text

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

PLAYERS = ("Ann", "Bob", "Cy")
# One played hand: declarer, final bid 3, 2 tops in dummy (pn 5: 2♠), 9 tricks.
PLAYED = {"bid": "3", "dummy_tops": "2", "strain": "S", "tricks": "9"}
REDEAL = {"declarer": "Cy", "informer": "Bob"}  # Bob misinformed Cy about dummy
# The dealer of each hand (seats A B C, then A C B after half time).
DEALERS = ["Ann", "Bob", "Cy", "Ann", "Bob", "Cy", "Ann", "Cy", "Bob", "Ann", "Cy", "Bob"]


def heading(page: str) -> str:
    """The hand's name in the bar at the top of its form."""
    return texts(page, "hand-title")[0]


def derived(page: str) -> str:
    return texts(page, "derived")[0]


def flashes(page: str) -> list[str]:
    return [t for t in texts(page, "flash") if t]


def play_to(actions, match_id: str, upto: int, answers: list[str] | None = None) -> None:
    """Enter played hands until `upto` hands were played (Ann declares each)."""
    document = actions.document(match_id)
    while sum(1 for h in document["hands"] if "misinformation" not in h) < upto:
        response = actions.save_hand(match_id, declarer="Ann", **PLAYED)
        if answers is not None:
            answers.append(actions.followed(response))
        document = actions.document(match_id)


@pytest.fixture
def match(actions) -> dict:
    """The match of the module docstring, with what each save answered and the
    form shown after it."""
    match_id = actions.start("top-game", players=PLAYERS, stake_amount="0.50")
    seen: dict[str, str] = {}
    play_to(actions, match_id, 5)
    seen["form before the redeal"] = actions.page(f"/m/{match_id}/hand/new")
    redeal = actions.save_hand(match_id, **REDEAL)
    seen["after the redeal"] = actions.page(redeal.location)
    sixth = actions.save_hand(match_id, declarer="Ann", **PLAYED)
    seen["after hand 6"] = actions.page(sixth.location)
    play_to(actions, match_id, 12)
    return {"id": match_id, "seen": seen}


# --- the match file stays as it is --------------------------------------------------


def test_the_match_file_keeps_thirteen_entries_in_order(actions, match):
    hands = actions.hands(match["id"])
    assert len(hands) == 13
    assert hands[5] == {"declarer": "Cy", "misinformation": "Bob"}
    assert [h.get("declarer") for h in hands] == ["Ann"] * 5 + ["Cy"] + ["Ann"] * 7


# --- the hand form and the save messages ------------------------------------------


@pytest.mark.parametrize(
    ("moment", "title", "where", "flash"),
    [
        ("form before the redeal", "Hand 6", "Cy deals · half 1, hand 6 of 6.", None),
        (
            "after the redeal",
            "Hand 6",
            "Cy deals · half 1, hand 6 of 6.",
            "Redeal of hand 6 saved.",
        ),
        ("after hand 6", "Hand 7", "Ann deals · half 2, hand 1 of 6.", "Hand 6 saved."),
    ],
)
def test_the_hand_form_and_the_save_answer_name_the_hand(match, moment, title, where, flash):
    page = match["seen"][moment]
    assert heading(page) == title
    assert where in derived(page)
    assert visible_text(page).count(f"Save {title.lower()}") == 1
    if flash is not None:
        assert flash in " ".join(flashes(page))


def test_every_save_answer_names_hands_one_to_twelve(actions):
    match_id = actions.start("top-game", players=PLAYERS)
    answers: list[str] = []
    play_to(actions, match_id, 5, answers)
    answers.append(actions.followed(actions.save_hand(match_id, **REDEAL)))
    play_to(actions, match_id, 12, answers)
    said = [re.search(r"(Redeal of hand \d+|Hand \d+) saved\.", a).group(1) for a in answers]
    assert said == [
        *[f"Hand {n}" for n in range(1, 6)],
        "Redeal of hand 6",
        *[f"Hand {n}" for n in range(6, 13)],
    ]


@pytest.mark.parametrize(
    ("entry", "title"), [(6, "Edit redeal of hand 6"), (7, "Edit hand 6"), (8, "Edit hand 7")]
)
def test_the_edit_form_names_the_hand_not_its_place_in_the_file(actions, match, entry, title):
    key = actions.hand_ids(match["id"])[entry - 1]
    page = actions.page(f"/m/{match['id']}/hand/{key}")
    assert heading(page) == title


# --- the sheet, the hand list, the watch page ---------------------------------------


def sheet_numbers(page: str) -> list[list[str]]:
    """The number cell of each row of each half's sheet, as read."""
    halves = parse(page).find_all("div", "half-sheet")
    return [[cell.text() for cell in half.find_all("td", "no")] for half in halves]


def test_the_sheet_numbers_each_half_as_the_spec_counts_hands(actions, match):
    # Sheet 1 holds hands 1–6 and the redeal, a row of its own without a number,
    # just above the hand dealt again; sheet 2 holds hands 7–12 (spec: "A deals
    # its first hand (hand 7)").
    page = actions.page(f"/m/{match['id']}")
    assert sheet_numbers(page) == [
        ["1", "2", "3", "4", "5", REDEAL_MARK, "6"],
        ["7", "8", "9", "10", "11", "12"],
    ]
    assert "Sheet 1 (6 of 6 hands)" in visible_text(page)
    [redeal] = [a for a in parse(page).find_all("a") if a.text() == REDEAL_MARK]
    assert redeal.attrs["title"] == "Redeal of hand 6"


HAND_LIST = [*"12345", REDEAL_MARK, *[str(n) for n in range(6, 13)]]


@pytest.mark.parametrize("where", ["match page", "watch page"])
def test_the_hand_list_numbers_hands_and_marks_the_redeal(actions, match, where):
    page = actions.page(f"/m/{match['id']}")
    if where == "watch page":
        token = re.search(r"/w/([A-Za-z0-9_-]+)", page).group(1)
        page = actions.page(f"/w/{token}")
        assert sheet_numbers(page)[1] == ["7", "8", "9", "10", "11", "12"]
    assert texts(page, "hand-no") == HAND_LIST
    summaries = texts(page, "hand-sum")
    assert summaries[5].startswith("Redeal of hand 6: Bob gave wrong information about dummy")
    assert summaries[6] == "2♠ by Ann, made"


def test_the_home_page_counts_twelve_hands(actions, match):
    home = visible_text(actions.page("/"))
    assert "The Top Game · Ann, Bob, Cy · 12 hands" in home
    assert "13 hands" not in home


# --- history, the live answer, delete and undo --------------------------------------


def test_the_history_names_each_hand_as_it_was_then(actions, match):
    shown = visible_text(actions.page(f"/m/{match['id']}/history"))
    saved = re.findall(r"(Redeal of hand \d+|Hand \d+) saved:", shown)
    # Newest first.
    assert saved == [
        *[f"Hand {n}" for n in range(12, 5, -1)],
        "Redeal of hand 6",
        *[f"Hand {n}" for n in range(5, 0, -1)],
    ]


def test_other_phones_hear_the_hand_number_players_read(actions, match):
    # The live answer names each change since the phone's revision.
    revision = actions.revision(match["id"])
    lines = actions.client.get(f"/m/{match['id']}/live?since={revision - 7}").json["changes"]
    assert [line.split(":")[0] for line in lines] == [
        "Hand 6 saved",
        *[f"Hand {n} saved" for n in range(7, 13)],
    ]


@pytest.mark.parametrize(
    ("entry", "answer", "then"),
    [
        (6, "Redeal of hand 6 deleted.", "Undone: Redeal of hand 6 deleted"),
        (7, "Hand 6 deleted.", "Undone: Hand 6 deleted"),
        (13, "Hand 12 deleted.", "Undone: Hand 12 deleted"),
    ],
)
def test_delete_and_undo_name_the_hand(actions, match, entry, answer, then):
    match_id = match["id"]
    key = actions.hand_ids(match_id)[entry - 1]
    revision = actions.revision(match_id)
    deleted = actions.client.post(f"/m/{match_id}/hand/{key}/delete", data={"revision": revision})
    assert answer in actions.followed(deleted)
    undone = actions.client.post(
        f"/m/{match_id}/undo", data={"revision": revision + 1, "undoes": revision + 1}
    )
    assert then in actions.followed(undone)
    assert len(actions.hands(match_id)) == 13


def test_an_old_change_without_a_stored_number_names_its_place():
    # Changes stored before numbers were kept (migration m004): the place stands in.
    old = Entry(Change(3, APPEND, hand=3, record={"passed_out": True}), number=3)
    assert (old.hand_number, old.redeal, old.hand_title()) == (3, False, "Hand 3")
    stop = Entry(Change(4, APPEND, hand=4, record={"end": True}), number=4)
    assert stop.hand_number == 3
    new = Entry(Change(7, APPEND, hand=7, record={}, hand_number=6, counted=False), number=7)
    assert (new.hand_number, new.redeal, new.hand_title("Hand")) == (6, True, "Redeal of hand 6")


# --- exports: CSV, PDF; the settle page ------------------------------------------


def test_the_csv_numbers_hands_and_gives_the_redeal_the_hand_dealt_again(actions, match):
    text = actions.page(f"/m/{match['id']}/hands.csv")
    rows = list(csv.reader(io.StringIO(text)))
    assert [row[:3] for row in rows[1:-1]] == [
        *[[str(n), DEALERS[n - 1], "yes"] for n in range(1, 6)],
        ["6", "Cy", "no"],  # the redeal: not counted, hand 6 is dealt again
        *[[str(n), DEALERS[n - 1], "yes"] for n in range(6, 13)],
    ]
    assert rows[6][6] == "wrong dummy information from Bob"


NO_PDFTOTEXT = pytest.mark.skipif(
    shutil.which("pdftotext") is None, reason="needs pdftotext (poppler-utils)"
)


@NO_PDFTOTEXT
def test_the_pdf_numbers_hands_one_to_twelve(actions, match):
    response = actions.client.get(f"/m/{match['id']}/sheet.pdf?appendix=1")
    assert response.status_code == 200, response.status_code
    text = subprocess.run(
        ["pdftotext", "-layout", "-", "-"],
        input=response.data,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    # The appendix: one line per entry, its number cell first.
    numbers = re.findall(r"^\s*(\d+|↻)\s+(Ann|Bob|Cy)\s", text, re.MULTILINE)
    sheet_rows = len(HAND_LIST)
    assert [n for n, _ in numbers[-sheet_rows:]] == HAND_LIST
    assert [d for _, d in numbers[-sheet_rows:]] == [*DEALERS[:5], "Cy", *DEALERS[5:]]
    assert "Sheet 1 (6 of 6 hands)" in text and "Sheet 2 (6 of 6 hands)" in text


@NO_PDFTOTEXT
def test_an_unfinished_pdf_counts_hands_not_entries(actions):
    match_id = actions.start("top-game", players=PLAYERS)
    play_to(actions, match_id, 2)
    actions.save_hand(match_id, **{"declarer": "Ann", "informer": "Bob"})
    play_to(actions, match_id, 3)
    response = actions.client.get(f"/m/{match_id}/sheet.pdf")
    text = subprocess.run(
        ["pdftotext", "-", "-"], input=response.data, capture_output=True, check=True, timeout=60
    ).stdout.decode()
    assert "Not finished: the standing after 3 hands." in " ".join(text.split())


def test_the_settle_page_settles_all_twelve_hands_and_the_redeal(actions, match):
    # Ann made 2♠ with an overtrick in all 12 hands (+10 each): +120; Bob's wrong
    # information cost him 4 and gave the others 2 each: Ann +122, Bob −64, Cy −58.
    shown = visible_text(actions.page(f"/m/{match['id']}/settle"))
    assert "Bob pays Ann 32.00" in shown
    assert "Cy pays Ann 29.00" in shown
    assert "Winner: Ann" in visible_text(actions.page(f"/m/{match['id']}"))


# --- every game: only what its rules do not count is not a hand ---------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_game_numbers_only_its_hands(actions, variant):
    """As each game's own tests pin it (NUMBERED, tests/games.py)."""
    hand_list, home = pinned(variant, "NUMBERED")
    document = json.loads((EXAMPLES / f"{variant}.json").read_text(encoding="utf-8"))
    response = actions.import_file(document)
    assert response.status_code == 302
    imported = " ".join(flashes(actions.page(response.location)))
    noun = home.split()[1]
    assert f"Imported {home.split()[0]} {noun}." in imported
    assert texts(actions.page(response.location), "hand-no") == hand_list
    assert f"· {home}" in visible_text(actions.page("/"))


def test_a_refused_delete_names_the_hands_as_players_count_them(actions):
    # examples/top-game.json: entry 6 is the redeal, so entry 10 is hand 9. Without
    # it the dealing moves on one seat and the next hand (then hand 9, entry 10 of
    # the shorter file) no longer fits its calls.
    document = json.loads((EXAMPLES / "top-game.json").read_text(encoding="utf-8"))
    match_id = actions.imported(document)
    key = actions.hand_ids(match_id)[10 - 1]
    refused = actions.client.post(
        f"/m/{match_id}/hand/{key}/delete", data={"revision": actions.revision(match_id)}
    )
    assert (
        "Hand 9 was not deleted: without it, hand 9: declarer: Cy is not the highest bidder Ann"
    ) in actions.followed(refused)
    assert len(actions.hands(match_id)) == 13


# --- two phones at once, against waitress -------------------------------------------


@pytest.fixture(scope="module")
def waitress_base(tmp_path_factory):
    """The app under waitress with CSRF on, as at a real table."""
    app = create_app(
        {"DATABASE": str(tmp_path_factory.mktemp("numbers") / "t.db"), "SECRET_KEY": "numbers"}
    )
    with served(app) as base:
        yield base


def test_a_redeal_racing_a_hand_is_stored_once_and_the_refusal_names_it(waitress_base):
    # Ann's phone saves wrong information about dummy while Bob's saves a played
    # hand, both drawn for hand 6: one is stored, the other refused, and the
    # refusal names what was stored in the words players use ("Redeal of hand 6")
    # and the hand the kept entries would be stored as.
    ann, bob = Phone(waitress_base, "Ann's phone"), Phone(waitress_base, "Bob's phone")
    match_id = ann.start("top-game", list(PLAYERS))
    for _ in range(5):
        form = ann.form(f"/m/{match_id}/hand/new")
        assert ann.submit(form, declarer="Ann", **PLAYED).status == 302
    for _ in range(3):
        count = len(ann.hands(match_id))
        played = sum(1 for h in ann.hands(match_id) if "misinformation" not in h)
        form_a = ann.form(f"/m/{match_id}/hand/new")
        form_b = bob.form(f"/m/{match_id}/hand/new")
        a, b = at_once((ann, form_a, REDEAL), (bob, form_b, {"declarer": "Ann", **PLAYED}))
        assert sorted([a.status, b.status]) == [302, 409]
        hands = ann.hands(match_id)
        assert len(hands) == count + 1
        # Which phone wins is up to the server; each outcome is pinned.
        if a.status == 302:  # the redeal was stored: the same hand is dealt again
            assert hands[-1] == {"declarer": "Cy", "misinformation": "Bob"}
            assert f"Redeal of hand {played + 1} saved: " in b.text
            assert f"Save mine as hand {played + 1}" in b.text  # a redeal takes no number
        else:
            assert "misinformation" not in hands[-1]
            assert f"Hand {played + 1} saved: " in a.text
            assert f"Save mine as hand {played + 2}" in a.text
