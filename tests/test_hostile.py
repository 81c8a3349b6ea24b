"""Hostile input: digits of other scripts, addresses beyond 64 bits, forms with
fields missing, lone surrogates, oversized files, and generated junk in every
field of every form and of the match file.

Every case pins the same four promises (docs/match-file.md, "Limits"): no
answer is a 500; a refusal names the field; nothing was stored; the session
cookie stays under the 4 kB a browser keeps.

Forms are sent as a browser sends them, byte for byte (`form_body`): a lone
surrogate typed into a field arrives as bytes that are not UTF-8.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import subprocess
import sys
import unicodedata
from dataclasses import dataclass, field
from decimal import Decimal
from html import unescape
from pathlib import Path
from typing import Any
from unittest import mock
from urllib.parse import quote_plus

import pytest
import werkzeug.urls  # noqa: F401  (registers the "werkzeug.url_quote" decoding errors)
from flask import template_rendered
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper.app import create_app
from scorekeeper.forms import option_field_name
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.matchfile import MAX_ENTRIES, MAX_TITLE, loads
from scorekeeper.names import alike, name_problem, text_problem
from scorekeeper.variants import MAX_NAME, MatchError
from scorekeeper.views.commands import NO_REVISION
from scorekeeper.views.messages import MAX_LINE, MAX_SHOWN, cut
from tests.conftest import TableClient
from tests.games import PLAYER, TEXT, VARIANT_IDS, HandForm, noun, pinned, seated

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"
COOKIE_LIMIT = 4096  # a browser drops a bigger cookie, and every message in it
MAX_FLASHED = MAX_SHOWN + 1  # ten problems and "… and N more"
OTHER_DIGITS = ("²", "٣", "５")  # digits to str.isdigit(), never a number at the table
BEYOND_64_BITS = str(2**64 + 1)
FORMAT = "scorekeeper-match/1"


def hand_form(variant: str) -> HandForm:
    """The variant's hand form as its own tests pin it (HAND_FORMS, tests/games.py)."""
    return pinned(variant, "HAND_FORMS")


def good_hand(variant: str) -> dict[str, str]:
    """A first hand the variant's form takes as it is."""
    return hand_form(variant).good


def saved(variant: str, number: int = 1) -> str:
    return f"{noun(variant)} {number} saved."


NEW_MATCH = {
    "variant": "rubber",
    **{f"player{i}": p for i, p in enumerate(seated("rubber"), 1)},
    "title": "Friday",
    "stake_amount": "0.50",
    "stake_per": "100",
    "stake_currency": "EUR",
}
SETTINGS = {"title": "Friday", "stake_amount": "0.50", "stake_per": "100", "stake_currency": "EUR"}


# --- sending, and what every answer must keep ---------------------------------------


def form_body(fields: dict[str, str]) -> bytes:
    """The form as a browser sends it: text a phone cannot encode (a lone
    surrogate) goes as the bytes `surrogatepass` gives, which are not UTF-8."""
    return "&".join(
        f"{quote_plus(name)}={quote_plus(value.encode('utf-8', 'surrogatepass'))}"
        for name, value in fields.items()
    ).encode("ascii")


def as_received(typed: str) -> str:
    """What the server reads from `form_body`: werkzeug keeps bytes that are not
    UTF-8 percent-encoded, so a lone surrogate arrives as the text "%ED%A0%80"."""
    return typed.encode("utf-8", "surrogatepass").decode("utf-8", "werkzeug.url_quote")


def visible_text(html: str) -> str:
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def shown(message: str, page: str) -> bool:
    """The message, as a player reads it, is on the page."""
    return " ".join(message.split()) in visible_text(page)


@dataclass
class Answer:
    """A request's answer and what the page it led to showed."""

    status: int
    location: str | None
    page: str  # the page drawn (the redirect's target after a redirect)
    form: Any = None  # the form the page drew, carrying its field errors
    problems: list[str] = field(default_factory=list)
    flashed: list[str] = field(default_factory=list)
    number: int | None = None  # the hand a hand form is for

    def lines(self) -> list[str]:
        """Every refusal as `<where>: <message>`: field errors under their field's
        name, the page's problem lines (those about the form's own hand without
        its "hand N: ") and the flashed messages as written."""
        errors = [f"{f.name}: {e}" for f in (self.form or []) for e in f.errors]
        own = f"hand {self.number}: "
        problems = [p.removeprefix(own) if self.number else p for p in self.problems]
        return errors + problems + self.flashed

    def naming(self, *places: str) -> list[str]:
        """The refusal lines that name one of `places` (a field, `hand 1: tricks`…)."""
        return [
            line
            for line in self.lines()
            if any(re.match(rf"{re.escape(p)}[:. ]", line) for p in places)
        ]


