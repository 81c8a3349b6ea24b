"""What a download sends: the file names, a group's ledger and statistics as CSV
rows, and the answers that carry a CSV file or a PDF (one for every PDF the
app prints: a match's sheet, a group's ledger and statistics)."""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from flask import Response, current_app, request
from flask_babel import gettext as _
from flask_babel import lazy_gettext, lazy_pgettext

from .. import groups as g
from .. import pdf
from ..assets import static_folders
from ..games.catalog import VARIANTS
from ..stats import MemberStats
from .group_ledger import GroupLedger
from .period import Chosen


def file_name(state: g.GroupState, chosen: Chosen, kind: str, ext: str) -> str:
    """ "friday-trio-2026-11-ledger.csv": group, period and kind, never overwritten."""
    base = re.sub(r"[^A-Za-z0-9]+", "-", state.name).strip("-").lower() or "group"
    return f"{base}-{chosen.slug}-{kind}.{ext}"


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(cell):
    """A text cell a spreadsheet would run as a formula gets a leading ' (shown
    as text); numbers stay numbers."""
    if isinstance(cell, str) and cell.startswith(FORMULA_STARTS):
        return "'" + cell
    return cell


def _money(amount: Decimal) -> str:
    return f"{amount:.2f}"  # ASCII minus: for spreadsheets and scripts


# A CSV's columns by their keys; the first row says them in the reader's
# language (docs/languages.md: the headers and words are translated, the
# figures stay plain numbers with a decimal point, the `kind` and `figure`
# keys stay as they are, for a spreadsheet to filter by).
CSV_HEADERS = {
    "kind": lazy_gettext("kind"),
    "member": lazy_gettext("member"),
    "to": lazy_gettext("to"),
    "currency": lazy_gettext("currency"),
    "matches": lazy_gettext("matches"),
    "won": lazy_gettext("won"),
    "amount": lazy_gettext("amount"),
    "day": lazy_gettext("day"),
    "game": lazy_pgettext("csv column", "game"),  # the kind of game, not a won game
    "match": lazy_gettext("match"),
    "figure": lazy_gettext("figure"),
    "label": lazy_gettext("label"),
    "value": lazy_gettext("value"),
    "of": lazy_gettext("of"),
    "counts": lazy_gettext("counts"),
    "shown": lazy_gettext("shown"),
}

LEDGER_CSV_HEAD = [
    "kind",
    "member",
    "to",
    "currency",
    "matches",
    "won",
    "amount",
    "day",
    "game",
    "match",
]


def ledger_rows(state: g.GroupState, book: GroupLedger) -> list[list[str]]:
    """The ledger as CSV rows: a balance row per member per currency, a row per
    match per member (its part), the recorded payments and the settle-up."""
    # A balance row counts the matches and wins of its own currency.
    in_currency: dict[tuple[str, str], tuple[int, int]] = {}
    for line in book.counted:
        if line.currency is not None:
            for member, _money_part, won in line.parts:
                p, w = in_currency.get((line.currency, member), (0, 0))
                in_currency[(line.currency, member)] = (p + 1, w + int(won))
    rows = [LEDGER_CSV_HEAD]
    for currency, members in book.balances:
        for member, amount in members:
            p, w = in_currency.get((currency, member), (0, 0))
            rows.append(
                ["balance", member, "", currency, str(p), str(w), _money(amount), "", "", ""]
            )
    for name, p, w in book.standings:
        if not any(name in dict(m) for _currency, m in book.balances):
            rows.append(["balance", name, "", "", str(p), str(w), "", "", "", ""])
    for line in book.counted:
        title = line.match.title or VARIANTS[line.match.variant].name
        game = VARIANTS[line.match.variant].name
        for member, money, won in line.parts:
            amount = _money(money) if line.currency is not None else ""
            rows.append(
                [
                    "match",
                    member,
                    "",
                    line.currency or "",
                    "1",
                    "1" if won else "0",
                    amount,
                    line.played.isoformat(),
                    game,
                    title,
                ]
            )
    for paid in book.paid:
        rows.append(
            ["paid", paid["payer"], paid["payee"], paid["currency"], "", "", _money(paid["amount"]),
             paid["date"].isoformat(), "", ""]
        )  # fmt: skip
    for pay in book.settle:
        rows.append(
            ["settle", pay["payer_name"], pay["payee_name"], pay["currency"], "", "", pay["amount"],
             "", "", ""]
        )  # fmt: skip
    return rows


