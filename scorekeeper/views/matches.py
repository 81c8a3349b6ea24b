"""Matches: the list to resume, starting one, its page, settings, import and export."""

from __future__ import annotations

import csv
import io
import json
from functools import reduce

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import gettext as _
from flask_babel import ngettext
from markupsafe import Markup

from .. import db as store
from .. import groups, pdf
from ..backup import zip_matches
from ..changelog import (
    DELETE_MATCH,
    RESTORE_MATCH,
    SETTINGS,
    Refused,
    conflicts,
    day_words,
    describe,
)
from ..forms import (
    ConfirmForm,
    ImportForm,
    NewMatchForm,
    SettingsForm,
    named_field,
    option_field_name,
)
from ..games.catalog import VARIANTS
from ..games.common import Problem
from ..groupfile import names_group
from ..groups import MAX_GROUP_FILE_BYTES
from ..matchfile import (
    LIMITS_TEXT,
    MAX_ENTRIES,
    MAX_FILE_BYTES,
    dumps,
    from_document,
    loads,
    parse_stake,
)
from ..model import Match
from ..names import alike, name_problem, normal
from ..registry import entry_for
from ..settle import usual_per
from ..sheets.hand_log import log_table
from ..speech import capitalised
from ..variants import MatchError
from ..viewmodels.downloads import spreadsheet_safe
from .commands import (
    NO_REVISION,
    NOT_SAVED_SESSION_LOST,
    SESSION_LOST,
    NoRevision,
    blank,
    command,
    form_key,
    place_problems,
    submit,
)
from .group_import import import_group
from .messages import change_lines, changed_words, flash_problems, flash_undo, look_alike_note
from .pages import (
    Loaded,
    base_url,
    drawn_once,
    drawn_part,
    filename,
    kept_page,
    kept_part,
    load_or_404,
    match_state,
    not_modified,
    page_etag,
    revalidated,
    share_links,
    share_links_drawn_once,
    sheet_context,
    the_same_for_every_phone,
    with_phone_name,
)
from .phone import my_groups, my_matches, phone_name, remember

bp = Blueprint("matches", __name__)

# Which form field shows a problem found in the match document.
MATCH_FIELD_FOR = {
    "variant": "variant",
    "title": "title",
    "amount": "stake_amount",
    "per": "stake_per",
    "currency": "stake_currency",
    "stake": "stake_amount",
}


def _seating_refused(form) -> bool:
    """Check the players as the form shows them, each problem on the input to fix:
    a name given twice on the later one, a missing player on the first empty
    input, one too many on the input to clear."""
    cls = VARIANTS.get(form.variant.data)
    inputs = form.seats()  # the inputs past the game's count are hidden: never read
    seen: list[tuple[int, str]] = []
    for seat, field in enumerate(inputs, 1):
        if blank(field) or field.errors:  # too long: said already, not read further
            continue
        name = normal(field.data)
        unusable = name_problem(name)
        if unusable:
            field.errors = [*field.errors, _("This name %(problem)s.", problem=unusable)]
            continue
        twin = next(((s, other) for s, other in seen if alike(other, name)), None)
        if twin and twin[1].casefold() == name.casefold():
            field.errors = [
                *field.errors,
                _(
                    "%(name)s is already Player %(seat)s: give each player"
                    " a different name (capitals do not count).",
                    name=name,
                    seat=twin[0],
                ),
            ]
        elif twin:
            field.errors = [
                *field.errors,
                _(
                    "%(name)s looks the same as Player %(seat)s (%(other)s): give each player"
                    " a name that reads differently.",
                    name=name,
                    seat=twin[0],
                    other=twin[1],
                ),
            ]
        else:
            seen.append((seat, name))
    if cls is not None:
        _count_refused(cls, inputs)
    return any(field.errors for field in inputs)


def _count_refused(cls, inputs: list) -> None:
    """A missing player on the first empty input, one too many on the input to clear."""
    filled = [field for field in inputs if not blank(field)]
    if len(filled) in cls.player_counts:
        return
    wanted = _counts(cls.player_counts)
    fewest, most = min(cls.player_counts), max(cls.player_counts)
    if len(filled) < fewest:
        empty = [f for f in inputs if blank(f)][: fewest - len(filled)]
        names = [named_field(f) for f in empty]
        fill = reduce(
            lambda first, second: _("%(first)s and %(second)s", first=first, second=second), names
        )
        empty[0].errors = [
            *empty[0].errors,
            _(
                "%(game)s needs %(counts)s players: fill in %(names)s.",
                game=cls.name,
                counts=wanted,
                names=fill,
            ),
        ]
    else:
        extra = filled[most]
        extra.errors = [
            *extra.errors,
            _(
                "%(game)s is for %(counts)s players: leave %(field)s empty.",
                game=cls.name,
                counts=wanted,
                field=extra.label.text,
            ),
        ]


