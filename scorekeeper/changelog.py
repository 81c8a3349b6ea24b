"""A match as the list of its changes: every change kept, the current match derived.

Storage keeps each change of a match (started, hand saved, hand changed, hand
deleted or brought back, title and stake, match deleted) as one numbered row,
the match's *revision*. Nothing else is stored: the hands in play, the title,
the stake and what can be undone are derived here by folding the changes in
order, and the scores by replaying those hands. Pure Python: no Flask, no SQL.

A *command* is what a phone asks for; `decide` checks it against the state
folded inside the write transaction (revision, conflicts, a replay of the
match with the change) and returns the change to store, or raises `Refused`.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any

from .formats import full_day
from .games.catalog import VARIANTS
from .games.common import HandResult, Outcome, Problem
from .matchfile import MAX_ENTRIES, parse_played, parse_stake, title_problems
from .model import Match, Stake
from .speech import N_, Said, Shown, _, english, joined, ngettext
from .undo import EVERYTHING, NotUndone, in_the_way, newest_or_nothing, newest_standing, undo_target
from .variants import MatchError, replay
from .words import hand_words, named_hand, said_by_record, signed, stake_words


def local_time(stamp: str) -> datetime:
    """A stored stamp (a change's, a match's start) in this server's time zone.
    A stamp on the first or last day of the calendar (a group file may say a
    match was played on 0001-01-01) that the zone would carry out of the
    calendar is read in its own offset instead."""
    moment = datetime.fromisoformat(stamp)
    try:
        return moment.astimezone()
    except (OverflowError, ValueError):
        return moment


# The evening rule (docs/match-file.md): a match started before this hour, in
# this server's time, was played on the evening before.
EVENING_ENDS = time(6)


def played_on(stamp: str) -> date:
    """The day a match started at `stamp` counts for: the day it was started,
    or the day before when it was started after midnight and before 06:00."""
    moment = local_time(stamp)
    if moment.time() < EVENING_ENDS and moment.date() > date.min:
        return moment.date() - timedelta(days=1)
    return moment.date()


def day_words(day: date | None) -> str:
    """A day as the history and the pages say it: "Friday 27 November 2026",
    written the reader's way on a page ("vendredi 27 novembre 2026")."""
    if day is None:
        return _("an unknown day")
    return Shown(f"{day:%A} {day.day} {day:%B %Y}", full_day, day)


# What each kind of change does, in the words of the history page.
CREATE, APPEND, EDIT, DELETE, RESTORE = "create", "append", "edit", "delete", "restore"
SETTINGS, DELETE_MATCH, RESTORE_MATCH = "settings", "delete_match", "restore_match"
HAND_KINDS = frozenset({APPEND, EDIT, DELETE, RESTORE})
# A command only, never a stored change: "take back change N" (`undoes`). It is
# resolved inside the write transaction into the change that does it.
UNDO = "undo"
DEFAULT_DEVICE = "a phone"
MAX_DEVICE = 30
# Every change is kept; a match that reached this many (ten edits of every one
# of MAX_ENTRIES hands) is not a real evening but a runaway script.
MAX_CHANGES = 10 * MAX_ENTRIES
# Past MAX_CHANGES a match can still be deleted and brought back (and those
# undone) this many times, then nothing more is stored: every change counts.
MATCH_RESERVE = 20


@dataclass(frozen=True)
class Change:
    """One stored change. `hand` is the hand's key: 1, 2, 3… in the order the
    hands were first saved; it never changes, so edits and deletes name it."""

    revision: int
    kind: str
    hand: int | None = None
    record: dict[str, Any] | None = None  # the hand record (append, edit, restore)
    hands: list[dict[str, Any]] | None = None  # create: the hands of an imported file
    # create: {"title", "stake"}; settings: {"title", "stake", "played"} ("played"
    # left out by a change stored before the day could be changed: the day the
    # match was started on then stands)
    settings: dict[str, Any] | None = None
    undoes: int | None = None  # the revision this change undoes
    summary: str = ""  # plain words, written when the change was made
    device: str = DEFAULT_DEVICE
    created: str = ""
    submission: str | None = None
    # The hand's number as players read it when the change was made, from the
    # rules' replay (`HandResult.hand`; for the end marker, the hands played
    # before it), and whether the entry was a hand or a redeal of that hand.
    # None on changes stored before they were kept: the entry's place stands in.
    hand_number: int | None = None
    counted: bool | None = None

    def record_for(self, key: int) -> dict[str, Any] | None:
        """The version of hand `key` this change made."""
        if self.kind == CREATE:
            hands = self.hands or []
            return hands[key - 1] if key is not None and 0 < key <= len(hands) else None
        return self.record

    def answers(self, command: Command) -> bool:
        """Whether `command` asks for exactly what this change did (a resent form)."""
        if command.kind == UNDO:
            return self.undoes is not None and command.undoes in (None, self.undoes)
        settings = self.settings
        if self.kind == SETTINGS and "played" not in (command.settings or {"played": None}):
            # a form without the day (drawn before it could be changed) was stored with it
            settings = {k: v for k, v in (settings or {}).items() if k != "played"}
        return (
            self.kind == command.kind
            and command.hand in (None, self.hand)
            and (self.record, settings, self.undoes)
            == (command.record, command.settings, command.undoes)
        )


