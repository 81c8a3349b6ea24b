"""The group file (docs/group-file.md): written from a stored group, checked line
by line, imported as one transaction through the groups' and matches' write
paths, the same file twice, and the round trip export -> import -> same ledger."""

from __future__ import annotations

import copy
import json
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest

from scorekeeper import db as store
from scorekeeper import groupfile as gf
from scorekeeper import groups as g
from scorekeeper.ledger import Transfer, ledger
from scorekeeper.matchfile import MAX_ENTRIES
from scorekeeper.report import match_summary
from scorekeeper.variants import MatchError
from tests.games import VARIANT_IDS

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def example(name: str, **changes) -> dict:
    doc = json.loads((EXAMPLES / f"{name}.json").read_text(encoding="utf-8"))
    doc.update(changes)
    return {k: v for k, v in doc.items() if v is not None}


EUR_STAKE = {"amount": "0.50", "per": 1, "currency": "EUR"}


def friday() -> dict:
    return copy.deepcopy(FRIDAY)


def _friday() -> dict:
    """Four members, four games, two currencies and a match without a stake, a
    mapped name (Dee plays as Dan), a whole other table mapped (rubber), and a
    payment: the group file as the app writes it."""
    return {
        "format": "scorekeeper-group/1",
        "name": "Friday four",
        "members": ["Ann", "Bob", "Cy", "Dan"],
        "stakes": {"*": EUR_STAKE, "rubber": {"amount": "0.50", "per": 100, "currency": "GBP"}},
        "matches": [
            {
                "mapping": {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy"},
                "match": example("top-game", played="2026-11-06"),
            },
            {
                "mapping": {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy", "Dee": "Dan"},
                "match": example("chicago", played="2026-11-13"),
            },
            {
                "mapping": {"Margaret": "Ann", "Tom": "Bob", "Helen": "Cy", "Richard": "Dan"},
                "match": example("rubber", played="2026-11-20"),
            },
            {
                "mapping": {"Ann": "Ann", "Bob": "Bob", "Cy": "Cy", "Dan": "Dan"},
                "match": example("calypso", played="2026-11-20", stake=None),
            },
        ],
        "payments": [
            {
                "from": "Ann",
                "to": "Cy",
                "amount": "1.80",
                "currency": "EUR",
                "date": "2026-11-21",
                "by": "Ann's phone",
            }
        ],
    }


FRIDAY = _friday()


@pytest.fixture
def db(store_path):
    database = store.connect(store_path)
    yield database
    database.close()


@pytest.fixture
def other_db(tmp_path, migrated_template):
    path = tmp_path / "other.db"
    shutil.copyfile(migrated_template, path)
    database = store.connect(str(path))
    yield database
    database.close()


def imported(db, doc: dict, **kwargs) -> g.GroupApplied:
    return gf.import_group(db, gf.loads(json.dumps(doc)), device="Ann's phone", **kwargs)


def exported(db, group_id: str) -> dict:
    return gf.group_document(db, g.load_group(db, group_id))


def group_ledger(db, group_id: str):
    """The group's ledger as the ledger module adds it up: each match's own
    settlement, names mapped to members, less the recorded payments."""
    state = g.load_group(db, group_id)
    summaries = []
    for match_id in state.matches:
        stored = store.load_match(db, match_id)
        summary = match_summary(
            stored.match, key=match_id, played=g.played_day(stored.created)
        ).renamed(state.names_in(match_id))
        summaries.append(summary)
    paid = [
        Transfer(
            state.member(p.payer).name,
            state.member(p.payee).name,
            Decimal(p.amount),
            p.currency,
            date.fromisoformat(p.date),
        )
        for p in state.payments
    ]
    return ledger(summaries, paid=paid)


# --- writing and the round trip ---------------------------------------------------


def test_an_imported_group_holds_every_member_match_mapping_and_payment(db):
    made = imported(db, friday())
    state = made.state
    assert not made.repeated
    assert [(m.id, m.name, m.position) for m in state.members] == [
        (1, "Ann", 1),
        (2, "Bob", 2),
        (3, "Cy", 3),
        (4, "Dan", 4),
    ]
    assert state.stakes == friday()["stakes"]
    mappings = sorted(
        (store.load_match(db, i).variant, joined.mapping) for i, joined in state.matches.items()
    )
    assert mappings == [
        ("calypso", {"Ann": 1, "Bob": 2, "Cy": 3, "Dan": 4}),
        ("chicago", {"Ann": 1, "Bob": 2, "Cy": 3, "Dee": 4}),
        ("rubber", {"Margaret": 1, "Tom": 2, "Helen": 3, "Richard": 4}),
        ("top-game", {"Ann": 1, "Bob": 2, "Cy": 3}),
    ]
    [pay] = state.payments
    assert (pay.payer, pay.payee, pay.amount, pay.currency, pay.date, pay.device) == (
        1,
        3,
        "1.80",
        "EUR",
        "2026-11-21",
        "Ann's phone",
    )
    # Each match started like an imported match, on the day it was played.
    days = sorted(str(g.played_day(store.load_match(db, i).created)) for i in state.matches)
    assert days == ["2026-11-06", "2026-11-13", "2026-11-20", "2026-11-20"]
    summaries = [c.summary for c in g.group_changes(db, made.group_id)]
    assert summaries[0] == "Group imported from a file: Friday four (Ann, Bob, Cy, Dan)"
    assert summaries[1:] == [
        "Matches added from a group file: 4 matches",
        "Paid: Ann paid Cy 1.80 EUR",
    ]


def test_undo_takes_back_the_payments_then_all_the_imported_matches_at_once(db):
    made = imported(db, friday())

    def undo():
        last = g.undoable(g.group_changes(db, made.group_id))
        return g.apply_group(db, made.group_id, g.GroupCommand(g.UNDO, {"undoes": last.revision}))

    assert undo().state.payments == []
    after = undo()
    assert after.change.summary == "Undone: Matches added from a group file: 4 matches"
    assert after.state.matches == {}
    assert [m.name for m in after.state.members] == ["Ann", "Bob", "Cy", "Dan"]
    assert g.undoable(g.group_changes(db, made.group_id)) is None  # the start stays


def test_many_payments_are_one_change_each_signed_by_its_phone(db):
    doc = friday()
    doc["payments"] = [
        {
            "from": "Bob",
            "to": "Ann",
            "amount": f"{n}.00",
            "date": "2026-11-21",
            "by": f"Phone {n % 2}",
        }
        for n in range(1, 43)
    ]
    made = imported(db, doc)
    assert [p.device for p in made.state.payments[:3]] == ["Phone 1", "Phone 0", "Phone 1"]
    last = g.group_changes(db, made.group_id)[-1].summary
    assert last.startswith("Paid: Bob paid Ann 1.00; Bob paid Ann 2.00;")
    assert last.endswith("; Bob paid Ann 40.00; and 2 more payments")
    assert exported(db, made.group_id)["payments"] == [
        {**p, "currency": ""} for p in doc["payments"]
    ]


def test_the_export_of_an_imported_group_is_the_file_it_came_from(db):
    made = imported(db, friday())
    assert exported(db, made.group_id) == friday()


def test_export_then_import_elsewhere_gives_the_same_group_and_ledger(db, other_db):
    made = imported(db, friday())
    # The group goes on living here: a rename, a payment by another phone.
    renamed = g.apply_group(
        db, made.group_id, g.GroupCommand(g.RENAME_MEMBER, {"member": 4, "name": "Daniel"})
    )
    pay = {"payer": 1, "payee": 2, "amount": "1.00", "currency": "GBP", "date": "2026-11-22"}
    g.apply_group(
        db, made.group_id, g.GroupCommand(g.PAY, {"payments": [pay]}, device="Dan's phone")
    )
    assert renamed.state.member(4).name == "Daniel"
    text = gf.dumps(exported(db, made.group_id))
    moved = gf.import_group(other_db, gf.loads(text), device="Bob's phone")
    assert exported(other_db, moved.group_id) == exported(db, made.group_id)
    here, there = group_ledger(db, made.group_id), group_ledger(other_db, moved.group_id)
    assert there.balances == here.balances
    assert there.standings == here.standings
    assert there.settle_up == here.settle_up
    # Worked by hand from each example's settlement (`scorekeeper score`):
    # Top Game Ann -> Cy 2.00, Bob -> Cy 0.50 EUR; Chicago Bob -> Ann, Dee (Dan)
    # -> Cy 0.20 EUR; rubber Helen (Cy) -> Richard (Dan), Margaret (Ann) -> Tom
    # (Bob) 1.00 GBP; calypso: no stake. Ann paid Cy 1.80 EUR, Ann paid Bob 1.00 GBP.
    assert {c: {m: str(v) for m, v in p.items()} for c, p in there.balances.items()} == {
        "EUR": {"Ann": "0.00", "Bob": "-0.70", "Cy": "0.90", "Daniel": "-0.20"},
        "GBP": {"Ann": "0.00", "Bob": "0.00", "Cy": "-1.00", "Daniel": "1.00"},
    }
    assert [(p.payer, p.payee, str(p.amount), p.currency) for p in there.settle_up] == [
        ("Bob", "Cy", "0.70", "EUR"),
        ("Daniel", "Cy", "0.20", "EUR"),
        ("Cy", "Daniel", "1.00", "GBP"),
    ]
    assert [(s.member, s.played, s.won) for s in there.standings] == STANDINGS


# Played and won: Top Game won by Cy (Dan sat it out), Chicago by Ann and Cy,
# the rubber by Tom (Bob) and Richard (Dan), Calypso by Bob and Dan.
STANDINGS = [("Ann", 4, 1), ("Bob", 4, 2), ("Cy", 4, 2), ("Daniel", 3, 2)]


def test_the_written_file_has_one_line_per_match_and_per_payment(db):
    made = imported(db, friday())
    text = gf.dumps(exported(db, made.group_id))
    lines = text.splitlines()
    assert lines[:4] == [
        "{",
        '  "format": "scorekeeper-group/1",',
        '  "name": "Friday four",',
        '  "members": ["Ann", "Bob", "Cy", "Dan"],',
    ]
    assert len(lines) == 1 + 4 + (2 + 4) + (2 + 1) + 1
    assert json.loads(text) == friday()


def test_a_deleted_match_is_left_out_of_the_group_file(db):
    from scorekeeper.changelog import DELETE_MATCH, Command

    made = imported(db, friday())
    rubber = next(i for i in made.state.matches if store.load_match(db, i).variant == "rubber")
    store.apply(db, rubber, Command(DELETE_MATCH, revision=1))
    variants = [m["match"]["variant"] for m in exported(db, made.group_id)["matches"]]
    assert variants == ["top-game", "chicago", "calypso"]


# --- the same file twice, a copy, a double tap --------------------------------------


def test_the_same_file_imported_again_is_already_here_and_stores_nothing(db):
    made = imported(db, friday())
    counts = (db["groups"].count, db["matches"].count, db["group_changes"].count)
    with pytest.raises(gf.GroupHere) as here:
        imported(db, friday())
    assert here.value.state.id == made.group_id and here.value.imported
    assert (db["groups"].count, db["matches"].count, db["group_changes"].count) == counts


def test_the_file_of_a_group_started_here_is_already_here(db):
    made = g.create_group(db, "Tuesday", ["Ann", "Bob"])
    doc = exported(db, made.group_id)
    with pytest.raises(gf.GroupHere) as here:
        imported(db, doc)
    assert here.value.state.id == made.group_id and not here.value.imported


def test_a_copy_is_a_group_of_its_own_with_its_own_matches(db):
    first = imported(db, friday())
    second = imported(db, friday(), copy=True)
    assert second.group_id != first.group_id
    assert set(first.state.matches).isdisjoint(second.state.matches)
    assert (db["groups"].count, db["matches"].count) == (2, 8)
    assert exported(db, second.group_id) == exported(db, first.group_id)


def test_the_same_form_sent_twice_answers_as_the_first_time(db):
    first = imported(db, friday(), submission="k" * 16)
    again = imported(db, friday(), submission="k" * 16)
    assert again.repeated and again.group_id == first.group_id
    assert (db["groups"].count, db["matches"].count) == (1, 4)


def test_a_refusal_deep_inside_stores_nothing(db, monkeypatch):
    """A payment refused after the group and its matches were written: the
    whole import is rolled back."""
    doc = friday()
    original = g.apply_in

    def refuse_payments(database, group_id, cmd, **kw):
        if cmd.kind == g.PAY:
            raise g.GroupRefused("the store refused a payment")
        return original(database, group_id, cmd, **kw)

    monkeypatch.setattr(gf, "apply_in", refuse_payments)
    with pytest.raises(g.GroupRefused):
        imported(db, doc)
    assert (db["groups"].count, db["matches"].count, db["changes"].count) == (0, 0, 0)
    assert db["group_changes"].count == 0 and db["group_matches"].count == 0


# --- every problem one line naming where --------------------------------------------


def problems_of(doc) -> list[str]:
    with pytest.raises(MatchError) as refused:
        gf.loads(json.dumps(doc))
    return refused.value.lines


def changed(path, value):
    doc = friday()
    target = doc
    for step in path[:-1]:
        target = target[step]
    if path[-1] == "+":
        target.append(value)
    elif value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return doc


@pytest.mark.parametrize(
    ("path", "value", "line"),
    [
        (
            ["format"],
            "scorekeeper-match/1",
            "format: 'scorekeeper-match/1' is not 'scorekeeper-group/1'",
        ),
        (
            ["colour"],
            "red",
            "colour: unknown key; allowed: format, name, members, retired, stakes, matches,"
            " payments",
        ),
        (["name"], "", "name: Give the group a name, like “Friday trio”."),
        (["members"], "Ann", 'members: give the members\' names in order: ["Ann", "Bob"]'),
        (["members", "+"], "ann", "members[4]: ann reads the same as the member Ann"),
        (
            ["members", "+"],
            "E\u200bve",
            "members[4]: This name has an invisible formatting character"
            " (U+200B ZERO WIDTH SPACE): type it without that character",
        ),
        (["members", "+"], " Eve", "members[4]: ' Eve': write the name without spaces around it"),
        (
            ["stakes", "poker"],
            EUR_STAKE,
            f'stakes: poker: not a game id; give "*" or one of {", ".join(VARIANT_IDS)}',
        ),
        (
            ["stakes", "*", "amount"],
            "1,5",
            "stakes: *: '1,5' is not an amount: write it like 0.50 or 0,50,"
            " with no thousands separator",
        ),
        (["stakes", "*"], None, 'stakes: *: give a stake like {"amount": "0.50", "per": 1}'),
        (
            ["matches", 2, "match", "hands", 2, "contract"],
            "8S",
            "matches[2]: hand 3: contract: level 8 is not allowed, use 1–7",
        ),
        (
            ["matches", 1, "match", "played"],
            "20 Nov",
            "matches[1]: played: '20 Nov' is not a day written like \"2026-11-20\"",
        ),
        (
            ["matches", 1, "mapping", "Dee"],
            "Dee",
            "matches[1]: mapping: Dee: 'Dee' is not one of the members",
        ),
        (
            ["matches", 1, "mapping"],
            {},
            "matches[1]: mapping: Dee: is not a member; map the player to one",
        ),
        (
            ["matches", 1, "mapping", "Zed"],
            "Ann",
            "matches[1]: mapping: Zed: does not play in this match",
        ),
        (
            ["matches", 1, "mapping", "Cy"],
            "Ann",
            "matches[1]: mapping: Ann and Cy are both Ann: a member plays once in a match",
        ),
        (["matches", 0, "score"], 3, "matches[0]: score: unknown key; allowed: mapping, match"),
        (["matches", 0], [], 'matches[0]: give an object {"mapping": …, "match": …}'),
        (
            ["payments", 0, "amount"],
            "7.505",
            "payments[0]: amount: Write an amount above 0 with at most two decimals, like 7.50",
        ),
        (["payments", 0, "amount"], 7.5, "payments[0]: amount: Write the amount, like 7.50"),
        (["payments", 0, "from"], "Eve", "payments[0]: from: 'Eve' is not one of the members"),
        (
            ["payments", 0, "to"],
            "Ann",
            "payments[0]: to: a member pays another member, not themselves",
        ),
        (
            ["payments", 0, "date"],
            "2026-02-30",
            "payments[0]: date: '2026-02-30' is not a day written like \"2026-11-20\"",
        ),
        (
            ["payments", 0, "currency"],
            "E" * 13,
            "payments[0]: currency: give text of at most 12 characters",
        ),
        (
            ["payments", 0, "by"],
            "",
            "payments[0]: by: give the phone's name, text of 1–30 characters",
        ),
        (
            ["payments", 0, "when"],
            "now",
            "payments[0]: when: unknown key; allowed: from, to, amount, currency, date, by",
        ),
    ],
)
def test_each_problem_is_one_line_naming_where(path, value, line):
    assert problems_of(changed(path, value)) == [line]


def test_every_problem_of_a_file_is_listed_at_once():
    doc = changed(["payments", 0, "amount"], "0")
    doc["matches"][0]["match"]["players"] = ["Ann", "Bob"]
    assert problems_of(doc) == [
        "matches[0]: players: top-game needs 3 players, not 2",
        "payments[0]: amount: Write an amount above 0 with at most two decimals, like 7.50",
    ]


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        (b"[]", "file: the group file must be a JSON object"),
        (
            b'{"format": "scorekeeper-group/1",',
            "file: not valid JSON: Expecting property name enclosed in double quotes"
            " at line 1 column 34",
        ),
        (b"\xff{}", "file: not a UTF-8 text file"),
        (
            b'{"format": "scorekeeper-group/1", "name": "' + b"x" * gf.MAX_GROUP_FILE_BYTES + b'"}',
            "file: larger than 4 MB; a group file holds at most 40 members, 500 matches"
            " and 2000 payments, in a file of at most 4 MB",
        ),
        (
            b'{"format": "scorekeeper-group/1", "name": "Deep", "members": '
            + b"[" * 30
            + b"]" * 30
            + b"}",
            "file: nested too deeply: a group file nests lists and objects at most 23 levels",
        ),
    ],
)
def test_a_file_that_is_no_group_file_is_one_line(raw, line):
    with pytest.raises(MatchError) as refused:
        gf.read_group_file(raw)
    assert refused.value.lines == [line]


