"""Hostile input on the group pages (tests/test_hostile.py does the same for a
match): every group address with an unknown id, an id of the wrong shape or
a number beyond 64 bits; every form of the group page with a field missing,
empty, 1.5 MB long, a lone surrogate, a control character, digits of other
scripts, amounts that are no amounts, a stale or garbled revision; the
ledger's period parameters; names written to fall into a spreadsheet as
formulas; group files built to hurt.

Every case pins the same promises: no answer is a 500; a refusal names the
field and what is allowed; the group is as it was (revision, name, stakes,
members, matches, payments) and no other group was stored.
"""

from __future__ import annotations

import csv
import io
import json
import re
import secrets
import time
from typing import Any
from urllib.parse import quote_plus

import pytest
from flask import template_rendered

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.app import create_app
from scorekeeper.changelog import Command
from scorekeeper.groupfile import MAX_GROUP_DEPTH
from scorekeeper.groups.state import FORMAT as GROUP_FORMAT
from scorekeeper.names import text_problem
from scorekeeper.views.commands import NO_REVISION
from tests.conftest import TableClient
from tests.test_hostile import (
    BEYOND_64_BITS,
    COOKIE_LIMIT,
    OTHER_DIGITS,
    as_received,
    form_body,
    visible_text,
)

LONE = "\ud800"  # a lone surrogate: a phone sends its bytes, which are not UTF-8
BIG = "x" * 1_500_000  # a value of 1.5 MB
MEMBERS = ("Ann", "Bob", "Cy")
FAR_AHEAD = "This form does not belong to this group as stored: reload the page."
STALE = "Not saved: the group changed since this page was drawn"


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory):
    """One app for the module: each case starts a group of its own and counts
    the groups, so cases need no store of their own."""
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path_factory.mktemp("hostile-groups") / "t.db"),
        }
    )
    app.test_client_class = TableClient
    drawn: list[dict] = []

    def record(sender, template, context, **extra):
        drawn.append(context)

    template_rendered.connect(record, app, weak=False)
    yield app, drawn
    template_rendered.disconnect(record, app)


class Phone:
    """One phone: sends forms as a browser does, and checks every answer."""

    def __init__(self, app, drawn: list[dict]):
        self.app = app
        self.client = app.test_client()
        self.drawn = drawn

    def send(self, url: str, fields: dict[str, str] | None = None, method: str = "POST", **kw):
        if fields is not None:
            kw.update(data=form_body(fields), content_type="application/x-www-form-urlencoded")
        self.drawn.clear()
        response = self.client.open(url, method=method, **kw)
        assert response.status_code < 500, response.text[:2000]
        for header in response.headers.getlist("Set-Cookie"):
            assert len(header) < COOKIE_LIMIT, header[:200]
        return response

    def context(self) -> dict:
        """What the last page drawn was given (its errors, its form)."""
        assert self.drawn
        return self.drawn[-1]

    def start_group(self, members=MEMBERS, name: str = "Friday trio", **extra: str) -> str:
        fields = {"name": name, "stake_game": "*", **extra}
        fields.update({f"member{i}": m for i, m in enumerate(members, 1)})
        response = self.send("/groups/new", fields)
        assert response.status_code == 302, visible_text(response.text)[:400]
        return re.fullmatch(r"/g/([\w-]{16})", response.location).group(1)

    def start_match(self, group_id: str, players=MEMBERS) -> str:
        fields = {"variant": "top-game", "stake_amount": "1", "stake_per": "1"}
        fields.update({f"player{i}": p for i, p in enumerate(players, 1)})
        response = self.send(f"/g/{group_id}/new", fields)
        assert response.status_code == 302, visible_text(response.text)[:400]
        return re.match(r"/m/([\w-]{16})/", response.location).group(1)

    def db(self):
        return store.connect(self.app.config["DATABASE"])

    def group(self, group_id: str) -> g.GroupState:
        db = self.db()
        try:
            return g.load_group(db, group_id)
        finally:
            db.close()

    def stored(self, group_id: str) -> tuple:
        """Everything a change could touch, and how many groups there are."""
        state = self.group(group_id)
        db = self.db()
        try:
            count = db.execute("select count(*) from groups").fetchone()[0]
        finally:
            db.close()
        return (
            state.revision,
            state.name,
            state.stakes,
            state.members,
            state.matches,
            state.payments,
            count,
        )


@pytest.fixture
def phone(shared_app) -> Phone:
    return Phone(*shared_app)


def member_id(phone: Phone, group_id: str, name: str) -> int:
    return next(m.id for m in phone.group(group_id).members if m.name == name)


# --- every address of a group ------------------------------------------------------

# Every address of a group and the methods it answers: {g} the group, {k} a
# member's number, {m} a match, {t} the watch token, {r} any path after it.
GROUP_ADDRESSES = {
    "/g/{g}": {"GET"},
    "/g/{g}/live": {"GET"},
    "/g/{g}/new": {"GET", "POST"},
    "/g/{g}/rename": {"GET", "POST"},
    "/g/{g}/members": {"GET", "POST"},
    "/g/{g}/members/{k}": {"GET", "POST"},
    "/g/{g}/members/{k}/retire": {"GET", "POST"},
    "/g/{g}/members/{k}/back": {"GET", "POST"},
    "/g/{g}/mapping/{m}": {"GET", "POST"},
    "/g/{g}/order": {"GET", "POST"},
    "/g/{g}/stake": {"GET", "POST"},
    "/g/{g}/undo": {"GET", "POST"},
    "/g/{g}/remove/{m}": {"GET", "POST"},
    "/g/{g}/pay": {"GET", "POST"},
    "/g/{g}/add": {"GET", "POST"},
    "/g/{g}/import": {"GET", "POST"},
    "/g/{g}/statistics": {"GET"},
    "/g/{g}/ledger.csv": {"GET"},
    "/g/{g}/statistics.csv": {"GET"},
    "/g/{g}/ledger.pdf": {"GET"},
    "/g/{g}/statistics.pdf": {"GET"},
    "/g/{g}/group.json": {"GET"},
    "/g/{g}/ratings": {"GET"},
    "/g/{g}/ratings.csv": {"GET"},
    "/g/{g}/head-to-head": {"GET"},
    "/g/{g}/night": {"GET"},
    "/g/{g}/night.pdf": {"GET"},
    "/gw/{t}": {"GET", "POST", "PUT", "PATCH", "DELETE"},
    "/gw/{t}/live": {"GET"},
    "/gw/{t}/{r}": {"POST", "PUT", "PATCH", "DELETE"},
}


def test_the_table_of_group_addresses_names_every_route(shared_app):
    app, _ = shared_app
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith(("/g/", "/gw/")):
            shape = (
                rule.rule.replace("<match:group_id>", "{g}")
                .replace("<key:member_id>", "{k}")
                .replace("<match:match_id>", "{m}")
                .replace("<token>", "{t}")
                .replace("<path:rest>", "{r}")
            )
            routes.setdefault(shape, set()).update(rule.methods - {"HEAD", "OPTIONS"})
    assert routes == GROUP_ADDRESSES


# (what the address holds, group part): none of them is a group here.
NO_SUCH_GROUP = [
    ("a small number", "1"),
    ("a number beyond 64 bits", BEYOND_64_BITS),
    ("sixteen digits, no such group", "1844674407370955"),
    ("sixteen letters, no such group", "AAAAAAAAAAAAAAAA"),
    ("seventeen letters", "AAAAAAAAAAAAAAAAA"),
]
G_ADDRESSES = [a for a in GROUP_ADDRESSES if a.startswith("/g/")]


