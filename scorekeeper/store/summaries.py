"""The kept summaries of a group's matches (table `match_summaries`, m005): the
rows `summaries.py` reads and keeps. A row is guarded by the revision of the
match it was replayed at, so an older summary never goes over a newer one."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from sqlite_utils import Database

ROWS = """
select gm.match_id, m.created, m.variant, m.players,
       (select max(revision) from changes c where c.match_id = gm.match_id) as revision,
       s.revision as kept_revision, s.summary, s.listing
from group_matches gm
join matches m on m.id = gm.match_id
left join match_summaries s on s.match_id = gm.match_id
where gm.group_id = ?
"""

UPSERT = """
insert into match_summaries (match_id, revision, summary, listing) values (?, ?, ?, ?)
on conflict (match_id) do update set
    revision = excluded.revision, summary = excluded.summary, listing = excluded.listing
where excluded.revision >= match_summaries.revision
"""

MARK = """
select count(*) as matches, coalesce(sum(revision), 0) as revisions from (
    select (select max(revision) from changes c where c.match_id = gm.match_id) as revision
    from group_matches gm where gm.group_id = ?
)
"""


def summary_rows(db: Database, group_id: str) -> Iterator[dict[str, Any]]:
    """Each match of the group: its row, newest revision and the summary kept
    (kept_revision, summary, listing: None when none is kept)."""
    return db.query(ROWS, [group_id])


def matches_revisions(db: Database, group_id: str) -> tuple[int, int]:
    """(the group's matches, their revisions added up)."""
    row = next(iter(db.query(MARK, [group_id])))
    return row["matches"], row["revisions"]


def upsert_summaries(db: Database, rows: list[tuple[str, int, str, str]]) -> None:
    """Keep (match id, revision, summary JSON, listing JSON) rows, inside the
    caller's write transaction; a row older than the one kept is left out."""
    for row in rows:
        db.execute(UPSERT, list(row))