@dataclass(frozen=True)
class Entry:
    """A change with what it meant when it was made: the hand's number then and
    the version of the hand (or the settings) it replaced. `number` is the hand's
    place in the match then; `hand_number` the number players read (a redeal
    bears the number of the hand dealt again, `redeal`)."""

    change: Change
    number: int | None = None
    previous: Change | None = None  # the change that made the version replaced
    undone_by: int | None = None

    @property
    def hand_number(self) -> int | None:
        """The hand's number as players read it then (its place, for a change
        stored before numbers were kept)."""
        if self.change.hand_number is not None:
            return self.change.hand_number
        if self.number is not None and self.change.record == {"end": True}:
            return self.number - 1  # the hands before the end marker
        return self.number

    @property
    def redeal(self) -> bool:
        """The entry was not a hand: the same hand was dealt again."""
        return self.change.counted is False

    # What the shared undo rules (undo.py) read of a change.
    @property
    def revision(self) -> int:
        return self.change.revision

    @property
    def kind(self) -> str:
        return self.change.kind

    @property
    def undoes(self) -> int | None:
        return self.change.undoes

    def hand_title(self, noun: str = "Hand") -> str:
        """ "Hand 6", or "Redeal of hand 6"."""
        return named_hand(self.hand_number, not self.redeal, noun)


@dataclass(frozen=True)
class HandRef:
    """A hand in play: its key (stable, used in addresses), number and record."""

    id: int
    position: int
    record: dict[str, Any]


@dataclass
class MatchState:
    """The current match, derived from its changes."""

    id: str
    variant: str
    players: list[str]
    options: dict[str, Any]
    created: str
    watch: str
    revision: int = 0
    live: dict[int, dict[str, Any]] = field(default_factory=dict)  # key -> record, in play
    removed: dict[int, dict[str, Any]] = field(default_factory=dict)  # deleted hands
    title: str = ""
    stake: Stake | None = None
    # The day the match counts for: the day it was stored with (`started_on`:
    # its file's, or its start's by the evening rule), or the settings' day.
    started_on: date | None = None
    played: date | None = None
    deleted: bool = False
    log: list[Entry] = field(default_factory=list)
    # The change that made the current version of each hand, and of the settings.
    made_by: dict[int, Change] = field(default_factory=dict)
    settings_by: Change | None = None
    # Where each revision's entry is in `log`, and the keys in play kept sorted:
    # each step of the fold then costs the same however long the log is.
    at: dict[int, int] = field(default_factory=dict)
    order: list[int] = field(default_factory=list)

    def copy(self) -> MatchState:
        """A state of its own to move on (changes and entries are frozen: shared)."""
        return replace(
            self,
            players=list(self.players),
            options=dict(self.options),
            live=dict(self.live),
            removed=dict(self.removed),
            log=list(self.log),
            made_by=dict(self.made_by),
            at=dict(self.at),
            order=list(self.order),
        )

    @property
    def keys(self) -> list[int]:
        """Hands in play, in the order played."""
        return list(self.order)

    @property
    def records(self) -> list[dict[str, Any]]:
        return [self.live[k] for k in self.keys]

    @property
    def hands(self) -> list[HandRef]:
        return [HandRef(k, i, self.live[k]) for i, k in enumerate(self.keys, 1)]

    @property
    def match(self) -> Match:
        return Match(
            variant=self.variant,
            players=list(self.players),
            options=dict(self.options),
            hands=self.records,
            title=self.title or None,
            stake=self.stake,
            played=self.played,
        )

    @property
    def updated(self) -> str:
        return self.log[-1].change.created if self.log else self.created

    def number_of(self, key: int) -> int | None:
        return bisect_left(self.order, key) + 1 if key in self.live else None

    def entry(self, revision: int) -> Entry | None:
        """The log entry of change `revision` (None: no such change)."""
        index = self.at.get(revision)
        return None if index is None else self.log[index]

    def since(self, revision: int) -> list[Entry]:
        start = self.at.get(revision + 1, 0 if revision < self.revision else len(self.log))
        return [e for e in self.log[start:] if e.change.revision > revision]

    def undoable(self) -> Entry | None:
        """The newest change not yet undone (undo.py's rule)."""
        return newest_standing(self.log)