@pytest.mark.parametrize("address", G_ADDRESSES)
@pytest.mark.parametrize("what, group_part", NO_SUCH_GROUP)
def test_an_address_of_no_group_is_a_404_for_every_method(phone, address, what, group_part):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    url = address.format(g=group_part, k="1", m="AAAAAAAAAAAAAAAA")
    shaped = len(group_part) == 16  # a group's shape: a method it lacks is a 405
    for method in ("GET", "POST", "PUT"):
        fields = {"revision": "1", "name": "Dee", "amount": "5"} if method != "GET" else None
        wanted = 404 if method in GROUP_ADDRESSES[address] or not shaped else 405
        assert phone.send(url, fields, method=method).status_code == wanted, (method, url)
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("key", [BEYOND_64_BITS, str(10**9 + 1), "0", "٣"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_member_number_out_of_range_is_a_404(phone, key, method):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    fields = {"revision": "1", "name": "Dee"} if method == "POST" else None
    answer = phone.send(f"/g/{group_id}/members/{key}", fields, method=method)
    assert answer.status_code == 404
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("method", ["GET", "POST", "PUT"])
@pytest.mark.parametrize("match_part", ["1", BEYOND_64_BITS, "AAAAAAAAAAAAAAAA"])
def test_taking_out_a_match_of_no_such_address_stores_nothing(phone, match_part, method):
    group_id = phone.start_group()
    phone.start_match(group_id)
    before = phone.stored(group_id)
    fields = {"revision": str(before[0])} if method != "GET" else None
    answer = phone.send(f"/g/{group_id}/remove/{match_part}", fields, method=method)
    if len(match_part) != 16:
        assert answer.status_code == 404
    elif method == "PUT":
        assert answer.status_code == 405
    elif method == "GET":  # a refused form's address opened again: the group page
        assert answer.status_code == 302 and answer.location == f"/g/{group_id}"
    else:
        assert answer.status_code == 400
        assert phone.context()["errors"] == {"form": "That match is not in this group."}
    assert phone.stored(group_id) == before


# Watch tokens no group has: too short, the longest kept, too long, not ASCII.
NO_SUCH_TOKEN = ["x", "x" * 8, "x" * 64, "x" * 65, "x" * 5000, "٣" * 10]


@pytest.mark.parametrize("token", NO_SUCH_TOKEN)
def test_a_watch_address_of_no_group_is_a_404_and_never_writes(phone, token):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    assert phone.send(f"/gw/{token}", method="GET").status_code == 404
    assert phone.send(f"/gw/{token}/live", method="GET").status_code == 404
    for method in ("POST", "PUT", "PATCH", "DELETE"):
        # A watch address refuses every write, whatever it carries.
        assert phone.send(f"/gw/{token}", {"name": "x"}, method=method).status_code == 403
        assert phone.send(f"/gw/{token}/rename", {"name": "x"}, method=method).status_code == 403
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("since", ["x", "-1", "٣", "1" * 13, BEYOND_64_BITS, ""])
def test_a_live_poll_with_a_garbled_revision_is_a_400(phone, since):
    group_id = phone.start_group()
    token = phone.group(group_id).watch
    for url in (f"/g/{group_id}/live", f"/gw/{token}/live"):
        answer = phone.send(f"{url}?since={since}", method="GET")
        assert answer.status_code == 400
        assert answer.json == {"error": "since must be the revision this page shows: since=12"}


# --- the forms of the group page --------------------------------------------------------


def refused(phone: Phone, group_id: str, before: tuple, answer, errors: dict[str, str]) -> None:
    """The group page again (4xx), each message on its input and shown, nothing stored."""
    assert 400 <= answer.status_code < 500, answer.status_code
    assert phone.context()["errors"] == errors
    page = visible_text(answer.text)
    for message in errors.values():
        assert message[:200] in page
    assert phone.stored(group_id) == before


# (field, value typed, the refusal on the input); None: the field left out.
NAME_CASES = [
    ("missing", None, "Write the member's name."),
    ("empty", "", "Write the member's name."),
    ("spaces", "   ", "Write the member's name."),
    ("1.5 MB", BIG, f"{'x' * 20}… has 1500000 characters; a name has at most 40."),
    ("41 characters", "A" * 41, f"{'A' * 20}… has 41 characters; a name has at most 40."),
    ("control character", "An\x01n", "This name has a line break or control character."),
    ("line break", "An\nn", "This name has a line break or control character."),
    ("line separator", "An\u2028n", "This name has a line break or control character."),
]


@pytest.mark.parametrize("case, typed, message", NAME_CASES)
def test_adding_a_member_refuses_a_bad_name_on_its_input(phone, case, typed, message):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    fields = {"revision": "1"} if typed is None else {"revision": "1", "name": typed}
    answer = phone.send(f"/g/{group_id}/members", fields)
    refused(phone, group_id, before, answer, {"new_member": message})


@pytest.mark.parametrize("case, typed, message", NAME_CASES)
def test_renaming_a_member_refuses_a_bad_name_on_its_input(phone, case, typed, message):
    group_id = phone.start_group()
    bob = member_id(phone, group_id, "Bob")
    before = phone.stored(group_id)
    fields = {"revision": "1"} if typed is None else {"revision": "1", "name": typed}
    answer = phone.send(f"/g/{group_id}/members/{bob}", fields)
    refused(phone, group_id, before, answer, {f"member-{bob}": message})


GROUP_NAME_CASES = [
    ("missing", None, "Give the group a name, like “Friday trio”."),
    ("empty", "", "Give the group a name, like “Friday trio”."),
    ("1.5 MB", BIG, "The name has 1500000 characters; a group's name has at most 100."),
    ("control character", "Fri\x01day", "The name has a line break or control character."),
    ("line break", "Fri\nday", "The name has a line break or control character."),
    ("direction control", "Fri\u202eday", None),  # its own words, checked below
]


@pytest.mark.parametrize("case, typed, message", GROUP_NAME_CASES)
def test_renaming_the_group_refuses_a_bad_name_on_its_input(phone, case, typed, message):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    fields = {"revision": "1"} if typed is None else {"revision": "1", "name": typed}
    answer = phone.send(f"/g/{group_id}/rename", fields)
    message = message or f"The name {text_problem(typed)}."
    refused(phone, group_id, before, answer, {"group_name": message})


@pytest.mark.parametrize(
    "url",
    ["/g/{g}/rename", "/g/{g}/members", "/g/{g}/members/{bob}"],
    ids=["group", "add", "member"],
)
def test_a_lone_surrogate_in_a_name_arrives_as_the_text_the_phone_sent(phone, url):
    """A lone surrogate cannot be sent as UTF-8: a browser sends its bytes and
    the server reads them percent-encoded ("%ED%A0%80"), as for a match's
    names (test_hostile). No surrogate is ever stored, and nothing breaks."""
    group_id = phone.start_group()
    bob = member_id(phone, group_id, "Bob")
    answer = phone.send(url.format(g=group_id, bob=bob), {"revision": "1", "name": f"Dee{LONE}"})
    assert answer.status_code == 302
    state = phone.group(group_id)
    names = [state.name] + [m.name for m in state.members]
    assert f"Dee{as_received(LONE)}" in names
    assert not any(0xD800 <= ord(ch) <= 0xDFFF for name in names for ch in name)
    assert phone.send(f"/g/{group_id}", method="GET").status_code == 200
    assert phone.send(f"/g/{group_id}/group.json", method="GET").status_code == 200


@pytest.mark.parametrize("twin", ["ann", "ANN", "Ａｎｎ", " Ann "])
def test_a_member_that_reads_the_same_as_another_is_refused(phone, twin):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/members", {"revision": "1", "name": twin})
    said = f"{twin.strip()} reads the same as the member Ann."
    refused(phone, group_id, before, answer, {"new_member": said})
    bob = member_id(phone, group_id, "Bob")
    answer = phone.send(f"/g/{group_id}/members/{bob}", {"revision": "1", "name": twin})
    refused(phone, group_id, before, answer, {f"member-{bob}": said})


def test_a_member_in_cyrillic_look_alikes_is_refused_as_mixed_scripts(phone):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/members", {"revision": "1", "name": "Аnn"})  # Cyrillic А
    said = (
        "This name mixes look-alike letters of different scripts"
        " (“А” U+0410 CYRILLIC CAPITAL LETTER A): type the name in one alphabet."
    )
    refused(phone, group_id, before, answer, {"new_member": said})


# --- revisions: garbled, far ahead, stale ------------------------------------------------

GARBLED_REVISIONS = [None, "", "abc", "-1", "1.0", *OTHER_DIGITS, "9" * 13, BEYOND_64_BITS]


def the_forms(phone: Phone, group_id: str) -> dict[str, dict[str, str]]:
    """Each form of the group page as a phone sends it, every input good."""
    ann, bob, cy = (member_id(phone, group_id, n) for n in MEMBERS)
    return {
        f"/g/{group_id}/rename": {"name": "Friday four"},
        f"/g/{group_id}/members": {"name": "Dee"},
        f"/g/{group_id}/members/{bob}": {"name": "Bobby"},
        f"/g/{group_id}/order": {"order": [str(cy), str(bob), str(ann)]},
        f"/g/{group_id}/pay": {
            "payer": str(ann),
            "payee": str(bob),
            "amount": "7.50",
            "currency": "EUR",
            "date": "2026-11-01",
        },
    }


def send_form(phone: Phone, url: str, fields: dict, revision: str | None):
    """A form with lists (the order) sent as a browser sends repeated inputs."""
    pairs = [
        (k, v)
        for k, value in fields.items()
        for v in (value if isinstance(value, list) else [value])
    ]
    if revision is not None:
        pairs.append(("revision", revision))
    body = "&".join(f"{k}={v}" for k, v in pairs)
    return phone.send(url, data=body, content_type="application/x-www-form-urlencoded")


@pytest.mark.parametrize("revision", GARBLED_REVISIONS)
def test_a_form_whose_revision_is_not_a_number_is_refused(phone, revision):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    for url, fields in the_forms(phone, group_id).items():
        answer = send_form(phone, url, fields, revision)
        assert answer.status_code == 400, url
        assert phone.context()["errors"] == {"form": NO_REVISION}, url
        assert NO_REVISION in visible_text(answer.text)
    assert phone.stored(group_id) == before


def test_a_form_whose_revision_is_far_ahead_is_refused(phone):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    for url, fields in the_forms(phone, group_id).items():
        answer = send_form(phone, url, fields, "9" * 12)
        assert answer.status_code == 400, url
        assert phone.context()["errors"] == {"form": FAR_AHEAD}, url
    assert phone.stored(group_id) == before


def test_a_stale_form_that_changes_what_another_phone_changed_is_refused(phone):
    group_id = phone.start_group()
    forms = the_forms(phone, group_id)
    bob = member_id(phone, group_id, "Bob")
    forms[f"/g/{group_id}/order"]["order"].reverse()  # another order than the other phone's
    # Another phone changes every part these forms touch (revisions 2 to 5).
    other = the_forms(phone, group_id)
    other[f"/g/{group_id}/members/{bob}"] = {"name": "Robert"}
    other[f"/g/{group_id}/rename"] = {"name": "Tuesday trio"}
    for url, fields in other.items():
        if not url.endswith("/members"):
            assert (
                send_form(phone, url, fields, str(phone.group(group_id).revision)).status_code
                == 302
            )
    before = phone.stored(group_id)
    assert before[0] == 5
    for url in (f"/g/{group_id}/rename", f"/g/{group_id}/members/{bob}", f"/g/{group_id}/order",
                f"/g/{group_id}/pay"):  # fmt: skip
        answer = send_form(phone, url, forms[url], "1")
        assert answer.status_code == 409, url
        assert phone.context()["errors"]["form"].startswith(STALE), url
    assert phone.stored(group_id) == before


# --- Mark as paid: every input ------------------------------------------------------------

TWO_DECIMALS = "Write an amount above 0 with at most two decimals, like 7.50."
AMOUNT_CASES = [
    ("missing", None, "'' is not an amount: write digits 0–9, like 7.50."),
    ("empty", "", "'' is not an amount: write digits 0–9, like 7.50."),
    (
        "1.5 MB",
        BIG,
        "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx is not an amount: write digits 0–9, like 7.50.",
    ),
    ("lone surrogate", LONE, "'%ED%A0%80' is not an amount: write digits 0–9, like 7.50."),
    ("control character", "7\x01", "'7\\x01' is not an amount: write digits 0–9, like 7.50."),
    *[
        (f"digit {d}", d, f"'{d}' is not an amount: write digits 0–9, like 7.50.")
        for d in OTHER_DIGITS
    ],
    ("Arabic-Indic 7.50", "٧.٥٠", "'٧.٥٠' is not an amount: write digits 0–9, like 7.50."),
    ("negative", "-5", TWO_DECIMALS),
    ("zero", "0", TWO_DECIMALS),
    ("zero with decimals", "0.00", TWO_DECIMALS),
    ("three decimals", "7.505", TWO_DECIMALS),
    ("huge", "9" * 40, "That amount is too large for a card table."),
    ("a billion", "1000000000", "That amount is too large for a card table."),
    ("NaN", "NaN", "'NaN' is not an amount: write digits 0–9, like 7.50."),
    ("infinity", "Infinity", "'Infinity' is not an amount: write digits 0–9, like 7.50."),
    ("1e9999", "1e9999", "'1e9999' is not an amount: write digits 0–9, like 7.50."),
    ("an exponent", "1E+2", "'1E+2' is not an amount: write digits 0–9, like 7.50."),
    ("thousands separator", "1,000", "'1,000' is not an amount: write digits 0–9, like 7.50."),
]
WHO = "Choose who paid and who was paid among the members."
THEMSELVES = "Someone pays another member, not themselves."
PAYER_CASES = [
    ("payer missing", {"payer": None}, "pay_payer", WHO),
    ("payer empty", {"payer": ""}, "pay_payer", WHO),
    ("payee missing", {"payee": None}, "pay_payer", WHO),
    ("payer beyond 64 bits", {"payer": BEYOND_64_BITS}, "pay_payer", WHO),
    ("payer of another group", {"payer": "{other}"}, "pay_payer", WHO),
    ("payer in other digits", {"payer": "٣"}, "pay_payer", WHO),
    ("payer 1.5 MB", {"payer": BIG}, "pay_payer", WHO),
    ("payer pays themselves", {"payee": "{payer}"}, "pay_payee", THEMSELVES),
]  # fmt: skip
DAY = "Give the day it was paid, like 2026-11-25."
DATE_CASES = [
    ("30 February", "2026-02-30"),
    ("Arabic-Indic digits", "٢٠٢٦-١١-٠١"),
    ("fullwidth digits", "２０２６-１１-０１"),
    ("year 0", "0000-01-01"),
    ("year 99999", "99999-01-01"),
    ("1.5 MB", BIG),
    ("lone surrogate", LONE),
    ("control character", "2026-11-01\x01"),
    ("words", "yesterday"),
]
CURRENCY_CASES = [("13 characters", "E" * 13), ("1.5 MB", BIG)]


def pay_form(phone: Phone, group_id: str, **change: str | None) -> dict[str, str]:
    state = phone.group(group_id)
    fields = {
        "payer": str(member_id(phone, group_id, "Ann")),
        "payee": str(member_id(phone, group_id, "Bob")),
        "amount": "7.50",
        "currency": "EUR",
        "date": "2026-11-01",
        "revision": str(state.revision),
    }
    for name, value in change.items():
        if value is None:
            fields.pop(name)
        else:
            fields[name] = value
    return fields


@pytest.mark.parametrize("case, typed, message", AMOUNT_CASES)
def test_mark_as_paid_refuses_an_amount_that_is_not_one(phone, case, typed, message):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, amount=typed))
    refused(phone, group_id, before, answer, {"pay_amount": message})


