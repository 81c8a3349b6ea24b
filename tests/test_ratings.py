"""Ratings and head to head (scorekeeper/ratings.py, views/ratings.py, the
`ratings` of `scorekeeper ledger`).

The ratings are checked against the rating library called directly, in this
file, on the same matches in the same order, with the sides and their places
written out by hand from each match's result; head to head against figures
counted by hand from the same matches.

The group (tests/test_web_ledger.py, members Ann, Bob, Cy, Dee), in the order
played, each match's sides best first:
  1. 2026-10-30 Need a Fourth?  Cy 1150 (won), Bob 1100, Ann −350: each alone
  2. 2026-11-06 Top Game        Bob 18 (won), Ann 0, Cy −18: each alone
  3. 2026-11-13 rubber          Bob & Dee (won) over Ann & Cy
  4. 2026-11-20 Calypso         Ann & Cy (won; "Annie" is Ann) over Bob & Dee ("Dan")
  5. 2026-11-21 Chicago         Bob & Dee (won) over Ann & Cy
"""

from __future__ import annotations

import csv
import io
import json
from datetime import date
from decimal import Decimal
from fractions import Fraction

import pytest
from openskill.models import PlackettLuce

from scorekeeper import cli
from scorekeeper import db as store
from scorekeeper.changelog import SETTINGS, Command, undo_command
from scorekeeper.charts import rating_chart
from scorekeeper.matchfile import from_document
from scorekeeper.model import MatchSummary, PlayerTally, Seat
from scorekeeper.ratings import (
    Rating,
    Step,
    head_to_head,
    played_order,
    ratings,
    sides,
)
from scorekeeper.report import match_summary
from tests.test_web_ledger import PLAYED, make_group
from tests.webtools import visible_text

# --- the library, called directly on the group's matches ------------------------------

# Each match: its game and its sides best first, with each side's place (1 is first).
BY_HAND = [
    ("need-a-fourth", [(["Cy"], 1), (["Bob"], 2), (["Ann"], 3)]),
    ("top-game", [(["Bob"], 1), (["Ann"], 2), (["Cy"], 3)]),
    ("rubber", [(["Bob", "Dee"], 1), (["Ann", "Cy"], 2)]),
    ("calypso", [(["Ann", "Cy"], 1), (["Bob", "Dee"], 2)]),
    ("chicago", [(["Bob", "Dee"], 1), (["Ann", "Cy"], 2)]),
]


def by_the_library(matches) -> tuple[dict, dict]:
    """Each member's (mu, sigma, ordinal, matches) over all games and per game,
    from PlackettLuce() with its defaults called once per match."""
    model = PlackettLuce()
    overall: dict = {}
    games: dict = {}
    for game, found in matches:
        for table in (overall, games.setdefault(game, {})):
            teams = [[table.get(m, (model.rating(), 0))[0] for m in side] for side, _ in found]
            new = model.rate(teams, ranks=[place for _, place in found])
            for (side, _), team in zip(found, new, strict=True):
                for member, rating in zip(side, team, strict=True):
                    table[member] = (rating, table.get(member, (None, 0))[1] + 1)
    figures = lambda table: {  # noqa: E731
        m: (r.mu, r.sigma, r.ordinal(), n) for m, (r, n) in sorted(table.items())
    }
    return figures(overall), {game: figures(t) for game, t in sorted(games.items())}


EXPECTED_OVERALL, EXPECTED_GAMES = by_the_library(BY_HAND)


def figures(rating: Rating) -> tuple[float, float, float, int]:
    return (rating.mu, rating.sigma, rating.ordinal, rating.matches)


def group_summaries_by_hand() -> list[MatchSummary]:
    """The group's matches as summaries, names mapped to members, in the order given
    in PLAYED (not the order played)."""
    found = []
    for i, (doc, day, mapping) in enumerate(PLAYED):
        summary = match_summary(from_document(doc), key=f"m{i}")
        same = {"Annie": "Ann", "Dan": "Dee"} if mapping else {}
        found.append(
            MatchSummary(
                summary.key,
                summary.variant,
                date.fromisoformat(day),
                summary.finished,
                summary.currency,
                summary.seats,
            ).renamed(same)
        )
    return found


def test_ratings_agree_with_the_library_called_directly_on_the_same_matches_in_order():
    found = ratings(played_order(group_summaries_by_hand()))
    assert found.rated == ("m4", "m0", "m1", "m2", "m3")  # by the day played
    assert {m: figures(r) for m, r in found.overall.items()} == EXPECTED_OVERALL
    assert {
        game: {m: figures(r) for m, r in members.items()} for game, members in found.games.items()
    } == EXPECTED_GAMES
    # Every member played all five but Dee (three): all still settling.
    assert {m: r.words for m, r in found.overall.items()} == {
        m: f"about {round(o)}, still settling after {n} matches"
        for m, (_, _, o, n) in EXPECTED_OVERALL.items()
    }


