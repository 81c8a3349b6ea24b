"""What the pages of several blueprints draw alike: the match loaded and replayed,
its sheet, stake and settlement, where it stands, its share codes and file names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import segno
from flask import abort, current_app, request, url_for
from markupsafe import Markup

from ..changelog import DEFAULT_DEVICE
from ..db import StoredMatch, get_db, load_match
from ..games.catalog import VARIANTS, build_sheet, settlement_for
from ..games.common import Outcome
from ..model import Match
from ..registry import entry_for
from ..settle import settle
from ..variants import MatchError, replay_match
from .phone import phone_name

LOOPBACK = ("127.", "localhost", "::1")  # hostnames as urlsplit gives them


@dataclass
class Loaded:
    stored: StoredMatch
    outcome: Outcome | None
    problems: list[str]


def load_or_404(match_id: str) -> Loaded:
    """The stored match and its replay (problems listed if it no longer replays)."""
    stored = load_match(get_db(), match_id)
    if stored is None:
        abort(404)
    try:
        return Loaded(stored, replay_match(stored.match), [])
    except MatchError as exc:
        return Loaded(stored, None, [problem.read() for problem in exc.problems])


def match_state(stored: StoredMatch) -> dict:
    """What the home list says of a match: in progress (and who deals next, from
    the replay), finished (and who won), stopped early, or no longer replaying;
    and `hands`, the hands played as the rules count them (a redeal is not a
    hand), None when the match no longer replays."""
    try:
        outcome = replay_match(stored.match)
    except MatchError:
        return {"state": "needs a fix", "next": "a hand no longer fits the rules", "hands": None}
    hands = outcome.hands_played
    if not outcome.finished:
        dealer = outcome.upcoming.dealer if outcome.upcoming else None
        next_words = f"{dealer} deals next" if dealer else ""
        return {"state": "in progress", "next": next_words, "hands": hands}
    records = stored.records
    stopped = bool(records) and records[-1] == {"end": True}
    won = " & ".join(outcome.winners)
    state = "stopped" if stopped else "finished"
    return {"state": state, "next": f"won by {won}" if won else "", "hands": hands}


def sheet_context(loaded: Loaded) -> dict:
    """What the match page and the watch page both draw: sheet, totals, settlement."""
    stored = loaded.stored
    return {
        "loaded": loaded,
        "stored": stored,
        "match": stored.match,
        "outcome": loaded.outcome,
        "sheet": build_sheet(stored.match, loaded.outcome) if loaded.outcome else None,
        "entry": entry_for(stored.variant),
        "variant": VARIANTS[stored.variant],
        "kind": settlement_for(stored.variant),  # how its totals are settled
        "settlement": settlement_view(stored.match, loaded.outcome),
        "stake_text": stake_text(stored.match),
    }


def stake_text(match: Match) -> str:
    """The stake in words: 0.50 EUR per point, 1.00 EUR per 3 points, or per game."""
    if match.stake is None:
        return ""
    return settlement_for(match.variant).stake_words(match.stake)


def settlement_view(match: Match, outcome: Outcome | None) -> dict | None:
    """Balances and payments for the page and the PDF (None without a stake)."""
    if match.stake is None or outcome is None:
        return None
    balances, pays = settle(outcome, match.stake.amount, match.stake.per)
    return {
        "balances": [(p, balances[p]) for p in match.players],
        "payments": pays,
        "currency": match.stake.currency,
        "empty_note": settlement_for(match.variant).empty_note(outcome),
    }


def filename(match: Match, ext: str) -> str:
    """The name a downloaded file of the match gets: its title (or game), plain."""
    base = re.sub(r"[^A-Za-z0-9]+", "-", match.title or match.variant).strip("-") or "match"
    return f"{base.lower()}.{ext}"


# --- bringing a phone to the table -------------------------------------------------


def base_url() -> str:
    """The address other phones can open: the one this phone used, unless that
    is this machine's own loopback, then the network address `serve` found."""
    here = request.host_url
    host = urlsplit(here).hostname or ""
    shared = current_app.config.get("SHARE_URL")
    if shared and host.startswith(LOOPBACK):
        return shared.rstrip("/") + "/"
    return here


# Each match's two addresses never change, and every phone at a table reloads
# its page after each change: each code is drawn once (a few kB of SVG each;
# 256 of them cover a club evening of tables and the addresses they are reached by).
@lru_cache(maxsize=256)
def qr_svg(url: str) -> Markup:
    """A QR code drawn here as inline SVG (no service on the internet)."""
    code = segno.make(url, error="m")
    return Markup(code.svg_inline(scale=4, omitsize=True, svgclass="qr", lineclass="qr-line"))


def share_links(stored: StoredMatch) -> dict:
    base = base_url()
    play = base + url_for("matches.show", match_id=stored.id).lstrip("/")
    watch_url = base + url_for("live.watch", token=stored.watch).lstrip("/")
    return {
        "play": play,
        "play_qr": qr_svg(play),
        "watch": watch_url,
        "watch_qr": qr_svg(watch_url),
        "phone": phone_name(),
        "named": phone_name() != DEFAULT_DEVICE,
    }
