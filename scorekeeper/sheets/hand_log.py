"""The hand log as a table a spreadsheet reads (the CSV export): one row per
entry of `hands`, with who declared what and how it went in columns of their
own, each player's points, and the rules' explanation.

The columns are read from the replay (`HandResult.details`) and, where the
rules did not restate a field, from the hand as entered; nothing is scored here.
"""

from __future__ import annotations

from typing import Any

from ..games.catalog import game_for
from ..games.common import Details, HandResult, LogFacts, Outcome, _is_int
from ..model import Match
from ..speech import _, joined, pgettext
from ..words import tricks_needed

# The columns' headers, in the reader's language (docs/languages.md: a CSV's
# headers and words follow the phone; its figures stay plain numbers).
HAND_COLUMNS = [
    pgettext("csv column", "hand"),
    pgettext("csv column", "dealer"),
    pgettext("csv column", "counted"),
    pgettext("csv column", "declarer"),
    pgettext("csv column", "contract"),
    pgettext("csv column", "tricks"),
    pgettext("csv column", "result"),
]


def made_or_down(contract: str, tricks: Any) -> str:
    """`made`, `made +1`, `down 2`: a played contract against its tricks."""
    needed = tricks_needed(contract)
    if not _is_int(tricks) or needed is None:
        return ""
    if tricks < needed:
        return _("down %(down)d", down=needed - tricks)
    return _("made") if tricks == needed else _("made +%(over)d", over=tricks - needed)


def _own_words(variant: str | None, details: Details | None) -> tuple[str, str] | None:
    words = game_for(variant).log_words if variant is not None else None
    return words(details) if words is not None and details is not None else None


def hand_columns(
    record: dict[str, Any], result: HandResult | None, variant: str | None = None
) -> list[Any]:
    """declarer, contract, tricks and result of one entry of `hands` (a game may
    word its own hands: `GameKit.log_words`)."""
    details = result.details if result else None
    facts = details.log_facts() if details is not None else LogFacts()
    declarer = facts.declarer or record.get("declarer") or ""
    contract = facts.contract or record.get("contract") or ""
    tricks = facts.tricks if facts.tricks is not None else record.get("tricks")
    outcome = ""
    if record.get("end"):
        outcome = _("stopped here")
    elif record.get("passed_out") or facts.passed_out or contract == "passed":
        contract, tricks, outcome = "", None, _("passed out")
    elif facts.redeal:
        outcome = _("dealt again")
    elif record.get("scrapped") or facts.scrapped:
        outcome = _("scrapped")
    elif "misinformation" in record:
        informer = record["misinformation"]
        outcome = _("wrong dummy information from %(player)s", player=informer)
    elif (own := _own_words(variant, details)) is not None:
        contract, outcome = own
    elif isinstance(contract, str) and contract:
        outcome = made_or_down(contract, tricks)
    if not isinstance(contract, str):
        contract = ""
    return [
        declarer if isinstance(declarer, str) else "",
        contract,
        tricks if _is_int(tricks) else "",
        outcome,
    ]


def log_table(match: Match, outcome: Outcome | None) -> list[list[Any]]:
    """Header, one row per entry of `hands` and the totals (when the match replays)."""
    rows: list[list[Any]] = [[*HAND_COLUMNS, *match.players, pgettext("csv column", "explanation")]]
    results = outcome.hands if outcome else []
    for i, record in enumerate(match.hands):
        result = results[i] if i < len(results) else None
        rows.append(
            [
                # The hand's number as players count (a redeal bears the number of
                # the hand dealt again and says "no" under counted); the end marker
                # and an entry the rules could not replay have none.
                (result.hand if result.hand is not None else "") if result else "",
                (result.dealer or "") if result else "",
                (_("yes") if result.counted else _("no")) if result else "",
                *hand_columns(record, result, match.variant),
                *[(result.scores[p] if result else "") for p in match.players],
                joined(" | ", result.explanation) if result else "",
            ]
        )
    if outcome:
        blank = [""] * (len(HAND_COLUMNS) - 1)
        rows.append([_("total"), *blank, *[outcome.totals[p] for p in match.players], ""])
    return rows