STATS_CSV_HEAD = ["member", "game", "figure", "label", "value", "of", "counts", "match"]


def stats_rows(stats: list[MemberStats]) -> list[list[str]]:
    """One row per member per figure, overall ("all games") then per game, then
    partner records."""
    rows = [STATS_CSV_HEAD]

    def value(v: Any) -> str:
        return "" if v is None else str(v)

    for member in stats:
        for game, figures in [(_("all games"), member.overall)] + [
            (VARIANTS[v].name if v in VARIANTS else v, f) for v, f in member.games.items()
        ]:
            for f in figures:
                rows.append(
                    [member.member, game, f.key, str(f.label), value(f.value), value(f.of),
                     str(f.says), f.match or ""]
                )  # fmt: skip
        for record in member.partners:
            rows.append(
                [member.member, _("partners"), f"partner:{record.unit}", record.partner,
                 str(record.together), str(record.won), str(record.says), ""]
            )  # fmt: skip
    return rows


# The columns that hold figures: a number there stays a number ("-5.00"). Any
# other cell is text, kept as text: a member named "-2" or "=HYPERLINK(…)"
# is not read by a spreadsheet as a number or run as a formula.
CSV_NUMBERS = frozenset({"matches", "won", "amount", "value", "of"})


def csv_response(rows: list[list[str]], name: str) -> Response:
    """`rows` as a CSV file to save as `name`; a text cell never runs as a formula."""
    out = io.StringIO()
    writer = csv.writer(out)
    figures = [column in CSV_NUMBERS for column in rows[0]]
    writer.writerow([spreadsheet_safe(str(CSV_HEADERS.get(column, column))) for column in rows[0]])
    for row in rows[1:]:
        writer.writerow(
            [
                c if figure and _number(c) else spreadsheet_safe(c)
                for c, figure in zip(row, figures, strict=True)
            ]
        )
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


def _number(cell: str) -> bool:
    return bool(re.fullmatch(r"-?\d+(\.\d+)?", cell))


@dataclass(frozen=True)
class NoPdf:
    """What a page's PDF link answers when no PDF can be made this time: another
    PDF is being printed, this one is too large to make here, or making it failed."""

    busy: str
    too_costly: str
    failed: str


def no_pdf(message: str, status: int) -> Response:
    """No PDF, said in plain text, with when to ask again."""
    return Response(
        str(message), status=status, mimetype="text/plain", headers={"Retry-After": "5"}
    )


def pdf_response(
    html: str, name: str, said: NoPdf, *, paper: str = "a4", about: str | None = None
) -> Response:
    """`html` printed (pdf.cached_pdf: made once, kept by its ETag), shown inline and
    saved as `name`; or `said`'s words when it cannot be made (`about`: what the
    server's log names, the file name when not given)."""
    try:
        key, body = pdf.cached_pdf(html, static_folders(), paper)
    except pdf.PdfUnavailable as exc:
        return Response(str(exc), status=503, mimetype="text/plain")
    except pdf.PdfBusy:
        return no_pdf(said.busy, 503)
    except pdf.PdfTooCostly:
        return no_pdf(said.too_costly, 413)
    except pdf.PdfFailed as exc:
        current_app.logger.error("PDF %s failed: %s", about or name, exc)
        return no_pdf(said.failed, 503)
    response = Response(
        body,
        mimetype="application/pdf",
        headers={
            "Content-Disposition": f'inline; filename="{name}"',
            "Cache-Control": "no-cache",  # revalidate: the ETag changes with every change
        },
    )
    response.set_etag(key)
    return response.make_conditional(request)
