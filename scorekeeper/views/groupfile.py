"""A group as a file: its download from the group page, and "Import a copy" of
a group file already here (the first page's import hands a group file to
group_import, as this does)."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, redirect, url_for
from flask_babel import gettext as _

from .. import db as store
from .. import groupfile as gf
from .. import groups as g
from ..forms import ImportForm
from .group_import import import_group

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


@bp.post("/import/group-copy")
def import_copy():
    """ "Import a copy": the same group file chosen again, stored as a group of
    its own with its own matches."""
    form = ImportForm()
    if not form.validate_on_submit():
        for message in form.match_file.errors or [_("The form expired; try again.")]:
            flash(message, "error")
        return redirect(url_for("matches.index"))
    raw = form.match_file.data.read(gf.MAX_GROUP_FILE_BYTES + 1)
    return import_group(raw, copy=True)