def _settings(change: Change) -> tuple[str, Stake | None]:
    settings = change.settings or {}
    stake = None
    if settings.get("stake"):
        stake, _problems = parse_stake(settings["stake"])
    return settings.get("title") or "", stake


def _day_of(state: MatchState, change: Change) -> date | None:
    """The day a settings change leaves the match on (the day it was stored
    with when the change names none)."""
    day, _ = parse_played((change.settings or {}).get("played"))
    return day or state.started_on


def fold(state: MatchState, changes: list[Change]) -> MatchState:
    """Apply stored changes in revision order (they were checked when made)."""
    for change in changes:
        step(state, change)
    return state


def step(state: MatchState, change: Change) -> None:
    """Move `state` on by one change, recording what it meant."""
    kind, key = change.kind, change.hand
    number = previous = None
    if kind == CREATE:
        state.title, state.stake = _settings(change)
        state.played = state.started_on
        state.settings_by = change
        for i, record in enumerate(change.hands or [], 1):
            state.live[i] = record
            state.made_by[i] = change
        state.order = sorted(state.live)
    elif kind == APPEND:
        if key not in state.live:
            insort(state.order, key)
        state.live[key] = change.record
        state.made_by[key] = change
        number = len(state.live)  # a new hand's key is past every other: it comes last
    elif kind == EDIT:
        previous = state.made_by.get(key)
        state.live[key] = change.record
        state.made_by[key] = change
        number = state.number_of(key)
    elif kind == DELETE:
        number = state.number_of(key)
        previous = state.made_by.get(key)
        state.removed[key] = state.live.pop(key)
        del state.order[number - 1]
    elif kind == RESTORE:
        previous = state.made_by.get(key)
        state.removed.pop(key, None)
        if key not in state.live:
            insort(state.order, key)
        state.live[key] = change.record
        state.made_by[key] = change
        number = state.number_of(key)
    elif kind == SETTINGS:
        previous = state.settings_by
        state.title, state.stake = _settings(change)
        state.played = _day_of(state, change)
        state.settings_by = change
    elif kind == DELETE_MATCH:
        state.deleted = True
    elif kind == RESTORE_MATCH:
        state.deleted = False
    else:
        raise ValueError(f"unknown change {kind!r}")
    if change.undoes is not None and change.undoes in state.at:
        index = state.at[change.undoes]
        state.log[index] = replace(state.log[index], undone_by=change.revision)
    state.at[change.revision] = len(state.log)
    state.log.append(Entry(change, number, previous))
    state.revision = change.revision


def next_key(state: MatchState) -> int:
    """A new hand's key: one past every key ever used in this match."""
    used = [*state.live, *state.removed]
    return max(used, default=0) + 1


# --- plain words ---------------------------------------------------------------


def hand_summary(record: dict[str, Any], result: HandResult | None) -> str:
    """One line for a hand: `4♠X by Bob, down 1 · Bob −7, Ann +2, Cy +5`."""
    if record.get("end"):
        return _("the players stopped here")
    what = hand_words(record, result)
    if result is not None and not result.counted:
        return _("%(what)s · not counted", what=what)
    scores = [f"{p} {signed(s)}" for p, s in (result.scores.items() if result else []) if s]
    return joined(" · ", [what, ", ".join(scores)]) if scores else what


def started_summary(name: str, players: str, hands: int) -> str:
    """The first change's words: `Match started: Rubber bridge, Ann · Bob · Cy · Dee`
    (`players` as written there), with the hands of an imported file."""
    if not hands:
        return _("Match started: %(name)s, %(players)s", name=name, players=players)
    # English always wrote "hands", even for one (the stored summaries say so).
    return ngettext(
        "Match started: %(name)s, %(players)s, with %(num)d hands from a match file",
        "Match started: %(name)s, %(players)s, with %(num)d hands from a match file",
        hands,
        name=name,
        players=players,
    )


