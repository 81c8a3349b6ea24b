"""What the pages of several blueprints draw alike: the match loaded and replayed,
its sheet, stake and settlement, where it stands, its share codes and file names."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import urlsplit

import segno
from flask import Response, abort, current_app, g, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_wtf.csrf import generate_csrf
from jinja2 import Template
from markupsafe import Markup, escape

from .. import groups
from ..changelog import DEFAULT_DEVICE
from ..db import StoredMatch, get_db, load_match
from ..drawn import Drawing, draw, kept_drawing, one_at_a_time, part
from ..games.catalog import VARIANTS, build_sheet, settlement_for
from ..games.common import Outcome
from ..instance import PACKAGE
from ..kept import Recent
from ..model import Match
from ..registry import entry_for
from ..settle import settle
from ..speech import key_of
from ..variants import MatchError, replay_match
from .commands import new_keys
from .language import once_per_locale, page_translations, reading, spoken_translations
from .phone import PHONE_COOKIE, phone_name, text_size

LOOPBACK = ("127.", "localhost", "::1")  # hostnames as urlsplit gives them


@dataclass
class Loaded:
    stored: StoredMatch  # this request's own: moving it on changes nothing kept
    outcome: Outcome | None  # only read: shared with the other pages of this revision
    problems: list[str]
    drawing: Drawing | None = None  # the revision's kept drawing, when it came from one


def load_or_404(match_id: str) -> Loaded:
    """The stored match and its replay (problems listed if it no longer replays),
    replayed once per revision (drawn.py)."""
    db = get_db()
    found = kept_drawing(db, match_id)  # one query: all that is read when it is kept
    if found is None:
        turn = one_at_a_time(match_id)
        waited = not turn.acquire(blocking=False)
        if waited:
            turn.acquire()
        try:
            if waited:  # another phone's page drew it meanwhile
                found = kept_drawing(db, match_id)
            if found is None:
                # Its changes are only ever added: what is loaded is the match at
                # one revision, the one its drawing is kept under.
                stored = load_match(db, match_id)
                if stored is None:
                    abort(404)
                found = draw(stored)
        finally:
            turn.release()
    return Loaded(found.stored.copy(), found.outcome, list(found.problems), found)


def in_a_sentence(title: str) -> str:
    """A hand's title inside a sentence, as the page's language writes it
    ("Save hand 3", "Spiel 3 speichern")."""
    return reading().in_a_sentence(title)


def load_group_or_404(group_id: str) -> groups.GroupState:
    """The group at this address, as stored now, or a 404 page."""
    state = groups.load_group(get_db(), group_id)
    if state is None:
        abort(404)
    return state


def match_state(stored: StoredMatch) -> dict:
    """What the home list says of a match: in progress (and who deals next, from
    the replay), finished (and who won), stopped early, or no longer replaying;
    and `hands`, the hands played as the rules count them (a redeal is not a
    hand), None when the match no longer replays."""
    try:
        outcome = replay_match(stored.match)
    except MatchError:
        return {
            "state": _("needs a fix"),
            "next": _("a hand no longer fits the rules"),
            "hands": None,
        }
    hands = outcome.hands_played
    if not outcome.finished:
        dealer = outcome.upcoming.dealer if outcome.upcoming else None
        next_words = _("%(dealer)s deals next", dealer=dealer) if dealer else ""
        return {"state": _("in progress"), "next": next_words, "hands": hands}
    records = stored.records
    stopped = bool(records) and records[-1] == {"end": True}
    won = " & ".join(outcome.winners)
    state = _("stopped") if stopped else _("finished")
    return {
        "state": state,
        "next": _("won by %(winners)s", winners=won) if won else "",
        "hands": hands,
    }


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


def share_links_drawn_once(stored: StoredMatch) -> dict:
    """`share_links` for a page drawn once for every phone: the phone's name is
    a mark, put in for each phone by `with_phone_name`."""
    return {**share_links(stored), "phone": Markup(PHONE_MARK), "named": True}


def with_phone_name(page: Markup) -> Markup:
    """A page drawn once with `share_links_drawn_once`: this phone's own name
    where the mark is (nothing for a phone not named)."""
    name = phone_name()
    mine = str(escape(name)) if name != DEFAULT_DEVICE else ""
    return Markup(str(page).replace(PHONE_MARK, mine))


# --- what a revision shows, drawn once -------------------------------------------

# Where this request's CSRF token and fresh one-time keys go in a part drawn once
# (no text typed at the table comes out of a template with a bare "<").
CSRF_MARK = "<!--csrf-->"
KEY_MARK = "<!--key-->"
KEY_MARK_HTML = Markup(KEY_MARK)
# Where the revision goes in a piece kept across revisions (a hand's Delete
# form): put in once when the revision's part is drawn (`drawn_part`).
REVISION_MARK = "<!--revision-->"
REVISION_MARK_HTML = Markup(REVISION_MARK)
# In a whole page drawn once: where the asking phone's CSRF token goes (every
# form's, the switches at the page's foot included), and its name.
TOKEN_MARK = "<!--token-->"
PHONE_MARK = "<!--phone-->"


CSRF_FIELD = Markup('<input id="{0}" name="{0}" type="hidden" value="{1}">')


def drawn_once() -> SimpleNamespace:
    """This request's CSRF field as HTML, drawn once for the page's many buttons
    (two per hand), as WTForms draws a form's `csrf_token` (nothing when CSRF is
    off), without building a form for it."""
    config = current_app.config
    if not config.get("WTF_CSRF_ENABLED", True):
        return SimpleNamespace(csrf_token=Markup(""))
    name = config.get("WTF_CSRF_FIELD_NAME", "csrf_token")
    return SimpleNamespace(csrf_token=CSRF_FIELD.format(name, generate_csrf()))


def kept_part(
    loaded: Loaded,
    template: str,
    name: Hashable,
    context: Callable[[Loaded], dict],
    confirm: SimpleNamespace | None = None,
) -> Markup:
    """`template` drawn with `context(loaded)`, which reads the match's revision
    alone (and `name`: what else the part shows, like the hand opened), kept with
    the revision's drawing; then this
    request's CSRF token (`confirm`'s, when the page has one drawn) and a fresh
    one-time key for each form are put in: the template passes `key_mark` to
    `change_fields`."""

    return this_phones(drawn_part(loaded, template, name, context), confirm)


def drawn_part(
    loaded: Loaded, template: str, name: Hashable, context: Callable[[Loaded], dict]
) -> str:
    """The part of `kept_part` as kept: its marks still in place, for a page
    drawn once around it (`kept_page`)."""

    def render() -> str:
        marks = SimpleNamespace(csrf_token=Markup(CSRF_MARK))
        text = render_template(template, **context(loaded), confirm=marks, key_mark=KEY_MARK_HTML)
        return text.replace(REVISION_MARK, str(loaded.stored.revision))

    key = (template, name, *page_variant())
    return part(loaded.drawing, key, render) if loaded.drawing is not None else render()


def kept_page(loaded: Loaded, kind: str, name: Hashable, render: Callable[[], str]) -> Markup:
    """A whole page that shows its match's revision alone (and `name`: what else
    it shows), drawn once by `render` for the address asked, the phone's
    language and text size, and kept with the revision's drawing; each phone
    then gets it with its own CSRF token wherever the drawing had one, and a
    fresh one-time key at each mark. `render` must read nothing of the request
    but those (a template with a message waiting is never kept)."""
    assert loaded.drawing is not None

    def marked() -> str:
        # The asker's token stands wherever a form of the page has one: WTForms'
        # fields and the switches' `csrf_token()` alike. Only a token the drawing
        # made (Flask-WTF keeps it in `g`): a page with no form (the watch page)
        # makes none, and sets no session cookie on the phone that drew it.
        page = render()
        token = g.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"))
        return page.replace(token, TOKEN_MARK) if token else page

    key = (kind, request.full_path, name, *page_variant())
    return this_phones(part(loaded.drawing, key, marked))


def the_same_for_every_phone(loaded: Loaded, etag: str | None) -> bool:
    """A page (match or watch) as every phone following the table is drawn it
    after a change: no message waiting to be shown (then the page has no ETag)."""
    return etag is not None and loaded.drawing is not None


# Pieces of a page drawn once for what they show: a hand's line in the log (what
# happened, the scores, why, and its Edit and Delete buttons), a finished rubber's
# pad. A page drawn after a change draws what the change changed (the new hand's
# line, the rubber in play) and takes the rest as it was: a club evening's tables,
# some thirty hands and a few rubbers each, in a few languages. With its key (the
# sentences, numbers and names it was drawn for) a piece holds some 7 to 8 bytes
# per character of its text (measured: tests/test_kept_pieces.py; a hand's line
# some 6 kB, a rubber's pad some 20 kB): at most 4096 pieces and 2.4 million
# characters of text, about 20 MB.
KEPT_PIECES = 4096
KEPT_PIECES_TEXT = 2_400_000
_pieces: Recent[Markup] = Recent(KEPT_PIECES, KEPT_PIECES_TEXT, len)

# What a hand's line shows of its row (sheets.hand_rows): its key and all it reads.
LOG_FIELDS = ("number", "label", "title", "what", "counted", "scores", "explanation")


def kept_macro(template: str, macro: str, *shown: object) -> Markup:
    """`macro` of `template` called with `shown`, drawn once for what it shows,
    the page's language (its figures are written the language's way) and text
    size, the address the app is served under, the catalogs its words come from
    and the template itself (an edit read again under auto-reload draws anew).
    The key names each sentence by what it is made of (speech.key_of), so a
    piece is never another's; the macro reads nothing but `shown` and those."""
    source = current_app.jinja_env.get_template(template)
    try:
        # the template itself (kept alive by the key): an edit is another piece
        key = (source, macro, *_where_pieces_are_drawn(), key_of(shown))
        hash(key)  # a sentence's change or count that cannot be a key
    except TypeError:  # something without a key: drawn anew, never kept
        return _draw_piece(source, macro, shown)
    piece = _pieces.get(key)
    if piece is None:
        piece = _draw_piece(source, macro, shown)
        _pieces.put(key, piece)
    return piece