@pytest.mark.parametrize("case, change, where, message", PAYER_CASES)
def test_mark_as_paid_refuses_a_payer_or_payee_that_is_not_a_member(
    phone, case, change, where, message
):
    group_id = phone.start_group()
    other = phone.start_group(("Zed", "Yan", "Xi", "Wu"), name="Other table")
    stranger = str(member_id(phone, other, "Wu"))  # number 4: no member of the first
    before = phone.stored(group_id)
    ann = str(member_id(phone, group_id, "Ann"))
    change = {k: v if v is None else v.format(other=stranger, payer=ann) for k, v in change.items()}
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, **change))
    refused(phone, group_id, before, answer, {where: message})


@pytest.mark.parametrize("case, typed", DATE_CASES)
def test_mark_as_paid_refuses_a_day_that_is_not_one(phone, case, typed):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, date=typed))
    refused(phone, group_id, before, answer, {"pay_date": DAY})


@pytest.mark.parametrize("case, typed", CURRENCY_CASES)
def test_mark_as_paid_refuses_a_currency_too_long(phone, case, typed):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, currency=typed))
    refused(
        phone, group_id, before, answer, {"pay_currency": "A currency has at most 12 characters."}
    )


# Issue 24: a currency holds what a name or a title may hold, and nothing else
# (names.text_problem, the one rule for every short text stored). What each says
# after "The currency " on a form, or after "currency: " in a file.
TURNED = (
    "has a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE): type it without that character"
)
CONTROL = "has a line break or control character"
CURRENCY_TEXT_CASES = [
    ("right-to-left override", "\u202eRUE", TURNED),
    ("NUL", "EU\x00R", CONTROL),
    ("tab", "EU\tR", CONTROL),
    ("newline", "EU\nR", CONTROL),
    ("zero-width space", "EU\u200bR", "has an invisible formatting character (U+200B ZERO WIDTH"
     " SPACE): type it without that character"),
    ("nothing visible", "\u3164", "has a character that shows nothing (U+3164 HANGUL FILLER):"
     " type it without that character"),
]  # fmt: skip


