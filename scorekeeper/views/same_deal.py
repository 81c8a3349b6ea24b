"""Two phones, one deal: a hand form refused because another phone saved that
hand first. At a real table both phones have almost always entered the same
deal, so the refusal puts the two versions side by side, field by field in the
words of the form, and offers "keep theirs" (nothing stored) before "save mine
as the next hand" (or, for an edit, "save mine instead").

Pure reading: what is shown is worked out from the match as stored after the
refusal; nothing here writes.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import gettext as _
from wtforms import BooleanField, HiddenField

from ..changelog import APPEND, EDIT, RESTORE, Entry, MatchState, who
from ..entry import HandEntry, HandForm
from ..games.common import Outcome
from ..variants import MatchError, replay
from ..words import hand_title, hand_words
from .pages import in_a_sentence

NOT_GIVEN = "—"


@dataclass(frozen=True)
class Difference:
    """One field where the two versions differ: "Tricks won: theirs 9 · yours 8"."""

    what: str
    theirs: str
    yours: str


@dataclass(frozen=True)
class SameDeal:
    """Their version of the hand this form was for, beside the refused one."""

    key: int  # the hand's key (addresses, the keep-theirs form)
    title: str  # the hand as players name it now: "Hand 6", "Redeal of hand 6"
    revision: int  # the change that made their version
    who: str  # "Bob's phone", "another phone", "this phone (Ann's phone)"
    identical: bool  # both phones entered exactly the same hand
    differences: list[Difference]
    editing: bool  # an edit of an older hand, not a new one


def _theirs(state: MatchState, stale: list[Entry], hand_key: int | None) -> int | None:
    """The key of the hand another phone saved where this form was to go: for a
    new hand, the first hand saved since the form was drawn (when only new
    hands and edits came since); for an edit, the same hand changed since."""
    if hand_key is not None:
        changed = any(e.change.hand == hand_key and e.change.kind in (EDIT, RESTORE) for e in stale)
        return hand_key if changed and hand_key in state.live else None
    if any(e.change.kind not in (APPEND, EDIT) or e.change.undoes is not None for e in stale):
        return None  # a deletion or an undo moved the hands: no one hand to set beside
    appended = [e.change.hand for e in stale if e.change.kind == APPEND]
    if not appended or appended[0] not in state.live:
        return None
    return appended[0] if state.live[appended[0]] != {"end": True} else None


def _normal(record: dict[str, Any] | None) -> Any:
    """A record as stored (through JSON), so a typed 9 and a stored 9 compare equal."""
    return json.loads(json.dumps(record))


def _shown(field) -> str:
    """A field's value as its button or box shows it."""
    data = field.data
    if isinstance(field, BooleanField):
        return "yes" if data else "no"
    text = "" if data is None else str(data).strip()
    for choice in getattr(field, "choices", None) or []:
        if str(choice[0]) == text:
            return str(choice[1]) or NOT_GIVEN
    return text or NOT_GIVEN


def _entered(form: HandForm) -> list[bool]:
    return [f.data not in (None, "", False) for f in _compared(form)]


def _filled(entry: HandEntry, record: dict[str, Any], players: list[str], upcoming) -> HandForm:
    form = entry.form(formdata=None, data=entry.from_record(record), meta={"csrf": False})
    entry.prepare(form, players, upcoming)
    return form


def _compared(form: HandForm) -> list:
    """The fields a player taps or types (not the token, the one-tap action, or
    the hidden values the page's script keeps)."""
    return [f for f in form if f.name != "quick" and not isinstance(f, HiddenField)]