def _where_pieces_are_drawn() -> tuple[Hashable, ...]:
    """What every piece of this page is drawn for besides what it shows: the
    catalogs themselves (another catalog for the same language is another
    piece) and `page_variant`; worked out once for each locale the request is
    read in (a page draws a piece for each hand)."""
    return once_per_locale(
        "_pieces_drawn_for",
        lambda: (page_translations(), spoken_translations(), *page_variant()),
    )


def _draw_piece(source: Template, macro: str, shown: tuple) -> Markup:
    return Markup(getattr(source.module, macro)(*shown))


def log_line(row: dict, players: list[str]) -> Markup:
    """A hand's line in the log as the watch page shows it (macros.log_entry)."""
    return kept_macro("macros.html", "log_entry", _log_fields(row), players)


def log_item(row: dict, players: list[str], match_id: str, hand_id: str, opened: bool) -> Markup:
    """A hand in the match page's log (macros.log_item): its line, and its Edit
    and Delete buttons, whose form carries marks for the CSRF token, the
    one-time key and the revision (put in by `drawn_part` and `this_phones`)."""
    editable = "end" not in row["record"]  # a "stop here" is deleted, not edited
    marks = (Markup(CSRF_MARK), REVISION_MARK_HTML, KEY_MARK_HTML)
    shown = (_log_fields(row), players, match_id, hand_id, opened, editable, *marks)
    return kept_macro("macros.html", "log_item", *shown)