@pytest.mark.parametrize("case, typed, said", CURRENCY_TEXT_CASES)
def test_mark_as_paid_refuses_a_currency_with_a_control_or_direction_character(
    phone, case, typed, said
):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, currency=typed))
    refused(phone, group_id, before, answer, {"pay_currency": f"The currency {said}."})


@pytest.mark.parametrize("case, typed, said", CURRENCY_TEXT_CASES)
def test_a_group_stake_refuses_a_currency_with_a_control_or_direction_character(
    phone, case, typed, said
):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/stake", {**STAKE, "stake_currency": typed, "revision": "1"})
    assert answer.status_code == 400
    form = phone.context()["form"]
    assert {f.name: f.errors for f in form if f.errors} == {
        "stake_currency": [f"The currency {said}."]
    }
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("case, typed, said", CURRENCY_TEXT_CASES)
def test_a_group_file_with_such_a_currency_is_one_line_each(phone, case, typed, said):
    pay = {"from": "Ann", "to": "Bob", "amount": "7.50", "currency": typed, "date": "2026-11-01"}
    stake = {"amount": "0.50", "per": 1, "currency": typed}
    entry = a_match_file(phone)
    entry["match"]["stake"] = stake
    imported_nothing(
        phone,
        group_file(stakes={"*": stake}, payments=[pay], matches=[entry]),
        [
            f"stakes: *: The currency {said}",
            f"matches[0]: stake: currency: {said}",
            f"payments[0]: currency: {said}",
        ],
    )


@pytest.mark.parametrize("typed, kept", [("7,50", "7.50"), ("7", "7.00"), ("0.01", "0.01")])
def test_mark_as_paid_takes_an_amount_as_written_at_the_table(phone, typed, kept):
    group_id = phone.start_group()
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, amount=typed))
    assert answer.status_code == 302
    [paid] = phone.group(group_id).payments
    assert (paid.amount, paid.currency, paid.date) == (kept, "EUR", "2026-11-01")


@pytest.mark.parametrize("suggested", ["", "[]", "nonsense", BIG, LONE])
def test_settling_up_from_a_page_of_other_balances_stores_nothing(phone, suggested):
    group_id = phone.start_group()
    phone.start_match(group_id)
    before = phone.stored(group_id)
    fields = {"all": "1", "suggested": suggested, "revision": str(before[0])}
    answer = phone.send(f"/g/{group_id}/pay", fields)
    assert answer.status_code == 409
    assert phone.context()["errors"]["form"].startswith(
        "Not saved: the balances changed since this page was drawn."
    ) or phone.context()["errors"] == {"form": "There is nothing to settle."}
    assert phone.stored(group_id) == before


# --- the other forms: order, undo, stake, add a match, a new group ---------------------------


@pytest.mark.parametrize(
    "order",
    [[], ["1", "2"], ["1", "1", "2"], ["1", "2", "3", "4"], ["1", "2", "99"],
     ["1", "2", BEYOND_64_BITS], ["1", "2", "٣"], ["1", "2", "-3"], ["1", "2", "x"]],
)  # fmt: skip
def test_an_order_that_is_not_each_member_once_stores_nothing(phone, order):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = send_form(phone, f"/g/{group_id}/order", {"order": order}, "1")
    if all(i.isascii() and i.isdigit() and len(i) <= 9 for i in order):
        refused(
            phone, group_id, before, answer, {"form": "Give each member one place in the order."}
        )
    else:
        assert answer.status_code == 400  # not a member's number: no form sends it
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("undoes", [None, "", "1", "99", BEYOND_64_BITS, "٣", "-2", BIG])
def test_undo_of_no_such_change_stores_nothing(phone, undoes):
    group_id = phone.start_group()
    phone.send(f"/g/{group_id}/members", {"revision": "1", "name": "Dee"})
    before = phone.stored(group_id)
    fields = {"revision": "2"} if undoes is None else {"revision": "2", "undoes": undoes}
    answer = phone.send(f"/g/{group_id}/undo", fields)
    assert answer.status_code == 400
    assert phone.context()["errors"] == {"form": "There is no such change to undo."}
    assert phone.stored(group_id) == before


STAKE = {"stake_game": "*", "stake_amount": "0.50", "stake_per": "1", "stake_currency": "EUR"}
STAKE_CASES = [
    ("stake_game", "nonsense"),
    ("stake_game", BIG),
    ("stake_amount", "-1"),
    ("stake_amount", "NaN"),
    ("stake_amount", "1e9999"),
    ("stake_amount", BIG),
    ("stake_amount", LONE),
    *[("stake_amount", d) for d in OTHER_DIGITS],
    ("stake_per", "0"),
    ("stake_per", "-1"),
    ("stake_per", "1.5"),
    *[("stake_per", d) for d in OTHER_DIGITS],
    ("stake_currency", "E" * 13),
    ("stake_currency", BIG),
]


@pytest.mark.parametrize("name, typed", STAKE_CASES)
def test_a_group_stake_refuses_what_is_no_stake_on_its_input(phone, name, typed):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/stake", {**STAKE, name: typed, "revision": "1"})
    assert answer.status_code == 400
    form = phone.context()["form"]
    errors = {f.name: f.errors for f in form if f.errors}
    assert list(errors) == [name], errors
    for message in errors[name]:
        assert message[:200] in visible_text(answer.text)
    assert phone.stored(group_id) == before


@pytest.mark.parametrize(
    "typed, said",
    [
        ("", "There is no match at that address."),
        ("AAAAAAAAAAAAAAAA", "There is no match at that address."),
        (BIG, "There is no match at that address."),
        (LONE, "There is no match at that address."),
        ("http://x/m/" + "٣" * 16, "There is no match at that address."),
    ],
)
def test_adding_no_match_stores_nothing(phone, typed, said):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/add", {"match": typed, "map1": "1", "revision": "1"})
    assert answer.status_code == 400
    assert (phone.context()["problem"], phone.context()["field"]) == (said, "match")
    assert said in visible_text(answer.text)
    assert phone.stored(group_id) == before


@pytest.mark.parametrize("pick", ["99", BEYOND_64_BITS, "٣", "-1", BIG, "{other}"])
def test_mapping_a_player_to_no_member_of_the_group_stores_nothing(phone, pick):
    group_id = phone.start_group()
    other = phone.start_group(("Zed", "Yan", "Xi", "Wu"), name="Other table")
    match_id = phone.start_match(other, ("Zed", "Yan", "Xi"))
    pick = pick.format(other=member_id(phone, other, "Wu"))
    before = phone.stored(group_id)
    fields = {"match": match_id, "map1": pick, "map2": "new", "map3": "new", "revision": "1"}
    answer = phone.send(f"/g/{group_id}/add", fields)
    if pick in ("99", "4"):  # a member's number, of no member here
        assert phone.context()["problem"] == "Choose a member of the group for Zed."
        assert answer.status_code == 400
    else:  # not a number: Zed is as if not chosen, a new member of that name
        assert answer.status_code == 302
        assert [m.name for m in phone.group(group_id).members] == [*MEMBERS, "Zed", "Yan", "Xi"]
        return
    assert phone.stored(group_id) == before


def test_mapping_two_players_to_one_member_stores_nothing(phone):
    group_id = phone.start_group()
    match_id = phone.start_match(
        phone.start_group(("Zed", "Yan", "Xi"), name="Other"), ("Zed", "Yan", "Xi")
    )
    ann = str(member_id(phone, group_id, "Ann"))
    before = phone.stored(group_id)
    fields = {"match": match_id, "map1": ann, "map2": ann, "map3": "new", "revision": "1"}
    answer = phone.send(f"/g/{group_id}/add", fields)
    assert answer.status_code == 400
    assert (
        phone.context()["problem"]
        == "Zed and Yan are both mapped to Ann: a member plays once in a match."
    )
    assert phone.stored(group_id) == before


