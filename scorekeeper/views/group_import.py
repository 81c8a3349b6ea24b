"""A group file sent with an import form, what the first page's import and
"Import a copy" share (beneath the blueprints): the new group's page, the
file's problems, or "already here"."""

from __future__ import annotations

from flask import flash, redirect, render_template, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from .. import db as store
from .. import groupfile as gf
from .. import groups as g
from ..forms import ImportForm
from ..variants import MatchError
from .commands import form_key
from .messages import already, changed_words, cut, flash_problems
from .phone import my_groups, phone_name, remember_group


def import_group(raw: bytes, copy: bool = False):
    """The answer to a group file sent with an import form: the new group's
    page, the problems of the file (nothing stored), or "already here"."""
    try:
        group = gf.read_group_file(raw)
    except MatchError as exc:
        count = len(exc.lines)
        heading = ngettext(
            "Not imported: %(num)d problem in this group file.",
            "Not imported: %(num)d problems in this group file.",
            count,
        )
        flash_problems([heading, *exc.lines])
        return redirect(url_for("matches.index"))
    try:
        made = gf.import_group(
            store.get_db(), group, device=phone_name(), submission=form_key(), copy=copy
        )
    except gf.GroupHere as here:
        return _already_here(here)
    except g.GroupRefused as refused:
        flash_problems([_("Not imported: nothing was stored."), refused.message])
        return redirect(url_for("matches.index"))
    remember_group(made.group_id)  # its matches are listed on its page
    if made.repeated:
        flash(cut(already(made.change)), "info")
    else:
        state = made.state
        counts = {
            "group": state.name,
            "members": ngettext("%(num)d member", "%(num)d members", len(state.members)),
            "matches": ngettext("%(num)d match", "%(num)d matches", len(state.matches)),
            "payments": ngettext("%(num)d payment", "%(num)d payments", len(state.payments)),
        }
        if copy:
            said = _(
                "Imported a copy of the group %(group)s: %(members)s, %(matches)s, %(payments)s."
            )
        else:
            said = _("Imported the group %(group)s: %(members)s, %(matches)s, %(payments)s.")
        flash(said % counts, "info")
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
        # Its address only to a phone that had it (see matches._already_here).
        mine=state.id in my_groups(),
    ), 409
