"""Calypso: four players in two partnerships, four decks, scored once per game.

Rules: docs/variants/calypso.md. A game is four deals; at its end each player
counts completed calypsos, the cards of the calypso being built and the discard
pile. Each side's points go to both its players; the sheet shows the difference.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ...speech import N_, _
from ..common import Checks, Details, Game, HandResult, NextHand, OptionSpec, Summary

# Points for the first, second, third and fourth completed calypso.
CALYPSO_POINTS = (500, 750, 1000, 1000)
INCOMPLETE_CARD_POINTS = 20
DISCARD_CARD_POINTS = 10
CARDS_PER_CALYPSO = 13  # ace to king
MAX_INCOMPLETE = CARDS_PER_CALYPSO - 1
MAX_CALYPSOS = len(CALYPSO_POINTS)  # four decks hold four of each trump card
DECK_CARDS = 4 * 52
TALLY_FIELDS = ("calypsos", "incomplete", "discards")
TALLY_HINT = _("give calypsos, incomplete and discards")

FIELDS = frozenset({"tallies"})


def calypso_points(calypsos: int) -> int:
    """500 for the first calypso, 750 for the second, 1000 for each further one."""
    return sum(CALYPSO_POINTS[:calypsos])


def player_points(calypsos: int, incomplete: int, discards: int) -> dict[str, int]:
    """One player's tally and its points, item by item."""
    parts = {
        "calypso_points": calypso_points(calypsos),
        "incomplete_points": incomplete * INCOMPLETE_CARD_POINTS,
        "discard_points": discards * DISCARD_CARD_POINTS,
    }
    return {
        "calypsos": calypsos,
        "incomplete": incomplete,
        "discards": discards,
        **parts,
        "points": sum(parts.values()),
    }


def cards_counted(tally: dict[str, int]) -> int:
    return CARDS_PER_CALYPSO * tally["calypsos"] + tally["incomplete"] + tally["discards"]


def tally_line(player: str, tally: dict[str, int]) -> str:
    """E.g. `Ann: calypsos 500 + 750 = 1250; 5 incomplete × 20 = 100; …; 1550`."""
    made = CALYPSO_POINTS[: tally["calypsos"]]
    if not made:
        calypsos = _("no calypso")
    elif len(made) == 1:
        calypsos = _("1 calypso %(points)d", points=made[0])
    else:
        sums = " + ".join(map(str, made))
        calypsos = _("calypsos %(sums)s = %(points)d", sums=sums, points=tally["calypso_points"])
    return _(
        "%(player)s: %(calypsos)s; %(incomplete)d incomplete × %(each_incomplete)d = "
        "%(incomplete_points)d; %(discards)d discards × %(each_discard)d = "
        "%(discard_points)d; total %(points)d",
        player=player,
        calypsos=calypsos,
        incomplete=tally["incomplete"],
        each_incomplete=INCOMPLETE_CARD_POINTS,
        incomplete_points=tally["incomplete_points"],
        discards=tally["discards"],
        each_discard=DISCARD_CARD_POINTS,
        discard_points=tally["discard_points"],
        points=tally["points"],
    )


@dataclass(frozen=True)
class CalypsoSummary(Summary):
    sides: list[list[str]]  # players 1 & 3, players 2 & 4
    partner: dict[str, str]  # each player's partner


@dataclass(frozen=True)
class CalypsoNext(NextHand):
    """The next game of Calypso: its four dealers in turn, its number of how many."""

    dealers: list[str]
    game: int
    games: int


@dataclass(frozen=True)
class CalypsoDetails(Details):
    """One game of tallies: every player's tally with its points, each side's
    points (`sides`: players and points), and the side that won it (None on a tie)."""

    game: int
    dealers: list[str]
    tallies: dict[str, dict[str, int]]
    sides: list[dict[str, Any]]
    difference: int
    winning_side: list[str] | None


