"""The charts (scorekeeper/charts.py): round ticks, exact coordinates, lines told
apart by more than colour, the same numbers in the table as in the drawing, the
running score of every game as its players call it, the match page, the PDF."""

from __future__ import annotations

import base64
import json
import re
import shutil
import subprocess
from decimal import Decimal
from pathlib import Path

import pytest
from PIL import Image

from scorekeeper import charts
from scorekeeper.charts import Series, balance_chart, index_ticks, line_chart, running_chart
from scorekeeper.games.catalog import build_sheet
from scorekeeper.matchfile import loads
from scorekeeper.variants import replay_match
from tests.games import VARIANT_IDS, pinned
from tests.test_pdf import example, get_pdf, pages_text, store

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"


def example_chart(variant: str) -> dict:
    match = loads((EXAMPLES / f"{variant}.json").read_text(encoding="utf-8"))
    return build_sheet(match, replay_match(match))["chart"]


def dec(*values: str) -> list[Decimal]:
    return [Decimal(v) for v in values]


# --- ticks -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "whole", "ticks"),
    [
        (-28, 23, True, [-40, -20, 0, 20, 40]),  # the Top Game example: 0 in the middle
        (0, 5320, True, [0, 2000, 4000, 6000]),  # Calypso's totals: all above 0
        (-6, 11, True, [-10, -5, 0, 5, 10, 15]),  # Bridge for Three's whole board
        (1, 3, True, [0, 1, 2, 3]),  # small scores keep whole steps, not 0.5
        (0, 0, True, [0, 1]),  # nothing scored yet: still an axis
        (-250, -40, True, [-250, -200, -150, -100, -50, 0]),  # all below 0
        (*dec("-7.50", "7.50"), False, dec("-10", "-5", "0", "5", "10")),  # money
        (*dec("0.10", "0.35"), False, dec("0", "0.1", "0.2", "0.3", "0.4")),  # cents
    ],
)
def test_value_ticks_are_round_and_take_in_zero_and_every_value(low, high, whole, ticks):
    assert charts.value_ticks(low, high, whole) == ticks


@pytest.mark.parametrize(
    ("count", "widest", "ticked"),
    [
        (1, 1, [0]),
        (2, 1, [0, 1]),  # one hand and the start
        (14, 2, [0, 2, 4, 6, 8, 10, 12]),  # 13 hands: every 2nd
        (101, 3, [0, 20, 40, 60, 80, 100]),  # 100 hands: every 20th
        (4, 10, [0, 2]),  # four dates of 10 characters
    ],
)
def test_x_ticks_label_every_first_second_fifth_point_as_room_allows(count, widest, ticked):
    assert index_ticks(count, widest, 297.5) == ticked


def test_tick_labels_use_a_real_minus_sign_and_the_steps_decimals():
    chart = line_chart(
        chart_id="c",
        title="t",
        x_title="x",
        y_title="y",
        labels=["a", "b"],
        series=[Series("Ann", dec("-0.30", "0.10"))],
    )
    assert [t["text"] for t in chart["y_ticks"]] == ["−0.3", "−0.2", "−0.1", "0.0", "0.1"]
    assert [t["zero"] for t in chart["y_ticks"]] == [False, False, False, True, False]


# --- one match, exactly ----------------------------------------------------------

# The Top Game example (examples/top-game.json), 12 hands and a redeal (counted
# with hand 6, the hand dealt again: the axis reads 1–12). The plot runs from
# x 48.5 (18 for the axis title, 3 characters of "−40" at 7.5, 8 for the tick) to
# 346, and from y 10 (40) to 180 (−40): x = 48.5 + 297.5·k/12, y = 95 − 2.125·v.
TOP_GAME_RUNNING = {
    "Ann": [-5, -9, -16, -16, -10, -18, -18, -28, -16, -12, -4, -4],
    "Bob": [10, 6, 11, 11, -1, 9, 9, 5, -1, 3, -1, -1],
    "Cy": [-5, 3, 5, 5, 11, 9, 9, 23, 17, 9, 5, 5],
}
ANN_POINTS = (
    "48.5,95 73.3,105.6 98.1,114.1 122.9,129 147.7,129 172.5,116.2 197.2,133.2 "
    "222,133.2 246.8,154.5 271.6,129 296.4,120.5 321.2,103.5 346,103.5"
)