SAME_AS_ANN = "reads the same as Ann: give each member a different name."


def groups_stored(phone: Phone) -> int:
    db = phone.db()
    try:
        return db.execute("select count(*) from groups").fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize(
    "fields, field, said",
    [
        ({"name": None}, "name", "Give the group a name, like “Friday trio”."),
        ({"name": ""}, "name", "Give the group a name, like “Friday trio”."),
        ({"name": BIG}, "name", None),
        ({"member2": BIG}, "member2", None),
        ({"member2": "Bo\nb"}, "member2", "This name has a line break or control character."),
        ({"member2": "Bo\x01b"}, "member2", "This name has a line break or control character."),
        ({"member2": "ann"}, "member2", f"ann {SAME_AS_ANN}"),
        ({"member2": "Ａｎｎ"}, "member2", f"Ａｎｎ {SAME_AS_ANN}"),
        ({"stake_amount": "٣"}, "stake_amount", None),
        ({"stake_amount": "NaN"}, "stake_amount", None),
        ({"stake_game": "nonsense"}, "stake_game", None),
    ],
)  # fmt: skip
def test_a_new_group_refuses_bad_input_on_its_input(phone, fields, field, said):
    before = groups_stored(phone)
    typed = {"name": "Friday", "member1": "Ann", "member2": "Bob", "stake_game": "*", **fields}
    typed = {k: v for k, v in typed.items() if v is not None}
    answer = phone.send("/groups/new", typed)
    assert answer.status_code == 400
    errors = {f.name: f.errors for f in phone.context()["form"] if f.errors}
    assert list(errors) == [field], errors
    if said:
        assert errors[field] == [said]
    for message in errors[field]:
        assert message[:200] in visible_text(answer.text)
    assert groups_stored(phone) == before


# --- the ledger's and the statistics' period ------------------------------------------------

FROM_ERROR = "From: write a day like {month}, or leave it empty."
BAD_PERIODS = [
    ("period=between&from=2026-02-30", "from"),
    ("period=between&from=0000-01-01", "from"),
    ("period=between&from=99999-01-01", "from"),
    ("period=between&to=99999-12-31", "to"),
    ("period=between&from=٢٠٢٦-٠١-٠١", "from"),
    ("period=between&from=" + "9" * 100_000, "from"),
    ("period=between&from=2026-03-01&to=2026-01-01", "to"),
    ("period=between", "from"),
]
GOOD_ENOUGH = [
    "period=nonsense",
    "period=" + "x" * 100_000,
    "period=between&from=0001-01-01&to=9999-12-31",
    "period=this-month&from=2026-02-30",
    "from=2026-02-30",
]
PAGES = ["", "/statistics"]
FILES = ["/ledger.csv", "/statistics.csv", "/ledger.pdf", "/statistics.pdf"]


@pytest.fixture(scope="module")
def played_group(shared_app) -> str:
    phone = Phone(*shared_app)
    group_id = phone.start_group()
    match_id = phone.start_match(group_id)
    hand = {"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "S", "tricks": "10",
            "declarer_tops": "2", "revision": "1"}  # fmt: skip
    assert phone.send(f"/m/{match_id}/hand/new", hand).status_code == 302
    return group_id


@pytest.mark.parametrize("query, name", BAD_PERIODS)
def test_a_bad_period_is_said_on_its_field_and_the_files_are_refused(
    phone, played_group, query, name
):
    before = phone.stored(played_group)
    for page in PAGES:
        answer = phone.send(f"/g/{played_group}{page}?{query}", method="GET")
        assert answer.status_code == (200 if page == "" else 400), page
        errors = phone.context()["ledger"].chosen.errors
        assert list(errors) == [name], errors
        assert errors[name] in visible_text(answer.text)
    for file in FILES:
        answer = phone.send(f"/g/{played_group}{file}?{query}", method="GET")
        assert answer.status_code == 400, file
        assert errors[name] in answer.text
    assert phone.stored(played_group) == before


@pytest.mark.parametrize("query", GOOD_ENOUGH)
def test_a_period_that_is_none_of_the_choices_is_all_time(phone, played_group, query):
    for page in PAGES:
        answer = phone.send(f"/g/{played_group}{page}?{query}", method="GET")
        assert answer.status_code == 200, page
        assert phone.context()["ledger"].chosen.errors == {}
    answer = phone.send(f"/g/{played_group}/ledger.csv?{query}", method="GET")
    assert answer.status_code == 200
    assert answer.text.startswith("kind,member,to,currency,matches,won,amount,day,game,match")


# --- names written to run as formulas in a spreadsheet ------------------------------------------

FORMULAS = ['=HYPERLINK("http://x","y")', "+1", "-2", "@x"]


def test_member_names_that_read_as_formulas_stay_text_in_both_csvs(phone):
    group_id = phone.start_group(FORMULAS, name="=cmd|' /C calc'!A0")
    match_id = phone.start_match(group_id, tuple(FORMULAS[:3]))
    hand = {"declarer": "+1", "bid": "4", "dummy_tops": "3", "strain": "S", "tricks": "10",
            "declarer_tops": "2", "revision": "1"}  # fmt: skip
    assert phone.send(f"/m/{match_id}/hand/new", hand).status_code == 302
    pay = {"payer": "1", "payee": "4", "amount": "7.50", "date": "2026-11-01", "revision": "2"}
    assert phone.send(f"/g/{group_id}/pay", pay).status_code == 302
    ledger = list(
        csv.reader(io.StringIO(phone.send(f"/g/{group_id}/ledger.csv", method="GET").text))
    )
    members = {row[1] for row in ledger[1:]} | {row[2] for row in ledger[1:] if row[2]}
    assert members == {"'" + name for name in FORMULAS}
    paid = [row for row in ledger if row[0] == "paid"]
    assert paid == [
        ["paid", '\'=HYPERLINK("http://x","y")', "'@x", "", "", "", "7.50", "2026-11-01", "", ""]
    ]
    amounts = [row[6] for row in ledger[1:] if row[6]]
    assert amounts and all(re.fullmatch(r"-?\d+\.\d\d", a) for a in amounts)  # figures stay figures
    stats = list(
        csv.reader(io.StringIO(phone.send(f"/g/{group_id}/statistics.csv", method="GET").text))
    )
    assert {row[0] for row in stats[1:]} == {"'" + name for name in FORMULAS[:3]}
    # A figure stays a figure: the declarer's points a hand, negative or not.
    assert {row[4] for row in stats[1:] if row[2] == "average"} == {"-4", "8"}
    disposition = phone.send(f"/g/{group_id}/ledger.csv", method="GET").headers[
        "Content-Disposition"
    ]
    assert disposition == 'attachment; filename="cmd-c-calc-a0-all-time-ledger.csv"'


# --- group files built to hurt ----------------------------------------------------------------


def upload(phone: Phone, payload: bytes, url: str = "/import"):
    with phone.client.session_transaction() as session:
        session.pop("_flashes", None)  # what earlier answers flashed
    answer = phone.send(
        url,
        data={"match_file": (io.BytesIO(payload), "g.json")},
        content_type="multipart/form-data",
    )
    with phone.client.session_transaction() as session:
        flashed = [message for _, message in session.pop("_flashes", [])]
    return answer, flashed


def group_file(**change: Any) -> bytes:
    doc = {"format": GROUP_FORMAT, "name": "Imported", "members": ["Ann", "Bob", "Cy"], **change}
    return json.dumps(doc).encode("utf-8")


def a_match_file(phone: Phone) -> dict:
    group_id = phone.start_group()
    phone.start_match(group_id)
    return json.loads(phone.send(f"/g/{group_id}/group.json", method="GET").text)["matches"][0]


def imported_nothing(phone: Phone, payload: bytes, lines: list[str]) -> None:
    before = groups_stored(phone)
    for url in ("/import", "/import/group-copy"):
        answer, flashed = upload(phone, payload, url)
        assert answer.status_code == 302 and answer.location == "/"
        count = len(lines)
        heading = f"Not imported: {count} problem{'' if count == 1 else 's'} in this group file."
        assert flashed == [heading, *lines]
    assert groups_stored(phone) == before


