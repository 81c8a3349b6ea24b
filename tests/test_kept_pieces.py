"""Pieces of the match page kept across revisions (pages.kept_macro): each
rubber's pad and each hand in the log with its Edit and Delete buttons are
drawn once for what they show, so a page drawn after a change draws the rubber
in play and the new hand, and takes the rest as it was. What a piece shows of
the revision (the Delete form's revision) is put in when the page is drawn:
every form on the page is the page's own, and the page is the very page drawn
with nothing kept."""

from __future__ import annotations

import gc
import re
import tracemalloc

import pytest

from scorekeeper import drawn
from scorekeeper import kept as copies
from scorekeeper import pdf as pages_pdf
from scorekeeper.kept import Recent
from scorekeeper.views import pages
from tests.test_drawn_once import PLAYERS, hand, keyless
from tests.test_log_lines import pieces
from tests.webtools import visible_text

# Two rubbers won (We, then They), a third begun.
TWO_RUBBERS_AND_A_PART = [
    hand("Ann", "4", "S", "10"),
    hand("Cy", "4", "S", "10"),
    hand("Bob", "3", "NT", "9"),
    hand("Dee", "3", "NT", "9"),
    hand("Ann", "1", "C", "7"),
]
REVISION_FIELD = re.compile(r'name="revision" value="([^"]*)"')
WATCH = re.compile(r"(/w/[\w-]+)</code>")


@pytest.fixture
def pieces_drawn(monkeypatch) -> dict[str, list[int]]:
    """Each piece drawn, by macro: a pad by its rubber's number, a hand by its
    number; with a kept set of pieces of its own."""
    found: dict[str, list[int]] = {"pad": [], "log_item": [], "log_entry": []}
    draw = pages._draw_piece

    def counted(source, macro, shown):
        found[macro].append(shown[0]["number"])
        return draw(source, macro, shown)

    monkeypatch.setattr(pages, "_draw_piece", counted)
    monkeypatch.setattr(pages, "_pieces", pieces())
    return found


def played(actions, variant: str, hands: list[dict], players=PLAYERS) -> str:
    """A match of `hands`, every one stored (a rubber match plays on to three rubbers)."""
    options = {"rubbers": "3"} if variant == "rubber" else {}
    match_id = actions.start(variant, players, options=options)
    for each in hands:
        actions.save_hand(match_id, each)
    assert len(actions.hands(match_id)) == len(hands)
    return match_id


def test_a_page_drawn_after_a_new_hand_draws_only_the_rubber_in_play(actions, pieces_drawn):
    match_id = played(actions, "rubber", TWO_RUBBERS_AND_A_PART)
    actions.page(f"/m/{match_id}")
    assert pieces_drawn["pad"] == [1, 2, 3]
    assert pieces_drawn["log_item"] == [1, 2, 3, 4, 5]
    actions.save_hand(match_id, hand("Bob", "2", "H", "8"))
    page = actions.text(f"/m/{match_id}")
    assert pieces_drawn["pad"] == [1, 2, 3, 3]
    assert pieces_drawn["log_item"] == [1, 2, 3, 4, 5, 6]
    assert "2♥ by Bob, made" in page


def test_an_edit_of_an_old_hand_draws_its_rubber_and_its_line_again(actions, pieces_drawn):
    match_id = played(actions, "rubber", TWO_RUBBERS_AND_A_PART)
    actions.page(f"/m/{match_id}")
    first = actions.hand_ids(match_id)[0]
    actions.save_hand(match_id, hand("Ann", "4", "S", "11"), hand=first)  # an overtrick
    pieces_drawn["pad"].clear()
    pieces_drawn["log_item"].clear()
    page = actions.page(f"/m/{match_id}")
    assert pieces_drawn == {"pad": [1], "log_item": [1], "log_entry": []}
    assert "We: 1 overtrick (undoubled): 30 above the line" in visible_text(page)
    [rubber_one] = re.findall(r'<div class="pad[^"]*" id="rubber-1">.*?</div>', page, re.S)
    assert "#1 over" in visible_text(rubber_one)


def test_every_form_of_a_page_drawn_after_a_change_carries_its_revision(actions, pieces_drawn):
    """A hand's Delete form is kept across revisions with a mark where the
    revision goes: the page puts its own revision there, so Delete from the
    newest page deletes (never a 409 for a page that is not stale)."""
    match_id = played(actions, "rubber", TWO_RUBBERS_AND_A_PART)
    actions.page(f"/m/{match_id}")
    actions.save_hand(match_id, hand("Bob", "2", "H", "8"))
    page = actions.page(f"/m/{match_id}")
    revision = actions.revision(match_id)
    assert set(REVISION_FIELD.findall(page)) == {str(revision)}
    assert pages.REVISION_MARK not in page
    delete = re.search(r'<form method="post" action="(/m/\w[\w-]*/hand/\d+/delete)"', page)
    fields = dict(re.findall(r'name="(revision|key)" value="([^"]*)"', page[delete.end() :])[:2])
    answer = actions.client.post(delete.group(1), data=fields)
    assert answer.status_code == 302
    assert len(actions.hands(match_id)) == 5