def test_top_game_example_lines_are_placed_exactly():
    chart = example_chart("top-game")
    assert chart["title"] == "Running score after each hand"
    assert chart["summary"] == "After hand 12: Ann −4, Bob −1, Cy 5."
    assert chart["plot"] == {"left": "48.5", "right": "346", "top": "10", "bottom": "180"}
    assert [(t["y"], t["text"]) for t in chart["y_ticks"]] == [
        ("180", "−40"),
        ("137.5", "−20"),
        ("95", "0"),
        ("52.5", "20"),
        ("10", "40"),
    ]
    assert [t["text"] for t in chart["x_ticks"]] == ["0", "2", "4", "6", "8", "10", "12"]
    [ann, bob, cy] = chart["lines"]
    assert ann["points"] == ANN_POINTS
    # Hand 8: Cy's best (23) and Ann's worst (−28), straight from the formula.
    assert cy["points"].split()[8] == "246.8,46.1"  # 95 − 2.125 × 23 = 46.125
    assert bob["points"].split()[0] == "48.5,95"  # every line starts at 0
    assert [line["last"] for line in chart["lines"]] == ["−4", "−1", "5"]


def test_the_table_has_the_numbers_the_lines_are_drawn_through():
    chart = example_chart("top-game")
    assert chart["names"] == ["Ann", "Bob", "Cy"]
    assert chart["row_heading"] == "Hand"
    assert [row["label"] for row in chart["rows"]] == [str(n) for n in range(1, 13)]
    for column, line in enumerate(chart["lines"]):
        table = [int(row["cells"][column].replace("−", "-")) for row in chart["rows"]]
        assert table == TOP_GAME_RUNNING[line["name"]]
        # Read back from the drawing (after the start at 0): y = 95 − 2.125·v.
        drawn = [float(p.split(",")[1]) for p in line["points"].split()[1:]]
        assert [round((95 - y) / 2.125) for y in drawn] == table


def test_lines_differ_by_dash_and_marker_as_well_as_colour():
    looks = [charts.series_look(i) for i in range(24)]
    firsts = looks[:4]
    for key in ("class", "colour", "dash", "marker"):
        assert len({look[key] for look in firsts}) == 4, key
    triples = {(look["colour"], look["dash"], look["marker"]) for look in looks}
    assert len(triples) == 24  # no two of 24 lines look alike
    assert charts.series_look(24) == charts.series_look(0)
    chart = example_chart("top-game")
    assert [line["dash"] for line in chart["lines"]] == ["", "7 4", "2 3"]
    assert chart["lines"][1]["markers"][0] == "M45.4 91.8h6.3v6.3h-6.3Z"  # Bob's square at 0


def test_one_hand_draws_the_start_and_that_hand():
    chart = running_chart(
        chart_id="one",
        title="Running score after each hand",
        noun="Hand",
        unit="Points",
        hands=["1"],
        series=[Series("Ann", [-5]), Series("Bob", [10]), Series("Cy", [-5])],
    )
    assert [t["text"] for t in chart["x_ticks"]] == ["0", "1"]
    assert [t["text"] for t in chart["y_ticks"]] == ["−5", "0", "5", "10"]
    # Ticks −5 … 10 from y 180 to 10: 0 is at 180 − 170·5/15 = 123.3; the plot
    # starts at 18 + 2 × 7.5 + 8 = 41 (two characters in "−5" and "10").
    assert chart["lines"][1]["points"] == "41,123.3 346,10"
    assert len(chart["lines"][0]["markers"]) == 2
    assert chart["rows"] == [{"label": "1", "cells": ["−5", "10", "−5"]}]


def test_a_hundred_hands_mark_only_the_ticked_hands_and_the_last():
    values = [(-1) ** k * k for k in range(1, 101)]  # −1, 2, −3 … 100
    chart = running_chart(
        chart_id="long",
        title="t",
        noun="Hand",
        unit="Points",
        hands=[str(k) for k in range(1, 101)],
        series=[Series("Ann", values)],
    )
    [line] = chart["lines"]
    assert len(line["points"].split()) == 101
    assert [t["text"] for t in chart["x_ticks"]] == ["0", "20", "40", "60", "80", "100"]
    assert len(line["markers"]) == 6  # the ticked hands, the last among them
    assert len(chart["rows"]) == 100
    assert chart["rows"][-1] == {"label": "100", "cells": ["100"]}