class Table:
    """One phone at the table: sends requests and checks what every answer keeps."""

    def __init__(self, app, drawn: list[dict]):
        self.app = app
        self.client = app.test_client()
        self.drawn = drawn

    def check(self, response) -> None:
        assert response.status_code < 500, response.text[:2000]
        for header in response.headers.getlist("Set-Cookie"):
            assert len(header) < COOKIE_LIMIT, header[:200]
        session = self.client.get_cookie("session")
        assert session is None or len(session.value) < COOKIE_LIMIT

    def send(self, url: str, fields: dict[str, str] | None = None, method: str = "POST", **kw):
        """POST `fields` as a browser would (with the match's revision, as a phone
        that has just drawn the form), or any request given by `kw`."""
        if fields is not None:
            found = re.match(r"^/m/([\w-]{16})/", url)
            if found and "revision" not in fields:
                fields = {**fields, "revision": str(self.revision(found.group(1)))}
            kw.update(data=form_body(fields), content_type="application/x-www-form-urlencoded")
        self.drawn.clear()
        response = self.client.open(url, method=method, **kw)
        self.check(response)
        answer = Answer(response.status_code, response.location, response.text)
        if self.drawn and response.status_code < 300:
            answer.form = self.drawn[-1].get("form")
            answer.problems = [str(p) for p in self.drawn[-1].get("problems") or []]
            answer.number = self.drawn[-1].get("number")
        if 300 <= response.status_code < 400:
            with self.client.session_transaction() as session:
                answer.flashed = [message for _, message in session.get("_flashes", [])]
            landing = self.client.get(response.location)
            self.check(landing)
            answer.page = landing.text
        return answer

    def upload(self, payload: bytes) -> Answer:
        return self.send(
            "/import",
            data={"match_file": (io.BytesIO(payload), "m.json")},
            content_type="multipart/form-data",
        )

    def revision(self, match_id: str) -> int:
        return self.client.get(f"/m/{match_id}/live").json["revision"]

    def exported(self, match_id: str) -> dict:
        response = self.client.get(f"/m/{match_id}/match.json")
        assert response.status_code == 200
        return json.loads(response.text)

    def matches(self) -> int:
        """Matches in the store, whichever phone started them."""
        db = store.connect(self.app.config["DATABASE"])
        try:
            return db.execute("select count(*) from matches").fetchone()[0]
        finally:
            db.close()

    def start(self, variant: str = "rubber", **extra: str) -> str:
        players = {f"player{i}": p for i, p in enumerate(seated(variant), 1)}
        response = self.client.post("/new", data={"variant": variant, **players, **extra})
        assert response.status_code == 302, response.text
        return re.fullmatch(r"/m/([\w-]{16})/hand/new", response.location).group(1)


@pytest.fixture(scope="module")
def shared_app(tmp_path_factory):
    """One app for the module (making one takes a quarter of a second): every
    case counts what it adds, so cases need no store of their own."""
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path_factory.mktemp("hostile") / "t.db"),
        }
    )
    app.test_client_class = TableClient
    drawn: list[dict] = []

    def record(sender, template, context, **extra):
        drawn.append(context)

    template_rendered.connect(record, app, weak=False)
    yield app, drawn
    template_rendered.disconnect(record, app)


@pytest.fixture
def table(shared_app) -> Table:
    return Table(*shared_app)


def refused_on_the_form(answer: Answer, *places: str) -> list[str]:
    """A form page drawn again (200) with a refusal naming one of `places`, shown."""
    assert answer.status == 200 and answer.location is None
    named = answer.naming(*places)
    assert named, (places, answer.lines())
    for line in named:
        assert shown(line.split(": ", 1)[1], answer.page), line
    return named


def heading(count: int) -> str:
    """The first line flashed when a file is not imported."""
    return f"Not imported: {count} problem{'' if count == 1 else 's'} in this file."


def refused_on_import(answer: Answer, *places: str) -> list[str]:
    """Back to the home page with at most eleven flashed lines, one naming a place."""
    assert answer.status == 302 and answer.location == "/"
    assert answer.flashed[0].startswith("Not imported: ")
    assert len(answer.flashed) <= MAX_FLASHED
    assert all(len(line) <= MAX_LINE for line in answer.flashed)
    for line in answer.flashed:
        assert shown(line, answer.page), line
    named = answer.naming(*places)
    assert named, (places, answer.flashed)
    return named


def example(variant: str) -> dict:
    return json.loads((EXAMPLES / f"{variant}.json").read_text(encoding="utf-8"))


def upload_json(table: Table, document: Any) -> Answer:
    return table.upload(json.dumps(document).encode("ascii"))


# --- digits of other scripts ---------------------------------------------------------

# Every whole-number input of the new-match form, with each game that reads it:
# its whole-number options (its kit's rules) and the stake.
NEW_MATCH_NUMBERS = [
    (variant, name)
    for variant in VARIANT_IDS
    for name in [
        *(option_field_name(spec.name) for spec in VARIANTS[variant].option_specs
          if spec.kind == "int"),
        "stake_amount",
        "stake_per",
    ]
]  # fmt: skip


@pytest.mark.parametrize("digit", OTHER_DIGITS)
@pytest.mark.parametrize("variant, name", NEW_MATCH_NUMBERS)
def test_a_new_match_refuses_digits_of_other_scripts(table, variant, name, digit):
    players = {f"player{i}": p for i, p in enumerate(seated(variant), 1)}
    before = table.matches()
    for typed in (digit, f"1{digit}", f"{digit}0"):
        fields = {"variant": variant, **players, "stake_amount": "1", name: typed}
        answer = table.send("/new", fields)
        [line] = refused_on_the_form(answer, name)
        assert repr(typed) in line  # says what was typed, so the player sees the odd digit
    assert table.matches() == before


# (variant, form field, where the refusal is shown): every number a hand form reads.
HAND_NUMBERS = [
    (variant, name, place) for variant in VARIANT_IDS for name, place in hand_form(variant).numbers
]


@pytest.mark.parametrize("digit", OTHER_DIGITS)
@pytest.mark.parametrize("variant, name, place", HAND_NUMBERS)
def test_a_hand_refuses_digits_of_other_scripts(table, variant, name, place, digit):
    match_id = table.start(variant)
    answer = table.send(f"/m/{match_id}/hand/new", {**good_hand(variant), name: digit})
    named = refused_on_the_form(answer, place)
    assert any(digit in line for line in named)
    assert table.exported(match_id)["hands"] == []
    assert table.revision(match_id) == 1


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_the_good_hand_of_each_variant_is_taken(table, variant):
    """The hand every other case spoils in one field is itself a legal first hand."""
    match_id = table.start(variant)
    answer = table.send(f"/m/{match_id}/hand/new", good_hand(variant))
    assert answer.status == 302 and answer.lines() == [saved(variant)]
    assert len(table.exported(match_id)["hands"]) == 1


def test_the_hand_tables_cover_every_variant():
    """Each game's own tests say what its form reads (HAND_FORMS, tests/games.py):
    every input they name is one of its form's, with what it takes."""
    for variant in VARIANT_IDS:
        form = hand_form(variant)
        assert form.numbers and {name for name, _ in form.numbers} <= set(form.fields)
        assert form.without and {name for name, _ in form.without} <= set(form.fields)
        assert set(form.inputs) | set(form.places) | set(form.wholes) <= set(form.fields)
        assert all(name in inputs_of(variant) for name in form.fields), variant


