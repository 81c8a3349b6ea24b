"""`scorekeeper ledger FILE…` (docs/ledger.md) on the example files, against output
worked out by hand from each example's own settlement (its `scorekeeper score`
payments, pinned in its game's own tests: EXAMPLE_RESULTS, tests/games.py), and
its error lines (exit status 2, nothing on standard output)."""

from __future__ import annotations

import json
import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest

from scorekeeper import cli
from tests.games import VARIANT_IDS, example_document, pinned

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "examples").glob("*.json"))


def run(capsys, *args: str) -> tuple[int, str, str]:
    status = cli.main(["ledger", *args])
    out, err = capsys.readouterr()
    return status, out, err


def money(out: str) -> dict:
    """The ledger's document without its `ratings` (tests/test_ratings.py checks those)."""
    return {k: v for k, v in json.loads(out).items() if k != "ratings"}


def pays(*rows: tuple[str, str, str, str]) -> list[dict[str, str]]:
    return [{"from": a, "to": b, "amount": amount, "currency": c} for a, b, amount, c in rows]


# The nine examples the whole ledger below was worked out by hand for, and each
# one's settlement payments (EUR unless said):
#   bridge-for-three  Ann → Cy 0.50, Bob → Cy 0.50, Dan → Cy 0.50
#   calypso           Ann → Bob 1.02, Cy → Dan 1.02
#   chicago           Bob → Ann 0.20, Dee → Cy 0.20
#   honeymoon         Alex → Sam 3.00
#   mini-bridge-3     Ann → Bob 4.30, Cy → Bob 6.10
#   mini-bridge       Ann → Bob 3.60, Cy → Dee 3.60
#   need-a-fourth     Tobias → Ilse 12.50, Tobias → Maren 24.50
#   rubber (GBP)      Helen → Richard 1.00, Margaret → Tom 1.00
#   top-game          Ann → Cy 2.00, Bob → Cy 0.50
# EUR  Ann  −0.50 − 1.02 + 0.20 − 4.30 − 3.60 − 2.00          = −11.22
#      Bob  −0.50 + 1.02 − 0.20 + 4.30 + 6.10 + 3.60 − 0.50   = +13.82
#      Cy   +1.50 − 1.02 + 0.20 − 6.10 − 3.60 + 2.50          =  −6.52
#      Dan  −0.50 + 1.02 = +0.52     Dee −0.20 + 3.60 = +3.40
#      Alex −3.00, Sam +3.00, Ilse +12.50, Maren +24.50, Tobias −37.00
# Settle up EUR: exact pairs first: Alex −3.00 ↔ Sam +3.00. Then the largest debtor
# pays the largest creditor: Tobias 37.00 → Maren 24.50 (Tobias −12.50), Tobias and
# Ilse +12.50 match: Tobias → Ilse 12.50; Ann −11.22 → Bob 13.82 (Bob +2.60);
# Cy −6.52 → Dee 3.40 (Cy −3.12), Cy → Bob 2.60 (Cy −0.52), Cy → Dan 0.52.
# (Seven payments for ten EUR members with a balance.)
# GBP: Helen ↔ Richard and Margaret ↔ Tom, exact pairs.
WORKED_OUT = [f"examples/{name}.json" for name in (
    "bridge-for-three", "calypso", "chicago", "honeymoon", "mini-bridge-3", "mini-bridge",
    "need-a-fourth", "rubber", "top-game",
)]  # fmt: skip
ALL_EXAMPLES = {
    "matches": 9,
    "balances": {
        "EUR": {
            "Alex": "-3.00",
            "Ann": "-11.22",
            "Bob": "13.82",
            "Cy": "-6.52",
            "Dan": "0.52",
            "Dee": "3.40",
            "Ilse": "12.50",
            "Maren": "24.50",
            "Sam": "3.00",
            "Tobias": "-37.00",
        },
        "GBP": {"Helen": "-1.00", "Margaret": "-1.00", "Richard": "1.00", "Tom": "1.00"},
    },
    "payments": pays(
        ("Alex", "Sam", "3.00", "EUR"),
        ("Ann", "Bob", "11.22", "EUR"),
        ("Cy", "Bob", "2.60", "EUR"),
        ("Cy", "Dan", "0.52", "EUR"),
        ("Cy", "Dee", "3.40", "EUR"),
        ("Tobias", "Ilse", "12.50", "EUR"),
        ("Tobias", "Maren", "24.50", "EUR"),
        ("Helen", "Richard", "1.00", "GBP"),
        ("Margaret", "Tom", "1.00", "GBP"),
    ),
}