def differences(
    entry: HandEntry,
    theirs: dict[str, Any],
    mine: dict[str, Any],
    players: list[str],
    upcoming,
    words: Callable[[dict[str, Any]], str] = lambda record: hand_words(record, None),
) -> list[Difference]:
    """Where two versions of a hand differ, field by field in the form's words;
    a one-tap hand (all passed, scrapped) against another is said as two hands."""
    forms = [_filled(entry, record, players, upcoming) for record in (theirs, mine)]
    labels = entry.field_words(forms[0], upcoming)
    shown = [
        {f.name: (labels.get(f.name, f.label.text), _shown(f)) for f in _compared(form)}
        for form in forms
    ]
    # A one-tap hand (all passed, a scrapped deal) is a whole hand, not its fields.
    blank = [
        record.get("passed_out") or record.get("scrapped") or not any(_entered(form))
        for record, form in zip((theirs, mine), forms, strict=True)
    ]
    said = [
        Difference(label, value, shown[1][name][1])
        for name, (label, value) in shown[0].items()
        if name in shown[1] and value != shown[1][name][1]
    ]
    if any(blank) or not said:
        return [Difference(entry.noun, words(theirs), words(mine))]
    return said


def _words(state: MatchState, position: int, record: dict[str, Any]) -> str:
    """A version of the hand at `position` in a few words, scored as if it stood
    there (a Mini Bridge deal is said by its HCP and result)."""
    try:
        outcome = replay(
            state.variant, state.players, state.options, [*state.records[:position], record]
        )
    except MatchError:
        return hand_words(record, None)
    return hand_words(record, outcome.hands[position] if len(outcome.hands) > position else None)


Replayed = tuple[MatchState, Outcome | None]  # a state of the match and its replay


def _replayed(state: MatchState, count: int, known: Sequence[Replayed]) -> Outcome:
    """The replay of the first `count` entries of `state`: one of `known` when it
    is the replay of those very entries (a replay depends on nothing else than
    the game, players, options and entries), else replayed here."""
    records = state.records[:count]
    game = (state.variant, state.players, state.options)
    for other, outcome in known:
        same_game = (other.variant, other.players, other.options) == game
        if outcome is not None and same_game and other.records == records:
            return outcome
    return replay(state.variant, state.players, state.options, records)


def same_deal(
    entry: HandEntry,
    state: MatchState,
    stale: list[Entry],
    hand_key: int | None,
    form: HandForm,
    asking: str | None,
    known: Sequence[Replayed] = (),
) -> SameDeal | None:
    """Their version beside the one in `form`, refused because of `stale`
    (None: the changes since were not one phone saving this hand first).
    `known`: replays already made of the match (as it is now, as the form was
    drawn from it), used where they replay the same entries."""
    key = _theirs(state, stale, hand_key)
    if key is None:
        return None
    position = state.keys.index(key)
    try:
        before = _replayed(state, position, known)
        with_theirs = _replayed(state, position + 1, known)
    except MatchError:
        return None
    upcoming = before.upcoming
    title = hand_title(with_theirs.hands[-1], entry.noun) if with_theirs.hands else entry.noun
    try:
        if form.quick.data:
            mine = entry.quick_record(form.quick.data, form, upcoming)
        else:
            mine = entry.to_record(form, upcoming)
    except (KeyError, AttributeError, TypeError):
        return None
    theirs = state.live[key]
    made = state.made_by[key]
    identical = _normal(theirs) == _normal(mine)
    return SameDeal(
        key=key,
        title=title,
        revision=made.revision,
        who=who(made.device, asking),
        identical=identical,
        differences=[]
        if identical
        else differences(
            entry, theirs, mine, state.players, upcoming, lambda r: _words(state, position, r)
        ),
        editing=hand_key is not None,
    )


def in_a_line(both: SameDeal, noun: str) -> str:
    """The comparison as one message, for when no form follows (the other phone
    saved the last hand of the match): yours can still replace theirs by an edit."""
    if both.identical:
        if noun == "Game":
            return _("They saved the same game — nothing to do.")
        return _("They saved the same hand — nothing to do.")
    differ = "; ".join(
        _(
            "%(what)s: theirs %(theirs)s · yours %(yours)s",
            what=d.what,
            theirs=d.theirs,
            yours=d.yours,
        )
        for d in both.differences
    )
    name = in_a_sentence(both.title)
    return _(
        "To keep yours, edit %(hand)s: theirs and yours differ in %(differences)s.",
        hand=name,
        differences=differ,
    )