def _counts(counts: list[int] | tuple[int, ...]) -> str:
    """The numbers of players a game takes: "3", "3 or 4"."""
    if len(counts) == 1:
        return str(counts[0])
    first = ", ".join(str(n) for n in counts[:-1])
    return _("%(counts)s or %(last)s", counts=first, last=counts[-1])


def _attach(form, problems: list[Problem]) -> list[Problem]:
    """Put each problem line on its form field; return the lines that fit none."""

    def field_for(name: str):
        target = MATCH_FIELD_FOR.get(name) or (
            "player1" if name == "players" else option_field_name(name)
        )
        return getattr(form, target, None)

    def words(problem: Problem, field) -> str | None:
        if field.name == "stake_amount" and "decimal string" in problem.message:
            typed = (field.data or "").strip()
            if not typed:
                return _("write the amount, like 0.50 or 0,50.")
            return _(
                "%(typed)s is not an amount: write it like 0.50 or 0,50,"
                " with no thousands separator.",
                typed=repr(typed),
            )
        return None

    return place_problems(problems, field_for, words=words)


def _option_labels(form) -> None:
    """Name each option of the chosen game as its input's label does ("Hands in
    the match (a multiple of 3)"), so the box of problems at the top says that,
    not the match file's key ("hands"), which the form never shows."""
    cls = VARIANTS.get(form.variant.data) if isinstance(form.variant.data, str) else None
    for spec in cls.option_specs if cls else ():
        getattr(form, option_field_name(spec.name)).label.text = capitalised(spec.help)


@bp.get("/")
def index():
    matches = store.list_matches(store.get_db(), my_matches())
    return render_template(
        "matches/index.html",
        matches=[
            {
                "stored": m,
                **match_state(m),
                "changed": changed_words(m.updated),
                "noun": entry_for(m.variant).noun.lower(),
            }
            for m in matches
            if not m.deleted
        ],
        deleted=[m for m in matches if m.deleted],
        groups=groups.list_groups(store.get_db(), my_groups()),
        variants=VARIANTS,
        import_form=ImportForm(),
        confirm=ConfirmForm(),
    )


@bp.route("/new", methods=["GET", "POST"])
@bp.route("/g/<match:group_id>/new", methods=["GET", "POST"])
def new(group_id: str | None = None):
    """Start a match; from a group's page (`group_id`), its players picked from
    the members and the group's stake filled in, the match joined to the group
    in the transaction that starts it."""
    group = _group_or_404(group_id)
    form = NewMatchForm()
    if group is not None and request.method == "GET":
        _from_group(form, group)
    problems: list[str] = []
    # Every check at once: a refused Start lists all that is wrong, not the first.
    valid = form.validate_on_submit()
    seated = request.method != "POST" or not _seating_refused(form)
    if valid:
        try:
            match = from_document(form.document())
        except MatchError as exc:
            # The players were already checked above, in the words of the form.
            said = [p for p in exc.problems if seated or p.field != "players"]
            problems = _attach(form, said)
        else:
            if seated:
                join = groups.joiner(group.id, phone_name(), form_key()) if group else None
                try:
                    created = store.create_match(
                        store.get_db(), match, device=phone_name(), submission=form_key(), join=join
                    )
                except groups.GroupRefused as refused:
                    problems = [_("Not started: %(problem)s", problem=refused.message)]
                else:
                    remember(created.match_id)
                    note = look_alike_note(match.players, "player")
                    if note and not created.repeated:
                        flash(note, "info")
                    return redirect(url_for("hands.new", match_id=created.match_id))
    _option_labels(form)
    return render_template(
        "matches/new.html",
        form=form,
        problems=problems,
        variants=VARIANTS,
        usual_per=usual_per,
        group=group,
    )


def _group_or_404(group_id: str | None) -> groups.GroupState | None:
    if group_id is None:
        return None
    group = groups.load_group(store.get_db(), group_id)
    if group is None:
        abort(404)
    return group