# --- addresses: numbered, unknown, beyond 64 bits ------------------------------------

# Every address of a match and the methods it answers; {m} the match, {k} a hand
# key or a revision.
MATCH_ADDRESSES = {
    "/m/{m}": {"GET"},
    "/m/{m}/match.json": {"GET"},
    "/m/{m}/hands.csv": {"GET"},
    "/m/{m}/settings": {"GET", "POST"},
    "/m/{m}/delete": {"POST"},
    "/m/{m}/restore": {"POST"},
    "/m/{m}/hand/new": {"GET", "POST"},
    "/m/{m}/hand/preview": {"GET"},
    "/m/{m}/hand/keep-theirs": {"POST"},
    "/m/{m}/hand/{k}": {"GET", "POST"},
    "/m/{m}/hand/{k}/delete": {"POST"},
    "/m/{m}/end": {"POST"},
    "/m/{m}/undo": {"POST"},
    "/m/{m}/history": {"GET"},
    "/m/{m}/history/{k}/restore": {"POST"},
    "/m/{m}/live": {"GET"},
    "/m/{m}/sheet.pdf": {"GET"},
    "/m/{m}/settle": {"GET"},
}


def test_the_table_of_match_addresses_names_every_route(shared_app):
    app, _ = shared_app
    routes = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/m/"):
            shape = re.sub(r"<key:\w+>", "{k}", rule.rule.replace("<match:match_id>", "{m}"))
            routes[shape] = rule.methods - {"HEAD", "OPTIONS"}
    assert routes == MATCH_ADDRESSES


# (what the address holds, match part, key part)
NO_SUCH_MATCH = [
    ("a small number", "1", "1"),
    ("a number beyond 64 bits", BEYOND_64_BITS, "1"),
    ("sixteen digits, no such match", "1844674407370955", "1"),
    ("sixteen letters, no such match", "AAAAAAAAAAAAAAAA", "1"),
]


@pytest.mark.parametrize("address", MATCH_ADDRESSES)
@pytest.mark.parametrize("what, match_part, key_part", NO_SUCH_MATCH)
def test_an_address_of_no_match_is_a_404_for_get_and_post(
    table, address, what, match_part, key_part
):
    match_id = table.start()
    before = table.matches()
    url = address.format(m=match_part, k=key_part)
    shaped = len(match_part) == 16  # a match's shape: a method it lacks is a 405
    for method in ("GET", "POST"):
        fields = {"revision": "1", "title": "x", "version": "before"} if method == "POST" else None
        wanted = 404 if method in MATCH_ADDRESSES[address] or not shaped else 405
        assert table.send(url, fields, method=method).status == wanted, (method, url)
    assert table.matches() == before and table.revision(match_id) == 1


@pytest.mark.parametrize("key", [BEYOND_64_BITS, str(10**9 + 1), "0"])
@pytest.mark.parametrize("address", [a for a in MATCH_ADDRESSES if "{k}" in a])
def test_a_hand_key_or_revision_out_of_range_is_a_404(table, address, key):
    match_id = table.start()
    table.send(f"/m/{match_id}/hand/new", good_hand("rubber"))
    url = address.format(m=match_id, k=key)
    for method in ("GET", "POST"):
        fields = {"version": "before", **good_hand("rubber")} if method == "POST" else None
        answer = table.send(url, fields, method=method)
        # No hand has that key, whatever the method (routing.KeyConverter's pattern).
        assert answer.status == 404, method
    assert table.revision(match_id) == 2
    assert len(table.exported(match_id)["hands"]) == 1


@pytest.mark.parametrize("digit", OTHER_DIGITS)
@pytest.mark.parametrize("variant, name, place", HAND_NUMBERS[::3])
def test_editing_a_hand_refuses_digits_of_other_scripts(table, variant, name, place, digit):
    match_id = table.start(variant)
    assert table.send(f"/m/{match_id}/hand/new", good_hand(variant)).status == 302
    before = table.exported(match_id)
    [key] = re.findall(rf'href="/m/{match_id}/hand/(\d+)"', table.client.get(f"/m/{match_id}").text)
    answer = table.send(f"/m/{match_id}/hand/{key}", {**good_hand(variant), name: digit})
    assert any(digit in line for line in refused_on_the_form(answer, place))
    assert table.exported(match_id) == before and table.revision(match_id) == 2


@pytest.mark.parametrize("revision", ["²", "٣", "５", "-1", "1.0", "", "9" * 13, BEYOND_64_BITS])
def test_a_form_whose_revision_is_not_a_number_is_refused(table, revision):
    """The revision a form was drawn from is digits: anything else is a form that
    does not say, and is sent back to be entered again."""
    match_id = table.start()
    answer = table.send(f"/m/{match_id}/hand/new", {**good_hand("rubber"), "revision": revision})
    assert answer.status == 200
    assert answer.problems == [NO_REVISION] and shown(NO_REVISION, answer.page)
    assert table.revision(match_id) == 1


def test_a_form_whose_revision_is_far_ahead_is_refused(table):
    match_id = table.start()
    answer = table.send(f"/m/{match_id}/hand/new", {**good_hand("rubber"), "revision": "9" * 12})
    assert answer.status == 302 and answer.location == f"/m/{match_id}"
    assert answer.flashed == ["This form does not belong to this match as stored: reload the page."]
    assert table.exported(match_id)["hands"] == []


# --- forms with fields missing ---------------------------------------------------------

# (variant, field left out, the one refusal shown); None: the field is optional.
HAND_WITHOUT = [
    (variant, missing, refusal)
    for variant in VARIANT_IDS
    for missing, refusal in hand_form(variant).without
]


