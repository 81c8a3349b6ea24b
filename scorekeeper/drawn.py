"""Each revision of a match replayed and drawn once.

What the match page, the watch page, a hand form and the live poll show of a
match depends on its revision alone, and after each change every phone at the
table asks for it again. So the match as stored, its replay and the parts of
pages drawn from them (the sheet, totals, chart and explanations as HTML) are
kept here by (match, revision), in this process, for the matches played lately.

A kept drawing is a copy, never a second truth: it is used only when the
match's newest change, read in the same read transaction as whatever the page
then reads, is the very change it was drawn at (a store put back from a backup
can hold another change at the same revision). A change saved by any thread
or process is thus shown by the next page, and a page costs one indexed query
when nothing changed. What differs per request (the CSRF token, one-time form
keys, the phone's name, messages) is never part of what is kept: the views
draw the page around the kept parts.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from sqlite_utils import Database

from .changelog import Change
from .db import StoredMatch, load_match, newest_change, reading
from .kept import Recent
from .variants import MatchError, Outcome

KEPT_DRAWINGS = 64  # a club evening's tables, each at its newest revision and a few before
KEPT_SIZE = 32_000_000  # bytes, as estimated by `Drawing.size`
CHANGE_SIZE = 2_000  # what a change and its replayed hand hold, about, in bytes


@dataclass
class Drawing:
    """One revision of a match: as stored, replayed, and the parts drawn of it.
    Shared between threads: `stored` and `outcome` are only read (a caller that
    moves the match on takes `stored.copy()`)."""

    stored: StoredMatch
    outcome: Outcome | None
    problems: list[str]  # why it no longer replays (outcome None)
    parts: dict[Hashable, str] = field(default_factory=dict)

    @property
    def newest(self) -> Change | None:
        return self.stored.log[-1].change if self.stored.log else None

    def size(self) -> int:
        return CHANGE_SIZE * len(self.stored.log) + sum(len(part) for part in self.parts.values())


_drawings: Recent[Drawing] = Recent(KEPT_DRAWINGS, KEPT_SIZE, Drawing.size)


def drawing(db: Database, match_id: str) -> Drawing | None:
    """The match as stored now and its replay (None: no such match): the one kept
    for its newest change, or loaded and replayed now and kept."""
    with reading(db):
        newest = newest_change(db, match_id)
        if newest is not None:
            kept = _drawings.get((match_id, newest.revision))
            if kept is not None and kept.newest == newest:
                return kept
        stored = load_match(db, match_id)
    if stored is None:
        return None
    try:
        made = Drawing(stored, stored.match.replay(), [])
    except MatchError as exc:
        made = Drawing(stored, None, [problem.read() for problem in exc.problems])
    if stored.log:
        _drawings.put((match_id, stored.revision), made)
    return made


def part(drawing: Drawing, name: Hashable, draw: Callable[[], str]) -> str:
    """The part `name` of a page drawn from `drawing` alone: drawn on first use,
    then kept with the drawing. `draw` must read nothing but the drawing (and what
    `name` says): never the request."""
    with _drawings.lock:
        known = drawing.parts.get(name)
    if known is not None:
        return known
    drawn = draw()
    with _drawings.lock:
        drawing.parts[name] = drawn
    _drawings.grown()
    return drawn


def kept_drawings() -> tuple[int, int]:
    """How many drawings are kept, and their estimated size in bytes."""
    return len(_drawings), _drawings.total_size()
