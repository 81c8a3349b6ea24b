"""Each match's ledger summary kept per revision (table `match_summaries`, m005),
so a group's ledger and statistics read one row per match instead of replaying
every match on every page.

A kept summary is a copy, never a second truth: it names the revision of the
match it was replayed at, and a page that finds the match at a newer revision
(a hand saved, undone, the stake changed) replays that match again and keeps
the new summary. The replay happens on the state read (outside the write
lock); the new row is stored with an upsert guarded by the revision, so two
pages racing can never put an older summary over a newer one. Keeping a
summary is a convenience: when the store is busy the page answers all the
same and the next page keeps it.

Why here and not in `db.apply`: a hand is saved on the phones at the table,
where every millisecond of the write lock counts; the ledger is read far less
often, and most matches are not in a group at all.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from typing import Any

from sqlite_utils import Database

from .changelog import played_on
from .db import StoreBusy, StoredMatch, load_match, writing
from .games.common import Outcome
from .kept import Recent
from .model import SUMMARY_FORMAT, MatchSummary, played_key
from .report import match_summary
from .store.summaries import matches_revisions, summary_rows, upsert_summaries
from .variants import MatchError, replay_match

log = logging.getLogger(__name__)

# What the group page says of a match besides its summary (title, state words…):
# made by the caller from the stored match and its replay (None: it no longer replays).
Describe = Callable[[StoredMatch, Outcome | None], dict[str, Any]]


@dataclass(frozen=True)
class Kept:
    """One match of a group as its ledger reads it."""

    match_id: str
    revision: int
    played: date  # the day it counts for (the match's day played)
    variant: str
    players: list[str]
    summary: MatchSummary | None  # None: the match no longer replays (`problem` says why)
    listing: dict[str, Any]  # from `Describe`: title, state, deleted
    problem: str = ""
    started: str = ""  # when the match was started (its stamp)


def played_day(created: str) -> date:
    """The day a match started at `created` counts for (the evening rule), for
    a match that names no day."""
    return played_on(created)


def _kept_day(summary: MatchSummary | None, doc: dict[str, Any], created: str) -> date:
    """The day a kept summary was replayed with (the match's day at that revision)."""
    if summary is not None and summary.played is not None:
        return summary.played
    try:
        return date.fromisoformat(doc.get("played") or "")
    except (TypeError, ValueError):
        return played_day(created)


# Summaries read lately, by match id, revision and the very text kept (a store
# put back from a backup can hold another text at the same revision): a warm
# page skips reading each summary's JSON again. A summary is frozen: shared.
PARSED_KEPT = 5_000  # ten groups of 500 matches
_parsed: Recent[tuple[MatchSummary | None, dict, str, date]] = Recent(PARSED_KEPT)


def _from_row(row: dict[str, Any]) -> Kept | None:
    """The kept summary of a row, when it is of the match's newest revision and
    of today's shape (None: replay the match)."""
    if row["kept_revision"] is None or row["kept_revision"] != row["revision"]:
        return None
    key = (row["match_id"], row["revision"], row["summary"] + row["listing"])
    known = _parsed.get(key)
    if known is not None:
        summary, listing, problem, day = known
        return Kept(
            row["match_id"],
            row["revision"],
            day,
            row["variant"],
            json.loads(row["players"]),
            summary,
            listing,
            problem,
            row["created"],
        )
    try:
        doc = json.loads(row["summary"])
        listing = json.loads(row["listing"])
        if doc.get("format") != SUMMARY_FORMAT:
            return None
        summary = None if "unreadable" in doc else MatchSummary.from_json(doc)
    except (ValueError, KeyError, TypeError, AttributeError):
        return None
    day = _kept_day(summary, doc, row["created"])
    _parsed.put(key, (summary, listing, doc.get("unreadable", ""), day))
    return Kept(
        row["match_id"],
        row["revision"],
        day,
        row["variant"],
        json.loads(row["players"]),
        summary,
        listing,
        doc.get("unreadable", ""),
        row["created"],
    )


def _replayed(stored: StoredMatch, describe: Describe) -> tuple[Kept, str]:
    """Replay one match: its Kept and the summary JSON to keep."""
    day = stored.played or played_day(stored.created)
    outcome: Outcome | None = None
    summary: MatchSummary | None = None
    problem = ""
    try:
        outcome = replay_match(stored.match)
        summary = match_summary(stored.match, outcome, key=stored.id, played=day)
    except MatchError as exc:
        problem = "; ".join(exc.lines)[:300]
    except (KeyError, ValueError, TypeError, ArithmeticError) as exc:  # a record the rules
        problem = f"{type(exc).__name__}"  # let through but the summary cannot read
        # The page still answers; the log keeps the cause (a game's statistics
        # failing on a hand is a bug to fix, not a hand to hide).
        log.exception("match %s: no summary at revision %s", stored.id, stored.revision)
    if summary is None:
        problem = problem or "a hand no longer fits the rules"
        doc: dict[str, Any] = {
            "format": SUMMARY_FORMAT,
            "unreadable": problem,
            "played": day.isoformat(),
        }
    else:
        doc = summary.as_json()
    kept = Kept(
        stored.id,
        stored.revision,
        day,
        stored.variant,
        list(stored.players),
        summary,
        describe(stored, outcome),
        problem,
        stored.created,
    )
    return kept, json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def group_summaries(db: Database, group_id: str, describe: Describe) -> list[Kept]:
    """Every match of the group with its summary, oldest played first
    (`model.played_key`: by the day played, then by start): kept ones read as
    they are, the others replayed now and kept for the next page."""
    found: list[Kept] = []
    fresh: list[tuple[str, int, str, str]] = []
    for row in summary_rows(db, group_id):
        kept = _from_row(row)
        if kept is None:
            stored = load_match(db, row["match_id"])
            if stored is None:
                continue
            kept, doc = _replayed(stored, describe)
            listing = json.dumps(kept.listing, ensure_ascii=False, separators=(",", ":"))
            fresh.append((kept.match_id, kept.revision, doc, listing))
        found.append(kept)
    if fresh:
        keep(db, fresh)
    return sorted(found, key=lambda k: (played_key(k.played, k.started), k.match_id))


def matches_mark(db: Database, group_id: str) -> str:
    """What a group page's live poll compares besides the group's revision: its
    matches' revisions added up ("5-37"). A match's changes are only ever added,
    so any hand saved, undone or the stake changed moves it on."""
    matches, revisions = matches_revisions(db, group_id)
    return f"{matches}-{revisions}"


def keep(db: Database, rows: list[tuple[str, int, str, str]]) -> bool:
    """Store new summaries (match id, revision, summary JSON, listing JSON) in one
    short write; a row older than the one kept is left out. False: the store
    was busy and nothing was kept (the next page tries again)."""
    try:
        with writing(db):
            upsert_summaries(db, rows)
    except StoreBusy:
        return False
    return True
