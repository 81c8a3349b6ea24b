"""Properties of whole matches, checked on generated match files (hypothesis).

Valid match files are built hand by hand: each next hand is drawn from what the
replay so far says is legal (`Outcome.upcoming`: dealer, bidding order, the
players of a Bridge for Three hand, …), so every generated file must score.
Invalid files are valid ones with one mutation that the rules must reject.
How to draw a legal hand of a game, its options and which of its fields may be
left out is its own tests' (GENERATED in tests/test_<family>.py, tests/games.py).
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import re
import sys
from decimal import Decimal
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import cli
from scorekeeper.games.catalog import VARIANTS
from scorekeeper.games.common import Outcome
from scorekeeper.matchfile import TOP_LEVEL_KEYS, dumps, from_document, loads
from scorekeeper.names import text_problem
from scorekeeper.report import score_document
from scorekeeper.settle import exact_balances, settle
from scorekeeper.variants import MatchError, replay, replay_match
from tests.games import Generated, pinned

SETTINGS = settings(
    max_examples=30,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
FEW = settings(SETTINGS, max_examples=15)

MAX_HANDS = 24
NAMES = ["Ann", "Bob", "Cy", "Dee", "Eve", "Zoë", "Åsa"]
FORMAT = "scorekeeper-match/1"
FLOOR, WINNING_HOLE = -6, 11
ALL_VARIANTS = list(VARIANTS)


def generated(variant: str) -> Generated:
    """How to draw a legal match of the variant, as its game's own tests say
    (GENERATED in tests/test_<family>.py, tests/games.py)."""
    return pinned(variant, "GENERATED")


STAKES = st.fixed_dictionaries(
    {
        "amount": st.sampled_from(["0", "0.01", "0.10", "0.50", "1", "2.5", "0.333333", "7"]),
        "per": st.sampled_from([1, 3, 7, 10, 100]),
    },
    optional={"currency": st.sampled_from(["", "EUR", "£"])},
)


# A title holds what any short text the app stores may (names.text_problem).
TITLES = st.text(
    st.characters(exclude_categories=("Cc", "Cs", "Cf", "Zl", "Zp")), max_size=20
).filter(lambda title: text_problem(title) is None)


@st.composite
def matches(draw, variant: str, stake=None, end=True) -> dict[str, Any]:
    """A valid match document for `variant`, each hand legal after the ones before."""
    count = draw(st.sampled_from(VARIANTS[variant].player_counts))
    players = draw(st.permutations(NAMES))[:count]
    options = draw(generated(variant).options)
    doc: dict[str, Any] = {"format": FORMAT, "variant": variant}
    if draw(st.booleans()):
        doc["title"] = draw(TITLES)
    doc |= {"players": players, "options": options}
    stake = stake if stake is not None else draw(st.one_of(st.none(), STAKES))
    if stake is not None:
        doc["stake"] = stake
    hands: list[dict[str, Any]] = []
    for _ in range(draw(st.integers(0, MAX_HANDS))):
        outcome = replay(variant, players, options, hands)
        if outcome.finished:
            break
        hands.append(generated(variant).hand(draw, players, outcome.upcoming))
    if (
        end
        and draw(st.integers(0, 4)) == 0
        and not replay(variant, players, options, hands).finished
    ):
        hands.append({"end": True})
    doc["hands"] = hands
    return doc


def outcome_of(doc: dict[str, Any]) -> Outcome:
    return replay(doc["variant"], doc["players"], doc.get("options", {}), doc["hands"])


# --- Top Game: zero-sum ----------------------------------------------------------


@SETTINGS
@given(doc=matches("top-game"))
def test_top_game_every_hand_and_the_totals_sum_to_zero(doc):
    scored = score_document(from_document(doc))
    for hand in scored["hands"]:
        assert sum(hand["scores"].values()) == 0
    assert sum(scored["totals"].values()) == 0


# --- Bridge for Three: the peg board ----------------------------------------------


@settings(SETTINGS, max_examples=40)
@given(doc=matches("bridge-for-three", end=False))
def test_bridge_for_three_pegs_stay_on_the_board_and_hole_11_ends_the_game(doc):
    outcome = outcome_of(doc)
    pegs = dict.fromkeys(doc["players"], 0)
    for hand in outcome.hands:
        pegs = {p: pegs[p] + hand.scores[p] for p in pegs}
        assert all(FLOOR <= peg <= WINNING_HOLE for peg in pegs.values())
        assert pegs == hand.details.pegs_after
    assert pegs == outcome.totals
    reached = [p for p in doc["players"] if pegs[p] == WINNING_HOLE]
    assert outcome.finished == bool(reached)
    assert outcome.winners == reached
    if reached:
        # Only the last hand may reach 11: generation stops there, and nothing may follow.
        earlier = outcome_of({**doc, "hands": doc["hands"][:-1]})
        assert not earlier.finished
        n = len(doc["hands"])
        more = {"declarer": outcome.hands[-1].details.players[0], "contract": "1C", "tricks": 7}
        with pytest.raises(MatchError) as caught:
            outcome_of({**doc, "hands": [*doc["hands"], more]})
        assert caught.value.lines == [
            f"hand {n + 1}: the match is already finished after hand {n}; no hand may follow"
        ]


def test_bridge_for_three_generator_reaches_hole_11_often():
    # The property above is only worth something if generated games do finish.
    finished = 0

    @settings(SETTINGS, max_examples=40, database=None, derandomize=True)
    @given(doc=matches("bridge-for-three", end=False))
    def count(doc):
        nonlocal finished
        finished += outcome_of(doc).finished

    count()
    assert finished >= 5


# --- settlement -------------------------------------------------------------------

AMOUNT = re.compile(r"^[0-9]+\.[0-9]{2}$")


def check_settlement(doc: dict[str, Any]) -> None:
    match = from_document(doc)
    outcome = replay_match(match)
    amount, per = match.stake.amount, match.stake.per
    balances, payments = settle(outcome, amount, per)
    players = doc["players"]
    assert list(balances) == players
    assert sum(balances.values()) == 0
    assert all(b == b.quantize(Decimal("0.01")) for b in balances.values())
    exact = exact_balances(outcome, amount, per)
    assert all(abs(Fraction(balances[p]) - exact[p]) < Fraction(1, 100) for p in players)
    assert len(payments) <= len(players) - 1
    net = dict.fromkeys(players, Decimal(0))
    for payment in payments:
        assert payment.amount > 0
        assert payment.payer != payment.payee
        net[payment.payer] -= payment.amount
        net[payment.payee] += payment.amount
    assert net == balances
    written = score_document(match, outcome)["settlement"]
    assert written == [p.as_json() for p in payments]
    assert all(AMOUNT.match(p["amount"]) for p in written)
    assert [(p["from"], p["to"]) for p in written] == sorted((p["from"], p["to"]) for p in written)


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@FEW
@given(data=st.data())
def test_settlement_balances_sum_to_zero_with_at_most_n_minus_1_payments(variant, data):
    check_settlement(data.draw(matches(variant, stake=data.draw(STAKES))))


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@FEW
@given(data=st.data())
def test_settlement_of_one_unit_per_three_points_stays_exact(variant, data):
    # 1/3 money a point is not a decimal: balances are rounded once, at the end.
    check_settlement(data.draw(matches(variant, stake={"amount": "1", "per": 3})))


# --- replay is a pure function of the file -----------------------------------------


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@FEW
@given(data=st.data())
def test_scoring_the_same_file_twice_gives_the_same_document(variant, data):
    text = json.dumps(data.draw(matches(variant)))
    first, second = score_document(loads(text)), score_document(loads(text))
    assert first == second
    assert json.dumps(first) == json.dumps(second)
    assert score_document(loads(dumps(loads(text)))) == first


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@FEW
@given(data=st.data())
def test_one_scored_hand_per_entry_and_scores_add_up_to_the_totals(variant, data):
    doc = data.draw(matches(variant))
    scored = score_document(from_document(doc))
    assert [h["number"] for h in scored["hands"]] == list(range(1, len(doc["hands"]) + 1))
    for player in doc["players"]:
        assert sum(h["scores"][player] for h in scored["hands"]) == scored["totals"][player]


# --- invalid files: exit 2, a line per problem, never a traceback ------------------

# Wrong values for each top-level key; none of them can be read as valid.
WRONG_TOP_LEVEL = {
    "format": st.one_of(st.integers(), st.just("scorekeeper-match/2"), st.lists(st.none())),
    "variant": st.one_of(st.integers(), st.none(), st.just("bridge"), st.just("Top-Game")),
    "title": st.one_of(st.integers(), st.lists(st.none()), st.text(min_size=121, max_size=130)),
    "players": st.one_of(st.text(max_size=5), st.integers(), st.just({}), st.none()),
    "options": st.one_of(st.text(max_size=3), st.integers(), st.lists(st.none())),
    "stake": st.one_of(st.text(max_size=5), st.integers(), st.none(), st.lists(st.none())),
    "hands": st.one_of(st.text(max_size=5), st.integers(), st.none(), st.just({})),
}
NOT_A_DECIMAL = ["abc", "-0.50", "1e7", "0.0000001", "NaN", "Infinity", "", "1,50"]
# Unknown keys of any text, line breaks included: each problem must stay one line.
KEYS = st.text(min_size=1, max_size=8)
BIG = 10**6  # integers too long for json are covered in test_cli


def out_of_range(low: int, high: int):
    return st.one_of(st.integers(-BIG, low - 1), st.integers(high + 1, BIG))


def pick_hand(draw, hands: list, where=lambda record: True) -> int | None:
    """Index of a hand record (not the end marker) satisfying `where`, or None."""
    found = [i for i, h in enumerate(hands) if isinstance(h, dict) and "end" not in h and where(h)]
    return draw(st.sampled_from(found)) if found else None


def mutate(draw, doc: dict[str, Any]) -> dict[str, Any] | None:
    """One change the rules must reject; None when this kind does not fit the document."""
    variant, hands = doc["variant"], doc["hands"]
    specs = {spec.name: spec for spec in VARIANTS[variant].option_specs}
    kind = draw(
        st.sampled_from(
            [
                "top-level unknown key",
                "top-level wrong value",
                "top-level key deleted",
                "unknown option",
                "bad option",
                "bad stake",
                "bad player name",
                "unknown hand key",
                "hand field wrong type",
                "hand number out of range",
                "hand field deleted",
                "hand not an object",
                "end marker not last",
                "hand after the end",
            ]
        )
    )
    doc = copy.deepcopy(doc)
    hands = doc["hands"]
    if kind == "top-level unknown key":
        key = draw(KEYS.filter(lambda k: k not in TOP_LEVEL_KEYS))
        doc[key] = draw(st.one_of(st.none(), st.integers(), st.text(max_size=3)))
    elif kind == "top-level wrong value":
        key = draw(st.sampled_from(sorted(WRONG_TOP_LEVEL)))
        doc[key] = draw(WRONG_TOP_LEVEL[key])
    elif kind == "top-level key deleted":
        del doc[draw(st.sampled_from(["format", "variant", "players", "hands"]))]
    elif kind == "unknown option":
        key = draw(KEYS.filter(lambda k: k not in specs))
        doc["options"] = {**doc.get("options", {}), key: draw(st.integers(1, 3))}
    elif kind == "bad option":
        if not specs:
            return None
        spec = specs[draw(st.sampled_from(sorted(specs)))]
        if spec.kind == "bool":
            value = draw(st.one_of(st.integers(), st.text(max_size=5), st.lists(st.booleans())))
        else:
            value = draw(
                st.one_of(
                    out_of_range(spec.low, spec.high),
                    st.text(max_size=3),
                    st.booleans(),
                    st.floats(allow_nan=False, allow_infinity=False),
                )
            )
        doc["options"] = {**doc.get("options", {}), spec.name: value}
    elif kind == "bad stake":
        stake = dict(doc.get("stake") or {"amount": "0.50"})
        key = draw(st.sampled_from(["amount", "per", "currency", "unknown"]))
        if key == "amount":
            stake[key] = draw(st.one_of(st.sampled_from(NOT_A_DECIMAL), st.floats(), st.integers()))
        elif key == "per":
            stake[key] = draw(
                st.one_of(st.integers(-BIG, 0), st.text(max_size=3), st.just(True), st.floats())
            )
        elif key == "currency":
            stake[key] = draw(st.one_of(st.integers(), st.text(min_size=13, max_size=20)))
        else:
            stake[draw(KEYS.filter(lambda k: k not in stake))] = 1
        doc["stake"] = stake
    elif kind == "bad player name":
        players = doc["players"]
        i = draw(st.integers(0, len(players) - 1))
        players[i] = draw(
            st.sampled_from(
                ["", "   ", f" {players[i]}", "x" * 41, players[i - 1].upper(), players[i - 1]]
            )
        )
    elif kind == "unknown hand key":
        i = draw(st.integers(0, len(hands) - 1)) if hands else None
        if i is None:
            return None
        allowed = VARIANTS[variant].hand_fields | {"end"}
        key = draw(KEYS.filter(lambda k: k not in allowed))
        hands[i][key] = draw(st.one_of(st.none(), st.integers(), st.booleans()))
    elif kind == "hand field wrong type":
        i = pick_hand(draw, hands)
        if i is None:
            return None
        hands[i][draw(st.sampled_from(sorted(hands[i])))] = {"?": [None]}
    elif kind == "hand number out of range":
        if not out_of_range_hand(draw, hands, variant):
            return None
    elif kind == "hand field deleted":
        optional = generated(variant).optional
        i = pick_hand(draw, hands, lambda h: set(h) - optional)
        if i is None:
            return None
        del hands[i][draw(st.sampled_from(sorted(set(hands[i]) - optional)))]
    elif kind == "hand not an object":
        if not hands:
            return None
        hands[draw(st.integers(0, len(hands) - 1))] = draw(
            st.sampled_from([[], "4S", 3, None, True, [{"tricks": 7}]])
        )
    elif kind == "end marker not last":
        if not hands or hands[-1] == {"end": True}:
            return None
        hands.insert(draw(st.integers(0, len(hands) - 1)), {"end": True})
    elif kind == "hand after the end":
        if not outcome_of(doc).finished:
            return None
        # After a finish by the rules: "already finished"; after an end marker: not last.
        hands.append(copy.deepcopy(hands[-1]))
    return doc


def out_of_range_hand(draw, hands: list, variant: str) -> bool:
    """Put a number of one hand (a field, an HCP, a tally, a contract level) out of range."""
    i = pick_hand(draw, hands)
    if i is None:
        return False
    record = hands[i]
    # The hand's whole numbers, as its game's own tests name them (Generated.numbers).
    targets: list[Any] = list(generated(variant).numbers(record))
    if "contract" in record:
        targets.append("contract")
    if not targets:
        return False
    target = draw(st.sampled_from(targets))
    if target == "contract":
        # One level more than the rules allow (Top Game: more than pn allows).
        level = int(re.match(r"\d+", record["contract"]).group())
        bump = 1 if "bid" in record else 8 - level
        record["contract"] = f"{level + bump}{record['contract'][len(str(level)) :]}"
    else:
        path, low, high = target
        *within, last = path
        place = record
        for step in within:
            place = place[step]
        place[last] = draw(out_of_range(low, high))
    return True


@st.composite
def invalid_texts(draw, variant: str) -> str:
    doc = draw(matches(variant))
    kind = draw(st.sampled_from(["mutated"] * 6 + ["garbage", "truncated"]))
    if kind == "garbage":
        return draw(st.text(max_size=200))
    text = json.dumps(doc, ensure_ascii=draw(st.booleans()))
    if kind == "truncated":
        return text[: draw(st.integers(0, len(text) - 1))]
    for _ in range(5):  # some mutations do not fit every document: try another
        mutated = mutate(draw, doc)
        if mutated is not None:
            return json.dumps(mutated)
    return text[:-1]


def run_cli(text: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with (
        mock.patch.object(sys, "stdin", io.StringIO(text)),
        contextlib.redirect_stdout(out),
        contextlib.redirect_stderr(err),
    ):
        status = cli.main(["score", "-"])
    return status, out.getvalue(), err.getvalue()


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@settings(SETTINGS, max_examples=50)
@given(data=st.data())
def test_invalid_files_exit_2_with_problem_lines_and_no_traceback(variant, data):
    text = data.draw(invalid_texts(variant))
    status, out, err = run_cli(text)
    lines = err.removesuffix("\n").split("\n")  # not splitlines(): names may hold U+2028
    assert (status, out) == (2, "")
    assert lines and all(line.strip() for line in lines)
    assert "Traceback" not in err


@pytest.mark.parametrize("variant", ALL_VARIANTS)
@FEW
@given(data=st.data())
def test_valid_files_exit_0_through_the_cli(variant, data):
    # The other side of the property above: the generator's files are all valid.
    doc = data.draw(matches(variant))
    status, out, err = run_cli(json.dumps(doc))
    assert (status, err) == (0, "")
    assert json.loads(out) == score_document(from_document(doc))
