"""A season prints: the ledger and statistics PDFs of a group at everything the
app lets it hold (tests/seasons.py), as a paper ledger keeps them
(scorekeeper/paper.py); and what the sheets' layout leaves out to print fast
(scorekeeper/pdf.py PaperHTML, the chart drawn as an image)."""

from __future__ import annotations

import base64
import io
import re
from datetime import date
from decimal import Decimal
from types import SimpleNamespace

import pytest
from pypdf import PdfReader
from weasyprint import HTML
from weasyprint import html as weasyprint_html

from scorekeeper import db as store
from scorekeeper import paper, pdf
from scorekeeper.games.catalog import build_sheet
from scorekeeper.matchfile import from_document
from scorekeeper.variants import replay_match
from tests.seasons import a_full_season
from tests.test_pdf import example
from tests.test_web_ledger import make_group


def read_back(answer) -> str:
    assert answer.status_code == 200, answer.get_data(as_text=True)
    reader = PdfReader(io.BytesIO(answer.data))
    return " ".join(" ".join(page.extract_text() for page in reader.pages).split())


@pytest.fixture(scope="module")
def season(tmp_path_factory, migrated_template):
    path = tmp_path_factory.mktemp("season") / "season.db"
    path.write_bytes(migrated_template.read_bytes())
    db = store.connect(str(path))
    try:
        return path, a_full_season(db)
    finally:
        db.close()


@pytest.fixture
def season_client(season, monkeypatch):
    from scorekeeper.app import create_app

    path, group_id = season
    # The content is what is checked here; how long it takes on a free machine,
    # benchmarks/bench_pdf.py (2 cores shared with a whole test run are slower).
    monkeypatch.setattr(pdf, "RENDER_SECONDS", 120.0)
    monkeypatch.setattr(pdf, "BUSY_SECONDS", 240.0)
    pdf.clear_cache()
    app = create_app({"TESTING": True, "DATABASE": str(path)})
    return app.test_client(), group_id


def test_a_full_seasons_ledger_prints_a_line_per_match_under_its_month(season_client):
    client, group_id = season_client
    words = read_back(client.get(f"/g/{group_id}/ledger.pdf"))
    assert "The Friday club · ledger" in words
    assert "Matches 500 counted" in words
    # 2000 payments of 2.50, the n-th by member n % 40 to the next in EUR, GBP, CHF
    # by turns: added up per payer, payee and currency (Member 01 to 02: 50 payments).
    assert "Paid in this period: 2000 payments, added up" in words
    assert (
        "Member 01 of the Friday club paid Member 02 of the Friday club 42.50 EUR in 17 payments;"
        " Member 21 of the Friday club paid Member 22 of the Friday club 42.50 CHF in 17 payments;"
        " Member 01 of the Friday club paid Member 02 of the Friday club 42.50 GBP in 17 payments;"
    ) in words
    # 5 Jan 2024 onwards, a match a day: January holds 27 of them.
    assert (
        "January 2024 · 27 matches counted, 56.80 EUR, 28.64 GBP and 61.04 CHF won"
        " 5 Jan · Evening 1 (Bridge for Three): Member 01 of the Friday club −0.50;"
        " Member 12 of the Friday club −0.50; Member 23 of the Friday club (won) +1.50;"
        " Member 34 of the Friday club −0.50 EUR"
    ) in words
    assert "May 2025 · 18 matches counted, 24.60 CHF, 41.44 EUR and 7.90 GBP won" in words
    assert words.count(" · Evening ") == 500


def test_a_full_seasons_statistics_print_each_members_figures_over_all_games(season_client):
    client, group_id = season_client
    words = read_back(client.get(f"/g/{group_id}/statistics.pdf"))
    assert "The Friday club · statistics" in words
    assert (
        "Each member's figures over all games; the statistics page and the CSV have them"
        " game by game." in words
    )
    for n in ("01", "40"):
        assert f"Member {n} of the Friday club Figure All games Matches" in words
    assert "Calypso" not in words.split("What each figure counts")[0]  # no column per game


def test_a_few_payments_are_listed_one_by_one_and_matches_as_lines(client, app):
    db = store.connect(app.config["DATABASE"])
    try:
        group_id, _ = make_group(db)
    finally:
        db.close()
    words = read_back(client.get(f"/g/{group_id}/ledger.pdf"))
    assert "Paid in this period" not in words  # none yet
    assert (
        "Matches October 2026 · 1 match counted, 29.50 EUR won"
        " 30 Oct · Need a Fourth?: Ann −29.50; Bob +14.00; Cy (won) +15.50 EUR"
        " November 2026 · 4 matches counted, 9.24 EUR and 1.40 GBP won"
        " 6 Nov · The Top Game: Ann 0.00; Bob (won) +9.00; Cy −9.00 EUR"
        " 13 Nov · Rubber bridge: Ann −0.70; Bob (won) +0.70; Cy −0.70; Dee (won) +0.70 GBP"
        " 20 Nov · Calypso: Ann (won) +0.12; Bob −0.12; Cy (won) +0.12; Dee −0.12 EUR"
        " 21 Nov · Chicago: Ann; Bob (won); Cy; Dee (won) (no stake)"
    ) in words