_IMPORTED = re.compile(r"(.*), with (\d+) hands from a match file", re.S)


def said_summary(change: Change) -> str:
    """A change's summary in the reader's language. The store keeps it in
    English, as written when the change was made; it is said again from the
    change itself (its record, its settings, the game's name), and shown as
    stored when that cannot be done (a hand said by the rules' explanation)."""
    stored = change.summary
    if change.kind in (APPEND, EDIT, RESTORE) and change.record is not None:
        return _said_hand(change.record, stored)
    if change.kind == SETTINGS and change.settings is not None:
        title, stake = _settings(change)
        said = settings_summary(title, stake)
        if english(said) == stored:
            return said
        played = _PLAYED_STORED.fullmatch(stored[len(english(said)) :])
        if stored.startswith(english(said)) and played:
            day, before = (_said_day(words) for words in played.groups())
            line = _("Day played changed to %(day)s (was %(before)s)", day=day, before=before)
            return _with_played(said, line)
        return stored
    if change.kind == CREATE:
        return _said_start(stored)
    return stored


def _said_hand(record: dict[str, Any], stored: str) -> str:
    if record.get("end"):
        said: str = _("the players stopped here")
        return said if said == stored else stored
    if not said_by_record(record):
        return stored
    words = hand_words(record, None)
    if not stored.startswith(english(words)):
        return stored
    tail = stored[len(english(words)) :]
    if not tail:
        return words
    if tail == " · not counted":
        return _("%(what)s · not counted", what=words)
    if tail.startswith(" · "):
        return joined(" · ", [words, tail[len(" · ") :]])
    return stored


def _said_start(stored: str) -> str:
    for game in VARIANTS.values():
        opening = f"Match started: {english(game.name)}, "
        if stored.startswith(opening):
            rest = stored[len(opening) :]
            imported = _IMPORTED.fullmatch(rest)
            if imported:
                return started_summary(game.name, imported.group(1), int(imported.group(2)))
            return started_summary(game.name, rest, 0)
    return stored


# What a change of a hand says when it stopped the match, by the game's noun.
_STOPPED_AFTER = {
    "Hand": N_("The match was stopped after hand %(number)s"),
    "Game": N_("The match was stopped after game %(number)s"),
}


def describe(entry: Entry, noun: str = "Hand") -> str:
    """What a change did, for the history page and for a refused form, in the
    reader's language."""
    change = entry.change
    before = _version_words(entry.previous)
    removed = None
    if change.kind == DELETE and entry.previous is not None:
        removed = entry.previous.record_for(change.hand)
    subject = entry.hand_title(noun)
    summary = said_summary(change)
    what: str
    if change.kind == APPEND and change.record == {"end": True}:
        if noun in _STOPPED_AFTER:
            what = _(_STOPPED_AFTER[noun], number=entry.hand_number)
        else:
            what = f"The match was stopped after {noun.lower()} {entry.hand_number}"
    elif change.kind == DELETE and removed == {"end": True}:
        what = _("The match was resumed (the stop was taken back)")
    elif change.kind == APPEND:
        what = _("%(subject)s saved: %(summary)s", subject=subject, summary=summary)
    elif change.kind == EDIT:
        message = N_("%(subject)s changed to %(summary)s (was: %(before)s)")
        what = _(message, subject=subject, summary=summary, before=before)
    elif change.kind == DELETE:
        what = _("%(subject)s deleted (it was: %(before)s)", subject=subject, before=before)
    elif change.kind == RESTORE:
        what = _("%(subject)s brought back: %(summary)s", subject=subject, summary=summary)
    elif change.kind == DELETE_MATCH:
        what = _("The match was deleted")
    elif change.kind == RESTORE_MATCH:
        what = _("The match was brought back")
    elif change.kind in (CREATE, SETTINGS):
        what = summary
    else:
        raise KeyError(change.kind)
    if change.undoes is not None:
        # "Undo: hand 3 saved…" in English; other languages keep their capitals.
        if isinstance(what, Said):
            lowered = what.then(_lower_first, english_only=True)
        else:
            lowered = _lower_first(what)
        what = _("Undo: %(what)s", what=lowered)
    return what


def _lower_first(text: str) -> str:
    return f"{text[0].lower()}{text[1:]}" if text else text