def test_the_limits_of_matches_and_payments():
    doc = friday()
    doc["matches"] = doc["matches"][:1] * (gf.MAX_GROUP_MATCHES + 1)
    doc["payments"] = doc["payments"] * (gf.MAX_GROUP_PAYMENTS + 1)
    assert problems_of(doc) == [
        "matches: 501 matches; a group file holds at most 500",
        "payments: 2001 payments; a group file holds at most 2000",
    ]
    long = friday()
    long["matches"][0]["match"]["hands"] = [{"bids": [None, None, None], "passed_out": True}] * (
        MAX_ENTRIES + 1
    )
    assert problems_of(long)[0].startswith(
        "matches[0]: hands: 501 entries; a match holds at most 500"
    )


def test_a_match_file_is_not_taken_for_a_group_file():
    match = (EXAMPLES / "rubber.json").read_bytes()
    assert not gf.names_group(match)
    assert gf.names_group(json.dumps(friday()).encode())
    # Too large to read as JSON, it still says what it is meant to be.
    assert gf.names_group(b'{"format": "scorekeeper-group/1", "name": "' + b"x" * 100)
    assert gf.names_group(b'{"format": "scorekeeper-group/2"}')
    assert not gf.names_group(b'{"title": "scorekeeper-group/1 night"')


def test_a_mapping_may_leave_out_players_of_a_member_s_name(db):
    doc = friday()
    doc["matches"][0]["mapping"] = {}
    made = imported(db, doc)
    top = next(j for j in made.state.matches.values() if "Cy" in j.mapping and len(j.mapping) == 3)
    assert top.mapping == {"Ann": 1, "Bob": 2, "Cy": 3}
    assert copy.deepcopy(doc) == doc
