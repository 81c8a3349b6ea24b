"""Each revision of a match replayed and drawn once.

What the match page, the watch page and a hand form show of a match depends
on its revision alone, and after each change every phone at the table asks for
it again. So the match as stored, its replay and the parts of pages drawn from
them (the sheet, totals, chart and explanations as HTML) are kept here by
(match, revision), in this process, for the matches played lately. (The live
poll reads the revision alone, or the few changes since a page was drawn.)

A kept drawing is a copy, never a second truth: it is used only when the
match's newest change as stored, read by the request itself (the one query it
then makes), is the very change it was drawn at (a store put back from a
backup can hold another change at the same revision); otherwise the match is
loaded and kept under the revision it was loaded at. A change stored by this
process leaves its drawing kept at once: the write path replayed the match to
check it (`keep_replayed`).
A change saved by any thread or process is thus shown by the next page, and a
page costs one indexed query and a copy when nothing changed. What differs
per request (the CSRF token, one-time form keys, the phone's name, messages)
is never part of what is kept: the views draw the page around the kept parts.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field

from sqlite_utils import Database

from .changelog import Change
from .db import StoredMatch, newest_change
from .games.common import Outcome
from .kept import Recent
from .variants import MatchError, replay_match

STRIPES = 64  # locks shared by the matches, so a table waits only for its own drawing
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
    # Reentrant: a whole page kept is drawn around a part of the same drawing.
    drawing_part: threading.RLock = field(default_factory=threading.RLock, repr=False)

    @property
    def newest(self) -> Change | None:
        return self.stored.log[-1].change if self.stored.log else None

    def size(self) -> int:
        return CHANGE_SIZE * len(self.stored.log) + sum(len(part) for part in self.parts.values())


_drawings: Recent[Drawing] = Recent(KEPT_DRAWINGS, KEPT_SIZE, Drawing.size)
_stripes = [threading.Lock() for _ in range(STRIPES)]


def one_at_a_time(match_id: str) -> threading.Lock:
    """The lock to hold while loading and replaying a match not kept: after a
    change every phone at the table asks at once, and one draws for all (the
    others then find it kept)."""
    return _stripes[zlib.crc32(match_id.encode()) % STRIPES]


def kept_drawing(db: Database, match_id: str) -> Drawing | None:
    """The drawing kept of the match's newest change as stored now, if any: one
    query, the only one a page of a kept revision makes."""
    newest = newest_change(db, match_id)
    if newest is None:
        return None
    found = _drawings.get((match_id, newest.revision))
    return found if found is not None and found.newest == newest else None


def kept_at(match_id: str, revision: int) -> Drawing | None:
    """The drawing kept of an earlier revision of the match, unchecked against
    the store: only for what it replayed, by a caller that compares its entries
    with the ones it needs (`views.same_deal`)."""
    return _drawings.get((match_id, revision))


def draw(stored: StoredMatch) -> Drawing:
    """The drawing of `stored`, the match as loaded from the store: replayed now,
    and kept for the next page of its revision."""
    try:
        made = Drawing(stored, replay_match(stored.match), [])
    except MatchError as exc:
        made = Drawing(stored, None, [problem.read() for problem in exc.problems])
    if stored.log:
        _drawings.put((stored.id, stored.revision), made)
    return made


def keep_replayed(stored: StoredMatch, outcome: Outcome) -> None:
    """The match as the write path just stored it, with the replay that checked
    the change (`db.apply`): kept as the drawing of its revision, so the pages
    every phone at the table asks for next replay nothing. Kept like any
    drawing, it is used only while that change is still the newest stored."""
    if stored.log:
        _drawings.put((stored.id, stored.revision), Drawing(stored.copy(), outcome, []))


def part(drawing: Drawing, name: Hashable, render: Callable[[], str]) -> str:
    """The part `name` of a page drawn from `drawing` alone: rendered on first
    use, then kept with the drawing. `render` must read nothing but the drawing
    (and what `name` says): never the request."""
    with drawing.drawing_part:  # one thread renders it; the others asking wait for it
        known = drawing.parts.get(name)
        if known is not None:
            return known
        rendered = render()
        drawing.parts[name] = rendered
        _drawings.grown((drawing.stored.id, drawing.stored.revision), drawing)
    return rendered


def kept_drawings() -> tuple[int, int]:
    """How many drawings are kept, and their estimated size in bytes."""
    return len(_drawings), _drawings.total_size()