def test_a_group_file_nested_deeply_is_one_line(phone):
    deep = "[" * 100_000 + "]" * 100_000
    payload = b'{"format": "scorekeeper-group/1", "name": ' + deep.encode() + b"}"
    imported_nothing(phone, payload, ["file: not valid JSON: nested too deeply"])
    payload = group_file(name=json.loads("[" * 50 + "]" * 50))
    said = (
        "file: nested too deeply: a group file nests lists and objects at most"
        f" {MAX_GROUP_DEPTH} levels"
    )
    imported_nothing(phone, payload, [said])


def test_a_group_file_of_ten_thousand_members_is_one_line(phone):
    payload = group_file(members=[f"M{i}" for i in range(10_000)])
    imported_nothing(phone, payload, ["members: 10000 members; a group has at most 40"])


def test_a_group_file_of_members_that_read_the_same_is_one_line_each(phone):
    payload = group_file(members=["Ann", "ann", "ＡＮＮ", "Аnn", "Bob", "BOB"])
    imported_nothing(
        phone,
        payload,
        [
            "members[1]: ann reads the same as the member Ann",
            "members[2]: ＡＮＮ reads the same as the member Ann",
            "members[3]: This name mixes look-alike letters of different scripts"
            " (“А” U+0410 CYRILLIC CAPITAL LETTER A): type the name in one alphabet",
            "members[5]: BOB reads the same as the member Bob",
        ],
    )


def test_a_group_file_with_bad_member_names_is_one_line_each(phone):
    payload = group_file(members=["Ann", "Bo\nb", LONE, "x" * 41, ""])
    imported_nothing(
        phone,
        payload,
        [
            "members[1]: This name has a line break or control character",
            "members[2]: is not valid text; retype it",
            f"members[3]: {'x' * 20}… has 41 characters; a name has at most 40",
            "members[4]: Write the member's name",
        ],
    )


def test_a_group_file_mapping_to_a_missing_member_is_one_line_each(phone):
    entry = a_match_file(phone)
    payload = group_file(
        members=["Ann", "Bob"],
        matches=[{"match": entry["match"], "mapping": {"Ann": "Zed", "Bob": "Bob", "Dee": "Ann"}}],
    )
    imported_nothing(
        phone,
        payload,
        [
            "matches[0]: mapping: Dee: does not play in this match",
            "matches[0]: mapping: Ann: 'Zed' is not one of the members",
            "matches[0]: mapping: Cy: is not a member; map the player to one",
        ],
    )


@pytest.mark.parametrize(
    "amount, said",
    [
        ("٣", "'٣' is not an amount: write digits 0–9, like 7.50"),
        ("1E+2", "'1E+2' is not an amount: write digits 0–9, like 7.50"),
        ("NaN", "'NaN' is not an amount: write digits 0–9, like 7.50"),
        ("-5", "Write an amount above 0 with at most two decimals, like 7.50"),
        (7.5, "Write the amount, like 7.50"),
    ],
)
def test_a_group_file_payment_of_no_amount_is_one_line(phone, amount, said):
    pay = {"from": "Ann", "to": "Bob", "amount": amount, "currency": "EUR", "date": "2026-11-01"}
    imported_nothing(phone, group_file(payments=[pay]), [f"payments[0]: amount: {said}"])


def test_renaming_a_member_of_another_group_stores_nothing(phone):
    group_id = phone.start_group()
    other = phone.start_group(("Zed", "Yan", "Xi", "Wu"), name="Other table")
    wu = member_id(phone, other, "Wu")  # number 4: no member of the first group
    before, theirs = phone.stored(group_id), phone.stored(other)
    answer = phone.send(f"/g/{group_id}/members/{wu}", {"revision": "1", "name": "Dee"})
    refused(phone, group_id, before, answer, {"form": "There is no such member in this group."})
    assert phone.stored(other) == theirs


@pytest.mark.parametrize(
    "revision, said", [(None, NO_REVISION), ("٣", NO_REVISION), ("9" * 12, FAR_AHEAD)]
)
def test_a_stake_form_without_a_revision_it_was_drawn_from_stores_nothing(phone, revision, said):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    fields = {**STAKE} if revision is None else {**STAKE, "revision": revision}
    answer = phone.send(f"/g/{group_id}/stake", fields)
    assert answer.status_code == 400
    assert phone.context()["problems"] == [said] and said in visible_text(answer.text)
    assert phone.stored(group_id) == before


@pytest.mark.parametrize(
    "payload, said",
    [
        (b"\xff\xfe", "The file is not a UTF-8 text file; choose a match file (.json)."),
        (b"[" * 100_000, "Not imported: 1 problem in this file."),
        (b"x" * 2_000_000, "Not imported: 1 problem in this file."),
        (None, "Choose a match file."),
    ],
    ids=["not UTF-8", "nested", "2 MB", "no file"],
)
def test_a_bad_match_file_for_the_group_stores_nothing(phone, payload, said):
    group_id = phone.start_group()
    before = phone.stored(group_id)
    db = phone.db()
    try:
        matches = db.execute("select count(*) from matches").fetchone()[0]
    finally:
        db.close()
    with phone.client.session_transaction() as session:
        session.pop("_flashes", None)
    data = {} if payload is None else {"match_file": (io.BytesIO(payload), "m.json")}
    answer = phone.send(f"/g/{group_id}/import", data=data, content_type="multipart/form-data")
    assert answer.status_code == 302 and answer.location == f"/g/{group_id}/add"
    with phone.client.session_transaction() as session:
        flashed = [message for _, message in session.pop("_flashes", [])]
    assert flashed[0] == said
    assert phone.stored(group_id) == before
    db = phone.db()
    try:
        assert db.execute("select count(*) from matches").fetchone()[0] == matches
    finally:
        db.close()


# --- one-time keys: the same form sent again, or its key sent with other content -----------
#
# A double tap, or Back and resend, sends a form's one-time key again. With the
# same content it is stored once and the phone is told so; with other content
# (Back, another entry typed) it is a change of its own, or refused as stale
# with what was typed kept: never dropped as if it were the first one.

ALREADY = "Already recorded, stored once: {}."


def fresh_key() -> str:
    return secrets.token_urlsafe(12)


def flashed(phone: Phone) -> list[str]:
    with phone.client.session_transaction() as session:
        return [message for _, message in session.pop("_flashes", [])]


def newest_summary(phone: Phone, group_id: str) -> str:
    db = phone.db()
    try:
        return g.recent_changes(db, group_id, 1)[-1].summary
    finally:
        db.close()


def key_forms(phone: Phone, group_id: str) -> dict[str, tuple[str, dict, dict, str | None]]:
    """Each group form: its address, a first content, another content sent with
    the same key from the same (older) page, and the input that keeps the other
    content when it is refused as stale (None: it is stored as its own change)."""
    ann, bob, cy = (str(member_id(phone, group_id, n)) for n in MEMBERS)
    elsewhere = phone.start_group(name="Elsewhere")
    first, second = phone.start_match(elsewhere), phone.start_match(elsewhere)
    pay = {"payer": ann, "payee": bob, "currency": "EUR", "date": "2026-11-01"}
    return {
        "rename": (f"/g/{group_id}/rename", {"name": "Friday four"}, {"name": "Tuesday"},
                   "group_name"),
        "add member": (f"/g/{group_id}/members", {"name": "Dee"}, {"name": "Eve"}, None),
        "rename member": (f"/g/{group_id}/members/{bob}", {"name": "Bobby"},
                          {"name": "Robert"}, f"member-{bob}"),
        "order": (f"/g/{group_id}/order", {"order": [cy, bob, ann]},
                  {"order": [bob, ann, cy]}, "form"),
        "mark as paid": (f"/g/{group_id}/pay", {**pay, "amount": "7.50"},
                         {**pay, "amount": "3.00"}, "pay_amount"),
        "stake": (f"/g/{group_id}/stake", {**STAKE}, {**STAKE, "stake_amount": "1.00"},
                  "stake_amount"),
        "add match": (f"/g/{group_id}/add", {"match": first}, {"match": second}, None),
    }  # fmt: skip


def send_keyed(phone: Phone, url: str, fields: dict, revision: int, key: str):
    pairs = [
        (k, v)
        for k, value in fields.items()
        for v in (value if isinstance(value, list) else [value])
    ]
    pairs += [("revision", str(revision)), ("key", key)]
    body = "&".join(f"{k}={quote_plus(v)}" for k, v in pairs)
    return phone.send(url, data=body, content_type="application/x-www-form-urlencoded")