def test_the_order_of_the_matches_changes_the_ratings():
    """Rated in the order given (not played) the figures differ: the order matters."""
    found = ratings(group_summaries_by_hand())
    assert {m: figures(r) for m, r in found.overall.items()} != EXPECTED_OVERALL


# --- the sides of a match --------------------------------------------------------------


def seat(player, won, points, partner=None) -> Seat:
    return Seat(player, won, points, Fraction(0), Decimal(0), PlayerTally(partner=partner))


def summary(key, variant, seats, *, finished=True, played=None) -> MatchSummary:
    return MatchSummary(key, variant, played, finished, None, tuple(seats))


def test_each_player_is_a_side_where_there_are_no_fixed_partners_and_equal_results_share():
    top = summary(
        "t",
        "top-game",
        [seat("Ann", False, 0), seat("Bob", True, 9), seat("Cy", False, 0), seat("Dee", False, -9)],
    )
    assert [(s.members, s.rank) for s in sides(top)] == [
        (("Bob",), 1),
        (("Ann",), 2),
        (("Cy",), 2),
        (("Dee",), 4),
    ]


def test_fixed_partners_are_one_side_and_a_drawn_match_ranks_both_sides_first():
    rubber = summary(
        "r",
        "rubber",
        [
            seat("Ann", True, 500, "Cy"),
            seat("Bob", True, 500, "Dee"),
            seat("Cy", True, 500, "Ann"),
            seat("Dee", True, 500, "Bob"),
        ],
    )
    assert [(s.members, s.rank) for s in sides(rubber)] == [(("Ann", "Cy"), 1), (("Bob", "Dee"), 1)]


def test_an_unfinished_match_or_a_member_on_two_sides_is_not_rated():
    running = summary(
        "u", "top-game", [seat("Ann", False, 3), seat("Bob", False, -3)], finished=False
    )
    # Two names of a rubber mapped to one member: Ann on both sides.
    twice = summary(
        "w",
        "rubber",
        [seat("Ann", True, 900, "Cy"), seat("Cy", True, 900, "Ann"), seat("Bob", False, 0, "Ann")],
    )
    assert (sides(running), sides(twice)) == (None, None)
    found = ratings([running, twice])
    assert (found.rated, found.left_out, found.overall) == (
        (),
        {"u": "not finished", "w": "a member sits on two sides"},
        {},
    )


def test_matches_in_the_order_played_by_day_then_start_then_as_given():
    day = date(2026, 11, 6)
    a, b, c, d, e = (
        summary(k, "top-game", [seat("Ann", True, 1), seat("Bob", False, -1)], played=p)
        for k, p in (("a", day), ("b", day), ("c", None), ("d", date(2026, 11, 5)), ("e", day))
    )
    started = {"a": "2026-11-06T21:00:00+00:00", "b": "2026-11-06T19:30:00+00:00"}
    assert [s.key for s in played_order([a, b, c, d, e], started)] == ["c", "d", "e", "b", "a"]


@pytest.mark.parametrize(
    "sigma, settling",
    [
        (8.3, "still settling"),
        (6.0, "still settling"),
        (5.99, "settling down"),
        (4.01, "settling down"),
        (3.99, "fairly settled"),
    ],
)
def test_the_words_say_how_settled_a_rating_is(sigma, settling):
    rating = Rating("Ann", None, (Step("m", None, 27.3, sigma, 27.3 - 3 * sigma),))
    assert rating.settling == settling
    assert rating.words == f"about {round(27.3 - 3 * sigma)}, {settling} after 1 match"


# --- head to head, counted by hand ------------------------------------------------------


def test_head_to_head_of_the_group_counted_by_hand():
    met = head_to_head(played_order(group_summaries_by_hand()))
    assert met.matches == 5
    assert [
        (p.first, p.second, p.against, p.first_ahead, p.second_ahead, p.level, p.together,
         p.won_together)
        for p in met.meetings
    ] == [
        ("Ann", "Bob", 5, 1, 4, 0, 0, 0),
        ("Ann", "Cy", 2, 1, 1, 0, 3, 1),
        ("Ann", "Dee", 3, 1, 2, 0, 0, 0),
        ("Bob", "Cy", 5, 3, 2, 0, 0, 0),
        ("Bob", "Dee", 0, 0, 0, 0, 3, 2),
        ("Cy", "Dee", 3, 1, 2, 0, 0, 0),
    ]  # fmt: skip
    # Bob met Ann and Cy five times each: the first by name; Dee met Ann and Cy three times.
    assert {m: p.other(m) for m, p in met.rivals.items()} == {
        "Ann": "Bob",
        "Bob": "Ann",
        "Cy": "Bob",
        "Dee": "Ann",
    }
    assert {m: p.other(m) for m, p in met.partners.items()} == {
        "Ann": "Cy",
        "Bob": "Dee",
        "Cy": "Ann",
        "Dee": "Bob",
    }
    best = met.best_partnership
    assert (best.first, best.second, best.together_words) == (
        "Bob",
        "Dee",
        "3 matches as partners, 2 won",
    )
    assert met.rivals["Ann"].against_words == (
        "5 matches against each other: Ann ahead in 1, Bob in 4, level in 0"
    )