def _from_group(form: NewMatchForm, group: groups.GroupState) -> None:
    """The new-match form as a group's page opens it: the members in their
    order as players, the game asked for (?variant=) and the group's stake for it."""
    for field, member in zip(form.player_fields(), group.active, strict=False):
        field.data = member.name
    variant = request.args.get("variant")
    if variant in VARIANTS:
        form.variant.data = variant
    stake = group.stake_for(variant) if variant in VARIANTS else group.stakes.get("*")
    if stake:
        form.stake_amount.data = stake["amount"]
        form.stake_per.data = str(stake.get("per", 1))
        form.stake_currency.data = stake.get("currency", "")


@bp.post("/import")
def import_file():
    form = ImportForm()
    if not form.validate_on_submit():
        for message in form.match_file.errors or [_("The form expired; try again.")]:
            flash(str(message), "error")
        return redirect(url_for("matches.index"))
    raw = form.match_file.data.read(max(MAX_FILE_BYTES, MAX_GROUP_FILE_BYTES) + 1)
    if names_group(raw):  # a group file: the group with its matches (views/groupfile.py)
        return import_group(raw)

    try:
        if len(raw) > MAX_FILE_BYTES:
            raise MatchError([Problem(f"larger than 1 MB; {LIMITS_TEXT}", "file")])
        match = loads(raw.decode("utf-8"), max_entries=MAX_ENTRIES)
    except UnicodeDecodeError:
        flash(_("The file is not a UTF-8 text file; choose a match file (.json)."), "error")
        return redirect(url_for("matches.index"))
    except MatchError as exc:
        return _not_imported(exc)
    return _store_import(match)


@bp.post("/import/copy")
def import_copy():
    """ "Import a copy": a match file the app said is already here, sent again as
    text from that answer, stored as a match of its own (once: the form's key)."""
    if not ConfirmForm().validate_on_submit():
        flash(_("The form expired; try again."), "error")
        return redirect(url_for("matches.index"))
    text = request.form.get("document", "")
    try:
        if len(text.encode()) > MAX_FILE_BYTES:
            raise MatchError([Problem(f"larger than 1 MB; {LIMITS_TEXT}", "file")])
        match = loads(text, max_entries=MAX_ENTRIES)
    except MatchError as exc:
        return _not_imported(exc)
    return _store_import(match, copy=True)


def _not_imported(exc: MatchError):
    count = len(exc.lines)
    heading = ngettext(
        "Not imported: %(num)d problem in this file.",
        "Not imported: %(num)d problems in this file.",
        count,
    )
    flash_problems([heading, *exc.lines])
    return redirect(url_for("matches.index"))


def _store_import(match: Match, copy: bool = False):
    """Store an imported match, unless it is already here (and no copy was asked
    for): then nothing is stored and the answer says since when, with a way to
    open it and one to import a copy."""
    try:
        created = store.create_match(
            store.get_db(),
            match,
            device=phone_name(),
            submission=form_key(),
            unless_here=not copy,
        )
    except store.AlreadyHere as already:
        return _already_here(match, already.state)
    remember(created.match_id)
    count, noun = store.hands_in(match), entry_for(match.variant).noun
    flash(_imported(count, noun, copy), "info")
    return redirect(url_for("matches.show", match_id=created.match_id))


def _imported(count: int, noun: str, copy: bool) -> str:
    """What an import says: "Imported 12 hands." (or games), "Imported a copy: 1 hand."."""
    if noun == "Game":
        if copy:
            return ngettext(
                "Imported a copy: %(num)d game.", "Imported a copy: %(num)d games.", count
            )
        return ngettext("Imported %(num)d game.", "Imported %(num)d games.", count)
    if copy:
        return ngettext("Imported a copy: %(num)d hand.", "Imported a copy: %(num)d hands.", count)
    return ngettext("Imported %(num)d hand.", "Imported %(num)d hands.", count)


def _already_here(match: Match, here: store.StoredMatch):
    start = here.log[0].change
    return render_template(
        "matches/already_here.html",
        here=here,
        imported=bool(start.hands),  # else started
        since=changed_words(here.created),
        changed=changed_words(here.updated) if here.revision > 1 else None,
        played=store.hands_in(here.match),  # as the rules count them: a redeal is none
        noun=entry_for(here.variant).noun.lower(),
        variant=VARIANTS[here.variant],
        # The file again, as text in the answer: "Import a copy" sends it back
        # (compact, and sent as multipart: a form field holds 500 kB at most).
        document=json.dumps(match.as_json(), ensure_ascii=False, separators=(",", ":")),
        confirm=ConfirmForm(),
        # Its address only to a phone that had it: a match file is shared more
        # widely than the address that lets a phone change the match.
        mine=here.id in my_matches(),
    ), 409