@pytest.mark.parametrize("variant, missing, refusal", HAND_WITHOUT)
def test_a_hand_form_without_a_field_is_refused_naming_it(table, variant, missing, refusal):
    match_id = table.start(variant)
    fields = {k: v for k, v in good_hand(variant).items() if k != missing}
    answer = table.send(f"/m/{match_id}/hand/new", fields)
    if refusal is None:
        assert answer.status == 302 and answer.flashed == [saved(variant)]
        assert missing not in table.exported(match_id)["hands"][0]
        return
    assert answer.lines() == [refusal]
    refused_on_the_form(answer, refusal.rsplit(": ", 1)[0])
    assert table.exported(match_id)["hands"] == []


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_an_empty_hand_form_is_refused_naming_what_is_missing(table, variant):
    match_id = table.start(variant)
    answer = table.send(f"/m/{match_id}/hand/new", {})
    assert answer.status == 200
    # What the rules call missing, or in the form's words what to choose or enter.
    assert answer.lines()
    said = ("missing", ": choose ", ": enter the points of ")
    assert all(any(words in line for words in said) for line in answer.lines())
    assert table.exported(match_id)["hands"] == []


def test_top_game_without_a_bid_names_only_the_bid(table):
    """The level comes from the playnumber (bid + dummy's tops): without a bid there
    is no level, and the strain the player tapped is not a contract "0S"."""
    match_id = table.start("top-game")
    fields = {k: v for k, v in good_hand("top-game").items() if k != "bid"}
    answer = table.send(f"/m/{match_id}/hand/new", fields)
    assert answer.lines() == ["bid: choose the final bid"]
    answer = table.send(f"/m/{match_id}/hand/new", {**good_hand("top-game"), "dummy_tops": "٣"})
    assert answer.lines() == ["dummy_tops: '٣' is not a whole number; allowed 0–12"]
    assert table.exported(match_id)["hands"] == []


def test_a_quick_action_the_variant_lacks_is_a_400(table):
    match_id = table.start("calypso")
    answer = table.send(f"/m/{match_id}/hand/new", {"quick": "passed_out"})
    assert answer.status == 400
    assert table.revision(match_id) == 1


# A settings form always carries its three inputs (an empty input is still sent):
# one that lacks an input was not drawn by this app, and must not erase what is stored.
SETTINGS_WITHOUT = [
    ("title", "title"),
    ("stake_amount", "stake_amount"),
    ("stake_per", "stake_per"),  # a lost per would turn 0.10 per 100 into 0.10 per point
    ("stake_currency", "stake_currency"),
    ("everything", "title"),
]


@pytest.mark.parametrize("missing, place", SETTINGS_WITHOUT)
def test_a_settings_form_without_an_input_is_refused_naming_it(table, missing, place):
    match_id = table.start(**SETTINGS)
    before = table.exported(match_id)
    fields = {} if missing == "everything" else {k: v for k, v in SETTINGS.items() if k != missing}
    answer = table.send(f"/m/{match_id}/settings", fields)
    assert table.exported(match_id) == before
    refused_on_the_form(answer, place)


def test_a_settings_form_with_every_input_blank_clears_title_and_stake(table):
    """The counterpart: blank inputs are what a player sends to clear them."""
    match_id = table.start(**SETTINGS)
    answer = table.send(f"/m/{match_id}/settings", {k: "" for k in SETTINGS})
    assert answer.status == 302 and answer.flashed == ["Title and stake saved."]
    exported = table.exported(match_id)
    assert "title" not in exported and "stake" not in exported


# --- lone surrogates in a match file: the import and the command-line scorer ---------

LONE = "\ud800"


def _with(document: dict, path: tuple, value: Any) -> dict:
    changed = copy.deepcopy(document)
    target = changed
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = value
    return changed


# (example, where the lone surrogate goes, the problem line it must give)
SURROGATE_CASES = [
    ("rubber", ("title",), "title: not valid text (it holds a lone surrogate); retype it"),
    ("rubber", ("players", 0), "players: player 1 is not valid text; retype it"),
    ("honeymoon", ("players", 1), "players: player 2 is not valid text; retype it"),
    (
        "rubber",
        ("hands", 0, "declarer"),
        "hand 1: declarer: not valid text (it holds a lone surrogate); retype it",
    ),
    (
        "top-game",
        ("hands", 2, "contract"),
        "hand 3: contract: not valid text (it holds a lone surrogate); retype it",
    ),
    (
        "need-a-fourth",
        ("hands", 0, "auction", 1),
        "hand 1: auction: not valid text (it holds a lone surrogate); retype it",
    ),
    (
        "calypso",
        ("hands", 0, "tallies", "Ann"),
        "hand 1: tallies: Ann: not valid text (it holds a lone surrogate); retype it",
    ),
    (
        "chicago",
        ("stake", "currency"),
        "stake: currency: not valid text (it holds a lone surrogate); retype it",
    ),
]


@pytest.mark.parametrize("variant, path, problem", SURROGATE_CASES)
def test_a_lone_surrogate_in_a_match_file_is_refused_naming_the_field(
    table, variant, path, problem
):
    text = json.dumps(_with(example(variant), path, f"A{LONE}b"))
    assert "\\ud800" in text  # JSON's own escape: the file itself is plain ASCII
    before = table.matches()
    answer = table.upload(text.encode("ascii"))
    assert answer.flashed == [heading(1), problem]
    refused_on_import(answer, problem.rsplit(": ", 1)[0])
    assert table.matches() == before

    scored = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "score", "-"],
        input=text,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=str(ROOT),
    )
    assert (scored.returncode, scored.stdout, scored.stderr) == (2, "", problem + "\n")


def test_a_lone_surrogate_as_a_key_is_refused(table):
    document = example("rubber")
    document["hands"][0] = {LONE: 1, **document["hands"][0]}
    answer = upload_json(table, {**document, LONE: 1})
    assert answer.flashed == [
        heading(2),
        "hand 1: a key is not valid text (a lone surrogate)",
        "file: a key is not valid text (a lone surrogate)",
    ]