FORM_NAMES = ["rename", "add member", "rename member", "order", "mark as paid", "stake",
              "add match"]  # fmt: skip


@pytest.mark.parametrize("name", FORM_NAMES)
def test_a_form_sent_again_with_its_key_is_stored_once_and_said_so(phone, name):
    group_id = phone.start_group()
    url, first, _, _ = key_forms(phone, group_id)[name]
    key, revision = fresh_key(), phone.group(group_id).revision
    flashed(phone)
    assert send_keyed(phone, url, first, revision, key).status_code == 302
    summary = newest_summary(phone, group_id)
    assert not flashed(phone)[0].startswith("Already")
    before = phone.stored(group_id)
    assert before[0] == revision + 1
    for _ in range(2):  # a double tap, then Back and the same again
        answer = send_keyed(phone, url, first, revision, key)
        assert answer.status_code == 302
        assert flashed(phone) == [ALREADY.format(summary)]
        assert phone.stored(group_id) == before


@pytest.mark.parametrize("name", FORM_NAMES)
def test_a_key_sent_again_with_other_content_is_never_dropped(phone, name):
    group_id = phone.start_group()
    url, first, other, kept_on = key_forms(phone, group_id)[name]
    key, revision = fresh_key(), phone.group(group_id).revision
    assert send_keyed(phone, url, first, revision, key).status_code == 302
    before = phone.stored(group_id)
    flashed(phone)
    answer = send_keyed(phone, url, other, revision, key)  # Back, another entry, the same key
    if kept_on is None:  # a change of its own
        assert answer.status_code == 302
        assert not flashed(phone)[0].startswith("Already")
        after = phone.stored(group_id)
        assert after[0] == before[0] + 1
        state = phone.group(group_id)
        if name == "add member":
            assert [m.name for m in state.members] == [*MEMBERS, "Dee", "Eve"]
        else:
            assert sorted(state.matches) == sorted([first["match"], other["match"]])
        # ... and a double tap of it is stored once too.
        again = send_keyed(phone, url, other, revision, key)
        assert again.status_code == 302
        assert flashed(phone) == [ALREADY.format(newest_summary(phone, group_id))]
        assert phone.stored(group_id) == after
        return
    # Refused as stale: nothing stored, what was typed kept on the page.
    typed = next(v for k, v in other.items() if k not in ("payer", "payee", "currency", "date"))
    if name == "stake":
        assert answer.status_code == 400
        assert phone.context()["problems"][0] == (
            "The group changed since this form was drawn; nothing was stored:"
        )
        assert phone.context()["form"].stake_amount.data == "1.00"
    else:
        assert answer.status_code == 409
        assert phone.context()["errors"]["form"].startswith(STALE)
        if kept_on != "form":
            assert phone.context()["typed"][kept_on] == typed
    assert phone.stored(group_id) == before


def test_undo_sent_again_with_its_key_undoes_once_and_says_so(phone):
    group_id = phone.start_group()
    for name in ("Dee", "Eve"):
        send_keyed(phone, f"/g/{group_id}/members", {"name": name}, 0, fresh_key())
    revision = phone.group(group_id).revision
    assert revision == 3  # "Eve" then "Dee" can be undone
    key = fresh_key()
    answer = send_keyed(phone, f"/g/{group_id}/undo", {"undoes": "3"}, revision, key)
    assert answer.status_code == 302
    flashed(phone)
    before = phone.stored(group_id)
    answer = send_keyed(phone, f"/g/{group_id}/undo", {"undoes": "3"}, revision, key)
    assert answer.status_code == 302
    assert flashed(phone) == [ALREADY.format("Undone: Member added: Eve")]
    assert phone.stored(group_id) == before
    assert [m.name for m in phone.group(group_id).members] == [*MEMBERS, "Dee"]


def test_a_settle_up_sent_again_with_its_key_is_stored_once_and_said_so(phone):
    group_id = phone.start_group()
    match_id = phone.start_match(group_id)
    hand = {"declarer": "Ann", "bid": "4", "dummy_tops": "3", "strain": "S", "tricks": "10",
            "declarer_tops": "2", "revision": "1"}  # fmt: skip
    assert phone.send(f"/m/{match_id}/hand/new", hand).status_code == 302
    phone.send(f"/g/{group_id}", method="GET")
    suggested = phone.context()["ledger"].settle_json()
    assert json.loads(suggested)  # someone owes someone
    fields = {"all": "1", "suggested": suggested}
    key, revision = fresh_key(), phone.group(group_id).revision
    assert send_keyed(phone, f"/g/{group_id}/pay", fields, revision, key).status_code == 302
    summary = newest_summary(phone, group_id)
    before = phone.stored(group_id)
    assert len(before[5]) == len(json.loads(suggested))
    flashed(phone)
    answer = send_keyed(phone, f"/g/{group_id}/pay", fields, revision, key)
    assert answer.status_code == 302
    assert flashed(phone) == [ALREADY.format(summary)]
    assert phone.stored(group_id) == before


def new_group_fields(name: str, key: str) -> dict[str, str]:
    fields = {"name": name, "stake_game": "*", "key": key}
    fields.update({f"member{i}": m for i, m in enumerate(MEMBERS, 1)})
    return fields


def test_a_new_group_sent_again_is_one_group_and_another_with_its_key_is_its_own(phone):
    key, count = fresh_key(), groups_stored(phone)
    first = phone.send("/groups/new", new_group_fields("Friday", key))
    assert first.status_code == 302
    flashed(phone)
    again = phone.send("/groups/new", new_group_fields("Friday", key))
    assert (again.status_code, again.location) == (302, first.location)
    assert flashed(phone) == [ALREADY.format("Group started: Friday (Ann, Bob, Cy)")]
    assert groups_stored(phone) == count + 1
    other = phone.send("/groups/new", new_group_fields("Saturday", key))  # Back, another name
    assert other.status_code == 302 and other.location != first.location
    assert flashed(phone) == ["Group started: Saturday."]
    assert groups_stored(phone) == count + 2
    twice = phone.send("/groups/new", new_group_fields("Saturday", key))  # ... tapped twice
    assert (twice.status_code, twice.location) == (302, other.location)
    assert groups_stored(phone) == count + 2


def test_a_new_match_of_the_group_sent_again_is_one_match(phone):
    group_id = phone.start_group()
    key = fresh_key()
    fields = {"variant": "top-game", "stake_amount": "1", "stake_per": "1", "key": key}
    one = {**fields, **{f"player{i}": p for i, p in enumerate(MEMBERS, 1)}}
    other = {**fields, "player1": "Ann", "player2": "Bob", "player3": "Dee"}
    first = phone.send(f"/g/{group_id}/new", one)
    assert phone.send(f"/g/{group_id}/new", one).location == first.location
    second = phone.send(f"/g/{group_id}/new", other)  # Back, another player, the same key
    assert second.status_code == 302 and second.location != first.location
    assert phone.send(f"/g/{group_id}/new", other).location == second.location
    assert len(phone.group(group_id).matches) == 2


def upload_keyed(phone: Phone, payload: bytes, url: str, key: str):
    flashed(phone)
    data = {"match_file": (io.BytesIO(payload), "g.json"), "key": key}
    return phone.send(url, data=data, content_type="multipart/form-data")


@pytest.mark.parametrize("url", ["/import", "/import/group-copy"])
def test_a_group_file_sent_again_is_one_group_and_another_with_its_key_is_its_own(phone, url):
    key, count = fresh_key(), groups_stored(phone)
    tag = "copy" if url.endswith("copy") else "import"
    one, other = group_file(name=f"One {tag} {key}"), group_file(name=f"Other {tag} {key}")
    first = upload_keyed(phone, one, url, key)
    assert first.status_code == 302 and first.location.startswith("/g/")
    again = upload_keyed(phone, one, url, key)
    assert (again.status_code, again.location) == (302, first.location)
    assert flashed(phone) == [
        ALREADY.format(f"Group imported from a file: One {tag} {key} (Ann, Bob, Cy)")
    ]
    second = upload_keyed(phone, other, url, key)  # Back, another file, the same key
    assert second.status_code == 302 and second.location not in (first.location, "/")
    twice = upload_keyed(phone, other, url, key)  # ... tapped twice
    assert (twice.status_code, twice.location) == (302, second.location)
    assert groups_stored(phone) == count + 2