@bp.get("/m/<match:match_id>")
def show(match_id: str):
    """The match page: drawn once per revision for every phone at the table
    (each given its own token, keys and name); a phone that has this very page
    is answered 304."""
    loaded = load_or_404(match_id)
    remember(match_id)
    open_hand = request.args.get("hand", type=int)
    if open_hand not in loaded.stored.live:  # one drawing per hand that can be opened
        open_hand = None
    pdf_missing = pdf.unavailable()  # said on the page, instead of links that would fail
    etag = page_etag(loaded, open_hand, pdf_missing)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    if the_same_for_every_phone(loaded, etag):
        shown = (open_hand, pdf_missing, base_url())  # the share links' address
        page = kept_page(
            loaded,
            "match page",
            shown,
            lambda: _match_page(loaded, open_hand, pdf_missing, for_every_phone=True),
        )
        page = with_phone_name(page)
    else:
        page = _match_page(loaded, open_hand, pdf_missing, for_every_phone=False)
    return revalidated(make_response(page), etag and page_etag(loaded, open_hand, pdf_missing))


def _match_page(
    loaded: Loaded, open_hand: int | None, pdf_missing: str | None, *, for_every_phone: bool
) -> str:
    """The match page; `for_every_phone`: with the marks `kept_page` fills in
    for each phone (its one-time keys, its name) instead of this phone's own."""
    stored = loaded.stored
    confirm = drawn_once()
    live_part = (
        "matches/_live_match.html",
        (open_hand, pdf_missing),
        lambda loaded: _live_match(loaded, open_hand, pdf_missing),
    )
    if for_every_phone:
        live_region = Markup(drawn_part(loaded, *live_part))
        share = share_links_drawn_once(stored)
    else:
        live_region = kept_part(loaded, *live_part, confirm)
        share = share_links(stored)
    return render_template(
        "matches/show.html",
        stored=stored,
        match=stored.match,
        variant=VARIANTS[stored.variant],
        live_region=live_region,
        confirm=confirm,
        share=share,
    )


def _live_match(loaded: Loaded, open_hand: int | None, pdf_missing: str | None) -> dict:
    """What the match page's live part shows: the revision's alone (the sheet is
    built only when the part is drawn)."""
    noun = entry_for(loaded.stored.variant).noun
    last = loaded.stored.undoable()
    return {
        **sheet_context(loaded),
        "open_hand": open_hand,
        "undo_text": describe(last, noun) if last else None,
        "undo_revision": last.change.revision if last else None,
        "pdf_missing": pdf_missing,
    }


@bp.get("/m/<match:match_id>/match.json")
def export_json(match_id: str):
    match = load_or_404(match_id).stored.match
    return Response(
        dumps(match),
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{filename(match, "json")}"'},
    )


@bp.get("/m/<match:match_id>/hands.csv")
def export_csv(match_id: str):
    loaded = load_or_404(match_id)
    match = loaded.stored.match
    rows = log_table(match, loaded.outcome)
    out = io.StringIO()
    # A sentence is written as the phone reads it (csv writes a str's English value).
    said = [[str(cell) if isinstance(cell, str) else cell for cell in row] for row in rows]
    csv.writer(out).writerows([spreadsheet_safe(cell) for cell in row] for row in said)
    return Response(
        out.getvalue(),
        mimetype="text/csv",
        headers={"Content-Disposition": f'attachment; filename="{filename(match, "csv")}"'},
    )