def test_a_file_that_is_not_utf8_is_refused(table):
    before = table.matches()
    raw = json.dumps(example("rubber")).replace("Friday", "x").encode("ascii")
    answer = table.upload(raw.replace(b'"title": "', b'"title": "\xed\xa0\x80'))
    assert answer.status == 302 and answer.location == "/"
    assert answer.flashed == ["The file is not a UTF-8 text file; choose a match file (.json)."]
    assert table.matches() == before


# (file as uploaded, the problem it must give)
BROKEN_FILES = [
    (b"", "file: not valid JSON: Expecting value at line 1 column 1"),
    (b"[]", "file: the match file must be a JSON object"),
    (b'"scorekeeper-match/1"', "file: the match file must be a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "file: not valid JSON: nested too deeply"),
    (b'{"format": ' + b"9" * 5000 + b"}", "file: not valid JSON: Exceeds the limit (4300 digits)"),
    (b'{"format": NaN, "hands": Infinity}', "format: nan is not 'scorekeeper-match/1'"),
    (b"\xef\xbb\xbf{}", "file: not valid JSON: Unexpected UTF-8 BOM"),
]


@pytest.mark.parametrize("payload, problem", BROKEN_FILES)
def test_a_file_that_is_no_match_file_is_refused_naming_the_file(table, payload, problem):
    before = table.matches()
    answer = table.upload(payload)
    assert answer.flashed[0].startswith("Not imported: ")
    assert answer.flashed[1].startswith(problem), answer.flashed
    refused_on_import(answer, problem.split(":", 1)[0])
    assert table.matches() == before


def test_an_import_without_a_file_asks_for_one(table):
    answer = table.send("/import", data={}, content_type="multipart/form-data")
    assert answer.status == 302 and answer.flashed == ["Choose a match file."]


# --- files over the limits of the table app ---------------------------------------------


def test_a_bad_value_of_one_and_a_half_megabytes_is_refused_by_size(table):
    document = _with(example("top-game"), ("hands", 0, "declarer"), "x" * 1_500_000)
    before = table.matches()
    answer = upload_json(table, document)
    [line] = refused_on_import(answer, "file")
    assert line.startswith("file: larger than 1 MB;") and "at most 500 entries" in line
    assert table.matches() == before


def test_a_bad_value_under_the_size_limit_is_cut_short_when_shown(table):
    document = _with(example("top-game"), ("hands", 0, "declarer"), "x" * 900_000)
    answer = upload_json(table, document)
    [line] = refused_on_import(answer, "hand 1: declarer")
    assert len(line) == MAX_LINE and line.endswith("…")


@pytest.mark.parametrize(
    "where, place",
    [
        ((), "k0"),
        (("options",), "options: k0"),
        (("stake",), "stake: k0"),
        (("hands", 0), "hand 1: k0"),
    ],
)
def test_three_thousand_unknown_keys_are_refused_in_eleven_lines(table, where, place):
    document = example("rubber")
    target = document
    for step in where:
        target = target[step]
    target.update({f"k{i}": i for i in range(3000)})
    before = table.matches()
    answer = upload_json(table, document)
    refused_on_import(answer, place)
    assert len(answer.flashed) == MAX_FLASHED
    assert re.fullmatch(r"… and 29\d\d more problems\.", answer.flashed[-1])
    assert table.matches() == before


def test_an_import_of_501_entries_is_refused_naming_the_limit(table):
    hands = [{"declarer": "Ann", "contract": "1C", "tricks": n % 7} for n in range(MAX_ENTRIES + 1)]
    document = {"format": FORMAT, "variant": "rubber", "players": list(seated("rubber"))}
    before = table.matches()
    answer = upload_json(table, {**document, "hands": hands})
    assert answer.flashed == [
        heading(1),
        "hands: 501 entries; a match holds at most 500 (start a new match for the rest of the"
        " evening)",
    ]
    refused_on_import(answer, "hands")
    assert table.matches() == before


NAME_41 = "N" * (MAX_NAME + 1)
TITLE_101 = "T" * (MAX_TITLE + 1)


@pytest.mark.parametrize(
    "field, value, line",
    [
        (
            "player2",
            NAME_41,
            "player2: Player 2 has 41 characters; a name has at most 40."
            " Shorten it (a nickname will do).",
        ),
        (
            "title",
            TITLE_101,
            "title: Title has 101 characters; a title has at most 100."
            " Shorten it (a date or a place will do).",
        ),
        ("player3", "N" * MAX_NAME, None),
        ("title", "T" * MAX_TITLE, None),
    ],
)
def test_a_new_match_refuses_a_name_of_41_and_a_title_of_101(table, field, value, line):
    before = table.matches()
    answer = table.send("/new", {**NEW_MATCH, field: value})
    if line is None:
        assert answer.status == 302 and table.matches() == before + 1
        return
    assert answer.lines() == [line]
    refused_on_the_form(answer, field)
    assert table.matches() == before


@pytest.mark.parametrize(
    "field, value", [("player3", f" {'N' * MAX_NAME} "), ("title", f"{'T' * MAX_TITLE} ")]
)
def test_a_new_match_takes_a_name_of_40_and_a_title_of_100_with_spaces_around(table, field, value):
    before = table.matches()
    answer = table.send("/new", {**NEW_MATCH, field: value})
    assert answer.lines() == []
    assert answer.status == 302 and table.matches() == before + 1


@pytest.mark.parametrize("character", ["\x00", "\x1b", "\x7f", "\x85", "\x9b", "\u2028", "\u2029"])
def test_a_name_with_a_control_character_or_line_break_is_refused(table, character):
    """No control characters in names (C1 ones like NEL "\\x85" included), nor the
    Unicode line and paragraph separators: the form and the match file alike."""
    name = f"Bo{character}b"
    before = table.matches()
    answer = table.send("/new", {**NEW_MATCH, "player2": name})
    # On the form, the problem sits on the name's own input (names.name_problem).
    assert answer.lines() == ["player2: This name has a line break or control character."]
    refused_on_the_form(answer, "player2")
    answer = upload_json(table, _with(example("rubber"), ("players", 1), name))
    line = f"player 2 {name!r} has a line break or control character"
    assert answer.flashed == [heading(1), f"players: {line}"]
    assert table.matches() == before


@pytest.mark.parametrize(
    "path, value, line",
    [
        (("players", 1), NAME_41, "players: player 2 has 41 characters, at most 40"),
        (("title",), TITLE_101, "title: give text of at most 100 characters"),
    ],
)
def test_an_import_refuses_a_name_of_41_and_a_title_of_101(table, path, value, line):
    before = table.matches()
    answer = upload_json(table, _with(example("rubber"), path, value))
    assert answer.flashed == [heading(1), line]
    assert table.matches() == before


def test_settings_refuse_a_title_of_101(table):
    match_id = table.start(**SETTINGS)
    before = table.exported(match_id)
    answer = table.send(f"/m/{match_id}/settings", {**SETTINGS, "title": TITLE_101})
    assert answer.lines() == [
        "title: Title has 101 characters; a title has at most 100."
        " Shorten it (a date or a place will do)."
    ]
    refused_on_the_form(answer, "title")
    assert table.exported(match_id) == before


# (name typed, the phone's name kept): the history says which phone changed what.
PHONE_NAMES = [
    ("x" * 5000, "x" * 30),
    (LONE, "%ED%A0%80"),  # arrives percent-encoded: not UTF-8
    ("Ann\x85s\u2028phone", "Ann s phone"),
    ("\x00\x1b", None),
    ("٣٣", "٣٣"),
]


@pytest.mark.parametrize("typed, kept", PHONE_NAMES)
def test_a_phone_name_is_kept_short_and_on_one_line(table, typed, kept):
    answer = table.send("/phone", {"name": typed, "next": "/"})
    assert answer.status == 302 and answer.location == "/"
    cookie = table.client.get_cookie("phone")
    assert (cookie.decoded_value if cookie else None) == kept
    assert len(answer.flashed) == 1 and len(answer.flashed[0]) <= 60


@pytest.mark.parametrize(
    "after, location",
    [
        ("//evil.example", "/"),
        ("https://evil.example", "/"),
        ("/\\evil.example", "/"),  # a browser may read /\\ as //: home instead
    ],
)
def test_a_phone_name_form_goes_back_only_to_this_site(table, after, location):
    answer = table.send("/phone", {"name": "Ann", "next": after})
    assert answer.status == 302 and answer.location == location


def test_a_phone_name_form_with_a_line_break_in_next_is_not_a_500(table):
    answer = table.send("/phone", {"name": "Ann", "next": "/\r\nX-Injected: 1"})
    assert answer.status == 302 and answer.location == "/"


def _han(seed: int, count: int = 300) -> str:
    """`count` CJK ideographs that do not repeat in any pattern zlib would find."""
    return "".join(chr(0x4E00 + (seed * 1009 + i * 7919) % 20000) for i in range(count))


@pytest.mark.filterwarnings("ignore:The 'session' cookie is too large")
def test_problems_written_in_cjk_keep_the_session_cookie_under_4_kb(table):
    document = {
        "format": _han(1),
        "variant": "bridge-for-three",
        "players": [_han(10 + i) + "\x01" for i in range(5)],  # echoed: a control character
        "stake": {"amount": "1", "per": _han(3)},
        "hands": [],
    }
    answer = upload_json(table, document)
    refused_on_import(answer, "format")


@pytest.mark.parametrize("typed", ["-0", "-0.00", "-.0"])
def test_a_stake_of_minus_zero_is_not_stored_as_minus_zero(table, typed):
    answer = table.send("/new", {**NEW_MATCH, "stake_amount": typed})
    if answer.status == 302:
        match_id = re.fullmatch(r"/m/([\w-]{16})/hand/new", answer.location).group(1)
        assert table.exported(match_id)["stake"]["amount"] == "0.00"
    else:
        refused_on_the_form(answer, "stake_amount")


def test_a_stake_per_of_spaces_means_one_point_like_an_empty_one(table):
    answer = table.send("/new", {**NEW_MATCH, "stake_per": " "})
    assert answer.lines() == []
    match_id = re.fullmatch(r"/m/([\w-]{16})/hand/new", answer.location).group(1)
    assert table.exported(match_id)["stake"]["per"] == 1


# --- generated junk (hypothesis) ---------------------------------------------------------

FUZZ = settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
ODD_CHARACTERS = (
    "²٣５߃𝟘"  # digits of other scripts
    "\x00\x01\x1b\x7f\x85\x9f\r\n\t\x0b\u2028\u2029"  # control characters and line breaks
    " \u00a0\u200b\u202e\ufeff\ufffd\U0001f0a1\U0010ffff"  # spaces, marks, astral
    "\ud800\udfff"  # lone surrogates
    "<>&\"'%+,.-=;0123456789"
)
hostile_character = st.one_of(
    st.characters(exclude_categories=()),  # any code point, lone surrogates included
    st.sampled_from(ODD_CHARACTERS),
)
hostile_text = st.one_of(
    st.text(hostile_character, max_size=30),
    st.integers().map(str),
    st.integers(min_value=2**63, max_value=10**80).map(str),  # beyond 64 bits
    st.text(st.sampled_from("0123456789²٣５ ,.-+"), min_size=1, max_size=8),
    st.builds(
        lambda part, times: part * times,
        st.text(hostile_character, min_size=1, max_size=3),
        st.integers(min_value=20, max_value=400),
    ),
)
REFUSED = object()  # the expectation: the input must be refused
EITHER = object()  # the expectation: taken or refused, both fine (odd but ASCII)
_MONEY = re.compile(r"[0-9]{1,7}(?:[.,][0-9]{1,6})?|[.,][0-9]{1,6}")
_NEGATIVE_ZERO = re.compile(r"-0*[.,]?0*")  # reported above; left out here


def line_break_or_control(text: str) -> bool:
    return any(unicodedata.category(ch) in ("Cc", "Zl", "Zp") for ch in text)


def over_the_length(got: str, most: int) -> bool:
    """Longer than `most` as typed; a form also counts the spaces around (reported)."""
    assume(not (len(got) > most >= len(got.strip())))
    return len(got) > most


def whole(got: str, low: int, high: int) -> Any:
    """A whole number typed in ASCII digits ("-0" is 0), or REFUSED."""
    text = got.strip()
    if re.fullmatch(r"-?[0-9]+", text) and low <= int(text) <= high:
        return int(text)
    return REFUSED


def new_match_expectation(name: str, got: str) -> Any:
    """What a new-match or settings form must store for `got` in field `name`."""
    text = got.strip()
    if name == "title":
        if text and text_problem(text):  # e.g. a direction control would turn the page
            return REFUSED
        return None if not text else REFUSED if over_the_length(got, MAX_TITLE) else text
    if name.startswith("player"):
        others = [p for f, p in NEW_MATCH.items() if f.startswith("player") and f != name]
        if not text or over_the_length(got, MAX_NAME) or line_break_or_control(text):
            return REFUSED
        # Invisible, direction and look-alike characters (tests/test_names.py).
        if name_problem(text) or any(alike(text, other) for other in others):
            return REFUSED
        return unicodedata.normalize("NFC", text)
    if name == "stake_amount":
        assume(not _NEGATIVE_ZERO.fullmatch(text))
        if not text:
            return None
        # Any length: an imported match's stake (e.g. "999999.999999") must save again.
        if set(text) - set("0123456789.,+-"):
            return REFUSED
        if re.fullmatch(r"[0-9]*,[0-9]{3,}", text):
            return REFUSED  # a thousands separator, not decimals: "1,000" is not 1.000
        if not _MONEY.fullmatch(text):
            return EITHER
        amount = Decimal(text.replace(",", "."))
        return REFUSED if amount >= 1_000_000 else amount
    if name == "stake_per":
        assume(got == "" or text != "")  # spaces only: reported above
        # Any whole number of points, as in a match file (issue 17: 1000000 and more).
        return 1 if not text else whole(got, 1, 10**4300)
    if name == "stake_currency":
        if not text:
            return ""
        return REFUSED if over_the_length(got, 12) or text_problem(text) else text
    assert name == "opt_rubbers"
    return None if not text else REFUSED if over_the_length(got, 6) else whole(got, 1, 100)


def stored_setting(document: dict, name: str) -> Any:
    stake = document.get("stake") or {}
    if name == "stake_amount":
        return Decimal(stake["amount"]) if stake else None
    if name.startswith("stake_"):
        return stake[name.removeprefix("stake_")]
    if name.startswith("player"):
        return document["players"][int(name.removeprefix("player")) - 1]
    if name == "opt_rubbers":
        return document.get("options", {}).get("rubbers")
    return document.get(name)


def form_place(name: str) -> tuple[str, ...]:
    """Where a refusal of the field is shown (the players' problems on the first)."""
    return (name, "player1") if name.startswith("player") else (name,)


def check_stored_or_refused(answer: Answer, expected: Any, name: str, stored: dict) -> None:
    event("taken" if answer.status == 302 else "refused")
    if answer.status == 302:
        assert expected is not REFUSED, (name, stored)
        if expected is not EITHER:
            assert stored_setting(stored, name) == expected
    else:
        assert expected is not EITHER or answer.lines()
        assert expected in (REFUSED, EITHER), (name, expected, answer.lines())
        refused_on_the_form(answer, *form_place(name))


NEW_MATCH_FIELDS = [*SETTINGS, "player1", "player2", "player4", "opt_rubbers"]


@FUZZ
@given(name=st.sampled_from(NEW_MATCH_FIELDS), typed=hostile_text)
def test_generated_junk_in_a_new_match_field(table, name, typed):
    expected = new_match_expectation(name, as_received(typed))
    before = table.matches()
    answer = table.send("/new", {**NEW_MATCH, name: typed})
    if answer.status == 302:
        assert table.matches() == before + 1
        match_id = re.fullmatch(r"/m/([\w-]{16})/hand/new", answer.location).group(1)
        stored = table.exported(match_id)
    else:
        assert table.matches() == before
        stored = {}
    check_stored_or_refused(answer, expected, name, stored)


@FUZZ
@given(name=st.sampled_from(list(SETTINGS)), typed=hostile_text)
def test_generated_junk_in_a_settings_field(table, name, typed):
    expected = new_match_expectation(name, as_received(typed))
    match_id = table.start(**SETTINGS)
    before = table.exported(match_id)
    answer = table.send(f"/m/{match_id}/settings", {**SETTINGS, name: typed})
    stored = table.exported(match_id)
    if answer.status != 302:
        assert stored == before and table.revision(match_id) == 1
    check_stored_or_refused(answer, expected, name, stored)


# The contract inputs every game with a contract shares (scorekeeper/games/
# contract.py) and what each takes: a range of whole numbers, a set of choices,
# a player, or free text the rules judge. A game's own inputs are its own tests'
# (HandForm.inputs, tests/games.py).
CONTRACT_INPUTS: dict[str, Any] = {
    "declarer": PLAYER,
    "level": (1, 7),
    "strain": {"C", "D", "H", "S", "NT"},
    "doubling": {"", "X", "XX"},
    "tricks": (0, 13),
}
# A contract is built from the level, strain and doubling buttons: its problem
# is shown on the strain (or on the group left empty).
CONTRACT_PLACES = {name: ("strain", "level") for name in ("level", "strain", "doubling")}
HAND_FIELDS = sorted(
    (variant, name) for variant in VARIANT_IDS for name in hand_form(variant).fields
)


def inputs_of(variant: str) -> dict[str, Any]:
    """What each input of the variant's hand form takes."""
    return {**CONTRACT_INPUTS, **hand_form(variant).inputs}


def hand_expectation(variant: str, name: str, got: str, players: tuple[str, ...]) -> Any:
    """REFUSED when no reading of `got` is a legal value of the input, else EITHER
    (the rules judge it with the rest of the hand)."""
    takes = inputs_of(variant)[name]
    if name in hand_form(variant).optional_numbers and got == "":
        return EITHER
    if isinstance(takes, tuple):
        return REFUSED if whole(got, *takes) is REFUSED else EITHER
    if isinstance(takes, set):
        return EITHER if got.strip().upper() in takes else REFUSED
    if takes == PLAYER:
        return EITHER if got in players else REFUSED
    assert takes == TEXT, (variant, name)
    return EITHER


def hand_place(variant: str, name: str, expected: Any) -> tuple:
    """Where the refusal must be shown. A number in range may still be refused with
    the whole: HCP that do not add up to 40, tallies that do not count 208 cards."""
    form = hand_form(variant)
    places = {**CONTRACT_PLACES, **form.places}.get(name, (name,))
    return (*places, *(() if expected is REFUSED else form.wholes.get(name, ())))


@settings(FUZZ, max_examples=160)
@given(where=st.sampled_from(HAND_FIELDS), typed=hostile_text)
def test_generated_junk_in_a_hand_field(table, where, typed):
    variant, name = where
    players = seated(variant)
    expected = hand_expectation(variant, name, as_received(typed), players)
    match_id = table.start(variant)
    answer = table.send(f"/m/{match_id}/hand/new", {**good_hand(variant), name: typed})
    hands = table.exported(match_id)["hands"]
    event("taken" if answer.status == 302 else "refused")
    if answer.status == 302:
        assert expected is EITHER, (where, typed, hands)
        assert answer.flashed == [saved(variant)]
        assert len(hands) == 1
    else:
        assert hands == [] and table.revision(match_id) == 1
        refused_on_the_form(answer, *hand_place(variant, name, expected))


# A value of any JSON type, hostile text included; NaN and infinities are what
# Python's JSON reader takes although JSON has no such numbers.
hostile_json = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=2**64, max_value=10**300),
    st.floats(),
    hostile_text,
    st.lists(st.one_of(st.integers(), hostile_text), max_size=3),
    st.dictionaries(hostile_text, st.one_of(st.integers(), hostile_text), max_size=3),
)