@pytest.mark.parametrize(
    ("variant", "players", "hands"),
    [
        ("rubber", PLAYERS, TWO_RUBBERS_AND_A_PART),
        ("chicago", PLAYERS, TWO_RUBBERS_AND_A_PART),
        ("honeymoon", ("Ann", "Bob"), [hand("Ann", "4", "S", "10"), hand("Bob", "3", "NT", "9")]),
    ],
)
def test_the_page_with_kept_pieces_is_the_page_drawn_without_them(
    actions, client, monkeypatch, variant, players, hands
):
    match_id = played(actions, variant, hands[:-1], players)
    watch = WATCH.search(actions.page(f"/m/{match_id}")).group(1)
    for code in ("en", "fr", "pl"):
        client.set_cookie("lang", code)
        actions.page(f"/m/{match_id}")  # its pieces kept
        actions.page(watch)
    client.set_cookie("lang", "en")
    actions.save_hand(match_id, hands[-1])
    actions.page(f"/m/{match_id}")  # the save's message, shown once
    read = {}
    for code in ("en", "fr", "pl"):
        client.set_cookie("lang", code)
        for url in (f"/m/{match_id}?hand=1", watch):
            read[code, url] = client.get(url).get_data(as_text=True)
    monkeypatch.setattr(pages, "_pieces", Recent(0))  # nothing kept: every piece drawn
    monkeypatch.setattr(  # and no page kept either
        drawn, "_drawings", Recent(drawn.KEPT_DRAWINGS, drawn.KEPT_SIZE, drawn.Drawing.size)
    )
    for (code, url), kept in read.items():
        client.set_cookie("lang", code)
        assert keyless(client.get(url).get_data(as_text=True)) == keyless(kept), (code, url)


def test_a_printed_pad_is_drawn_as_paper_draws_it_not_as_the_screen_does(
    actions, monkeypatch, pieces_drawn
):
    """The PDF's pad is a block of lines per side, the screen's a row per entry:
    one rubber kept for the screen is drawn again for paper, and the sheet
    printed is the one printed with nothing kept."""
    match_id = played(actions, "rubber", TWO_RUBBERS_AND_A_PART)
    actions.page(f"/m/{match_id}")
    printed: list[str] = []
    monkeypatch.setattr(pages_pdf, "_render", lambda html, *rest: printed.append(html) or b"%PDF")
    pages_pdf.clear_cache()
    actions.client.get(f"/m/{match_id}/sheet.pdf")
    assert pieces_drawn["pad"] == [1, 2, 3, 1, 2, 3]
    assert '<tr class="column above">' in printed[0]
    monkeypatch.setattr(pages, "_pieces", Recent(0))
    pages_pdf.clear_cache()
    actions.client.get(f"/m/{match_id}/sheet.pdf")
    assert printed[1] == printed[0]


def test_the_pieces_kept_at_their_bound_hold_at_most_the_memory_the_docs_promise(
    actions, client, monkeypatch
):
    """docs/running.md promises some 20 MB at most for the kept pieces. The
    bound is counted in characters of text, so what a piece holds per character
    (its text and its key: the sentences, numbers and names it was drawn for)
    is measured on a real match read in three languages, and the bound times
    that must stay within the promise."""
    match_id = played(actions, "rubber", TWO_RUBBERS_AND_A_PART)
    more = [hand("Bob", "2", "H", "8"), hand("Cy", "3", "D", "8"), hand("Dee", "1", "NT", "5")]
    for each in more:
        actions.save_hand(match_id, each)
    monkeypatch.setattr(pages, "_pieces", pieces())
    tracemalloc.start()
    try:
        for code in ("en", "fr", "pl"):
            client.set_cookie("lang", code)
            actions.page(f"/m/{match_id}")
        for other in list(copies._every):  # what the pieces share with other copies goes
            if other is not pages._pieces:
                other.clear()
        gc.collect()
        with_pieces = tracemalloc.get_traced_memory()[0]
        characters, kept_pieces = pages._pieces.total_size(), len(pages._pieces)
        pages._pieces.clear()
        gc.collect()
        held = with_pieces - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert kept_pieces == 3 * (8 + 3)  # in each language: every hand, and three rubbers
    per_character = held / characters
    assert per_character * pages.KEPT_PIECES_TEXT <= 20_000_000, per_character