def test_no_hand_no_chart():
    nothing = running_chart(chart_id="c", title="t", noun="Hand", unit="u", hands=[], series=[])
    assert nothing is None
    assert balance_chart([]) is None


def test_a_series_of_the_wrong_length_is_refused():
    with pytest.raises(ValueError, match="Ann: 1 values for 2 points"):
        line_chart(
            chart_id="c",
            title="t",
            x_title="x",
            y_title="y",
            labels=["1", "2"],
            series=[Series("Ann", [1])],
        )


def test_the_same_numbers_draw_the_same_svg():
    assert example_chart("rubber") == example_chart("rubber")


# --- every game: the standing as its players call it ---------------------------------


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_each_game_charts_what_its_players_call_their_standing(variant):
    """The title, lines and last points the game's own tests pin
    (EXAMPLE_RESULTS in tests/test_<family>.py)."""
    title, names, last = pinned(variant, "EXAMPLE_RESULTS").chart
    chart = example_chart(variant)
    assert chart["title"] == title
    assert chart["names"] == names
    assert chart["rows"][-1]["cells"] == last


def test_rubber_lines_end_at_each_sides_points_above_and_below_the_line():
    """The rubber example's sides: their points in every rubber, added up."""
    match = loads((EXAMPLES / "rubber.json").read_text(encoding="utf-8"))
    outcome = replay_match(match)
    units = outcome.summary.unit_points
    chart = build_sheet(match, outcome)["chart"]
    assert [str(sum(u[side] for u in units)) for side in (0, 1)] == chart["rows"][-1]["cells"]


def test_bridge_for_three_lines_end_at_the_pegs():
    match = loads((EXAMPLES / "bridge-for-three.json").read_text(encoding="utf-8"))
    outcome = replay_match(match)
    chart = build_sheet(match, outcome)["chart"]
    last = [int(v.replace("−", "-")) for v in chart["rows"][-1]["cells"]]
    assert last == [outcome.totals[p] for p in match.players]


# --- the ledger's running balance ----------------------------------------------


def test_balance_chart_over_dates_carries_a_missing_member_forward():
    chart = balance_chart(
        [
            ("2026-10-02", {"Ann": Decimal("7.50"), "Bob": Decimal("-7.50")}),
            ("2026-10-09", {"Ann": Decimal("3.25"), "Cy": Decimal("-2.25")}),
            ("2026-10-16", {"Ann": Decimal("-4"), "Bob": Decimal("6.10"), "Cy": Decimal("-2.10")}),
        ],
        chart_id="balance-EUR",
        title="Running balance in EUR",
        unit="EUR",
    )
    assert chart["names"] == ["Ann", "Bob", "Cy"]
    assert chart["row_heading"] == "Date"
    assert chart["rows"] == [
        {"label": "2026-10-02", "cells": ["7.50", "−7.50", "0.00"]},
        {"label": "2026-10-09", "cells": ["3.25", "−7.50", "−2.25"]},
        {"label": "2026-10-16", "cells": ["−4.00", "6.10", "−2.10"]},
    ]
    assert chart["summary"] == "On 2026-10-16: Ann −4.00, Bob 6.10, Cy −2.10."
    assert [t["text"] for t in chart["y_ticks"]] == ["−10", "−5", "0", "5", "10"]
    # A date at either end of the axis is moved in, never cut off by the edge.
    assert [(t["text"], t["x"], t["label_x"]) for t in chart["x_ticks"]] == [
        ("2026-10-02", "48.5", "48.5"),
        ("2026-10-09", "197.2", "197.2"),
        ("2026-10-16", "346", "321.5"),  # 360 − 10 × 7.5 / 2 − 1
    ]


# --- the stylesheet: the screen's light colours are the paper's --------------------


def light_values(css: str, selector: str) -> dict[str, str]:
    block = re.search(re.escape(selector) + r"\s*\{(.*?)\}", css, re.S).group(1)
    return dict(re.findall(r"(--[\w-]+):\s*([^;]+);", block))


def test_the_screens_light_colours_are_the_ones_the_pdf_draws():
    app_css = light_values((ROOT / "static/app.css").read_text(), ":root")
    chart_css = light_values((ROOT / "static/charts.css").read_text(), ".chart")
    light = [
        app_css.get(value[4:-1], value) if value.startswith("var(") else value
        for value in (chart_css[f"--chart-{i}"] for i in range(len(charts.PAPER_COLOURS)))
    ]
    assert light == list(charts.PAPER_COLOURS)
    assert app_css["--muted"] == charts.AXIS_PAPER
    assert app_css["--ink"] == charts.ZERO_PAPER
    assert chart_css["--chart-grid"] == charts.GRID_PAPER