def json_kind(value: Any) -> str:
    return "bool" if isinstance(value, bool) else type(value).__name__


def paths(value: Any, where: tuple = ()) -> list[tuple]:
    """Every place in a match document, containers and leaves alike."""
    found = [where] if where else []
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = enumerate(value)
    else:
        items = []
    for key, item in items:
        found += paths(item, (*where, key))
    return found


def import_places(path: tuple, must_refuse: bool) -> tuple[str, ...]:
    """Where a refusal of a changed value at `path` must be named. A value of a
    wrong type is named where it is; a value of the right type may be refused
    by a later hand it changes (a renamed player, a shorter match)."""
    head, later = path[0], range(1, MAX_ENTRIES + 1)
    if head == "hands" and len(path) > 1:
        number = path[1] + 1
        if must_refuse:
            return (f"hand {number}",)
        return tuple(f"hand {n}" for n in later[number - 1 :])
    place = f"{head}: {path[1]}" if head in ("options", "stake") and len(path) > 1 else head
    return (place,) if must_refuse else (place, *(f"hand {n}" for n in later))


def score_in_process(text: str) -> tuple[int, str, str]:
    """`scorekeeper score -` run here, with `text` on standard input."""
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.StringIO(text)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        code = cli.main(["score", "-"])
    return code, out.getvalue(), err.getvalue()


