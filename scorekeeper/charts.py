"""Line charts drawn on the server as SVG: the running score of a match hand by
hand, and a running balance over dates (the group's ledger).

Pure: no Flask, no template. `line_chart` places everything (axes with a few
round ticks, a zero line, one polyline per series with its markers) in SVG user
units and returns a plain view model that templates/charts/line.html draws, so
the same numbers make the picture, its legend and the table a screen reader
reads. Lines differ by colour, dash pattern and marker shape, never by colour
alone. Colours come from classes (`series-0` …) that static/charts.css maps to
the page's light or dark colours; every element also carries the paper colour as
an SVG attribute, which is what WeasyPrint draws in the PDF (it does not apply
the page's stylesheets inside an SVG). No style attribute anywhere: the pages'
Content-Security-Policy (`style-src 'self'`) refuses them.

Why our own: pygal writes a <style> element into the SVG and links a script
from its own site; matplotlib writes inline `style` attributes (and is a large
dependency for one line chart); leather keeps colours in a global theme and
draws no accessible title, marker shapes or dash patterns. None passes our CSP
or follows the page's light and dark colours without rewriting its output.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from typing import Any

from .speech import N_, _, pgettext

# The drawing in SVG user units; it scales to the width of the page.
WIDTH = 360
HEIGHT = 220
FONT = 12  # tick labels and axis titles
DIGIT = 7.5  # a digit's width at FONT in DejaVu Sans or a phone's system font, a little over
PAD_TOP = 10
PAD_RIGHT = 14
TICK = 4  # tick marks' length
Y_TITLE = 18  # room for the rotated y-axis title on the left
X_LABELS = FONT + TICK + 4  # tick labels under the plot
X_TITLE = FONT + 8  # the x-axis title under them
MOST_Y_TICKS = 5
MARKER = 3.5  # a marker's half size
MARKED_POINTS = 20  # up to this many points every point has a marker; beyond, the ticked ones

# The light (paper) colour of each series: the SVG attribute the PDF draws; on
# screen static/charts.css draws the same series in --chart-0 … (light or dark).
PAPER_COLOURS = (
    "#16473a",  # green (the app's links)
    "#b3261e",  # red (the app's accent)
    "#1f4fa3",  # blue
    "#8a5a00",  # gold (the app's gold)
    "#6a3d9a",  # purple
    "#00727a",  # teal
    "#a3306f",  # magenta
    "#4d4d4d",  # grey
)
DASHES = ("", "7 4", "2 3", "9 3 2 3")  # solid, dashed, dotted, dash-dot
MARKERS = ("circle", "square", "triangle", "diamond", "triangle-down", "ring")
AXIS_PAPER = "#5d6b66"  # tick labels and titles (--muted)
GRID_PAPER = "#e4e0d4"
ZERO_PAPER = "#1d2421"  # the zero line (--ink)


@dataclass(frozen=True)
class Series:
    """One line: whose it is and its value at each point."""

    name: str
    values: Sequence[int | Decimal]


def number_text(value: int | Decimal, places: int | None = None) -> str:
    """A figure as the pages print a standing: a real minus sign, no plus (−40, 12.50)."""
    figure = f"{abs(value):.{places}f}" if places is not None else str(abs(value))
    return f"−{figure}" if value < 0 else figure


def figures(values: Sequence[int | Decimal]) -> Callable[[int | Decimal], str]:
    """How a chart prints its values: money (any Decimal) with its cents, points as they are."""
    if any(isinstance(v, Decimal) for v in values):
        return lambda value: number_text(value, 2)
    return number_text


def _coord(value: float) -> str:
    """A coordinate with at most one decimal: the same input gives the same SVG."""
    text = f"{round(value, 1):.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def nice_step(span: Decimal, most: int) -> Decimal:
    """The smallest of 1, 2 or 5 × 10ⁿ that cuts `span` into at most `most` parts."""
    raw = span / most
    exponent = raw.adjusted()
    for mantissa in (1, 2, 5, 10):
        step = Decimal(mantissa).scaleb(exponent)
        if step >= raw:
            return step
    raise AssertionError("unreachable: 10 × 10ⁿ is always enough")


def value_ticks(
    low: int | Decimal, high: int | Decimal, whole: bool, most: int = MOST_Y_TICKS
) -> list[Decimal]:
    """Round values from below `low` to above `high`, zero always among them;
    whole numbers only when every value is whole (scores, pegs)."""
    low, high = min(Decimal(low), Decimal(0)), max(Decimal(high), Decimal(0))
    if low == high:
        high = low + 1
    step = nice_step(high - low, most)
    if whole:
        step = max(step, Decimal(1))
    first = (low / step).to_integral_value(rounding=ROUND_FLOOR)
    last = (high / step).to_integral_value(rounding=ROUND_CEILING)
    return [step * k for k in range(int(first), int(last) + 1)]


def _places(ticks: list[Decimal]) -> int:
    """Decimals a tick label needs: none for 10, 20…; one for 2.5, 5…"""
    step = ticks[1] - ticks[0]
    return max(0, -step.normalize().as_tuple().exponent)


def index_ticks(count: int, widest: int, room: float) -> list[int]:
    """Which of `count` points get a label on the x axis: every 1st, 2nd, 5th,
    10th… point from the first, as many as fit labels `widest` characters wide."""
    if count <= 1:
        return [0] * count
    fit = max(2, int(room // (widest * DIGIT + 10)))
    intervals = count - 1
    step = 1
    for exponent in range(0, 6):
        for mantissa in (1, 2, 5):
            step = mantissa * 10**exponent
            if intervals // step + 1 <= fit:
                return list(range(0, count, step))
    return list(range(0, count, step))


def _inside(x: float, label: str) -> float:
    """Where a label centred under `x` stays inside the drawing (a long date at
    either end of the axis moves in rather than being cut off)."""
    half = len(label) * DIGIT / 2
    return min(max(x, half + 1), WIDTH - half - 1)


def marker_path(shape: str, x: float, y: float, r: float = MARKER) -> str:
    """The outline of a marker centred on (x, y), as a path's `d`."""
    c = _coord
    if shape in ("circle", "ring"):
        arc = f"a{c(r)} {c(r)} 0 1 0"
        return f"M{c(x - r)} {c(y)}{arc} {c(2 * r)} 0{arc} {c(-2 * r)} 0Z"
    if shape == "square":
        s = r * 0.9
        return f"M{c(x - s)} {c(y - s)}h{c(2 * s)}v{c(2 * s)}h{c(-2 * s)}Z"
    if shape == "triangle":
        return f"M{c(x)} {c(y - 1.25 * r)}L{c(x + 1.2 * r)} {c(y + 0.85 * r)}H{c(x - 1.2 * r)}Z"
    if shape == "triangle-down":
        return f"M{c(x)} {c(y + 1.25 * r)}L{c(x + 1.2 * r)} {c(y - 0.85 * r)}H{c(x - 1.2 * r)}Z"
    if shape == "diamond":
        d = 1.3 * r
        return f"M{c(x)} {c(y - d)}L{c(x + d)} {c(y)}L{c(x)} {c(y + d)}L{c(x - d)} {c(y)}Z"
    raise ValueError(f"no marker {shape!r}")