def _version_words(made_by: Change | None) -> str:
    """A hand version in words: its change's summary, or for the hands of an
    imported file (summarised together), "as imported"."""
    if made_by is None:
        return _("unknown")
    return _("as imported") if made_by.kind == CREATE else said_summary(made_by)


def settings_summary(title: str, stake: Stake | None) -> str:
    if stake is None:
        if title:
            return _("Title “%(title)s”, no stake", title=title)
        return _("No title, no stake")
    if title:
        return _("Title “%(title)s”, stake %(stake)s", title=title, stake=stake_words(stake))
    return _("No title, stake %(stake)s", stake=stake_words(stake))


def played_summary(day: date | None, before: date | None) -> str:
    """The history's line for a change of the day played (the days themselves
    are written in English: "Friday 27 November 2026")."""
    return _(
        "Day played changed to %(day)s (was %(before)s)",
        day=day_words(day),
        before=day_words(before),
    )


def _with_played(summary: str, played: str) -> str:
    """A settings change's line that changed the day played too."""
    return _("%(settings)s. %(played)s", settings=summary, played=played)


_PLAYED_STORED = re.compile(r"\. Day played changed to (.+) \(was (.+)\)")


def _said_day(words: str) -> str:
    """A day as the history stored it ("Friday 27 November 2026"), said again."""
    if words == english(_("an unknown day")):
        return _("an unknown day")
    try:
        day = datetime.strptime(words, "%A %d %B %Y").date()
    except ValueError:
        return words
    return day_words(day) if english(day_words(day)) == words else words


def played_problem() -> Problem:
    """What a day played that is not a real day is told (a form's, a script's)."""
    return Problem(_("give a real day, written like 2026-11-20."), "played")


def who(device: str, asking: str | None) -> str:
    """ "Ann's phone", "this phone" or "another phone", as a refusal says it."""
    if asking and device == asking and device != DEFAULT_DEVICE:
        return _("this phone (%(device)s)", device=device)
    return _("another phone") if device == DEFAULT_DEVICE else device


# --- deciding a command ------------------------------------------------------------


@dataclass(frozen=True)
class Command:
    """What a phone asks for. `revision` is the revision its form was drawn
    from (None: no check, for scripts); `submission` the form's one-time key."""

    kind: str
    hand: int | None = None
    record: dict[str, Any] | None = None
    settings: dict[str, Any] | None = None
    undoes: int | None = None
    revision: int | None = None
    submission: str | None = None
    device: str = DEFAULT_DEVICE


