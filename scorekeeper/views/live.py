"""The live table: every phone learns of a change within seconds, new phones join
by QR code, and a read-only watch address shows the sheet to anyone.

A phone polls `/m/<id>/live?since=N` every two seconds. The answer carries the
match's revision as its ETag, so an unchanged match costs one indexed query and
a `304 Not Modified`; no thread waits on behalf of a phone.
"""

from __future__ import annotations

from flask import (
    Blueprint,
    Response,
    abort,
    flash,
    jsonify,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from flask_babel import get_locale
from flask_babel import gettext as _

from .. import db as store
from ..changelog import DEFAULT_DEVICE, HAND_KINDS
from ..extensions import csrf
from ..forms import ConfirmForm
from ..games.catalog import VARIANTS
from ..registry import entry_for
from ..variants import breaks_a_line
from .messages import change_lines
from .pages import (
    kept_page,
    kept_part,
    load_or_404,
    not_modified,
    page_etag,
    revalidated,
    sheet_context,
    the_same_for_every_phone,
)
from .phone import PHONE_COOKIE, clean_phone_name, keep_cookie, phone_name_problem

bp = Blueprint("live", __name__)


def _live_answer(match_id: str | None, since: int):
    """The revision and what changed since `since`; 304 when the phone is up to date."""
    db = store.get_db()
    revision = store.revision(db, match_id) if match_id is not None else None
    if revision is None:
        abort(404)
    # The changes are said in the page's language: another language, another answer.
    etag = f"r{revision}-{since}-{get_locale()}"
    if etag in request.if_none_match:
        response = Response(status=304)
    else:
        stored = store.load_match(db, match_id)
        noun = entry_for(stored.variant).noun
        entries = stored.since(since) if since < revision else []
        response = jsonify(
            revision=revision,
            deleted=stored.deleted,
            hands_changed=any(e.change.kind in HAND_KINDS for e in entries),
            changes=change_lines(entries, noun),
        )
    response.set_etag(etag)
    response.headers["Cache-Control"] = "no-cache"
    return response


def _since() -> int:
    """The revision the phone has (`since`, 0 when not given); anything but a
    revision number is answered 400, never the whole log as if it were 0."""
    text = request.args.get("since", "0")
    if text.isascii() and text.isdigit() and len(text) <= 12:
        return int(text)
    response = jsonify(error="since must be the revision this page shows, a whole number: since=12")
    response.status_code = 400
    abort(response)


@bp.get("/m/<match:match_id>/live")
def live(match_id: str):
    return _live_answer(match_id, _since())


@bp.get("/w/<token>/live")
def watch_live(token: str):
    return _live_answer(_watched(token), _since())


def _watched(token: str) -> str | None:
    if not 8 <= len(token) <= 64:
        return None
    return store.match_for_watch(store.get_db(), token)


@bp.get("/w/<token>")
def watch(token: str):
    """The sheet, read-only: no form, no link that changes anything."""
    match_id = _watched(token)
    if match_id is None:
        abort(404)
    loaded = load_or_404(match_id)
    etag = page_etag(loaded)
    unchanged = not_modified(etag)
    if unchanged is not None:
        return unchanged
    stored = loaded.stored

    def render() -> str:
        return render_template(
            "matches/watch.html",
            stored=stored,
            match=stored.match,
            variant=VARIANTS[stored.variant],
            token=token,
            live_region=kept_part(loaded, "matches/_live_watch.html", None, sheet_context),
        )

    if the_same_for_every_phone(loaded, etag):
        page = kept_page(loaded, "watch page", token, render)
    else:
        page = render()
    return revalidated(make_response(page), etag and page_etag(loaded))


@csrf.exempt  # refused whatever it carries
@bp.route("/w/<token>", methods=["POST", "PUT", "PATCH", "DELETE"])
@bp.route("/w/<token>/<path:rest>", methods=["POST", "PUT", "PATCH", "DELETE"])
def watch_write(token: str, rest: str = ""):
    """A watch address only shows the sheet: every write is refused."""
    return render_template("forbidden.html"), 403


@bp.post("/phone")
def name_phone():
    """A phone names itself once ("Ann's phone"): the history says who changed what."""
    if not ConfirmForm().validate_on_submit():
        abort(400)
    typed = request.form.get("name", "")
    name = clean_phone_name(typed)
    back = request.form.get("next", "")
    if (
        not back.startswith("/") or back.startswith("//") or "\\" in back or breaks_a_line(back)
    ):  # only a path of this app, never another site or a forged header
        back = url_for("matches.index")
    response = redirect(back)
    refused = phone_name_problem(typed)
    if refused:  # the name this phone had stays
        flash(_("Phone name not changed: it %(problem)s.", problem=refused), "error")
    elif name:
        keep_cookie(response, PHONE_COOKIE, name, days=365)
        flash(_("This phone is now “%(name)s”.", name=name), "info")
    else:
        response.delete_cookie(PHONE_COOKIE)
        flash(_("This phone is now “%(name)s”.", name=DEFAULT_DEVICE), "info")
    return response
