"""A new game is its folder and its line in the catalog: a toy two-player game,
added to a copy of the code the way docs/adding-a-game.md tells, starts, saves
its hands, draws its sheet, PDF and CSV, and counts in a group's ledger and
statistics, without one edit to the shared code."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.test_install import build_and_install, serving

ROOT = Path(__file__).resolve().parent.parent

# The toy game's folder, file by file: what docs/adding-a-game.md walks through.
TOY = {
    "__init__.py": '''"""Toy: two players, each hand won by one of them for 1 to 5 points."""

from ..kit import GameKit, Variant
from ..settlement import ZERO_SUM
from . import sheet, stats
from .rules import Toy

GAME = GameKit(
    family="toy",
    variants=(Variant(Toy, "ToyEntry", ZERO_SUM, partners="none"),),
    sheet=sheet.build,
    stats=stats.STATS,
)
''',
    "rules.py": '''"""Toy's rules: the winner of a hand scores its points, the other loses them;
the first to 10 ends the match."""

from typing import Any

from ..common import Checks, Game, HandResult, NextHand


class Toy(Game):
    id = "toy"
    name = "Toy"
    summary = "Two players; a hand's winner takes 1 to 5 points from the other."
    player_counts = (2,)
    hand_fields = frozenset({"winner", "points"})

    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, self.hand_fields)
        winner = record.get("winner")
        if winner is None:
            checks.fail("winner", f"missing; give one of {', '.join(self.players)}")
        elif winner not in self.players:
            checks.fail("winner", f"give one of {', '.join(self.players)}")
        points = checks.get_int("points", 1, 5)
        checks.done()
        scores = {p: points if p == winner else -points for p in self.players}
        self.add(scores)
        dealer = self.upcoming().dealer
        return HandResult(number, dealer, True, scores, [f"{winner} won {points}"])

    def upcoming(self) -> NextHand:
        return NextHand(self.players[self.hands_played % 2], number=self.next_number())

    def is_finished(self) -> bool:
        return max(self.totals.values()) >= 10
''',
    "entry.py": '''"""Toy's hand form: who won, and how many points."""

from typing import Any

from ...entry import HandEntry, HandForm, as_int, choice_field, player_choices


class ToyForm(HandForm):
    winner = choice_field("Winner")
    points = choice_field("Points", [(str(n), str(n)) for n in range(1, 6)])


class ToyEntry(HandEntry):
    form = ToyForm

    def prepare(self, form, players, upcoming) -> None:
        form.winner.choices = player_choices(players)

    def to_record(self, form, upcoming) -> dict[str, Any]:
        record = {"winner": form.winner.data, "points": as_int(form.points.data)}
        # A button left untapped is a field left out: the rules say it is missing.
        return {name: value for name, value in record.items() if value not in (None, "")}
''',
    "sheet.py": '''"""Toy's sheet: the rows every sheet has are enough."""


def build(match, outcome) -> dict:
    return {"leader": max(match.players, key=lambda p: outcome.totals[p])}
''',
    "stats.py": '''"""What a hand of Toy tells the statistics: its winner "declared" and made it."""

from ..facts import GameStats, HandFacts, get


def read_hand(players, record, result) -> HandFacts:
    winner = record.get("winner")
    counts = ((winner, "big_wins"),) if record.get("points") == 5 else ()
    return HandFacts(tuple(players), True, winner, None, True, counts=counts)