def test_head_to_head_level_and_the_best_partner_by_wins_then_share():
    # Top Game: Ann and Bob level behind Cy, twice. Rubber: Ann & Bob win 1 of 1;
    # Ann & Cy win 1 of 2: one win each, Bob has the larger share.
    top = [seat("Ann", False, 0), seat("Bob", False, 0), seat("Cy", True, 4)]
    rubbers = [
        ("Ann", "Bob", "Cy", "Dee", True),
        ("Ann", "Cy", "Bob", "Dee", True),
        ("Ann", "Cy", "Bob", "Dee", False),
    ]
    matches = [summary("t1", "top-game", top), summary("t2", "top-game", top)]
    for i, (a, b, c, d, first_won) in enumerate(rubbers):
        we, they = (900, 100) if first_won else (100, 900)
        matches.append(
            summary(
                f"r{i}",
                "rubber",
                [
                    seat(a, first_won, we, b),
                    seat(c, not first_won, they, d),
                    seat(b, first_won, we, a),
                    seat(d, not first_won, they, c),
                ],
            )  # fmt: skip
        )
    met = head_to_head(matches)
    ann_bob = next(p for p in met.meetings if (p.first, p.second) == ("Ann", "Bob"))
    assert (ann_bob.against, ann_bob.level, ann_bob.together, ann_bob.won_together) == (4, 2, 1, 1)
    assert met.partners["Ann"].other("Ann") == "Bob"
    assert met.partners["Ann"].together_words == "1 match as partners, 1 won"


# --- the chart --------------------------------------------------------------------------


def test_the_rating_chart_reads_one_decimal_and_starts_at_zero():
    chart = rating_chart([Decimal("2.4"), Decimal("-1.0"), Decimal("3.5")], chart_id="r")
    assert [row["label"] for row in chart["rows"]] == ["1", "2", "3"]
    assert [row["cells"] for row in chart["rows"]] == [["2.4"], ["−1.0"], ["3.5"]]
    assert chart["lines"][0]["last"] == "3.5"
    assert chart["summary"] == "After match 3: 3.5."
    assert [t["text"] for t in chart["x_ticks"]] == ["0", "1", "2", "3"]
    assert rating_chart([]) is None


# --- the pages, the CSV and the ledger command agree with the library -------------------


def cards(page) -> dict[str, str]:
    """Each member's card of a ratings or head-to-head page: its visible text, by member."""
    html = page.get_data(as_text=True)
    found = {}
    for part in html.split('<section class="stats-card"')[1:]:
        text = visible_text("<section" + part.split("</section>")[0])
        found[text.split(" ")[0]] = text
    return found


@pytest.fixture
def db(app):
    database = store.connect(app.config["DATABASE"])
    yield database
    database.close()


def test_the_ratings_page_and_csv_show_the_librarys_figures(client, db):
    group_id, _ = make_group(db)
    page = client.get(f"/g/{group_id}/ratings")
    assert page.status_code == 200
    text = visible_text(page)
    assert "5 finished matches rated." in text
    shown = {
        member: card.split(" All games ")[1].split(" every finished")[0]
        for member, card in cards(page).items()
    }
    assert shown == {
        m: f"about {round(o)}, still settling after {n} matches"
        for m, (_, _, o, n) in EXPECTED_OVERALL.items()
    }
    assert "How ratings work" in text
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{group_id}/ratings.csv").text)))
    assert rows[0] == ["member", "game", "matches", "mu", "sigma", "ordinal", "shown"]
    overall = {
        r[0]: (float(r[3]), float(r[4]), float(r[5]), int(r[2]))
        for r in rows
        if r[1] == "all games"
    }
    assert overall == EXPECTED_OVERALL
    calypso = {
        r[0]: (float(r[3]), float(r[4]), float(r[5]), int(r[2])) for r in rows if r[1] == "Calypso"
    }
    assert calypso == EXPECTED_GAMES["calypso"]
    assert [r[6] for r in rows[1:5]] == [
        str(round(EXPECTED_OVERALL[m][2])) for m in ("Ann", "Bob", "Cy", "Dee")
    ]


