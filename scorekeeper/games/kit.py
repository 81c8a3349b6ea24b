"""What a game family is made of, declared once in its package's `__init__.py`.

    scorekeeper/games/<family>/__init__.py  `GAME`, its kit (below)
    scorekeeper/games/<family>/rules.py     the rules (Game subclasses, pure)
    scorekeeper/games/<family>/entry.py     the hand form (HandEntry subclasses, WTForms)
    scorekeeper/games/<family>/sheet.py     `build(match, outcome)`, the score sheet
    scorekeeper/games/<family>/stats.py     `STATS`, what a hand tells the statistics
    scorekeeper/games/<family>/templates/   hand.html, sheet.html, rules_<stem>.html
                                            (and _<piece>.html, a part they draw)
    scorekeeper/games/<family>/static/      its script and styles, if it has any

Its pages are named games/<family>/<page> and its static files are served at
/static/games/<family>/<file>, as if they sat in the shared folders
(scorekeeper/folders.py); docs/adding-a-game.md walks through a new game.

The package names its pieces in one `GameKit`; shared code asks the kit (its
settlement strategy, its stake basis, its hand-log words) instead of branching
on the game's id. scorekeeper/games/catalog.py lists the kits.

The kit names each variant's hand entry by its class name in the family's
entry.py instead of importing it: the rules, the sheet and the kit stay below
WTForms, and scorekeeper/registry.py (the views' layer) attaches the entries.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..charts import Series, running_chart
from ..model import Match
from ..sheets import hand_rows
from ..speech import N_, _
from ..words import hand_words
from .common import Details, Game, HandResult, Outcome
from .facts import GameStats
from .settlement import Settlement

GAMES_FOLDER = Path(__file__).resolve().parent


def stem(variant_id: str) -> str:
    """A variant id as a file name: top-game -> top_game."""
    return variant_id.replace("-", "_")


# The chart's title: what its lines show, after each entry (the kit's noun).
_AFTER_EACH = {
    "Hand": N_("%(what)s after each hand"),
    "Game": N_("%(what)s after each game"),
}


@dataclass(frozen=True)
class Variant:
    """One rule set of a family (rubber, Honeymoon and Chicago are one family)."""

    rules: type[Game]
    # The name of its HandEntry class in scorekeeper/games/<family>/entry.py.
    entry: str
    settlement: Settlement
    # The points a stake is usually quoted per; New match fills it in.
    stake_per: int = 1
    # How partners come about, for the statistics' partner records: "fixed",
    # "by hand" or "none" (games/facts.py's PARTNER_KINDS).
    partners: str | None = None

    @property
    def id(self) -> str:
        return self.rules.id


@dataclass(frozen=True)
class GameKit:
    """A game family's pieces. `family` is its package's name and its folders'."""

    family: str
    variants: tuple[Variant, ...]
    sheet: Callable[[Match, Outcome], dict[str, Any]]
    # What a hand of it tells the statistics (its stats.py): declared, made, its
    # own telling counts.
    stats: GameStats | None = None
    # What one entry of `hands` is called at the table ("Game" in Calypso): the
    # form, the messages, the history and the chart say it.
    noun: str = "Hand"
    # What a hand was, in a few words, on the sheets' hand log.
    row_words: Callable[[dict[str, Any], HandResult | None], str] = hand_words
    # The hand log's (contract, result) columns for a hand the game words its own
    # way (Mini Bridge's GAME or not, Calypso's winning side); None: the usual words.
    log_words: Callable[[Details], tuple[str, str] | None] | None = None
    # The chart of the running score: what its lines show as the players call
    # it ("Pegs"; the title adds "after each hand") and the word of its y axis.
    chart_title: str = _("Running score")
    chart_unit: str = _("Points")
    # Who has a line on it: the sides that share one score, each named as the
    # sheet names it with the players it stands for; None: one line per player.
    sides: Callable[[Match, Outcome], list[tuple[str, list[str]]]] | None = None

    @property
    def entry_module(self) -> str:
        """The module holding the family's hand entry (registry.py imports it)."""
        return f"{__package__}.{self.family}.entry"

    @property
    def folder(self) -> Path:
        """scorekeeper/games/<family>/: everything of the game."""
        return GAMES_FOLDER / self.family

    @property
    def templates_folder(self) -> Path:
        return self.folder / "templates"

    @property
    def static_folder(self) -> Path:
        return self.folder / "static"

    @property
    def hand_template(self) -> str:
        return f"games/{self.family}/hand.html"

    @property
    def sheet_template(self) -> str:
        return f"games/{self.family}/sheet.html"

    def rules_template(self, variant_id: str) -> str:
        return f"games/{self.family}/rules_{stem(variant_id)}.html"

    def build_sheet(self, match: Match, outcome: Outcome) -> dict[str, Any]:
        """The sheet: the rows all sheets share, what this game's `sheet` adds,
        and the chart of the running score drawn from those rows."""
        sheet = {
            "template": self.sheet_template,
            "players": list(match.players),
            "rows": hand_rows(match, outcome, self.row_words),
            "totals": [outcome.totals[p] for p in match.players],
            **self.sheet(match, outcome),
        }
        sheet["chart"] = self.score_chart(match, outcome)
        return sheet

    def score_chart(self, match: Match, outcome: Outcome) -> dict[str, Any] | None:
        """The running score hand by hand, one line per player or side; None
        before the first hand. A point per hand as players number them: an entry
        that is not a hand (a redeal) counts with the hand dealt again, and the
        end marker's points with the last hand, so the axis reads 1, 2, 3… as
        the sheet does and the last point is the final standing."""
        players = list(match.players)
        sides = self.sides(match, outcome) if self.sides else [(p, [p]) for p in players]
        hands: list[str] = []
        points: list[dict[str, int]] = []  # the running totals after each hand
        running = dict.fromkeys(players, 0)
        for result in outcome.hands:
            if result.hand is None and not hands:  # stopped before any hand
                continue
            for player in players:
                running[player] += result.scores[player]
            # The end marker (an unfinished rubber's bonus) ends the last hand's
            # standing; a redeal and the hand dealt again share their number.
            label = hands[-1] if result.hand is None and hands else str(result.hand)
            if hands and hands[-1] == label:
                points[-1] = dict(running)
            else:
                hands.append(label)
                points.append(dict(running))
        # Partners score alike: a side's points are its first player's.
        series = [Series(name, [p[members[0]] for p in points]) for name, members in sides]
        noun = self.noun
        return running_chart(
            chart_id="score-chart",
            title=_(_AFTER_EACH.get(noun, _AFTER_EACH["Hand"]), what=self.chart_title),
            noun=noun,
            unit=self.chart_unit,
            hands=hands,
            series=series,
        )

    def variant(self, variant_id: str) -> Variant:
        return next(v for v in self.variants if v.id == variant_id)