def flashed_for(problems: list[str]) -> list[str]:
    """What the import flashes for these problems: the first ten lines cut short, and
    how many more there were."""
    lines = [heading(len(problems)), *problems]
    shown_lines = [cut(line) for line in lines[:MAX_SHOWN]]
    more = len(lines) - MAX_SHOWN
    if more > 0:
        shown_lines.append(f"… and {more} more problem{'' if more == 1 else 's'}.")
    return shown_lines


def value_at(document: Any, path: tuple) -> Any:
    for step in path:
        document = document[step]
    return document


@settings(FUZZ, max_examples=150)
@given(data=st.data())
def test_generated_junk_in_a_match_file_field(table, data):
    variant = data.draw(st.sampled_from(sorted(VARIANTS)), label="variant")
    document = example(variant)
    path = data.draw(st.sampled_from(paths(document)), label="path")
    value = data.draw(hostile_json, label="value")
    original = value_at(document, path)
    assume(value != original or json_kind(value) != json_kind(original))
    kinds = {json_kind(value), json_kind(original)}
    must_refuse = len(kinds) == 2 and "NoneType" not in kinds
    text = json.dumps(_with(document, path, value))

    before = table.matches()
    answer = table.upload(text.encode("ascii"))
    code, out, err = score_in_process(text)
    try:
        loads(text)
    except MatchError as refusal:
        problems = refusal.lines
    else:
        problems = []

    event(f"{'refused' if answer.location == '/' else 'taken'}, must refuse: {must_refuse}")
    if answer.location == "/":
        assert table.matches() == before
        assert problems, answer.flashed  # refused on import only for what the rules refuse
        assert answer.flashed == flashed_for(problems)
        refused_on_import(answer, *import_places(path, must_refuse))
        # The scorer says the same, one problem a line, nothing on standard output.
        lines = [p.replace("\r", "\\r").replace("\n", "\\n") for p in problems]
        assert (code, out, err) == (2, "", "".join(f"{line}\n" for line in lines))
    else:
        assert not must_refuse, (path, value)
        assert problems == [] and code == 0 and err == ""
        assert json.loads(out)["variant"] == variant
        match_id = re.fullmatch(r"/m/([\w-]{16})", answer.location).group(1)
        assert table.matches() == before + 1
        if path[0] != "stake" and value is not None:
            exported = table.exported(match_id)
            if path in (("title",), ("options",)) and not value:
                assert path[0] not in exported  # an empty title or options: none written
            else:
                assert value_at(exported, path) == value