STATS = GameStats(read_hand, telling={"big_wins": ("Big wins", "Toy hands won for 5 points")})
''',
    "templates/hand.html": """{% extends "hands/_base.html" %}
{% block fields %}
{{ buttons(form.winner, cols=2) }}
{{ buttons(form.points, cols=5) }}
{% endblock %}
""",
    "templates/sheet.html": """<link rel="stylesheet"
  href="{{ url_for('static', filename='games/toy/toy.css') }}">
<p class="toy-leader">Leading: {{ sheet.leader }}</p>
<table class="score paper">
  {% for row in sheet.rows %}<tr><td>{{ row }}</td></tr>{% endfor %}
</table>
""",
    "templates/rules_toy.html": """{% extends "rules/_base.html" %}
{% block rules %}<p>A hand's winner takes 1 to 5 points from the other; 10 ends the match.</p>
{% endblock %}
""",
    "static/toy.css": ".toy-leader { font-weight: bold; }\n",
}
# The game's documents, outside its folder: its rules text, its example evening,
# its rows in the two tables of the games and its section of docs/match-file.md.
TOY_EXAMPLE = {
    "format": "scorekeeper-match/1",
    "variant": "toy",
    "title": "Toy night",
    "players": ["Ann", "Bob"],
    "stake": {"amount": "0.10", "per": 1, "currency": "EUR"},
    "hands": [
        {"winner": "Ann", "points": 5},
        {"winner": "Bob", "points": 2},
        {"winner": "Ann", "points": 5},
        {"winner": "Ann", "points": 2},
    ],
}
TOY_SCORED = {
    "variant": "toy",
    "players": ["Ann", "Bob"],
    "hands": [
        {
            "number": n,
            "dealer": "Ann" if n % 2 else "Bob",
            "counted": True,
            "scores": {"Ann": ann, "Bob": -ann},
            "explanation": [why],
        }
        for n, ann, why in [
            (1, 5, "Ann won 5"),
            (2, -2, "Bob won 2"),
            (3, 5, "Ann won 5"),
            (4, 2, "Ann won 2"),
        ]
    ],
    "totals": {"Ann": 10, "Bob": -10},
    "finished": True,
    "winners": ["Ann"],
    "settlement": [{"from": "Bob", "to": "Ann", "amount": "1.00"}],
}
TOY_DOCUMENTS = {
    "docs/variants/toy.md": (
        "# Toy (`toy`)\n\nA toy game.\n\n## Our decisions\n\n- Ten points end the match.\n"
    ),
    "examples/toy.json": json.dumps(TOY_EXAMPLE, indent=2) + "\n",
}
# (file, the line a row or section follows, what is added after it)
TOY_ROWS = [
    ("README.md", "| `calypso` | Calypso | 4 | `games` (1) |\n", "| `toy` | Toy | 2 | none |\n"),
    (
        "docs/README.md",
        "| [`calypso`](variants/calypso.md) | Calypso | 4 |\n",
        "| [`toy`](variants/toy.md) | Toy | 2 |\n",
    ),
    ("docs/match-file.md", "  [calypso](#calypso)", ",\n  [toy](#toy)"),
    ("docs/match-file.md", "\nA whole evening at every variant", None),  # the section below
]
TOY_SECTION = (
    "## `toy`\n\nToy: two players. Rules: [variants/toy.md](variants/toy.md).\n\n"
    "| field | meaning | allowed values |\n|---|---|---|\n"
    "| `winner` | who won the hand | one of the players |\n"
    "| `points` | what the hand was worth | whole number 1–5 |\n\n"
    f"```json\n{json.dumps(TOY_EXAMPLE, indent=2)}\n```\n\n"
    f"```text\n{json.dumps(TOY_SCORED, indent=2, ensure_ascii=False)}\n```\n"
)

# What the copy runs: the app of the copy, through Flask's test client.
PLAY = """
import json, re, sys
from scorekeeper.app import create_app
from scorekeeper.registry import missing

app = create_app(
    {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": sys.argv[1] + "/s.db"},
    instance=sys.argv[1],
)
client = app.test_client()
seen = {"missing": missing(documentation=False)}
started = client.post("/new", data={"variant": "toy", "player1": "Ann", "player2": "Bob",
                                    "key": "t" * 16, "stake_per": "1"})
match = re.search(r"/m/([\\w-]{16})", started.location).group(1)
seen["form"] = client.get(f"/m/{match}/hand/new").status_code
for n, (winner, points) in enumerate([("Ann", "5"), ("Bob", "2"), ("Ann", "5")]):
    revision = client.get(f"/m/{match}/live").json["revision"]
    saved = client.post(f"/m/{match}/hand/new", data={"winner": winner, "points": points,
                        "revision": str(revision), "key": f"h{n}" + "x" * 14})
    seen.setdefault("saved", []).append(saved.status_code)
page = client.get(f"/m/{match}").get_data(as_text=True)
seen["sheet"] = re.findall(r'<p class="toy-leader">[^<]*</p>', page)
css = re.search(r'href="(/static/games/toy/toy.css\\?v=[0-9a-f]{12})"', page).group(1)
served = client.get(css)
seen["css"] = [served.status_code, served.get_data(as_text=True), served.cache_control.immutable]
seen["csv"] = client.get(f"/m/{match}/hands.csv").get_data(as_text=True).splitlines()[:1]
pdf = client.get(f"/m/{match}/sheet.pdf")
seen["pdf"] = [pdf.status_code, pdf.get_data()[:5].decode()]
group = client.post("/groups/new", data={"name": "Toys", "key": "g" * 16, "stake_game": "*",
                                         "member1": "Ann", "member2": "Bob"})
group_id = re.search(r"/g/([\\w-]{16})$", group.location).group(1)
added = client.post(f"/g/{group_id}/add", data={"revision": "1", "match": match})
seen["added"] = added.status_code
ledger = client.get(f"/g/{group_id}").get_data(as_text=True)
seen["ledger"] = ["Cannot be read" in ledger, "Toy" in ledger]
stats = client.get(f"/g/{group_id}/statistics.csv").get_data(as_text=True).splitlines()
seen["statistics"] = [line for line in stats if "Big wins" in line or "Declared" in line]
print(json.dumps(seen))
"""


# The toy game's own test file: the one test file a new game adds. It pins
# what the shared suites ask of it (tests/games.py).
TOY_TESTS = """\"\"\"Toy: what its kit says, what its example evening scores to and prints,
its hand form as the hostile-input suite sends it, and how to draw a legal hand.\"\"\"

from hypothesis import strategies as st

from tests.games import PLAYER, Example, Generated, HandForm, Kit, Printed, numbered, pay

TELLING = ("big_wins",)

KIT = {"toy": Kit(family="toy", stake_per=1, partners="none")}

EXAMPLE_RESULTS = {
    # Ann +5 −2 +5 +2 = +10, Bob −10; zero-sum at 0.10 a point: Bob pays 1.00.
    "toy": Example(
        4,
        {"Ann": 10, "Bob": -10},
        ["Ann"],
        [pay("Bob", "Ann", "1.00")],
        chart=("Running score after each hand", ["Ann", "Bob"], ["10", "−10"]),
        hands=4,
    ),
}

PRINTED = {
    "toy": Printed(
        ["Ann", "Bob"],
        ["1 Ann +5 −5", "2 Bob −2 +2", "3 Ann +5 −5", "4 Bob +2 −2"],
        "+10 −10",
        ["Bob pays Ann 1.00 EUR"],
    ),
}

HAND_FORMS = {
    "toy": HandForm(
        good={"winner": "Ann", "points": "5"},
        numbers=[("points", "points")],
        without=[
            ("winner", "winner: missing; give one of Ann, Bob"),
            ("points", "points: missing; give a whole number 1–5"),
        ],
        inputs={"winner": PLAYER, "points": (1, 5)},
    ),
}


def toy_hand(draw, players, upcoming):
    return {"winner": draw(st.sampled_from(players)), "points": draw(st.integers(1, 5))}


def toy_numbers(record):
    return [(("points",), 1, 5)] if "points" in record else []


GENERATED = {
    "toy": Generated(toy_hand, options=st.just({}), optional=frozenset(), numbers=toy_numbers),
}

SCORE_LINE = {"toy": ["Ann +10", "Bob −10"]}

NUMBERED = {"toy": (numbered(range(1, 5)), "4 hands")}
"""

FOLDERS = ("scorekeeper", "templates", "static", "docs", "examples", "tests", "deploy")
FILES = ("README.md", "pyproject.toml", "setup.py", "MANIFEST.in")


def toy_copy(target: Path) -> Path:
    """The code and its tests copied, with the toy game's folder, its documents
    and its catalog line."""
    for folder in FOLDERS:
        shutil.copytree(
            ROOT / folder, target / folder, ignore=shutil.ignore_patterns("__pycache__")
        )
    for name in FILES:
        if (ROOT / name).is_file():
            shutil.copyfile(ROOT / name, target / name)
    for name, text in TOY.items():
        path = target / "scorekeeper" / "games" / "toy" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for name, text in TOY_DOCUMENTS.items():
        (target / name).write_text(text, encoding="utf-8")
    (target / "tests" / "test_toy.py").write_text(TOY_TESTS, encoding="utf-8")
    for name, after, added in TOY_ROWS:
        path = target / name
        text = path.read_text(encoding="utf-8")
        assert text.count(after) == 1, (name, after)
        if added is None:  # a section of its own, before that paragraph
            text = text.replace(after, f"\n{TOY_SECTION}{after}")
        else:
            text = text.replace(after, after + added)
        path.write_text(text, encoding="utf-8")
    catalog = target / "scorekeeper" / "games" / "catalog.py"
    text = catalog.read_text(encoding="utf-8")
    text = text.replace(
        "need_a_fourth, rubber, top_game\n", "need_a_fourth, rubber, top_game, toy\n"
    )
    text = text.replace("    calypso.GAME,\n]", "    calypso.GAME,\n    toy.GAME,\n]")
    catalog.write_text(text, encoding="utf-8")
    return target


def changed_files(before: Path, after: Path) -> set[str]:
    """The files of `after` that `before` lacks or holds otherwise."""
    changed = set()
    for path in after.rglob("*"):
        if path.is_file() and "__pycache__" not in path.parts:
            name = path.relative_to(after).as_posix()
            if not (before / name).is_file() or (before / name).read_bytes() != path.read_bytes():
                changed.add(name)
    return changed


def test_a_toy_game_is_a_folder_and_a_catalog_line(tmp_path):
    copy = toy_copy(tmp_path / "copy")
    # The shared code is untouched: the catalog is the one file changed.
    assert changed_files(ROOT, copy) == {
        "README.md",
        "docs/README.md",
        "docs/match-file.md",
        "docs/variants/toy.md",
        "examples/toy.json",
        "scorekeeper/games/catalog.py",
        "tests/test_toy.py",
        *(f"scorekeeper/games/toy/{name}" for name in TOY),
    }
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    instance = tmp_path / "instance"
    instance.mkdir()
    done = subprocess.run(
        [sys.executable, "-c", PLAY, str(instance)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen == {
        "missing": [],
        "form": 200,
        "saved": [302, 302, 302],
        "sheet": ['<p class="toy-leader">Leading: Ann</p>'],
        "css": [200, TOY["static/toy.css"], True],
        "csv": ["hand,dealer,counted,declarer,contract,tricks,result,Ann,Bob,explanation"],
        "pdf": [200, "%PDF-"],
        "added": 302,
        "ledger": [False, True],
        "statistics": [
            "Ann,all games,declared,Declared,2,,hands this player's contract was played,",
            "Ann,Toy,declared,Declared,2,,hands this player's contract was played,",
            "Ann,Toy,big_wins,Big wins,2,,Toy hands won for 5 points,",
            "Bob,all games,declared,Declared,1,,hands this player's contract was played,",
            "Bob,Toy,declared,Declared,1,,hands this player's contract was played,",
        ],
    }


@pytest.mark.parametrize("piece", ["stats.py", "templates/sheet.html"])
def test_a_toy_game_missing_a_piece_stops_the_app(tmp_path, piece):
    copy = toy_copy(tmp_path / "copy")
    (copy / "scorekeeper" / "games" / "toy" / piece).unlink()
    if piece == "stats.py":  # its kit then names nothing: take the line out too
        init = copy / "scorekeeper" / "games" / "toy" / "__init__.py"
        text = init.read_text().replace("from . import sheet, stats", "from . import sheet")
        init.write_text(text.replace("    stats=stats.STATS,\n", ""))
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    code = (
        "import sys\nfrom scorekeeper.app import create_app\n"
        "create_app({'TESTING': True, 'DATABASE': sys.argv[1] + '/s.db'}, instance=sys.argv[1])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path)],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    said = {
        "stats.py": "toy: no statistics (STATS, a GameStats in scorekeeper/games/toy/stats.py)",
        "templates/sheet.html": "toy: no file scorekeeper/games/toy/templates/sheet.html",
    }[piece]
    assert done.returncode == 1
    assert f"RuntimeError: games incomplete: {said}" in done.stderr


# The shared suites that run over every game of the catalog, and the tests of
# them the toy game gets without one edit to them: the ids pytest collects.
SHARED_SUITES = [
    "tests/test_registry.py",
    "tests/test_examples.py",
    "tests/test_docs.py",
    "tests/test_layers.py",
    "tests/test_game_folders.py",
    "tests/test_charts.py",
]
TOY_IN_SHARED_SUITES = {
    "tests/test_registry.py::test_each_variant_finds_its_pieces_in_its_package[toy-toy]",
    "tests/test_registry.py::test_each_games_files_live_in_its_one_folder[toy]",
    "tests/test_registry.py::test_the_stake_basis_is_the_games_not_a_guess_from_an_option[toy]",
    "tests/test_examples.py::test_example_scores_to_the_pinned_result[toy]",
    "tests/test_examples.py::test_example_hand_scores_add_up_to_the_totals[toy]",
    "tests/test_examples.py::test_example_every_hand_scores_every_player_in_whole_numbers[toy]",
    "tests/test_examples.py::test_example_round_trips_through_dumps_and_loads[toy]",
    "tests/test_examples.py::test_readme_documents_every_variant[toy]",
    "tests/test_docs.py::test_every_variant_has_its_page_its_section_and_its_fields[toy]",
    "tests/test_game_folders.py::test_every_variant_declares_its_partner_kind[toy]",
    "tests/test_game_folders.py::test_no_module_outside_a_games_folder_names_a_game"
    "[scorekeeper/games/catalog.py]",
    "tests/test_charts.py::test_each_game_charts_what_its_players_call_their_standing[toy]",
}


def test_the_shared_suites_run_the_toy_game(tmp_path):
    """The shared suites, run on the copy, test the toy game too, and pass."""
    copy = toy_copy(tmp_path / "copy")
    env = {**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *SHARED_SUITES],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout[-4000:]
    passed = {
        line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("PASSED ")
    }
    assert passed >= TOY_IN_SHARED_SUITES
    assert {test for test in passed if test.endswith("[toy]")} == {
        test for test in TOY_IN_SHARED_SUITES if test.endswith("[toy]")
    }


# The suites of hostile input, the printed sheet and generated matches, run on
# the copy for what they test of each game (the toy's ids), and the ledger,
# safekeeping and recorded-answer tests that take every example of the catalog.
EVERY_GAME_SUITES = [
    "tests/test_hostile.py",
    "tests/test_pdf.py",
    "tests/test_properties.py",
    "tests/test_score_line.py",
    "tests/test_hand_numbers.py",
]
TOY_IN_EVERY_GAME_SUITES = {
    "tests/test_hostile.py::test_the_good_hand_of_each_variant_is_taken[toy]",
    "tests/test_hostile.py::test_an_empty_hand_form_is_refused_naming_what_is_missing[toy]",
    "tests/test_hostile.py::test_a_hand_form_without_a_field_is_refused_naming_it"
    "[toy-winner-winner: missing; give one of Ann, Bob]",
    "tests/test_hostile.py::test_a_hand_form_without_a_field_is_refused_naming_it"
    "[toy-points-points: missing; give a whole number 1\\u20135]",
    *(
        f"tests/test_hostile.py::test_a_hand_refuses_digits_of_other_scripts[toy-points-points-{d}]"
        for d in ("\\xb2", "\\u0663", "\\uff15")
    ),
    *(
        f"tests/test_hostile.py::test_a_new_match_refuses_digits_of_other_scripts[toy-{name}-{d}]"
        for name in ("stake_amount", "stake_per")
        for d in ("\\xb2", "\\u0663", "\\uff15")
    ),
    "tests/test_pdf.py::test_pdf_shows_players_hands_totals_and_payments[toy]",
    "tests/test_pdf.py::test_pdf_without_appendix_still_has_totals_and_payments[toy]",
    "tests/test_score_line.py::test_score_line_of_each_kind_of_game[toy]",
    "tests/test_hand_numbers.py::test_each_game_numbers_only_its_hands[toy]",
    *(
        f"tests/test_properties.py::{test}[toy]"
        for test in (
            "test_settlement_balances_sum_to_zero_with_at_most_n_minus_1_payments",
            "test_settlement_of_one_unit_per_three_points_stays_exact",
            "test_scoring_the_same_file_twice_gives_the_same_document",
            "test_one_scored_hand_per_entry_and_scores_add_up_to_the_totals",
            "test_invalid_files_exit_2_with_problem_lines_and_no_traceback",
            "test_valid_files_exit_0_through_the_cli",
        )
    ),
}
# Tests over the whole catalog: every variant's rows, every example.
EVERY_EXAMPLE_TESTS = [
    "tests/test_hostile.py::test_the_hand_tables_cover_every_variant",
    "tests/test_pdf.py::test_every_example_is_checked",
    "tests/test_cli_ledger.py::test_the_ledger_of_every_example",
    "tests/test_cli_ledger.py::test_the_ledger_of_the_worked_out_examples",
    "tests/test_safekeeping.py::test_a_new_server_backs_up_only_when_the_store_changed_since_the_newest_backup",
    "tests/test_safekeeping.py::test_a_restore_into_a_fresh_instance_gives_back_every_match_and_group",
    "tests/test_safekeeping.py::test_a_restore_keeps_the_store_it_replaces_so_it_can_be_undone",
    "tests/test_cli_recorded.py::test_every_case_answers_exactly_as_recorded",
]


def run_pytest(copy: Path, *args: str, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-rA", "-p", "no:cacheprovider", *args],
        cwd=copy,
        env={**os.environ, "PYTHONPATH": str(copy), "PYTHONDONTWRITEBYTECODE": "1", **env},
        capture_output=True,
        text=True,
        timeout=600,
    )


def passed_tests(done: subprocess.CompletedProcess) -> set[str]:
    return {
        line.split(" ", 1)[1] for line in done.stdout.splitlines() if line.startswith("PASSED ")
    }


def test_the_hostile_pdf_property_ledger_and_safekeeping_suites_run_the_toy_game(tmp_path):
    """The toy's own test file gives its rows (HAND_FORMS, PRINTED, GENERATED);
    its recorded answers are recorded as a new game's are; then the shared
    suites send its forms hostile input, print its example, generate its
    matches, and count it in the ledger of every example and in a restore."""
    copy = toy_copy(tmp_path / "copy")
    recorded = run_pytest(copy, "tests/test_cli_recorded.py", SCOREKEEPER_RECORD="toy")
    assert recorded.returncode == 0, recorded.stdout[-4000:]
    toy_answers = json.loads((copy / "tests/recorded/cli/toy.json").read_text(encoding="utf-8"))
    assert list(toy_answers)[:2] == ["toy", "toy/hand 1/without points"]
    assert changed_files(ROOT / "tests", copy / "tests") == {"test_toy.py", "recorded/cli/toy.json"}

    per_game = run_pytest(copy, *EVERY_GAME_SUITES, "-k", "toy")
    assert per_game.returncode == 0, per_game.stdout[-4000:]
    assert passed_tests(per_game) == TOY_IN_EVERY_GAME_SUITES
    every_example = run_pytest(copy, *EVERY_EXAMPLE_TESTS)
    assert every_example.returncode == 0, every_example.stdout[-4000:]
    assert passed_tests(every_example) == set(EVERY_EXAMPLE_TESTS)


@pytest.mark.install
def test_the_built_wheel_holds_and_serves_the_toy_game(tmp_path):
    """Built from the copy, the wheel ships the toy game's folder without a line
    in pyproject.toml, and the installed app serves its pages and stylesheet."""
    copy = toy_copy(tmp_path / "copy")
    (tmp_path / "install").mkdir()
    installed = build_and_install(tmp_path / "install", copy)
    with zipfile.ZipFile(installed.wheel) as wheel:
        shipped = set(wheel.namelist())
    toy_files = {name for name in shipped if name.startswith("scorekeeper/games/toy/")}
    assert toy_files == {f"scorekeeper/games/toy/{name}" for name in TOY}
    assert "scorekeeper/docs/variants/toy.md" in shipped
    home = tmp_path / "home"
    home.mkdir()
    with serving(installed, home) as served:
        phone = served.browser
        css = phone.get("/static/games/toy/toy.css")
        rules = phone.get("/rules/toy")
        new = phone.get("/new")
        token = re.search(rb'name="csrf_token"[^>]*value="([^"]+)"', new[1]).group(1).decode()
        fields = {"csrf_token": token, "variant": "toy", "player1": "Ann", "player2": "Bob"}
        started = phone.post("/new", fields)
        match_page = phone.get(urlsplit(started[2]).path.removesuffix("/hand/new"))
    assert css[:2] == (200, TOY["static/toy.css"].encode())
    assert rules[0] == 200
    assert b"takes 1 to 5 points from the other; 10 ends the match." in rules[1]
    assert b"Ten points end the match." in rules[1]
    assert new[0] == 200 and b'value="toy"' in new[1]
    assert started[0] == 200 and re.search(r"/m/[\w-]{16}/hand/new$", started[2])
    assert b"Winner" in started[1] and b"Points" in started[1]
    assert match_page[0] == 200
    assert b'<p class="toy-leader">Leading: Ann</p>' in match_page[1]
