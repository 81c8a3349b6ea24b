"""No script error on any page, and none after the last hand of any game is saved
(issue 24, points 6 and 10).

The console is watched on every page: an error logged, an exception thrown by a
script, a request to the app that failed or was answered with a server error.

Every game of the catalog is played to its end through the hand form: for each
variant, each number of players it takes and each on/off option (its default,
then each one switched), a finished match is generated from the rules
(tests/test_properties.py draws each hand from what the replay says is legal).
The match without its last hand is imported from the home page; the last hand's
entries are read off its Edit form in a second import of the whole match and
given to the New hand form, whose Save (static/save.js) answers in place with the
match page. A new game in the catalog is covered here with no change to this file.

The offline case: the Wi-Fi drops at Save of a hand form that shows "Hand N saved.":
only "Not sent yet" is left on the screen; back online the hand is stored once.
"""

from __future__ import annotations

import functools
import json
import re
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from urllib.parse import urlsplit

import pytest
from hypothesis import HealthCheck, Phase, find, settings

from scorekeeper.app import create_app
from scorekeeper.games.catalog import GAMES
from scorekeeper.registry import entry_for
from tests.test_properties import matches, outcome_of

from .conftest import PHONE, Table

NOT_SENT = "Not sent yet — kept on this phone, sending when the connection is back."
# What a form carries that is not an entry of the hand.
NOT_ENTRIES = {"csrf_token", "key", "revision"}


# --- the cases: every variant, player count and on/off option of the catalog ----------
@dataclass(frozen=True)
class Case:
    variant: str
    players: int
    # The on/off options as this case has them (each at its default but one at most).
    switches: tuple[tuple[str, bool], ...] = ()

    @property
    def id(self) -> str:
        switched = "".join(f"-{name}={'on' if on else 'off'}" for name, on in self.switches)
        return f"{self.variant}-{self.players}p{switched}"


def catalog_cases() -> list[Case]:
    cases = []
    for game in GAMES:
        for variant in game.variants:
            rules = variant.rules
            switches = [spec for spec in rules.option_specs if spec.kind == "bool"]
            defaults = tuple((spec.name, bool(spec.default)) for spec in switches)
            for count in rules.player_counts:
                cases.append(Case(rules.id, count, defaults))
                for spec in switches:
                    flipped = tuple(
                        (name, not on if name == spec.name else on) for name, on in defaults
                    )
                    cases.append(Case(rules.id, count, flipped))
    return cases


CASES = catalog_cases()


def finished_match(case: Case) -> dict:
    """A match file of the case that the rules say is over after its last hand."""

    def fits(doc: dict) -> bool:
        options = doc["options"]
        return (
            len(doc["players"]) == case.players
            and bool(doc["hands"])
            and all(options.get(name, False) == on for name, on in case.switches)
            and outcome_of(doc).finished
        )

    doc = find(
        matches(case.variant, stake=None, end=False),
        fits,
        settings=settings(
            max_examples=5000,
            database=None,
            deadline=None,
            derandomize=True,  # the same match on every run
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        ),
    )
    doc.pop("title", None)  # a generated title may be any text; the match is named by its game
    return doc


def test_every_variant_player_count_and_switch_of_the_catalog_is_a_case():
    """The list the tests below run is the catalog's, read when they run."""
    ids = [case.id for case in CASES]
    assert len(ids) == len(set(ids))
    assert {case.variant for case in CASES} == {v.id for game in GAMES for v in game.variants}
    assert "need-a-fourth-3p-liar_rule=off" in ids
    assert "need-a-fourth-3p-liar_rule=on" in ids
    assert {c.players for c in CASES if c.variant == "bridge-for-three"} == {3, 4, 5}


