"""A group as a file: its download from the group page, and a group file sent
with the import form of the first page (matches.import_file hands it here)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, render_template, url_for

from .. import db as store
from .. import groupfile as gf
from .. import groups as g
from ..forms import ImportForm
from ..variants import MatchError
from .commands import form_key
from .messages import changed_words, flash_problems
from .phone import phone_name, remember_group

bp = Blueprint("groupfile", __name__)


@bp.get("/g/<match:group_id>/group.json")
def download(group_id: str):
    """The group file (docs/group-file.md): members, stakes, each match's file
    and mapping, the payments."""
    db = store.get_db()
    state = g.load_group(db, group_id)
    if state is None:
        abort(404)
    text = gf.dumps(gf.group_document(db, state))
    return Response(
        text,
        mimetype="application/json",
        headers={"Content-Disposition": f'attachment; filename="{gf.group_filename(state)}"'},
    )


def import_group(raw: bytes, copy: bool = False):
    """The answer to a group file sent with an import form: the new group's
    page, the problems of the file (nothing stored), or "already here"."""
    try:
        group = gf.read_group_file(raw)
    except MatchError as exc:
        count = len(exc.lines)
        heading = f"Not imported: {count} problem{'' if count == 1 else 's'} in this group file."
        flash_problems([heading, *exc.lines])
        return redirect(url_for("matches.index"))
    try:
        made = gf.import_group(
            store.get_db(), group, device=phone_name(), submission=form_key(), copy=copy
        )
    except gf.GroupHere as here:
        return _already_here(here)
    except g.GroupRefused as refused:
        flash_problems(["Not imported: nothing was stored.", refused.message])
        return redirect(url_for("matches.index"))
    remember_group(made.group_id)  # its matches are listed on its page
    if not made.repeated:
        matches, payments = len(made.state.matches), len(made.state.payments)
        copied = "a copy of " if copy else ""
        flash(
            f"Imported {copied}the group {made.state.name}: {len(made.state.members)} members,"
            f" {matches} match{'' if matches == 1 else 'es'},"
            f" {payments} payment{'' if payments == 1 else 's'}.",
            "info",
        )
    return redirect(url_for("groups.show", group_id=made.group_id))


def _already_here(here: gf.GroupHere):
    state = here.state
    # A group imported from the file was changed by its import itself: "changed"
    # is said of a group started here only.
    changed = None if here.imported else changed_words(state.updated)
    return render_template(
        "groups/already_here.html",
        group=state,
        verb="imported" if here.imported else "started",
        since=changed_words(state.created),
        changed=changed if state.revision > 1 else None,
        import_form=ImportForm(),
    ), 409


@bp.post("/import/group-copy")
def import_copy():
    """ "Import a copy": the same group file chosen again, stored as a group of
    its own with its own matches."""
    form = ImportForm()
    if not form.validate_on_submit():
        for message in form.match_file.errors or ["The form expired; try again."]:
            flash(message, "error")
        return redirect(url_for("matches.index"))
    raw = form.match_file.data.read(gf.MAX_GROUP_FILE_BYTES + 1)
    return import_group(raw, copy=True)