# --- the match page, the watch page and the PDF ----------------------------------------

CHART = re.compile(r'<section class="score-chart".*?</section>', re.S)


def test_match_page_draws_the_chart_with_its_title_and_table(client):
    page = client.get(f"/m/{store(client, example('top-game'))}").text
    [section] = CHART.findall(page)
    assert '<h2 id="score-chart-heading">Running score after each hand</h2>' in section
    assert 'role="img"' in section and 'aria-labelledby="score-chart-title"' in section
    assert (
        '<title id="score-chart-title">Running score after each hand.'
        " After hand 12: Ann −4, Bob −1, Cy 5.</title>"
    ) in section
    assert f'<polyline points="{ANN_POINTS}" fill="none" stroke="#16473a"' in section
    assert '<g class="line series-1" data-name="Bob">' in section
    rows = re.findall(r'<tr><th scope="row">(\d+)</th>(.*?)</tr>', section)
    assert len(rows) == 12
    assert rows[7] == ("8", "<td>−28</td><td>5</td><td>23</td>")
    # Nothing the Content-Security-Policy refuses: no style attribute or element, no script.
    assert not re.search(r"<style|\sstyle=|<script|\son\w+=", section)
    assert re.search(r'<link rel="stylesheet" href="/static/charts\.css\?v=\w+">', page)


def test_watch_page_draws_the_same_chart(client):
    from tests.test_page_cost import store_watch

    match_id = store(client, example("calypso"))
    mine = CHART.findall(client.get(f"/m/{match_id}").text)
    watched = CHART.findall(client.get(f"/w/{store_watch(client, match_id)}").text)
    assert mine == watched and len(mine) == 1
    assert "Points per side after each game" in mine[0]


def test_a_match_without_hands_has_no_chart(client):
    document = example("top-game")
    document["hands"] = []
    page = client.get(f"/m/{store(client, document)}").text
    assert "score-chart" not in page
    assert "No hands yet." in page


def test_pdf_prints_the_chart_without_the_screen_readers_table(client):
    match_id = store(client, example("top-game"))
    from scorekeeper.views.pages import load_or_404
    from scorekeeper.views.sheets import match_html

    with client.application.test_request_context():
        html = match_html(load_or_404(match_id))
    [section] = CHART.findall(html)
    # On paper the plot is an image of its SVG (scorekeeper/pdf.py svg_data_uri).
    plot = re.search(r'<img class="chart-plot" src="data:image/svg\+xml;base64,([^"]+)"', section)
    assert f'<polyline points="{ANN_POINTS}"' in base64.b64decode(plot.group(1)).decode()
    assert "chart-numbers" not in section
    text = " ".join(pages_text(get_pdf(client, match_id)))
    assert "Running score after each hand" in text
    assert "Ann −4 Bob −1 Cy 5" in re.sub(r"\s+", " ", text)  # the legend


def test_pdf_draws_the_lines_in_their_colours(client, tmp_path):
    """pdftoppm draws the chart's page: Bob's red and Cy's blue are on it."""
    if shutil.which("pdftoppm") is None:
        pytest.skip("pdftoppm is missing: apt-get install poppler-utils")
    path = tmp_path / "sheet.pdf"
    path.write_bytes(client.get(f"/m/{store(client, example('top-game'))}/sheet.pdf").data)
    subprocess.run(
        ["pdftoppm", "-png", "-r", "60", "-f", "2", "-l", "2", str(path), str(tmp_path / "page")],
        check=True,
        capture_output=True,
        timeout=60,
    )
    colours = {c for _, c in Image.open(tmp_path / "page-2.png").convert("RGB").getcolors(1 << 20)}
    for paper in ("#b3261e", "#1f4fa3"):
        rgb = tuple(int(paper[i : i + 2], 16) for i in (1, 3, 5))
        near = [c for c in colours if all(abs(a - b) <= 8 for a, b in zip(c, rgb, strict=True))]
        assert near, paper


def test_a_match_stopped_before_its_first_hand_has_no_chart():
    match = loads(
        json.dumps({**json.loads((EXAMPLES / "rubber.json").read_text()), "hands": [{"end": True}]})
    )
    assert build_sheet(match, replay_match(match))["chart"] is None
