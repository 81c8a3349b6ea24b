"""Large print (issue 26, item 5): the text size switch at the foot of every page,
kept per phone in a cookie, the page's root drawn at that size. The browser tests
(tests/browser/test_large_print.py) look at the pages it makes."""

from __future__ import annotations

import re

import pytest

from tests.webtools import visible_text

ROOT = re.compile(r'<html lang="[\w-]+" dir="\w+" data-text-size="(\d+)">')


def root_size(response) -> str:
    return ROOT.search(response.get_data(as_text=True)).group(1)


def pressed(response) -> list[str]:
    """The switch's sizes drawn as chosen."""
    return re.findall(r'aria-current="true">(\d+)%</a>', response.get_data(as_text=True))


def choose(client, size: str, back: str):
    return client.get("/text-size", query_string={"size": size, "back": back})


@pytest.mark.parametrize("size", ["125", "150", "100"])
def test_a_size_chosen_is_kept_by_the_phone_and_the_page_comes_back(client, size):
    answer = choose(client, size, "/rules/")
    assert (answer.status_code, answer.location) == (303, "/rules/")
    assert answer.headers["Cache-Control"] == "no-store"
    cookie = client.get_cookie("text_size")
    assert (cookie.value, cookie.http_only, cookie.same_site) == (size, True, "Lax")
    for path in ("/rules/", "/new", "/"):
        page = client.get(path)
        assert (root_size(page), pressed(page)) == (size, [size])


def test_every_page_draws_the_switch_and_the_usual_size_without_a_cookie(client, actions):
    match_id = actions.start()
    for path in ("/", "/new", "/rules/", f"/m/{match_id}", f"/m/{match_id}/hand/new", "/nowhere"):
        page = client.get(path)
        assert (root_size(page), pressed(page)) == ("100", ["100"]), path
        html = page.get_data(as_text=True)
        for size in ("100", "125", "150"):
            assert html.count(f'href="/text-size?size={size}&amp;back={path}"') == 1, path


@pytest.mark.parametrize("size", ["", "120", "200", "1e2", "125 ", "x" * 5000])
def test_a_size_not_offered_changes_nothing_and_says_which_sizes_are(client, size):
    client.set_cookie("text_size", "150")
    answer = choose(client, size, "/new")
    assert (answer.status_code, answer.location) == (303, "/new")
    assert client.get_cookie("text_size").value == "150"
    page = client.get("/new")
    assert "Text size: choose one of 100%, 125%, 150%." in visible_text(page)
    assert root_size(page) == "150"


@pytest.mark.parametrize(
    ("back", "to"),
    [
        ("/rules/rubber?x=1", "/rules/rubber?x=1"),
        ("", "/"),
        ("https://elsewhere.example/", "/"),
        ("//elsewhere.example/", "/"),
        ("/\\elsewhere.example", "/"),
        ("rules/", "/"),
        ("/text-size?size=150", "/"),  # not itself
        ("/m/AAAAAAAAAAAAAAAA/hand/1/delete", "/"),  # answers a POST only
        ("/g/AAAAAAAAAAAAAAAA/rename", "/g/AAAAAAAAAAAAAAAA/rename"),  # a page (it says why not)
    ],
)
def test_the_switch_goes_back_to_a_page_of_this_app_only(client, back, to):
    answer = choose(client, "125", back)
    assert (answer.status_code, answer.location) == (303, to)


def test_a_watch_page_has_the_switch_and_still_no_form(client, actions):
    match_id = actions.start()
    html = client.get(f"/m/{match_id}").get_data(as_text=True)
    watch = re.search(r"<code>http://localhost(/w/[\w-]+)</code>", html).group(1)
    page = client.get(watch)
    assert (root_size(page), pressed(page)) == ("100", ["100"])
    assert "<form" not in page.get_data(as_text=True)
    answer = choose(client, "150", watch)
    assert (answer.status_code, answer.location) == (303, watch)
    assert root_size(client.get(watch)) == "150"


def test_a_cookie_not_offered_is_the_usual_size(client):
    for kept in ("0", "1000", "125%", "abc"):
        client.set_cookie("text_size", kept)
        assert root_size(client.get("/")) == "100"


def test_a_page_the_phone_has_at_another_size_is_drawn_again(client, actions):
    """A match page answers 304 to a phone that has it: not after the phone chose
    another size (the page it has is drawn at the old one)."""
    match_id = actions.start()
    first = client.get(f"/m/{match_id}")
    etag = first.headers["ETag"]
    assert client.get(f"/m/{match_id}", headers={"If-None-Match": etag}).status_code == 304
    choose(client, "150", f"/m/{match_id}")
    again = client.get(f"/m/{match_id}", headers={"If-None-Match": etag})
    assert (again.status_code, root_size(again)) == (200, "150")
    assert again.headers["ETag"] != etag
