"""`scorekeeper score|variants`: docs/score-output.md.

Every case runs twice: in a real subprocess (`python -m scorekeeper.cli`, what a
user types) and in-process through `scorekeeper.cli.main`.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import cli
from scorekeeper.games.catalog import VARIANTS
from tests.games import VARIANT_IDS

ROOT = Path(__file__).resolve().parent.parent

# docs/score-output.md, "An example" (a match file as docs/match-file.md describes it).
README_MATCH = {
    "format": "scorekeeper-match/1",
    "variant": "top-game",
    "title": "Friday at Ann's",
    "players": ["Ann", "Bob", "Cy"],
    "options": {},
    "stake": {"amount": "0.50", "per": 1, "currency": "EUR"},
    "hands": [{"declarer": "Ann", "bid": 4, "dummy_tops": 3, "contract": "4D", "tricks": 11}],
}

# docs/score-output.md, "An example": the explanation has all three lines of
# games/top_game/rules.py, and Cy pays too: balances are Ann +5.00, Bob −2.50, Cy −2.50 and
# must be cleared (docs/settlement.md).
README_OUTPUT = {
    "variant": "top-game",
    "players": ["Ann", "Bob", "Cy"],
    "hands": [
        {
            "number": 1,
            "dealer": "Ann",
            "counted": True,
            "scores": {"Ann": 10, "Bob": -5, "Cy": -5},
            "explanation": [
                "pn = 4 + 3 = 7 → 4D needs 10 tricks",
                "4D made with 1 overtrick: 4 + 1 = 5 from each opponent",
                "Ann +10, each opponent -5",
            ],
        }
    ],
    "totals": {"Ann": 10, "Bob": -5, "Cy": -5},
    "finished": False,
    "winners": [],
    "settlement": [
        {"from": "Bob", "to": "Ann", "amount": "2.50"},
        {"from": "Cy", "to": "Ann", "amount": "2.50"},
    ],
}


def match_text(**changes) -> str:
    """The README match with some top-level keys replaced (None deletes a key)."""
    doc = {**README_MATCH, **changes}
    return json.dumps({k: v for k, v in doc.items() if v is not None})


def run_subprocess(*args: str, stdin: str = "") -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    return done.returncode, done.stdout, done.stderr


def run_main(capsys, monkeypatch, *args: str, stdin: str = "") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    status = cli.main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture(params=["subprocess", "main"])
def scorer(request, capsys, monkeypatch):
    """Run the CLI one way or the other: scorer(*args, stdin=...) -> (status, out, err)."""
    if request.param == "subprocess":
        return run_subprocess
    return lambda *args, stdin="": run_main(capsys, monkeypatch, *args, stdin=stdin)


# --- the README example --------------------------------------------------------


def test_readme_example_file_scores_key_for_key(scorer, tmp_path):
    path = tmp_path / "friday.json"
    path.write_text(json.dumps(README_MATCH), encoding="utf-8")
    status, out, err = scorer("score", str(path))
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert doc == README_OUTPUT
    assert list(doc) == list(README_OUTPUT)  # the key order of the README, too
    assert list(doc["hands"][0]) == list(README_OUTPUT["hands"][0])
    assert isinstance(doc["hands"][0]["scores"]["Ann"], int)  # JSON integers, not 10.0


def test_readme_example_quoted_parts_appear_verbatim(scorer, tmp_path):
    # The README quotes one explanation line and one payment; both must be there as written.
    path = tmp_path / "friday.json"
    path.write_text(json.dumps(README_MATCH), encoding="utf-8")
    doc = json.loads(scorer("score", str(path))[1])
    assert (
        "4D made with 1 overtrick: 4 + 1 = 5 from each opponent" in (doc["hands"][0]["explanation"])
    )
    assert {"from": "Bob", "to": "Ann", "amount": "2.50"} in doc["settlement"]


def test_stdin_dash_reads_the_match_from_standard_input(scorer):
    status, out, err = scorer("score", "-", stdin=json.dumps(README_MATCH))
    assert (status, err) == (0, "")
    assert json.loads(out) == README_OUTPUT


def test_output_is_indented_utf8_json_ending_in_a_newline(scorer):
    _, out, _ = scorer("score", "-", stdin=json.dumps(README_MATCH))
    assert out == json.dumps(README_OUTPUT, indent=2, ensure_ascii=False) + "\n"


def test_no_stake_means_no_settlement_key(scorer):
    status, out, _ = scorer("score", "-", stdin=match_text(stake=None))
    assert status == 0
    assert "settlement" not in json.loads(out)


# --- invalid input: exit 2, nothing on stdout, one line per problem ---------------


def test_missing_file(scorer, tmp_path):
    missing = tmp_path / "nowhere.json"
    status, out, err = scorer("score", str(missing))
    assert (status, out) == (2, "")
    assert err.splitlines() == [f"file: cannot read {missing}: No such file or directory"]


INVALID = [
    pytest.param(
        '{"format": "scorekeeper-match/1", "variant": \'top-game\'}',
        ["file: not valid JSON: Expecting value at line 1 column 46"],
        id="invalid-json",
    ),
    pytest.param("", ["file: not valid JSON: Expecting value at line 1 column 1"], id="empty"),
    pytest.param("[1, 2]", ["file: the match file must be a JSON object"], id="not-an-object"),
    pytest.param(
        match_text(colour="red"),
        [
            "colour: unknown key; allowed: format, variant, title, played, players, options,"
            " stake, hands"
        ],
        id="unknown-top-level-key",
    ),
    pytest.param(
        match_text(options={"hands_per_halve": 6}),
        ["options: hands_per_halve: unknown option; allowed for top-game: hands_per_half"],
        id="unknown-option",
    ),
    pytest.param(
        match_text(options={"hands_per_half": 0}),
        ["options: hands_per_half: 0 is not allowed; give a whole number 1–30"],
        id="option-out-of-range",
    ),
    pytest.param(
        match_text(hands=[{**README_MATCH["hands"][0], "trick": 11}]),
        [
            "hand 1: trick: unknown field; allowed here: bid, bids, contract, declarer, "
            "declarer_tops, doubler, dummy_longest, dummy_tops, misinformation, passed_out, tricks"
        ],
        id="unknown-hand-key",
    ),
    pytest.param(
        match_text(stake={"amount": 0.5}),
        ['stake: amount: 0.5 is not a decimal string like "0.50"'],
        id="stake-amount-a-float",
    ),
    pytest.param(
        match_text(stake={"amount": "-1", "per": 0, "pot": 3}),
        [
            "stake: pot: unknown key; allowed: amount, per, currency",
            "stake: amount: '-1' must be zero or more",
            "stake: per: 0 is not a positive whole number of points",
        ],
        id="stake-three-problems",
    ),
    pytest.param(
        match_text(stake="0.50"),
        ['stake: give an object like {"amount": "0.50", "per": 1, "currency": "EUR"}'],
        id="stake-not-an-object",
    ),
    pytest.param(
        match_text(variant="bridge-for-two"),
        [f"variant: 'bridge-for-two' is unknown; allowed: {', '.join(VARIANT_IDS)}"],
        id="unknown-variant",
    ),
    pytest.param(
        match_text(
            hands=[
                {"bids": [4, 6, 5], "declarer": "Bob", "bid": 6, "dummy_tops": 1},
            ]
        ),
        [
            "hand 1: bids: Cy: 5 is not higher than the previous bid 6",
            "hand 1: contract: missing; give a contract like 4S, 3NTX or 6HXX",
            "hand 1: tricks: missing; give a whole number 0–13",
        ],
        id="hand-error-names-hand-and-field",
    ),
]


# README.md, "Command line": the example of a problem line.
README_PROBLEM = "hand 3: contract: pn 7 in a suit gives level 4, not 3"
INVALID.append(
    pytest.param(
        match_text(
            hands=[
                README_MATCH["hands"][0],
                {"passed_out": True},
                {"declarer": "Cy", "bid": 4, "dummy_tops": 3, "contract": "3S", "tricks": 9},
            ]
        ),
        [README_PROBLEM],
        id="readme-md-problem-line",
    )
)


def test_readme_md_shows_the_problem_line_the_scorer_prints():
    assert README_PROBLEM in (ROOT / "README.md").read_text(encoding="utf-8")


@pytest.mark.parametrize("text, lines", INVALID)
def test_invalid_input_exits_2_with_one_line_per_problem(scorer, text, lines):
    status, out, err = scorer("score", "-", stdin=text)
    assert (status, out) == (2, "")
    assert err.splitlines() == lines
    assert "Traceback" not in err


def test_invalid_file_on_disk_is_reported_like_stdin(scorer, tmp_path):
    path = tmp_path / "typo.json"
    path.write_text(match_text(colour="red"), encoding="utf-8")
    status, out, err = scorer("score", str(path))
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        "colour: unknown key; allowed: format, variant, title, played, players, options,"
        " stake, hands"
    ]


def test_file_that_is_not_utf8(scorer, tmp_path):
    path = tmp_path / "latin1.json"
    path.write_bytes(b"\xff\xfe{}")
    status, out, err = scorer("score", str(path))
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"file: cannot read {path}: 'utf-8' codec can't decode byte 0xff in position 0: "
        "invalid start byte"
    ]


def test_json_nested_too_deeply(scorer):
    status, out, err = scorer("score", "-", stdin="[" * 100_000)
    assert (status, out) == (2, "")
    assert err.splitlines() == ["file: not valid JSON: nested too deeply"]


def test_integer_too_long_for_json_is_a_problem_line_not_a_traceback(capsys, monkeypatch):
    # Input: the README match whose hand has `"bid": 999…9` (5000 digits).
    # Expected: exit 2 and one line on stderr (was a ValueError traceback, exit 1).
    text = match_text(hands=[{"declarer": "Ann", "bid": 0}]).replace(
        '"bid": 0', '"bid": ' + "9" * 5000
    )
    status, out, err = run_main(capsys, monkeypatch, "score", "-", stdin=text)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1


def test_unknown_key_with_a_newline_is_still_one_line(capsys, monkeypatch):
    # Input: the README match with an extra top-level key "col\nour".
    # Expected: one stderr line, the key quoted (was split into "col" and "our: …").
    text = match_text(**{"col\nour": "red"})
    status, out, err = run_main(capsys, monkeypatch, "score", "-", stdin=text)
    assert (status, out) == (2, "")
    assert len(err.splitlines()) == 1


# --- `scorekeeper variants` --------------------------------------------------------


def test_variants_lists_every_id_in_registry_order(scorer):
    status, out, err = scorer("variants")
    assert (status, err) == (0, "")
    ids = [line.split()[0] for line in out.splitlines()]
    assert ids == VARIANT_IDS
    # the nine games players know keep the order New match offers them
    assert [i for i in ids if i in FIRST_NINE] == FIRST_NINE


FIRST_NINE = [
    "top-game",
    "need-a-fourth",
    "bridge-for-three",
    "mini-bridge",
    "mini-bridge-3",
    "rubber",
    "honeymoon",
    "chicago",
    "calypso",
]


def test_the_variants_are_the_catalogs():
    assert list(VARIANTS) == VARIANT_IDS


def test_variants_line_gives_player_counts_and_name(scorer):
    out = scorer("variants")[1]
    bridge_for_three = next(line for line in out.splitlines() if line.startswith("bridge-for"))
    assert bridge_for_three.split()[:4] == ["bridge-for-three", "3/4/5", "Bridge", "for"]


def test_no_subcommand_is_a_usage_error():
    status, out, err = run_subprocess()
    assert (status, out) == (2, "")
    assert err.splitlines()[-1] == (
        "scorekeeper: error: the following arguments are required: command"
    )


@pytest.mark.parametrize("args", [["variants"], ["score", "examples/rubber.json"]])
def test_a_reader_that_stops_early_gets_no_traceback(args):
    """`scorekeeper variants | head -1`: the reader is gone before anything is
    written, so the command ends quietly with the shell's SIGPIPE status."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # nobody will ever read: the first write fails
    try:
        done = subprocess.run(
            [sys.executable, "-m", "scorekeeper.cli", *args],
            stdout=write_end,
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=60,
        )
    finally:
        os.close(write_end)
    assert (done.returncode, done.stderr) == (cli.EXIT_PIPE_CLOSED, "")