def series_look(index: int) -> dict[str, Any]:
    """Colour, dash and marker of the `index`th line: all three differ for the
    first four, and the triple repeats only after 24 lines."""
    colour = index % len(PAPER_COLOURS)
    return {
        "class": f"series-{colour}",
        "colour": PAPER_COLOURS[colour],
        "dash": DASHES[index % len(DASHES)],
        "marker": MARKERS[index % len(MARKERS)],
        "hollow": MARKERS[index % len(MARKERS)] == "ring",
    }


def line_chart(
    *,
    chart_id: str,
    title: str,
    x_title: str,
    y_title: str,
    labels: Sequence[str],
    series: Sequence[Series],
    summary: str = "",
) -> dict[str, Any]:
    """Everything the template draws, already placed. `labels` name the points
    (hand numbers, dates); each series has one value per label."""
    count = len(labels)
    if count == 0 or not series:
        raise ValueError("a chart needs at least one point and one line")
    for line in series:
        if len(line.values) != count:
            raise ValueError(f"{line.name}: {len(line.values)} values for {count} points")
    values = [v for line in series for v in line.values]
    whole = all(isinstance(v, int) or v == v.to_integral_value() for v in values)
    text = figures(values)
    ticks = value_ticks(min(values), max(values), whole)
    places = _places(ticks)
    tick_texts = [number_text(t, places) for t in ticks]
    left = Y_TITLE + max(len(t) for t in tick_texts) * DIGIT + TICK + 4
    right = WIDTH - PAD_RIGHT
    top, bottom = PAD_TOP, HEIGHT - X_LABELS - X_TITLE
    low, high = float(ticks[0]), float(ticks[-1])

    def x_at(index: int) -> float:
        if count == 1:
            return (left + right) / 2
        return left + (right - left) * index / (count - 1)

    def y_at(value: int | Decimal) -> float:
        return bottom - (bottom - top) * (float(value) - low) / (high - low)

    ticked = index_ticks(count, max(len(label) for label in labels), right - left)
    marked = set(range(count)) if count <= MARKED_POINTS else {*ticked, count - 1}
    lines = []
    for i, line in enumerate(series):
        look = series_look(i)
        points = [(x_at(k), y_at(v)) for k, v in enumerate(line.values)]
        lines.append(
            {
                "name": line.name,
                **look,
                "points": " ".join(f"{_coord(x)},{_coord(y)}" for x, y in points),
                "markers": [marker_path(look["marker"], *points[k]) for k in sorted(marked)],
                "last": text(line.values[-1]),
                "swatch": marker_path(look["marker"], 16, 7),
            }
        )
    return {
        "id": chart_id,
        "title": title,
        "summary": summary,
        "width": WIDTH,
        "height": HEIGHT,
        "font": FONT,
        "plot": {
            "left": _coord(left),
            "right": _coord(right),
            "top": _coord(top),
            "bottom": _coord(bottom),
        },
        "y_ticks": [
            {"y": _coord(y_at(t)), "text": tick_texts[i], "zero": t == 0}
            for i, t in enumerate(ticks)
        ],
        "x_ticks": [
            {"x": _coord(x), "label_x": _coord(_inside(x, labels[k])), "text": labels[k]}
            for k, x in ((k, x_at(k)) for k in ticked)
        ],
        "x_title": {"text": x_title, "x": _coord((left + right) / 2), "y": _coord(HEIGHT - 6)},
        "y_title": {"text": y_title, "x": _coord(FONT), "y": _coord((top + bottom) / 2)},
        "label_y": _coord(bottom + TICK + FONT + 1),
        "tick_bottom": _coord(bottom + TICK),
        "tick_x": _coord(left - TICK - 3),
        "lines": lines,
        "paper": {"axis": AXIS_PAPER, "grid": GRID_PAPER, "zero": ZERO_PAPER},
        # The same numbers as a table, for screen readers: one row per point.
        "names": [line.name for line in series],
        "rows": [
            {"label": labels[k], "cells": [text(line.values[k]) for line in series]}
            for k in range(count)
        ],
    }


