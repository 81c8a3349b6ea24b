"""Where a PDF score sheet's time goes: WeasyPrint's stages, and what a table cell costs.

    python benchmarks/bench_pdf_stages.py [--runs 9]

Lays out in this process (no worker) the sheets bench_pdf.py times: a 12-hand
Top Game and 3 rubbers, each split into parsing the HTML, styling and laying
it out (render), and drawing it into the PDF; then plain WeasyPrint documents
of 1, 20, 60 and 120 table cells, which show what one cell costs however it is
styled. Under each sheet: its cells' texts alone as a bare table, and its chart
alone, each with no style and no page furniture, what the sheet cannot go below
while each figure keeps a cell of its own. Medians of CPU milliseconds (this
process), after two warm-up runs.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_pdf import three_rubbers, top_game  # noqa: E402
from weasyprint import HTML  # noqa: E402

from scorekeeper import pdf  # noqa: E402
from scorekeeper.app import create_app  # noqa: E402
from scorekeeper.db import create_match, get_db  # noqa: E402
from scorekeeper.matchfile import from_document  # noqa: E402


def cpu_ms(step: Callable[[], object], runs: int) -> float:
    step()
    step()
    spent = []
    for _ in range(runs):
        start = time.process_time()
        step()
        spent.append(time.process_time() - start)
    return statistics.median(spent) * 1000


def sheets_html() -> dict[str, tuple]:
    """The HTML each sheet's request gives the PDF worker, caught on its way there."""
    caught: dict[str, tuple] = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"TESTING": True, "DATABASE": str(Path(tmp) / "stages.db")})
        client = app.test_client()
        for label, document in (("Top Game, 12 hands", top_game()), ("3 rubbers", three_rubbers())):
            with app.app_context():
                match_id = create_match(get_db(), from_document(document)).match_id
            pdf.clear_cache()
            pdf._render = lambda *asked, label=label: caught.setdefault(label, asked) and b"%PDF"
            client.get(f"/m/{match_id}/sheet.pdf")
    return caught


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=9)
    runs = parser.parse_args().runs
    print(f"CPU ms, median of {runs} runs")
    floor = cpu_ms(lambda: HTML(string="<p>Scorekeeper</p>").write_pdf(), runs)
    print(f"  {'One-line WeasyPrint document (floor)':40} {floor:7.1f}")
    for label, (html, folders, paper) in sheets_html().items():
        html = pdf.spell_out_missing(html)

        def parsed(html: str = html, folders=folders) -> pdf.PaperHTML:
            return pdf.PaperHTML(
                string=html, base_url=pdf.BASE_URL, url_fetcher=pdf.StaticFetcher(folders)
            )

        def rendered(folders=folders, paper=paper):
            return parsed().render(
                stylesheets=pdf.stylesheets(folders, paper), font_config=pdf._font_config()
            )

        document = rendered()
        parse = cpu_ms(parsed, runs)
        render = cpu_ms(rendered, runs) - parse  # styled and laid out
        draw = cpu_ms(document.write_pdf, runs)
        total = parse + render + draw
        print(
            f"  {label:40} {total:7.1f} = parse {parse:.1f} + render {render:.1f}"
            f" + draw {draw:.1f} ({len(document.pages)} pages, {total / floor:.1f}x the floor)"
        )
        for part, bare in bare_parts(html).items():
            spent = cpu_ms(lambda bare=bare: HTML(string=bare).write_pdf(), runs)
            print(f"    {part:38} {spent:7.1f} ({spent / floor:.1f}x the floor)")
    for cells in (1, 20, 60, 120):
        rows = "".join(
            f"<tr><td>{row * 10}</td><td>{row * 7}</td></tr>" for row in range(cells // 2)
        )
        rows = rows or "<tr><td>1</td></tr>"
        table = f"<table style='table-layout: fixed; width: 100%'>{rows}</table>"
        spent = cpu_ms(lambda table=table: HTML(string=table).write_pdf(), runs)
        print(f"  {f'A table of {cells} cells':40} {spent:7.1f} ({spent / floor:.1f}x the floor)")
    print("  The same 120 cells (60 rows of 2, hairlines, figures to the right), laid out as:")
    for label, document in grids(60).items():
        spent = cpu_ms(lambda document=document: HTML(string=document).write_pdf(), runs)
        print(f"    {label:38} {spent:7.1f} ({spent / floor:.1f}x the floor)")


CELL_TEXT = re.compile(r"<t([dh])\b[^>]*>(.*?)</t\1>", re.S)
TAG = re.compile(r"<[^>]+>")
CHART = re.compile(r'<section class="score-chart.*?</section>', re.S)


def bare_parts(html: str) -> dict[str, str]:
    """What a sheet holds at the least, each alone with no style and no page
    furniture: its cells' texts as a bare table (rows of 4), and its chart.
    Together they show what no markup or print CSS of the sheet can go below
    while each figure keeps a cell of its own."""
    cells = [TAG.sub("", text).strip() for _, text in CELL_TEXT.findall(html)]
    rows = "".join(
        "<tr>" + "".join(f"<td>{text}</td>" for text in cells[start : start + 4]) + "</tr>"
        for start in range(0, len(cells), 4)
    )
    parts = {
        f"its {len(cells)} cells' texts as a bare table": "<meta charset=utf-8>"
        f"<table style='table-layout: fixed; width: 100%'>{rows}</table>"
    }
    chart = CHART.search(html)
    if chart:
        parts["its chart alone"] = f"<meta charset=utf-8>{chart.group(0)}"
    return parts


# One cell's look in every variant: a hairline, a little padding, the figure to the right.
CELL = "border: 0.6pt solid #999; padding: 1.5pt 3pt; text-align: right; box-sizing: border-box"


def grids(rows: int) -> dict[str, str]:
    """The same grid of rows x 2 figures, as a table and as four layouts without one."""
    figures = [(row * 10, row * 7) for row in range(rows)]

    def each(row_open: str, cell: str, row_close: str = "</div>") -> str:
        return "".join(f"{row_open}{cell.format(a)}{cell.format(b)}{row_close}" for a, b in figures)

    style = f"<style>td, .c {{ {CELL} }}</style>"
    return {
        "table, collapsed borders (the sheets')": style
        + "<table style='table-layout: fixed; width: 100%; border-collapse: collapse'>"
        + each("<tr>", "<td>{}</td>", "</tr>")
        + "</table>",
        "table, separate borders": style
        + "<table style='table-layout: fixed; width: 100%'>"
        + each("<tr>", "<td>{}</td>", "</tr>")
        + "</table>",
        "block rows, inline-block cells": style
        + "<style>.r { white-space: nowrap } .c { display: inline-block; width: 50% }</style>"
        + each("<div class=r>", "<span class=c>{}</span>"),
        "block rows, float:left cells": style
        + "<style>.r { overflow: hidden } .c { float: left; width: 50% }</style>"
        + each("<div class=r>", "<div class=c>{}</div>"),
        "flex rows": style
        + "<style>.r { display: flex } .c { flex: 1 1 0 }</style>"
        + each("<div class=r>", "<div class=c>{}</div>"),
        "absolute cells in fixed-height rows": style
        + "<style>.r { position: relative; height: 1.6em }"
        " .c { position: absolute; top: 0; width: 50%; height: 100% }"
        " .c + .c { left: 50% }</style>" + each("<div class=r>", "<div class=c>{}</div>"),
        "block cells, one under another": style + each("<div>", "<div class=c>{}</div>"),
        "no cells: a paragraph per row": "".join(f"<p>{a} {b}</p>" for a, b in figures),
        "no cells: one preformatted block": "<pre>"
        + "\n".join(f"{a:>6} {b:>6}" for a, b in figures)
        + "</pre>",
    }


if __name__ == "__main__":
    main()