# --- watching the console ------------------------------------------------------------
@dataclass
class Console:
    """What went wrong on a phone's pages, each line with the page it was seen on."""

    page: object
    server: str
    errors: list[str] = field(default_factory=list)
    # An address whose error answer is what the test asked for (a 404 page).
    expected_status: dict[str, int] = field(default_factory=dict)
    offline: bool = False
    # The game family whose pages `crawl` is showing (None: the shared pages).
    family: str | None = None

    def __post_init__(self) -> None:
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self._add(f"script error: {error}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _add(self, line: str) -> None:
        self.errors.append(f"{line}  (on {self.page.url})")

    def _console(self, message) -> None:
        if message.type != "error":
            return
        where = (message.location or {}).get("url", "")
        if where in self.expected_status and "status of" in message.text:
            return  # the browser's own line for the error page it was sent to
        if self.offline and "net::ERR_INTERNET_DISCONNECTED" in message.text:
            return
        self._add(f"console error: {message.text} at {where}")

    def _failed(self, request) -> None:
        if not request.url.startswith(self.server):
            return
        failure = request.failure or ""
        # A preview superseded by a newer one, or a poll cut by leaving the page.
        if "ERR_ABORTED" in failure:
            return
        if self.offline and "ERR_INTERNET_DISCONNECTED" in failure:
            return
        self._add(f"request failed: {request.method} {request.url} {failure}")

    def _response(self, response) -> None:
        if not response.url.startswith(self.server):
            return
        expected = self.expected_status.get(response.url)
        if response.status >= 400 and response.status != expected:
            self._add(f"answer {response.status}: {response.request.method} {response.url}")

    def settle(self) -> list[str]:
        """The errors so far, once the page's queued tasks have run."""
        self.page.evaluate("() => new Promise((done) => setTimeout(done))")
        return self.errors


@pytest.fixture
def phone(browser, server) -> Iterator[Console]:
    """A phone of its own (one browser context) whose console is watched."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    watched = Console(page, server)
    yield watched
    context.close()


# --- the app's addresses ---------------------------------------------------------------
@functools.cache
def page_rules() -> list[str]:
    """The app's GET addresses as patterns, files (static, PDF, CSV…) left out."""
    with tempfile.TemporaryDirectory() as folder:
        app = create_app({"DATABASE": f"{folder}/rules.db", "SECRET_KEY": "addresses"})
        rules = [r.rule for r in app.url_map.iter_rules() if "GET" in r.methods]
    # Files are left out by their name: a PDF is not asked for only to be skipped.
    files = re.compile(r"^/static/|\.\w+$")
    return sorted({rule for rule in rules if not files.search(rule)})


def pages_for(phone: Console, known: dict[str, str | dict[str, str]]) -> list[str]:
    """Every GET address of the app whose parts are all `known` and that answers
    with a page (not a file, not JSON, not an error): the list grows with the app's routes. A
    part known only under some addresses is a dict by their first segment (a
    watch token: /w/ a match's, /gw/ a group's)."""
    found = []
    for rule in page_rules():
        first = rule.split("/")[1]
        parts = {}
        for name in re.findall(r"<(?:[^:<>]+:)?(\w+)>", rule):
            value = known.get(name)
            parts[name] = value.get(first) if isinstance(value, dict) else value
        if None in parts.values():
            continue
        url = phone.server + re.sub(r"<(?:[^:<>]+:)?(\w+)>", lambda m, p=parts: p[m.group(1)], rule)
        answer = phone.page.request.get(url)
        if answer.ok and (answer.headers.get("content-type") or "").startswith("text/html"):
            found.append(url)
    return found


# --- importing and saving ------------------------------------------------------------
def import_file(phone: Console, doc: dict, title: str) -> str:
    """Import a match file through the home page's form (sent by the test, not
    tapped: the page is not read); return the new match page's address."""
    page = phone.page
    if not page.locator("input[name=csrf_token]").count():  # any page's token is the session's
        page.goto(phone.server + "/")
    token = page.get_attribute("input[name=csrf_token]", "value")
    upload = {"name": "match.json", "mimeType": "application/json"}
    answer = page.request.post(
        phone.server + "/import",
        multipart={
            "csrf_token": token,
            "match_file": {**upload, "buffer": json.dumps({**doc, "title": title}).encode()},
        },
        max_redirects=0,
    )
    assert answer.status == 302, (answer.status, answer.text()[:300])
    path = urlsplit(answer.headers["location"]).path
    assert path.startswith("/m/") and path.count("/") == 2, path
    return phone.server + path


# The entries of the hand form, as it would send them, in order.
ENTRIES = f"""() => [...new FormData(document.getElementById("hand-form"))]
    .filter(([name]) => !{json.dumps(sorted(NOT_ENTRIES))}.includes(name))"""

# Give a hand form these entries: the buttons ticked, the boxes filled (hidden
# ones too: what a script writes there as the player taps), nothing else ticked.
FILL = """(entries) => {
  const form = document.getElementById("hand-form");
  const names = new Set(entries.map(([name]) => name));
  for (const input of form.querySelectorAll("input, select, textarea")) {
    if (!names.has(input.name)) continue;
    if (input.type === "radio" || input.type === "checkbox") input.checked = false;
    input.disabled = false;
  }
  const used = new Map();
  for (const [name, value] of entries) {
    const all = [...form.querySelectorAll(`[name="${CSS.escape(name)}"]`)];
    const ticks = all.filter((i) => i.type === "radio" || i.type === "checkbox");
    const tick = ticks.find((i) => i.value === value);
    if (tick) { tick.checked = true; continue; }
    const boxes = all.filter((i) => i.type !== "radio" && i.type !== "checkbox");
    const n = used.get(name) || 0;
    used.set(name, n + 1);
    if (boxes[n]) boxes[n].value = value;
  }
}"""


def last_hand_entries(phone: Console, whole_match: str) -> list[list[str]]:
    """The last hand's entries as its Edit form shows them."""
    page = phone.page
    edits = re.findall(
        r'href="(/m/[\w-]{16}/hand/(?!new)[\w-]+)"', page.request.get(whole_match).text()
    )
    page.goto(phone.server + edits[-1])
    return page.evaluate(ENTRIES)


def scored_hands(phone: Console, match: str) -> list[tuple]:
    """Each entry of the stored match as the rules score it (a hand saved through
    the form may be written otherwise than the file had it: no derived field)."""
    answer = phone.page.request.get(f"{match}/match.json")
    assert answer.ok, answer.status
    doc = json.loads(answer.text())
    return [(r.hand, r.counted, r.scores) for r in outcome_of(doc).hands]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_saving_the_last_hand_of_every_game_leaves_no_script_error(phone, case):
    page = phone.page
    doc = finished_match(case)
    page.goto(phone.server + "/")
    whole = import_file(phone, doc, f"{case.id} whole")
    match = import_file(phone, {**doc, "hands": doc["hands"][:-1]}, f"{case.id} to finish")
    entries = last_hand_entries(phone, whole)

    page.goto(f"{match}/hand/new")
    save = "#save"
    quick = [a for a in entry_for(case.variant).quick_actions if doc["hands"][-1].get(a) is True]
    if quick:  # a one-tap store, e.g. "All passed"
        save = f"#quick-{quick[0]}"
    else:
        page.evaluate(FILL, entries)
        assert Counter(map(tuple, page.evaluate(ENTRIES))) == Counter(map(tuple, entries))
    with page.expect_navigation():
        page.click(save)

    # The answer is the match page, shown in place: the match is over.
    problems = page.locator("#error-summary, .flash-error, #changed").all_inner_texts()
    assert not problems, (entries, problems)
    assert urlsplit(page.url).path == urlsplit(match).path, page.url
    assert page.locator("#hand-form").count() == 0
    assert page.locator("#new-hand").count() == 0
    assert phone.settle() == []
    # The hand stored once, scored as in the whole match file.
    assert scored_hands(phone, match) == scored_hands(phone, whole)


# --- the Wi-Fi drops at Save --------------------------------------------------------
RUBBER = ["Ann", "Bob", "Cy", "Di"]
# Part scores and downs: no game is reached, the match goes on.
RUBBER_HANDS = [("Ann", "1", "C", "6"), ("Bob", "2", "D", "7"), ("Cy", "1", "H", "5")]
# The notices of the page, in its order: the answer's flash, "Not sent yet", the
# waiting line, a refusal; the live note only when shown.
NOTICES = """() => [...document.querySelectorAll("main .flash:not([hidden])")]
    .map((n) => n.textContent.replace(/\\s+/g, " ").trim())"""
SCORE = "() => document.getElementById('score-line').textContent.replace(/\\s+/g, ' ').trim()"


def enter(table: Table, hand) -> None:
    for name, value in zip(("declarer", "level", "strain", "tricks"), hand, strict=True):
        table.tap_button(name, value)


def test_offline_at_save_only_not_sent_yet_shows_and_back_online_the_hand_is_stored_once(
    browser, server
):
    context = browser.new_context(viewport=PHONE)
    table = Table(context.new_page(), server)
    page = table.page
    console = Console(page, server)
    try:
        match_id = table.start_match("rubber", RUBBER)
        enter(table, RUBBER_HANDS[0])
        table.save()
        score = page.evaluate(SCORE)
        assert page.evaluate(NOTICES) == [f"Hand 1 saved. Undo {score}"]

        enter(table, RUBBER_HANDS[1])
        console.offline = True
        context.set_offline(True)
        page.click("#save")
        page.wait_for_selector(".not-sent")
        # "Hand 1 saved." and its Undo are gone: only what is true now is said.
        assert page.evaluate(NOTICES) == [NOT_SENT]
        assert page.locator("form[action$='/undo']").count() == 0
        assert page.evaluate(SCORE) == score  # still the score before hand 2
        assert page.inner_text("h1") == "Hand 2"

        context.set_offline(False)  # no tap: the page sends it and moves on
        page.wait_for_function("() => document.querySelector('h1').textContent === 'Hand 3'")
        console.offline = False
        # "Not sent yet" is gone; the answer says hand 2, whose Undo takes back hand 2.
        notices = page.evaluate(NOTICES)
        assert notices == [f"Hand 2 saved. Undo {page.evaluate(SCORE)}"], notices
        revision = page.get_attribute("#hand-form [name=revision]", "value")
        assert page.get_attribute("form[action$='/undo'] [name=undoes]", "value") == revision
        answer = page.request.get(f"{server}/m/{match_id}/match.json")
        hands = json.loads(answer.text())["hands"]
        assert [(h["declarer"], h["contract"], h["tricks"]) for h in hands] == [
            ("Ann", "1C", 6),
            ("Bob", "2D", 7),
        ]
        assert console.settle() == []
    finally:
        context.close()


# --- every page -------------------------------------------------------------------
def watch_token(html: str, figure: str) -> str:
    """The token of the watch address a page shows in its Share box."""
    shown = re.search(rf'id="{figure}">.*?<code>([^<]+)</code>', html, re.S).group(1)
    return urlsplit(shown).path.split("/")[2]


def crawl(phone: Console, label: str = "pages") -> Iterator[str]:
    """Open every GET page of the app, one after another, and yield each once it
    is loaded (the caller reads it before the next is opened): each variant's
    with a finished match of it and one hand from its end (its new hand form),
    a group's with a match started from it, and the error pages. Used by the
    check for script errors here and by the large-print check (test_large_print.py);
    `label` goes into the imported matches' titles, so a second crawl on the same
    server imports matches of its own (not "already here")."""
    page, server = phone.page, phone.server
    visited = []

    def visit(url: str) -> bool:
        if url in visited:  # the home page, the rules' index: once is enough
            return False
        page.goto(url)
        visited.append(url)
        return True

    page.goto(server + "/")
    for game in GAMES:
        phone.family = game.family
        for variant in game.variants:
            case = Case(variant.id, variant.rules.player_counts[0])
            doc = finished_match(case)
            match = import_file(phone, doc, f"{case.id} {label}")
            html = page.request.get(match).text()
            known = {
                "match_id": urlsplit(match).path.split("/")[2],
                "hand_id": re.findall(r'href="/m/[\w-]{16}/hand/((?!new)[\w-]+)"', html)[-1],
                "variant_id": variant.id,
                "token": {"w": watch_token(html, "share-watch")},
            }
            for url in pages_for(phone, known):
                if visit(url):
                    yield url
            # The form of a match not over yet (the one above is over).
            open_match = import_file(
                phone, {**doc, "hands": doc["hands"][:-1]}, f"{case.id} {label} open"
            )
            if visit(f"{open_match}/hand/new"):
                assert page.locator("#hand-form").count() == 1, page.url
                yield page.url

    # A group, and a match started from its page: the answer is the hand form.
    phone.family = None
    page.goto(server + "/groups/new")  # opened above; now filled in
    page.fill("#name", f"Tuesday {label}")
    for i, name in enumerate(RUBBER, 1):
        page.fill(f"#member{i}", name)
    with page.expect_navigation():
        page.click("#new-group button.primary")
    group_id = urlsplit(page.url).path.split("/")[2]
    if visit(f"{server}/g/{group_id}/new"):
        yield page.url
    page.check('input[name=variant][value="rubber"]')
    for i, name in enumerate(RUBBER, 1):
        page.fill(f"#player{i}", name)
    with page.expect_navigation():
        page.click("form#new-match button.primary")
    assert urlsplit(page.url).path.endswith("/hand/new"), page.url
    table = Table(page, server)
    enter(table, RUBBER_HANDS[0])
    table.save()
    # Read in no language's words: the answer's Undo, above the next hand's form.
    assert page.locator(".flash-undo form[action$='/undo']").count() == 1, page.url
    assert page.locator("#hand-form").count() == 1, page.url
    yield page.url  # the hand form with the answer to a save: "Hand 1 saved." and Undo
    html = page.request.get(f"{server}/g/{group_id}").text()
    known = {
        "group_id": group_id,
        "match_id": re.search(r'href="/m/([\w-]{16})"', html).group(1),
        "member_id": re.search(r'name="order" value="([\w-]+)"', html).group(1),
        "token": {"gw": watch_token(html, "group-share-watch")},
    }
    for url in pages_for(phone, known):
        if visit(url):
            yield url

    # The error pages: no such match, hand, page or game.
    for path in (
        "/m/AAAAAAAAAAAAAAAA",
        f"/m/{known['match_id']}/hand/AAAAAAAAAAAAAAAAAAAAAA",
        "/nothing-here",
        "/rules/no-such-game",
    ):
        phone.expected_status[server + path] = 404
        if visit(server + path):
            assert page.locator("main h1").count() == 1, path
            yield page.url

    # Every kind of address was opened.
    opened = {re.sub(r"[\w-]{16,}", "*", urlsplit(url).path) for url in visited}
    assert len(opened) >= 20, sorted(opened)


def test_no_page_of_the_app_logs_a_script_error(phone, server):
    """Every GET page of the app (`crawl`), the error pages included."""
    for url in crawl(phone):
        assert phone.settle() == [], url
    assert phone.errors == []
