"""What a match's change log and a group's share: which change an Undo takes
back, which changes made since a form was drawn it must not overlook, and the
one-time keys a form is stored under. Pure Python: no Flask, no SQL.

Both logs are lists of changes numbered by revision from 1, oldest first; the
first is the start (kind "create"), never undone. A change that takes another
back names it (`undoes`); an undo is itself never undone, so a second Undo
goes one step further back. The rules here read only a change's `revision`,
`kind` and `undoes` (`Step`): a match's log entries and a group's changes both
have them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Sequence
from typing import Protocol, TypeVar

from .speech import _

START = "create"  # the first change of a log: never undone


class Step(Protocol):
    """A change as the shared rules read it."""

    @property
    def revision(self) -> int: ...

    @property
    def kind(self) -> str: ...

    @property
    def undoes(self) -> int | None: ...


S = TypeVar("S", bound=Step)


class NotUndone(Exception):
    """An Undo refused: `message` is what to say, or "undone" (the change was
    undone already: `stale` holds the change that did it) or "newer" (newer
    changes still stand: `stale` holds them, oldest first); `target` is the
    change the Undo was drawn for, when there is one."""

    def __init__(self, message: str, *, stale: Sequence[Step] = (), target: Step | None = None):
        super().__init__(message)
        self.message = message
        self.stale = list(stale)
        self.target = target


def undone_by(steps: Iterable[S]) -> dict[int, int]:
    """Each undone change's revision -> the revision of the undo that took it back."""
    return {step.undoes: step.revision for step in steps if step.undoes is not None}


def newest_standing(steps: Sequence[S]) -> S | None:
    """The newest change not yet undone, the one "Undo the last change" takes
    back (undos themselves are not undone; the start never is)."""
    undone: set[int] = set()
    for step in reversed(steps):
        if step.undoes is not None:
            undone.add(step.undoes)
        elif step.revision not in undone and step.kind != START:
            return step
    return None


def undo_target(steps: Sequence[S], wanted: int | None) -> S:
    """The change an Undo button drawn for change `wanted` takes back: that
    change, while it is still the newest one not undone; never another phone's
    newer change. Else NotUndone: no such change (none of that revision, or an
    undo), already undone, nothing to undo (only the start stands), the start
    itself, or newer changes in the way."""
    target = next((s for s in steps if s.revision == wanted), None)
    if wanted is None or target is None or target.undoes is not None:
        raise NotUndone(_("There is no such change to undo."))
    undone = undone_by(steps)
    if target.revision in undone:
        undoing = next(s for s in steps if s.revision == undone[target.revision])
        raise NotUndone("undone", stale=[undoing], target=target)
    newest = newest_standing(steps)
    if newest is None:
        raise NotUndone(_("There is nothing to undo."))
    if target.kind == START:
        raise NotUndone(_("There is no such change to undo."))
    if newest is not target:
        newer = [
            s
            for s in steps
            if s.revision > target.revision and s.undoes is None and s.revision not in undone
        ]
        raise NotUndone("newer", stale=newer, target=target)
    return target


def newest_or_nothing(steps: Sequence[S]) -> S:
    """The change "Undo the last change" takes back, or NotUndone."""
    newest = newest_standing(steps)
    if newest is None:
        raise NotUndone(_("There is nothing to undo."))
    return newest


# A form that must overlook no change at all (an Undo: it would take back another's).
EVERYTHING = None


def in_the_way(
    since: Iterable[S],
    touched: Callable[[S], Collection[str]],
    parts: Collection[str] | None,
    prefixes: tuple[str, ...] = (),
) -> list[S]:
    """The changes of `since` (made after the form was drawn) that the form
    must not overlook: each that touched (`touched`) a part the form changes
    (`parts`; EVERYTHING: any change), or a part whose name starts with one of
    `prefixes` (what the form showed was computed from those parts)."""
    if parts is EVERYTHING:
        return list(since)
    wanted = set(parts)
    return [
        step
        for step in since
        if wanted.intersection(touched(step))
        or (prefixes and any(part.startswith(prefixes) for part in touched(step)))
    ]


def form_keys(submission: str | None, content: bytes) -> list[str]:
    """The keys a form may be stored under: its one-time key, and that key with
    a digest of what it asks (`content`). A page brought back (Back) sends its
    key again with other content: that change is stored under the second key,
    so it is a change of its own, and a double tap of it is still stored once."""
    if not submission:
        return []
    return [submission, f"{submission}.{hashlib.sha256(content).hexdigest()[:16]}"]