def settled_balances() -> dict[str, dict[str, str]]:
    """Each currency's balances: every example's settlement, as its game's own
    tests pin it (EXAMPLE_RESULTS), added up member by member."""
    balances: dict[str, dict[str, Decimal]] = {}
    for variant in VARIANT_IDS:
        stake = example_document(variant).get("stake") or {}
        members = balances.setdefault(stake.get("currency", ""), {})
        for payment in pinned(variant, "EXAMPLE_RESULTS").settlement:
            amount = Decimal(payment["amount"])
            members[payment["from"]] = members.get(payment["from"], Decimal(0)) - amount
            members[payment["to"]] = members.get(payment["to"], Decimal(0)) + amount
    return {
        currency: {name: f"{amount:.2f}" for name, amount in sorted(members.items()) if amount}
        for currency, members in sorted(balances.items())
    }


def test_the_ledger_of_every_example(capsys, monkeypatch):
    """Every example of every game: the ledger adds up their settlements, and
    pays each currency's balances off."""
    monkeypatch.chdir(ROOT)
    assert len(EXAMPLES) == len(VARIANT_IDS)
    status, out, err = run(capsys, *EXAMPLES)
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert doc["matches"] == len(VARIANT_IDS)
    assert doc["balances"] == settled_balances()
    paid: dict[str, dict[str, Decimal]] = {}
    for payment in doc["payments"]:
        members = paid.setdefault(payment["currency"], {})
        amount = Decimal(payment["amount"])
        members[payment["from"]] = members.get(payment["from"], Decimal(0)) - amount
        members[payment["to"]] = members.get(payment["to"], Decimal(0)) + amount
    assert {
        currency: {name: f"{amount:.2f}" for name, amount in sorted(members.items()) if amount}
        for currency, members in sorted(paid.items())
    } == doc["balances"]