# The summary a screen reader says, by what one entry is called (a kit's noun, a key).
_AFTER_ENTRY = {
    "Hand": N_("After hand %(number)s: %(standing)s."),
    "Game": N_("After game %(number)s: %(standing)s."),
}


def running_chart(
    *,
    chart_id: str,
    title: str,
    noun: str,
    unit: str,
    hands: Sequence[str],
    series: Sequence[Series],
) -> dict[str, Any] | None:
    """The running score hand by hand: every line starts at 0 before the first
    hand (drawn, not in the table). `hands` are the labels the sheet shows;
    None when there is no hand yet."""
    if not hands:
        return None
    text = figures([v for s in series for v in s.values])
    standing = ", ".join(f"{s.name} {text(s.values[-1])}" for s in series)
    # The x axis and the table's first column: a Calypso game, not a kind of game.
    entry = pgettext("a game of a match", "Game") if noun == "Game" else _("Hand")
    chart = line_chart(
        chart_id=chart_id,
        title=title,
        x_title=entry,
        y_title=unit,
        labels=["0", *hands],
        series=[Series(s.name, [0, *s.values]) for s in series],
        summary=_(
            _AFTER_ENTRY.get(noun, _AFTER_ENTRY["Hand"]), number=hands[-1], standing=standing
        ),
    )
    chart["rows"] = chart["rows"][1:]
    chart["row_heading"] = entry
    return chart


def balance_chart(
    points: Sequence[tuple[str, dict[str, int | Decimal]]],
    *,
    chart_id: str = "balance-chart",
    title: str = _("Running balance"),
    unit: str = _("Balance"),
    x_title: str = _("Date"),
) -> dict[str, Any] | None:
    """Each member's running balance over time: `points` are (label, {member:
    balance}) in order, e.g. ("2026-11-06", {"Ann": Decimal("7.50"), …}). A
    member missing from a point keeps their last balance (0 before their first).
    None when there are no points."""
    if not points:
        return None
    names: list[str] = []
    for _day, balances in points:
        names += [name for name in balances if name not in names]
    last: dict[str, int | Decimal] = dict.fromkeys(names, 0)
    columns: dict[str, list[int | Decimal]] = {name: [] for name in names}
    for _day, balances in points:
        last.update(balances)
        for name in names:
            columns[name].append(last[name])
    labels = [label for label, _balances in points]
    text = figures([v for column in columns.values() for v in column])
    standing = ", ".join(f"{name} {text(columns[name][-1])}" for name in names)
    chart = line_chart(
        chart_id=chart_id,
        title=title,
        x_title=x_title,
        y_title=unit,
        labels=labels,
        series=[Series(name, columns[name]) for name in names],
        summary=_("On %(day)s: %(standing)s.", day=labels[-1], standing=standing),
    )
    chart["row_heading"] = x_title
    return chart


def rating_chart(
    values: Sequence[Decimal],
    *,
    chart_id: str = "rating-chart",
    title: str = _("Rating after each match"),
    unit: str = _("Rating"),
    noun: str = _("Match"),
    x_title: str = _("Matches rated"),
) -> dict[str, Any] | None:
    """One member's rating after each rated match (`values`, one decimal, oldest
    first), from where every rating starts (0, drawn, not in the table): the
    points are the member's matches 1, 2, 3… None before the first match."""
    if not values:
        return None
    labels = [str(k) for k in range(len(values) + 1)]
    chart = line_chart(
        chart_id=chart_id,
        title=title,
        x_title=x_title,
        y_title=unit,
        labels=labels,
        series=[Series(unit, [Decimal(0), *values])],
        summary=_(
            "After match %(num)d: %(rating)s.", num=len(values), rating=number_text(values[-1], 1)
        ),
    )
    # A rating is read to one decimal, not as money's two.
    chart["rows"] = [
        {"label": labels[k], "cells": [number_text(v, 1)]} for k, v in enumerate(values, 1)
    ]
    chart["lines"][0]["last"] = number_text(values[-1], 1)
    chart["row_heading"] = noun
    return chart