@bp.route("/m/<match:match_id>/settings", methods=["GET", "POST"])
def settings(match_id: str):
    loaded = load_or_404(match_id)
    match = loaded.stored.match
    form = SettingsForm()
    if request.method == "GET":
        _fill_settings(form, match)
    problems: list[str] = []
    changed: list[str] = []
    if form.validate_on_submit():
        stake, stake_problems = (None, [])
        if form.stake_json() is not None:
            stake, stake_problems = parse_stake(form.stake_json())
        if stake_problems:
            problems = _attach(form, stake_problems)
        else:
            settings = {
                "title": (form.title.data or "").strip(),
                "stake": stake.as_json() if stake else None,
            }
            if form.played_day is not None:
                settings["played"] = form.played_day
            try:
                applied = submit(match_id, command(SETTINGS, settings=settings))
            except NoRevision:
                problems = [_(NO_REVISION)]
            except Refused as refusal:
                if not refusal.stale:
                    problems = _attach(form, refusal.problems) or [refusal.message]
                else:
                    changed = change_lines(refusal.stale)
                    loaded = load_or_404(match_id)
            else:
                saved = _("Title and stake saved.")
                if applied.state.played != match.played:
                    saved = _("Saved: played on %(day)s.", day=day_words(applied.state.played))
                flash_undo(saved, applied.change)
                return redirect(url_for("matches.show", match_id=match_id))
    return render_template(
        "matches/settings.html",
        form=form,
        match=loaded.stored.match,
        stored=loaded.stored,
        problems=problems,
        changed=changed,
        confirm=ConfirmForm(),
    ), (409 if changed else 200)


def _fill_settings(form: SettingsForm, match: Match) -> None:
    """The settings form as the match stands: its title, day played and stake."""
    form.title.data = match.title or ""
    form.played.data = match.played.isoformat() if match.played else ""
    if match.stake:
        form.stake_amount.data = match.stake.as_json()["amount"]
        form.stake_per.data = str(match.stake.per)
        form.stake_currency.data = match.stake.currency


def _match_command(match_id: str, kind: str, done: str, answer_here: bool = False):
    """Delete or bring back a whole match. `answer_here`: answer on the match page,
    where the flash offers Undo, instead of the match list."""
    load_or_404(match_id)
    try:
        applied = submit(match_id, command(kind))
    except NoRevision:
        flash(_(NO_REVISION), "error")
    except Refused as refusal:
        flash(_("Not done: the match changed since this page was drawn."), "error")
        flash_problems(change_lines(refusal.stale) or [refusal.message], noun="change")
        return redirect(url_for("matches.show", match_id=match_id))
    else:
        flash_undo(done, applied.change if answer_here else None)
        if answer_here:
            return redirect(url_for("matches.show", match_id=match_id))
    return redirect(url_for("matches.index"))


@bp.post("/m/<match:match_id>/delete")
def delete(match_id: str):
    """Delete a match: it leaves the list but stays in the history, to bring back."""
    return _match_command(
        match_id,
        DELETE_MATCH,
        _("Match deleted: it left the match list (Deleted matches keeps it)."),
        answer_here=True,
    )


@bp.post("/m/<match:match_id>/restore")
def restore(match_id: str):
    return _match_command(match_id, RESTORE_MATCH, _("The match is back."))


@bp.get("/matches.zip")
def download_all():
    """The match files of every match this browser knows (the home page's list,
    deleted ones in deleted/) in one zip, named as `scorekeeper export` names them."""
    found = store.list_matches(store.get_db(), my_matches())
    return Response(
        zip_matches(found),
        mimetype="application/zip",
        headers={
            "Content-Disposition": 'attachment; filename="scorekeeper-matches.zip"',
            "Cache-Control": "no-store",  # what it holds depends on this browser's cookie
        },
    )


# --- a form that came without its session (CSRF check failed) ----------------------


def new_after_lost_session(group_id: str | None = None):
    """The new-match form sent without its session: nothing started; the players,
    game and stake typed are drawn again with a fresh token."""
    form = NewMatchForm()  # holds what was sent
    return render_template(
        "matches/new.html",
        form=form,
        problems=[_(SESSION_LOST)],
        variants=VARIANTS,
        usual_per=usual_per,
        group=_group_or_404(group_id),
    ), 400


def settings_after_lost_session(match_id: str):
    """The title-and-stake form sent without its session: nothing saved; the entries
    are drawn again, and a settings change another phone made meanwhile is named."""
    loaded = load_or_404(match_id)
    form = SettingsForm()  # holds what was sent
    changed = change_lines(conflicts(loaded.stored, command(SETTINGS)))
    if changed:
        flash(_(NOT_SAVED_SESSION_LOST), "error")
    return render_template(
        "matches/settings.html",
        form=form,
        match=loaded.stored.match,
        stored=loaded.stored,
        problems=[] if changed else [_(SESSION_LOST)],
        changed=changed,
        confirm=ConfirmForm(),
    ), (409 if changed else 400)