# --- the first and last days of the calendar ------------------------------------------------
#
# A group file's checks take any day from 0001-01-01 to 9999-12-31: each must
# import, and the group's pages and files must read it, in whatever time zone
# the server runs (a zone far east or west carries noon of those days out of
# the calendar).

EDGE_DAYS = ["0001-01-01", "9999-12-31"]
ZONES = ["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "America/New_York"]


@pytest.fixture(params=ZONES)
def zone(request, monkeypatch):
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.undo()
    time.tzset()


def test_a_group_file_of_the_first_and_last_days_imports_and_reads_back(phone, zone):
    entry = a_match_file(phone)
    matches = [{**entry, "match": {**entry["match"], "played": day}} for day in EDGE_DAYS]
    payments = [
        {"from": "Ann", "to": "Bob", "amount": "1.00", "currency": "EUR", "date": day}
        for day in EDGE_DAYS
    ]
    name = f"Edges {zone} {fresh_key()}"
    answer, said = upload(phone, group_file(name=name, matches=matches, payments=payments))
    assert answer.status_code == 302, said
    assert said == [f"Imported the group {name}: 3 members, 2 matches, 2 payments."]
    group_id = answer.location.removeprefix("/g/")
    phone.send(f"/g/{group_id}", method="GET")
    played = [line.played.isoformat() for line in phone.context()["ledger"].lines]
    assert played == EDGE_DAYS
    for day in EDGE_DAYS:
        query = f"?period=between&from={day}&to={day}"
        assert phone.send(f"/g/{group_id}{query}", method="GET").status_code == 200
        book = phone.context()["ledger"]
        assert [line.played.isoformat() for line in book.lines if line.in_period] == [day]
        assert [p["date"].isoformat() for p in book.paid] == [day]
    for path in ["/statistics", "/ledger.csv", "/statistics.csv", "/ledger.pdf"]:
        assert phone.send(f"/g/{group_id}{path}", method="GET").status_code == 200, path
    for match_id in phone.group(group_id).matches:
        assert phone.send(f"/m/{match_id}", method="GET").status_code in (200, 302)
        assert phone.send(f"/m/{match_id}/match.json", method="GET").status_code == 200
    assert phone.send("/", method="GET").status_code == 200
    back = json.loads(phone.send(f"/g/{group_id}/group.json", method="GET").text)
    assert [m["match"]["played"] for m in back["matches"]] == EDGE_DAYS
    assert [p["date"] for p in back["payments"]] == EDGE_DAYS


@pytest.mark.parametrize("day", EDGE_DAYS)
def test_a_payment_on_the_first_or_last_day_is_recorded_and_read(phone, day, zone):
    group_id = phone.start_group()
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, date=day))
    assert answer.status_code == 302
    assert [p.date for p in phone.group(group_id).payments] == [day]
    for path in ["", "/ledger.csv", f"?period=between&from={day}&to={day}"]:
        assert phone.send(f"/g/{group_id}{path}", method="GET").status_code == 200, path
    back = json.loads(phone.send(f"/g/{group_id}/group.json", method="GET").text)
    assert [p["date"] for p in back["payments"]] == [day]


# --- a group at the most its group file holds ---------------------------------------------


def full(what: str, most: int, adding: int = 1) -> str:
    return (
        f"This group has {most} {what}, and its group file holds at most {most}:"
        f" it cannot take {adding} more. Start a new group for the next ones."
    )


def test_a_group_stops_at_what_its_file_holds_and_its_file_imports_back(phone):
    """A group one match and one payment short of the limits: it takes one
    more of each, then refuses the next where it grows (Mark as paid, add a
    match, a new match); its own download imports back whole."""
    entry = a_match_file(phone)
    matches = [
        {**entry, "match": {**entry["match"], "played": f"2026-01-{1 + i % 28:02d}"}}
        for i in range(g.MAX_GROUP_MATCHES - 1)
    ]
    pay = {"from": "Ann", "to": "Bob", "amount": "1.00", "currency": "EUR", "date": "2026-01-01"}
    payments = [pay] * (g.MAX_GROUP_PAYMENTS - 1)
    name = f"Full {fresh_key()}"
    answer, said = upload(phone, group_file(name=name, matches=matches, payments=payments))
    assert answer.status_code == 302, said
    group_id = answer.location.removeprefix("/g/")
    assert phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id)).status_code == 302
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, amount="2.00"))
    refused(phone, group_id, before, answer, {"form": full("payments", g.MAX_GROUP_PAYMENTS)})
    assert phone.context()["typed"]["pay_amount"] == "2.00"
    elsewhere = phone.start_group(name="Elsewhere")
    one, two = phone.start_match(elsewhere), phone.start_match(elsewhere)
    fields = {"match": one, "revision": str(before[0])}
    assert phone.send(f"/g/{group_id}/add", fields).status_code == 302
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/add", {"match": two, "revision": str(before[0])})
    assert answer.status_code == 400
    assert phone.context()["problem"] == full("matches", g.MAX_GROUP_MATCHES)
    fields = {"variant": "top-game", "stake_amount": "1", "stake_per": "1"}
    fields.update({f"player{i}": p for i, p in enumerate(MEMBERS, 1)})
    answer = phone.send(f"/g/{group_id}/new", fields)
    assert answer.status_code == 200
    assert phone.context()["problems"] == [f"Not started: {full('matches', g.MAX_GROUP_MATCHES)}"]
    assert phone.stored(group_id) == before
    # Its own file, downloaded, imports back whole (as a copy: it is here already).
    download = phone.send(f"/g/{group_id}/group.json", method="GET").text.encode()
    answer, said = upload(phone, download, "/import/group-copy")
    assert answer.status_code == 302, said
    assert said == [
        f"Imported a copy of the group {name}: 3 members, {g.MAX_GROUP_MATCHES} matches,"
        f" {g.MAX_GROUP_PAYMENTS} payments."
    ]
    copy = phone.group(answer.location.removeprefix("/g/"))
    assert (len(copy.matches), len(copy.payments)) == (g.MAX_GROUP_MATCHES, g.MAX_GROUP_PAYMENTS)


# --- a group at the most its group file holds in bytes ------------------------------------


def test_a_group_stops_at_the_bytes_it_holds_and_its_matches_still_take_hands(phone, monkeypatch):
    """Past what a group holds (g.MAX_GROUP_BYTES, made small here), Mark as
    paid, adding a match and starting one are refused where the group grows,
    each saying so and storing nothing; a hand of a match already in the group
    is still saved (the import keeps room above it), and taking a match out
    (the file shrinks) is not refused."""
    group_id = phone.start_group(name=f"Bytes {fresh_key()}")
    match_id = phone.start_match(group_id)
    size = len(phone.send(f"/g/{group_id}/group.json", method="GET").data)
    monkeypatch.setattr(g, "MAX_GROUP_BYTES", size)
    full = (
        f"This group's file has reached {size // 1024} kB, the most a group holds so that"
        " its file can always be imported back. Start a new group for the next ones."
    )
    assert g.group_full_message() == full
    other = phone.start_match(phone.start_group(name="Elsewhere"))
    before = phone.stored(group_id)
    answer = phone.send(f"/g/{group_id}/pay", pay_form(phone, group_id, amount="2.00"))
    refused(phone, group_id, before, answer, {"form": full})
    assert phone.context()["typed"]["pay_amount"] == "2.00"
    answer = phone.send(f"/g/{group_id}/add", {"match": other, "revision": str(before[0])})
    assert answer.status_code == 400
    assert phone.context()["problem"] == full
    fields = {"variant": "top-game", "stake_amount": "1", "stake_per": "1"}
    fields.update({f"player{i}": p for i, p in enumerate(MEMBERS, 1)})
    answer = phone.send(f"/g/{group_id}/new", fields)
    assert answer.status_code == 200
    assert phone.context()["problems"] == [f"Not started: {full}"]
    assert phone.stored(group_id) == before
    # The match already in the group still takes its hands.
    db = phone.db()
    try:
        hand = {"bids": [None, None, None], "passed_out": True}
        applied = store.apply(db, match_id, Command("append", hand=1, record=hand, revision=1))
        assert applied.state.revision == 2
    finally:
        db.close()
    # Taking a match out makes the file smaller: not refused.
    answer = phone.send(f"/g/{group_id}/remove/{match_id}", {"revision": str(before[0])})
    assert answer.status_code == 302
    assert phone.group(group_id).matches == {}
