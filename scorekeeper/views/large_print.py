"""Large print: the text size this phone chose, 100, 125 or 150 % of the size the
phone itself is set to. Kept in a cookie; the page's root takes it as a
percentage, so every rem and em grows with it and the phone's own text size
setting still counts (150 % of a phone already at 130 % is 195 % of the usual).

The switch is three links (a GET that sets a cookie and goes back): it works
without the script, on a watch page too (which has no form and no session), and
it changes nothing but how this phone draws the pages."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect, request
from flask_babel import gettext as _
from werkzeug.exceptions import HTTPException

from .phone import TEXT_SIZE_COOKIE, TEXT_SIZES, keep_cookie, text_size

bp = Blueprint("large_print", __name__)


def back_to(path: str) -> str:
    """The page the switch was tapped on, if it is a page of this app (one that
    answers a GET); otherwise the home page. Never another site: no scheme, no
    host, no "//"."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    adapter = current_app.url_map.bind("localhost")
    try:
        endpoint, _ = adapter.match(path.partition("?")[0], method="GET")
    except HTTPException:
        return "/"
    return "/" if endpoint == "large_print.choose" else path


@bp.get("/text-size")
def choose():
    size = request.args.get("size", "")
    response = redirect(back_to(request.args.get("back", "")), code=303)
    response.cache_control.no_store = True
    if size not in {str(s) for s in TEXT_SIZES}:
        sizes = ", ".join(f"{s}%" for s in TEXT_SIZES)
        flash(_("Text size: choose one of %(sizes)s.", sizes=sizes), "error")
        return response
    return keep_cookie(response, TEXT_SIZE_COOKIE, size, days=400)


@bp.app_context_processor
def chosen_text_size() -> dict:
    """Every page: the size chosen here (its root's data-text-size) and the sizes offered."""
    return {"text_size": text_size(), "text_sizes": TEXT_SIZES}