def _log_fields(row: dict) -> dict:
    """What a hand's line shows of its row, and nothing else: its key."""
    return {name: row[name] for name in LOG_FIELDS}


def page_variant() -> tuple[Hashable, ...]:
    """What a part drawn once shows besides its match's revision and what its
    own key names: the one place to add what a page is drawn for (the address
    the app is served under, the phone's language and its text size)."""
    return (request.script_root, reading().code, text_size())


def this_phones(text: str, confirm: SimpleNamespace | None = None) -> Markup:
    """A part drawn once (`part`), with this request's CSRF token (`confirm`'s,
    when the page has one drawn) and a fresh one-time key in place of each mark."""
    confirm = confirm or (drawn_once() if CSRF_MARK in text else None)
    token = confirm.csrf_token if confirm else ""
    text = text.replace(CSRF_MARK, token)
    if TOKEN_MARK in text:
        text = text.replace(TOKEN_MARK, generate_csrf())
    first, *rest = text.split(KEY_MARK)
    return Markup(
        first + "".join(key + piece for key, piece in zip(new_keys(len(rest)), rest, strict=True))
    )


@lru_cache(maxsize=8)
def app_version(*folders: str) -> str:
    """A digest of the code, templates and assets this process runs (each file's
    name, size and time): a page drawn by another version is drawn again."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted(Path(folder).rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                stat = path.stat()
                digest.update(f"{path}:{stat.st_size}:{stat.st_mtime_ns}\n".encode())
    return digest.hexdigest()[:16]


def page_etag(loaded: Loaded, *varying: object) -> str | None:
    """The ETag of a page whose whole body is its match's revision and `varying`
    (what else it shows), this phone's session token, name and the app's
    version; None while a message waits to be shown (the page shows it once).
    Asked again once the page is drawn, it is worked out again only when the
    drawing gave this phone its session's token."""
    if session.get("_flashes"):
        return None
    token = session.get(current_app.config.get("WTF_CSRF_FIELD_NAME", "csrf_token"), "")
    known = g.get("page_etag")
    if known is not None and known[0] == (loaded.stored.id, loaded.stored.revision, token, varying):
        return known[1]
    newest = loaded.stored.log[-1].change if loaded.stored.log else None
    folders = (str(PACKAGE), current_app.template_folder or "", current_app.static_folder or "")
    what = (
        loaded.stored.id,
        newest.created if newest else "",
        newest.submission if newest else "",
        app_version(*folders),
        token,
        request.cookies.get(PHONE_COOKIE, ""),
        text_size(),  # the root's size: a page kept at another size is not this one
        base_url(),
        reading().code,  # the page in this phone's language
        *varying,
    )
    digest = hashlib.sha256(repr(what).encode()).hexdigest()[:20]
    etag = f"r{loaded.stored.revision}-{digest}"
    g.page_etag = ((loaded.stored.id, loaded.stored.revision, token, varying), etag)
    return etag


def not_modified(etag: str | None) -> Response | None:
    """A 304 when the phone already has the page of `etag` (None: draw the page)."""
    if etag is None or not request.if_none_match.contains_weak(etag):
        return None
    return revalidated(Response(status=304), etag)


def revalidated(response: Response, etag: str | None) -> Response:
    """A page the phone keeps only to ask again each time (a 304 when unchanged):
    never shown stale, never kept by a shared cache (it holds this phone's token)."""
    if etag is not None:
        response.set_etag(etag, weak=True)
    response.cache_control.no_cache = True
    response.cache_control.private = True
    response.vary.add("Cookie")
    return response