class Calypso(Game):
    id = "calypso"
    name = _("Calypso")
    summary = _("Four players, two partnerships, four decks; runs in your own trump are scored.")
    player_counts = (4,)
    option_specs = (
        OptionSpec("games", 1, _("games to play; each game is four deals"), low=1, high=50),
    )
    hand_fields = FIELDS

    def __init__(self, players: list[str], options: dict[str, Any]):
        super().__init__(players, options)
        self.games_played = 0

    # -- where the match stands ---------------------------------------------
    def dealers(self) -> list[str]:
        """The four dealers of the next game: each game's first deal moves one seat on."""
        start = self.games_played % len(self.players)
        return self.players[start:] + self.players[:start]

    def sides(self) -> tuple[tuple[str, str], tuple[str, str]]:
        return self.side_of(self.players[0]), self.side_of(self.players[1])

    def is_finished(self) -> bool:
        return self.games_played >= self.options["games"]

    def summarize(self) -> CalypsoSummary:
        partner = {p: next(q for q in self.side_of(p) if q != p) for p in self.players}
        return CalypsoSummary([list(side) for side in self.sides()], partner)

    def winners(self) -> list[str]:
        return self.side_winners()

    def upcoming(self) -> CalypsoNext:
        dealers = self.dealers()
        return CalypsoNext(
            dealer=dealers[0],
            dealers=dealers,
            game=self.games_played + 1,
            games=self.options["games"],
        )

    # -- one game -------------------------------------------------------------
    def play_hand(self, record: dict[str, Any], number: int) -> HandResult:
        checks = Checks(record, FIELDS)
        tallies = self._check_tallies(checks)
        checks.done()

        dealers = self.dealers()
        lines = [tally_line(p, tallies[p]) for p in self.players]
        sides = [
            {"players": [a, b], "points": tallies[a]["points"] + tallies[b]["points"]}
            for a, b in self.sides()
        ]
        for side in sides:
            a, b = side["players"]
            lines.append(
                f"{a} & {b}: {tallies[a]['points']} + {tallies[b]['points']} = {side['points']}"
            )
        ours, theirs = sides
        difference = abs(ours["points"] - theirs["points"])
        winning_side = None
        if difference:
            winner, loser = (ours, theirs) if ours["points"] > theirs["points"] else (theirs, ours)
            winning_side = winner["players"]
            message = N_("%(side)s win the game by %(difference)d (%(winner)d − %(loser)d)")
            named = {"side": " & ".join(winning_side), "difference": difference}
            lines.append(_(message, **named, winner=winner["points"], loser=loser["points"]))
        else:
            lines.append(_("the game is a tie: both sides %(points)d", points=ours["points"]))
        side_points = {p: side["points"] for side in sides for p in side["players"]}
        scores = {p: side_points[p] for p in self.players}
        details = CalypsoDetails(
            game=self.games_played + 1,
            dealers=dealers,
            tallies=tallies,
            sides=sides,
            difference=difference,
            winning_side=winning_side,
        )
        self.add(scores)
        self.games_played += 1
        return HandResult(number, dealers[0], True, scores, lines, details)

    def _check_tallies(self, checks: Checks) -> dict[str, dict[str, int]]:
        """Every player's tally with its points; any problem is left in `checks`."""
        if "tallies" not in checks.record:
            message = N_("missing; for each of %(players)s %(hint)s")
            checks.fail("tallies", _(message, players=", ".join(self.players), hint=TALLY_HINT))
            return {}
        entered = checks.record["tallies"]
        if not isinstance(entered, dict):
            message = N_("give an object naming each player; for each %(hint)s")
            checks.fail("tallies", _(message, hint=TALLY_HINT))
            return {}
        for name in entered:
            if name not in self.players:
                message = N_("%(typed)s is not one of %(players)s")
                checks.fail(
                    "tallies", _(message, typed=repr(name), players=", ".join(self.players))
                )
        tallies: dict[str, dict[str, int]] = {}
        for player in self.players:
            where = f"tallies.{player}"
            if player not in entered:
                checks.fail(where, _("missing; %(hint)s", hint=TALLY_HINT))
                continue
            if not isinstance(entered[player], dict):
                message = N_("%(typed)s is not an object; %(hint)s")
                checks.fail(where, _(message, typed=repr(entered[player]), hint=TALLY_HINT))
                continue
            # Check the player's own fields on their own, then file the problems under them.
            own = Checks(entered[player], set(TALLY_FIELDS))
            counts = {
                "calypsos": own.get_int("calypsos", 0, MAX_CALYPSOS),
                "incomplete": own.get_int("incomplete", 0, MAX_INCOMPLETE),
                "discards": own.get_int("discards", 0, DECK_CARDS),
            }
            if counts["calypsos"] == MAX_CALYPSOS and counts["incomplete"]:
                own.fail("incomplete", _all_calypsos_made())
            for field_name, message in own.problems:
                checks.fail(f"{where}.{field_name}", message)
            if own.ok:
                tallies[player] = player_points(**counts)  # type: ignore[arg-type]
        if not checks.ok:
            return tallies
        found = sum(cards_counted(t) for t in tallies.values())
        if found != DECK_CARDS:
            message = N_(
                "the tallies count %(found)d cards, but the four decks hold %(deck)d: "
                "every card ends in a calypso, a calypso in progress or a discard pile"
            )
            checks.fail("tallies", _(message, found=found, deck=DECK_CARDS))
        return tallies


# -- what the game form flags while the counts are typed ----------------------


def tally_problems(tally: dict[str, Any]) -> dict[str, str]:
    """What the rules refuse in one player's counts typed so far, by count, in the
    words of a Save (a count not typed yet is no problem here)."""
    own = Checks(tally, set(TALLY_FIELDS))
    calypsos = own.get_int("calypsos", 0, MAX_CALYPSOS, required=False)
    incomplete = own.get_int("incomplete", 0, MAX_INCOMPLETE, required=False)
    own.get_int("discards", 0, DECK_CARDS, required=False)
    if calypsos == MAX_CALYPSOS and incomplete:
        own.fail("incomplete", _all_calypsos_made())
    problems: dict[str, str] = {}
    for count, message in own.problems:
        problems.setdefault(count, message)
    return problems


def _all_calypsos_made() -> str:
    return _(
        "%(calypsos)d calypsos use every trump card of the four decks, "
        "so no calypso can be in progress; give 0",
        calypsos=MAX_CALYPSOS,
    )