def line(day: str, counted: bool = True, currency: str | None = "EUR", parts=()) -> SimpleNamespace:
    return SimpleNamespace(
        played=date.fromisoformat(day),
        in_period=day >= "2026-10-01",
        counted=counted,
        currency=currency,
        parts=[(m, Decimal(a), a.startswith("+")) for m, a in parts],
    )


def test_matches_by_month_with_what_the_winners_won_per_currency():
    lines = [
        line("2026-09-30", parts=[("Ann", "+9.00"), ("Bob", "-9.00")]),  # before the period
        line("2026-10-02", parts=[("Ann", "+1.50"), ("Bob", "+0.50"), ("Cy", "-2.00")]),
        line("2026-10-09", currency="GBP", parts=[("Ann", "-3.00"), ("Bob", "+3.00")]),
        line("2026-10-16", currency=None, parts=[("Ann", "0"), ("Bob", "0")]),
        line("2026-10-23", counted=False, parts=[("Ann", "+5.00"), ("Bob", "-5.00")]),
        line("2026-11-06", parts=[("Ann", "0.00"), ("Bob", "0.00")]),
    ]
    found = paper.months(lines)
    assert [(m.first, len(m.lines), m.counted, m.changed_hands) for m in found] == [
        (date(2026, 10, 1), 4, 3, [("EUR", Decimal("2.00")), ("GBP", Decimal("3.00"))]),
        (date(2026, 11, 1), 1, 1, []),
    ]


def test_payments_added_up_per_payer_payee_and_currency():
    paid = [
        {"payer": "Ann", "payee": "Bob", "amount": Decimal("2.50"), "currency": "EUR"},
        {"payer": "Cy", "payee": "Bob", "amount": Decimal("1.00"), "currency": None},
        {"payer": "Ann", "payee": "Bob", "amount": Decimal("0.75"), "currency": "EUR"},
        {"payer": "Ann", "payee": "Bob", "amount": Decimal("4.00"), "currency": "GBP"},
    ]
    assert paper.paid_together(paid) == [
        paper.PaidTogether("Ann", "Bob", "EUR", Decimal("3.25"), 2),
        paper.PaidTogether("Cy", "Bob", None, Decimal("1.00"), 1),
        paper.PaidTogether("Ann", "Bob", "GBP", Decimal("4.00"), 1),
    ]


@pytest.mark.parametrize(
    ("members", "games", "rows", "per_game"),
    [
        (4, 5, 20, True),  # 4 x 20 x 6 = 480 cells
        (20, 9, 12, True),  # 20 x 12 x 10 = 2400
        (20, 9, 13, False),  # 20 x 13 x 10 = 2600: over STATS_CELLS (2500)
        (40, 9, 21, False),  # the full season
    ],
)
def test_a_column_per_game_while_the_cells_fit(members, games, rows, per_game):
    stats = [SimpleNamespace(games=dict.fromkeys(range(games))) for _ in range(members)]
    assert paper.per_game_columns(stats, lambda member: range(rows)) is per_game


def test_the_paper_stylesheet_leaves_out_only_the_pseudo_elements_no_sheet_has():
    # WeasyPrint asks a document for its user-agent stylesheets by this method.
    assert callable(HTML._ua_stylesheets)
    stock = weasyprint_html.UA.splitlines()
    narrowed = pdf.paper_ua(weasyprint_html.UA).splitlines()
    assert sorted(set(stock) - set(narrowed)) == [
        "::footnote-call { content: counter(footnote); vertical-align: super;"
        " font-size: smaller; line-height: inherit }",
        '::footnote-marker { content: counter(footnote) ". " }',
        "::marker { font-variant-numeric: tabular-nums; white-space: pre; text-transform: none }",
        "::note-call { content: counter(note); vertical-align: super; font-size: smaller;"
        " line-height: inherit }",
        '::note-callback { content: "\u202f↩" }',
        '::note-marker { content: counter(note) ". " }',
    ]
    assert sorted(set(narrowed) - set(stock)) == [
        "li::marker { font-variant-numeric: tabular-nums; white-space: pre; text-transform: none }",
    ]


def test_the_chart_on_paper_is_an_image_of_its_svg_with_one_marker_path_per_line(app):
    match = from_document(example("top-game"))
    chart = build_sheet(match, replay_match(match))["chart"]
    with app.app_context():
        paper_chart = app.jinja_env.get_template("charts/line.html").module.paper_chart
        html = str(paper_chart(chart))
    assert "<svg" not in html
    sources = re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', html)
    assert len(sources) == 1 + 3  # the plot and each line's sample in the legend
    plot = base64.b64decode(sources[0]).decode()
    assert plot.startswith('<svg class="chart-plot" viewBox="0 0 360 220" width="360" height="220"')
    markers = re.findall(r'<path class="marker" d="([^"]+)"', plot)
    assert markers == [" ".join(line["markers"]) for line in chart["lines"]]
    assert len(chart["lines"][1]["markers"]) == 13  # Bob's squares, one per point