def test_the_ledger_of_the_worked_out_examples(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    status, out, err = run(capsys, *WORKED_OUT)
    assert (status, err) == (0, "")
    assert money(out) == ALL_EXAMPLES
    assert out.endswith("}\n") and out.startswith('{\n  "matches": 9,')


def test_names_mapped_with_same(capsys, monkeypatch):
    # Dan is Dee and Maren is Ann: Dee 3.40 + 0.52 = 3.92; Ann −11.22 + 24.50 = 13.28.
    # Settle up: Alex ↔ Sam; Tobias 37.00 → Bob 13.82 (largest creditor; −23.18),
    # → Ann 13.28 (−9.90), → Ilse 9.90 (Ilse +2.60); Cy −6.52 → Dee 3.92 (−2.60),
    # and Cy's −2.60 now matches Ilse's +2.60 exactly.
    monkeypatch.chdir(ROOT)
    status, out, err = run(capsys, *WORKED_OUT, "--same", "Dan=Dee", "--same", "Maren=Ann")
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert doc["balances"]["EUR"] == {
        "Alex": "-3.00",
        "Ann": "13.28",
        "Bob": "13.82",
        "Cy": "-6.52",
        "Dee": "3.92",
        "Ilse": "12.50",
        "Sam": "3.00",
        "Tobias": "-37.00",
    }
    assert doc["payments"][:7] == pays(
        ("Alex", "Sam", "3.00", "EUR"),
        ("Cy", "Dee", "3.92", "EUR"),
        ("Cy", "Ilse", "2.60", "EUR"),
        ("Tobias", "Ann", "13.28", "EUR"),
        ("Tobias", "Bob", "13.82", "EUR"),
        ("Tobias", "Ilse", "9.90", "EUR"),
        ("Helen", "Richard", "1.00", "GBP"),
    )


def dated(tmp_path: Path, name: str, played: str | None) -> str:
    doc = json.loads((ROOT / "examples" / f"{name}.json").read_text(encoding="utf-8"))
    if played:
        doc["played"] = played
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    return str(path)


def test_a_period_keeps_the_matches_played_in_it(capsys, tmp_path):
    files = [
        dated(tmp_path, "top-game", "2026-11-06"),  # Ann → Cy 2.00, Bob → Cy 0.50
        dated(tmp_path, "chicago", "2026-11-20"),  # Bob → Ann 0.20, Dee → Cy 0.20
        dated(tmp_path, "rubber", "2026-10-30"),  # October: left out
        dated(tmp_path, "honeymoon", None),  # no day: left out of any period
    ]
    # Ann −2.00 + 0.20 = −1.80; Bob −0.50 − 0.20 = −0.70; Cy +2.50 + 0.20 = 2.70; Dee −0.20
    status, out, err = run(capsys, *files, "--from", "2026-11-01", "--to", "2026-11-30")
    assert (status, err) == (0, "")
    assert money(out) == {
        "matches": 2,
        "balances": {"EUR": {"Ann": "-1.80", "Bob": "-0.70", "Cy": "2.70", "Dee": "-0.20"}},
        # Ann −1.80 → Cy (Cy +0.90), Bob −0.70 → Cy (+0.20), Dee −0.20 matches it.
        "payments": pays(
            ("Ann", "Cy", "1.80", "EUR"), ("Bob", "Cy", "0.70", "EUR"), ("Dee", "Cy", "0.20", "EUR")
        ),
    }
    status, out, _ = run(capsys, *files, "--to", "2026-10-31")
    assert json.loads(out)["matches"] == 1  # only the rubber
    status, out, _ = run(capsys, *files)
    assert json.loads(out)["matches"] == 4  # all time: the undated match too


def test_a_stake_without_a_currency_is_the_currency_named_empty(capsys, tmp_path):
    doc = json.loads((ROOT / "examples" / "top-game.json").read_text(encoding="utf-8"))
    doc["stake"] = {"amount": "1"}
    path = tmp_path / "plain.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    del doc["stake"]
    free = tmp_path / "free.json"
    free.write_text(json.dumps(doc), encoding="utf-8")
    # Totals Ann −4, Bob −1, Cy +5 at 1 a point; the match without a stake moves nothing.
    status, out, _ = run(capsys, str(path), str(free))
    assert money(out) == {
        "matches": 2,
        "balances": {"": {"Ann": "-4.00", "Bob": "-1.00", "Cy": "5.00"}},
        "payments": pays(("Ann", "Cy", "4.00", ""), ("Bob", "Cy", "1.00", "")),
    }


@pytest.mark.parametrize(
    "args, lines",
    [
        (
            ["examples/top-game.json", "--same", "Maren"],
            ["--same: 'Maren' is not NAME=MEMBER, e.g. --same Annie=Ann"],
        ),
        (
            ["examples/top-game.json", "--same", "=Ann"],
            ["--same: '=Ann' is not NAME=MEMBER, e.g. --same Annie=Ann"],
        ),
        (
            ["examples/top-game.json", "--from", "2026-02-30", "--to", "20.11.2026"],
            [
                "--from: '2026-02-30' is not a day written like \"2026-11-20\"",
                "--to: '20.11.2026' is not a day written like \"2026-11-20\"",
            ],
        ),
        (
            ["examples/top-game.json", "--from", "2026-11-30", "--to", "2026-11-01"],
            ["--to: 2026-11-01 is before --from 2026-11-30"],
        ),
        (
            ["examples/top-game.json", "missing.json"],
            ["missing.json: file: cannot read: No such file or directory"],
        ),
        (["examples"], ["examples: file: cannot read: Is a directory"]),
    ],
)
def test_bad_input_prints_one_line_per_problem_and_exits_2(capsys, monkeypatch, args, lines):
    monkeypatch.chdir(ROOT)
    status, out, err = run(capsys, *args)
    assert (status, out, err.splitlines()) == (cli.EXIT_INVALID, "", lines)


def test_an_invalid_match_file_names_the_file_and_its_problems(capsys, tmp_path):
    doc = json.loads((ROOT / "examples" / "top-game.json").read_text(encoding="utf-8"))
    doc["hands"][0]["contract"] = "9Z"
    doc["played"] = "yesterday"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    status, out, err = run(capsys, str(ROOT / "examples" / "rubber.json"), str(bad), str(broken))
    assert (status, out) == (2, "")
    assert err.splitlines() == [
        f"{bad}: played: 'yesterday' is not a day written like \"2026-11-20\"",
        f"{broken}: file: not valid JSON: Expecting property name enclosed in double quotes"
        " at line 1 column 2",
    ]


def test_the_installed_command_answers_the_same(tmp_path):
    """The console script (a real process), as other tools call it."""
    done = subprocess.run(
        [sys.executable, "-m", "scorekeeper.cli", "ledger", "examples/rubber.json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert money(done.stdout) == {
        "matches": 1,
        "balances": {
            "GBP": {"Helen": "-1.00", "Margaret": "-1.00", "Richard": "1.00", "Tom": "1.00"}
        },
        "payments": pays(("Helen", "Richard", "1.00", "GBP"), ("Margaret", "Tom", "1.00", "GBP")),
    }


def test_a_match_given_twice_counts_once_and_is_said_on_stderr(capsys, tmp_path):
    """The same match file given twice, or a copy of it under another name (spaced
    otherwise), is one match, as the app's import says "already here"."""
    top = dated(tmp_path, "top-game", "2026-11-06")  # Ann → Cy 2.00, Bob → Cy 0.50
    doc = json.loads(Path(top).read_text(encoding="utf-8"))
    copy = tmp_path / "copy.json"
    copy.write_text(json.dumps(doc, indent=4), encoding="utf-8")
    status, out, err = run(capsys, top, str(copy), top)
    assert status == 0
    assert json.loads(out)["matches"] == 1
    assert json.loads(out)["balances"] == {"EUR": {"Ann": "-2.00", "Bob": "-0.50", "Cy": "2.50"}}
    assert err.splitlines() == [
        f"{copy}: the same match as {top}: counted once",
        f"{top}: the same match as {top}: counted once",
    ]


def test_a_repeated_file_counts_once_in_the_period_and_in_the_ratings(capsys, tmp_path):
    """--from/--to, a file given twice and the `ratings` key together: the copy is
    left out before anything is counted, so the ratings are those of each match
    of the period rated once."""
    top = dated(tmp_path, "top-game", "2026-11-06")
    chicago = dated(tmp_path, "chicago", "2026-11-20")
    rubber = dated(tmp_path, "rubber", "2026-10-30")  # October: left out
    period = ("--from", "2026-11-01", "--to", "2026-11-30")
    status, out, err = run(capsys, top, chicago, rubber, top, *period)
    assert (status, err) == (0, f"{top}: the same match as {top}: counted once\n")
    doc = json.loads(out)
    assert (doc["matches"], doc["ratings"]["matches"]) == (2, 2)
    # Ann, Bob and Cy played both (the top game once), Dee the Chicago alone.
    assert {m: r["matches"] for m, r in doc["ratings"]["overall"].items()} == {
        "Ann": 2,
        "Bob": 2,
        "Cy": 2,
        "Dee": 1,
    }
    status, once, err = run(capsys, top, chicago, *period)
    assert (status, err) == (0, "")
    assert doc == json.loads(once)