def overall_csv(client, group_id) -> dict:
    """Each member's (mu, sigma, ordinal, matches) over all games, from the ratings CSV."""
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{group_id}/ratings.csv").text)))
    return {
        r[0]: (float(r[3]), float(r[4]), float(r[5]), int(r[2]))
        for r in rows
        if r[1] == "all games"
    }


def test_the_ratings_follow_the_start_time_within_a_day(client, db):
    """Two matches played the same day: the later start is rated second, whatever
    their order in the group."""
    group_id, ids = make_group(db)
    # Chicago (added last) played on the Calypso's day, started an hour before it.
    db.execute(
        "update matches set created = ?, played = ? where id = ?",
        ["2026-11-20T19:00:00+00:00", "2026-11-20", ids[3]],
    )
    db.conn.commit()
    overall, _ = by_the_library([BY_HAND[i] for i in (0, 1, 2, 4, 3)])
    assert overall_csv(client, group_id) == overall != EXPECTED_OVERALL


def test_the_ratings_follow_the_stored_day_played_not_the_start(client, db):
    """The day played set in a match's settings orders the ratings: the Calypso
    (started 20 Nov) moved to 22 Nov is rated after the Chicago (21 Nov); moved
    back by Undo, the ratings are the first figures again, exactly."""
    group_id, ids = make_group(db)
    assert overall_csv(client, group_id) == EXPECTED_OVERALL
    calypso = ids[2]  # PLAYED's third: played and started on 20 Nov
    stored = store.load_match(db, calypso)
    assert (stored.variant, stored.played) == ("calypso", date(2026, 11, 20))
    stake = stored.match.stake.as_json()  # the stake stays; only the day moves
    settings = {"title": stored.title or "", "stake": stake, "played": "2026-11-22"}
    moved = store.apply(db, calypso, Command(SETTINGS, settings=settings))
    assert (moved.state.played, moved.state.created[:10]) == (date(2026, 11, 22), "2026-11-20")
    overall, _ = by_the_library([BY_HAND[i] for i in (0, 1, 2, 4, 3)])
    assert overall_csv(client, group_id) == overall != EXPECTED_OVERALL
    entry = moved.state.log[-1]
    store.apply(db, calypso, undo_command(moved.state, entry))
    assert overall_csv(client, group_id) == EXPECTED_OVERALL


def test_the_head_to_head_page(client, db):
    group_id, _ = make_group(db)
    page = client.get(f"/g/{group_id}/head-to-head")
    assert page.status_code == 200
    text = visible_text(page)
    assert "Best partnership of the group: Bob & Dee , 3 matches as partners, 2 won" in text
    ann = cards(page)["Ann"]
    assert "Rival Bob : 5 matches against each other: Ann ahead in 1, Bob in 4, level in 0" in ann
    assert "Best partner Cy : 3 matches as partners, 1 won" in ann
    assert (
        "With Cy : 2 matches against each other: Ann ahead in 1, Cy in 1, level in 0;"
        " 3 matches as partners, 1 won." in ann
    )


def test_the_statistics_page_links_to_the_ratings_and_an_unknown_group_is_404(client, db):
    group_id, _ = make_group(db, [])
    stats = client.get(f"/g/{group_id}/statistics").text
    assert f'href="/g/{group_id}/ratings"' in stats
    assert "No finished match to rate yet." in visible_text(client.get(f"/g/{group_id}/ratings"))
    assert "No finished match with two members yet." in visible_text(
        client.get(f"/g/{group_id}/head-to-head")
    )
    for path in ("ratings", "ratings.csv", "head-to-head"):
        assert client.get(f"/g/{'x' * 22}/{path}").status_code == 404


def test_the_ledger_command_prints_the_same_ratings(tmp_path, capsys):
    files = []
    for i, (doc, day, _) in enumerate(PLAYED):
        path = tmp_path / f"m{i}.json"
        path.write_text(json.dumps({**doc, "played": day}), encoding="utf-8")
        files.append(str(path))
    status = cli.main(["ledger", *files, "--same", "Annie=Ann", "--same", "Dan=Dee"])
    out, err = capsys.readouterr()
    assert (status, err) == (0, "")
    doc = json.loads(out)
    assert list(doc) == ["matches", "balances", "payments", "ratings"]
    as_json = lambda table: {  # noqa: E731
        m: {"matches": n, "mu": mu, "sigma": s, "ordinal": o} for m, (mu, s, o, n) in table.items()
    }
    assert doc["ratings"] == {
        "model": "openskill PlackettLuce, default parameters",
        "matches": 5,
        "overall": as_json(EXPECTED_OVERALL),
        "games": {game: as_json(t) for game, t in EXPECTED_GAMES.items()},
    }