class Refused(Exception):
    """Nothing was stored: the rules' `problems`, or the changes made since the
    form was drawn (`stale`), or only a `message`."""

    def __init__(
        self,
        message: str,
        *,
        problems: list[Problem] | None = None,
        stale: list[Entry] = (),
        target: Entry | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.problems = list(problems or [])
        self.stale = list(stale)
        self.target = target  # an Undo's change, when it can no longer be undone

    @property
    def lines(self) -> list[str]:
        return [problem.read() for problem in self.problems]


# The parts of a match each kind of change touches, for "what changed since the
# form was drawn": a hand form was drawn from the hands in play (their numbers,
# dealer and scores); a settings form from the title, stake and day.
HANDS, SETTINGS_PART, WHOLE = "hands", "settings", "match"
TOUCHES = {
    CREATE: {SETTINGS_PART},
    APPEND: {HANDS},
    EDIT: {HANDS},
    DELETE: {HANDS},
    RESTORE: {HANDS},
    SETTINGS: {SETTINGS_PART},
    DELETE_MATCH: {HANDS, WHOLE},
    RESTORE_MATCH: {WHOLE},
}


def _form_parts(command: Command) -> set[str] | None:
    """What a command's form was drawn from (EVERYTHING: an undo, a delete or
    a bringing back of the match, which must overlook no change at all)."""
    if command.undoes is not None or command.kind in (DELETE_MATCH, RESTORE_MATCH):
        return EVERYTHING
    return {SETTINGS_PART} if command.kind == SETTINGS else {HANDS}


def conflicts(state: MatchState, command: Command) -> list[Entry]:
    """Changes since the command's form was drawn that it must not overlook.

    A hand form, a delete or an undo conflicts with any change of the hands (the
    hand numbers, dealer and scores it was drawn from may have moved); a
    settings form with another settings change; an undo with any change at all
    (it would undo someone else's)."""
    if command.revision is None or command.revision >= state.revision:
        return []
    since = state.since(command.revision)
    return in_the_way(since, lambda entry: TOUCHES[entry.kind], _form_parts(command))


def decide(state: MatchState, command: Command, stamp: str) -> tuple[Change, Outcome | None]:
    """The change to store for `command`, checked against `state`; or Refused."""
    if command.revision is not None and command.revision > state.revision:
        raise Refused(_("This form does not belong to this match as stored: reload the page."))
    if command.kind == UNDO:
        command = resolve_undo(state, command)
    stale = conflicts(state, command)
    if stale:
        raise Refused("stale", stale=stale)
    if state.deleted and command.kind != RESTORE_MATCH:
        raise Refused(_("The match was deleted; bring it back first."))
    full(state, command.kind)
    kind = command.kind
    key, records = _hands_after(state, command)
    record = records.get(key) if kind in (APPEND, EDIT, RESTORE) else None
    if kind == DELETE:
        record = state.live[key]
    outcome = None
    summary = ""
    numbered: tuple[int | None, bool | None] = (None, None)
    if kind in HAND_KINDS:
        outcome, summary, numbered = _hand_words(state, kind, key, records, record)
    elif kind == SETTINGS:
        settings, summary = _settings_words(state, command)
        command = replace(command, settings=settings)
    change = Change(
        revision=state.revision + 1,
        kind=kind,
        hand=key if kind in HAND_KINDS else None,
        record=record if kind in (APPEND, EDIT, RESTORE) else None,
        settings=command.settings if kind == SETTINGS else None,
        undoes=command.undoes,
        summary=english(summary),  # stored in English; said again when shown
        device=command.device,
        created=stamp,
        submission=command.submission,
        hand_number=numbered[0],
        counted=numbered[1],
    )
    return change, outcome


def _hands_after(state: MatchState, command: Command) -> tuple[int | None, dict[int, Any]]:
    """The hand the command changes (a new hand's key for an append) and the
    hands in play after it; or Refused (a hand gone, a match full)."""
    kind, key = command.kind, command.hand
    records = dict(state.live)
    if kind == APPEND:
        key = next_key(state)
        records[key] = command.record
    elif kind in (EDIT, DELETE):
        if key not in state.live:
            raise Refused(_gone(state, key))
        if kind == EDIT:
            records[key] = command.record
        else:
            del records[key]
    elif kind == RESTORE:
        if key not in state.removed:
            raise Refused(_("That hand is not deleted; there is nothing to bring back."))
        records[key] = command.record if command.record is not None else state.removed[key]
    elif kind not in (SETTINGS, DELETE_MATCH, RESTORE_MATCH):
        raise ValueError(f"unknown command {kind!r}")
    if kind in (APPEND, RESTORE) and len(records) > MAX_ENTRIES:
        message = N_(
            "This match has %(entries)d entries, the most a match holds is %(most)d: "
            "start a new match for the rest of the evening."
        )
        raise Refused(_(message, entries=len(state.live), most=MAX_ENTRIES))
    return key, records


def _hand_words(
    state: MatchState,
    kind: str,
    key: int,
    records: dict[int, Any],
    record: dict[str, Any] | None,
) -> tuple[Outcome, str, tuple[int | None, bool | None]]:
    """A hand change replayed with the match (or Refused by the rules): the
    outcome, its history line and the number players read for the hand."""
    ordered = [records[k] for k in sorted(records)]
    try:
        outcome = replay(state.variant, state.players, state.options, ordered)
    except MatchError as exc:
        raise Refused("rules", problems=exc.problems) from None
    if kind == DELETE:
        return outcome, _version_words(state.made_by.get(key)), _number_before_delete(state, key)
    position = sorted(records).index(key)
    summary = hand_summary(record, outcome.hands[position])
    return outcome, summary, hand_number(outcome, position)


def _settings_words(state: MatchState, command: Command) -> tuple[dict[str, Any], str]:
    """A settings change checked (title, stake, day played; or Refused): the
    settings to store (a form without the day keeps it) and its history line."""
    settings = dict(command.settings or {})
    title_refused = title_problems(settings.get("title") or "")
    if title_refused:
        raise Refused("rules", problems=title_refused)
    stake = None
    if settings.get("stake") is not None:
        stake, problems = parse_stake(settings["stake"])
        if problems:
            raise Refused("rules", problems=problems)
    day = state.played
    if "played" in settings:
        day, problems = parse_played(settings["played"])
        if problems:
            raise Refused("rules", problems=[played_problem()])
    elif day is not None:  # a form without the day keeps it
        settings["played"] = day.isoformat()
    summary = settings_summary(settings.get("title") or "", stake)
    if day != state.played:
        summary = _with_played(summary, played_summary(day, state.played))
    return settings, summary


def hand_number(outcome: Outcome, position: int) -> tuple[int | None, bool | None]:
    """The number players read for the entry at `position` (0-based) of a replay,
    and whether it was a hand; for the end marker, the hands played before it
    (and None: it is neither a hand nor a redeal)."""
    result = outcome.hands[position]
    if result.hand is None:
        return sum(1 for r in outcome.hands[:position] if r.counted), None
    return result.hand, result.counted


def _number_before_delete(state: MatchState, key: int) -> tuple[int | None, bool | None]:
    """The number a hand being deleted had: the match replayed as it is (a match
    stored before a rules change may no longer replay: its place stands in)."""
    try:
        outcome = replay(state.variant, state.players, state.options, state.records)
    except MatchError:
        return None, None
    return hand_number(outcome, state.number_of(key) - 1)


def full(state: MatchState, kind: str) -> None:
    """Refuse a change past the limit. Every change counts: past MAX_CHANGES only
    deleting or bringing back the whole match (or undoing that), and only
    MATCH_RESERVE more times, so no sequence of commands grows a log for ever."""
    if state.revision >= MAX_CHANGES + MATCH_RESERVE:
        message = N_(
            "This match has %(changes)d changes, the most one match keeps: nothing more can "
            "be stored in it. Download its match file and import it to go on with a fresh "
            "history."
        )
        raise Refused(_(message, changes=state.revision))
    if state.revision >= MAX_CHANGES and kind not in (DELETE_MATCH, RESTORE_MATCH):
        message = N_(
            "This match has %(changes)d changes, the most one match keeps: "
            "start a new match to go on (this one stays as it is)."
        )
        raise Refused(_(message, changes=MAX_CHANGES))


def resolve_undo(state: MatchState, command: Command) -> Command:
    """The change that takes back what an Undo button was drawn for.

    `command.undoes` names that change (the revision the button carries): it is
    undone only while it is still the newest change not undone, else Refused
    with the changes made since (`stale`) and the change itself (`target`); an
    Undo never takes back another phone's newer change. Without `undoes` (a page
    drawn before buttons carried it), the newest change as of the form's
    revision, refused if anything changed since."""
    try:
        if command.undoes is None:
            if command.revision is not None and command.revision < state.revision:
                raise Refused("stale", stale=state.since(command.revision))
            target = newest_or_nothing(state.log)
        else:
            target = undo_target(state.log, command.undoes)
    except NotUndone as refused:
        raise Refused(refused.message, stale=refused.stale, target=refused.target) from None
    undo = undo_command(state, target)
    # Checked here against the change itself: no second check of the revision.
    return replace(undo, submission=command.submission, device=command.device)


def _gone(state: MatchState, key: int | None) -> str:
    if key in state.removed:
        return _(
            "That hand was deleted, so nothing was saved. Bring it back from the history first."
        )
    return _("There is no such hand in this match.")


def undo_command(state: MatchState, target: Entry) -> Command:
    """The change that takes `target` back, as a command (checked like any other)."""
    change = target.change
    kind, key, undoes = change.kind, change.hand, change.revision
    if kind in (APPEND, RESTORE):  # a restored hand was deleted before it came back
        return Command(DELETE, hand=key, undoes=undoes)
    if kind == EDIT:
        return Command(EDIT, hand=key, record=target.previous.record_for(key), undoes=undoes)
    if kind == DELETE:
        return Command(RESTORE, hand=key, record=state.removed.get(key), undoes=undoes)
    if kind == SETTINGS:
        settings = dict(target.previous.settings or {})
        if "played" not in settings and state.started_on is not None:
            # the version before named no day: the match was on the day it was stored with
            settings["played"] = state.started_on.isoformat()
        return Command(SETTINGS, settings=settings, undoes=undoes)
    if kind == DELETE_MATCH:
        return Command(RESTORE_MATCH, undoes=undoes)
    if kind == RESTORE_MATCH:
        return Command(DELETE_MATCH, undoes=undoes)
    raise ValueError(f"cannot undo {kind!r}")
