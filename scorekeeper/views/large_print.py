"""Large print: the text size this phone chose, 100, 125 or 150 % of the size the
phone itself is set to. Kept in a cookie; the page's root takes it as a
percentage, so every rem and em grows with it and the phone's own text size
setting still counts (150 % of a phone already at 130 % is 195 % of the usual)."""

from __future__ import annotations

from flask import Blueprint, current_app, flash, redirect
from flask_wtf import FlaskForm
from werkzeug.exceptions import HTTPException
from wtforms import HiddenField, RadioField

from .phone import TEXT_SIZE_COOKIE, TEXT_SIZES, text_size

bp = Blueprint("large_print", __name__)


class TextSizeForm(FlaskForm):
    """The switch at the foot of every page: one button per size, the page to go back to."""

    size = RadioField("Text size", choices=[(str(s), f"{s}%") for s in TEXT_SIZES])
    back = HiddenField()


def back_to(path: str) -> str:
    """The page the switch was tapped on, if it is a page of this app that answers a
    GET (an answer to a POST goes back to its address only where that is a page);
    otherwise the home page. Never another site: no scheme, no host, no "//"."""
    if not path.startswith("/") or path.startswith("//") or "\\" in path:
        return "/"
    adapter = current_app.url_map.bind("localhost")
    try:
        adapter.match(path.partition("?")[0], method="GET")
    except HTTPException:
        return "/"
    return path


@bp.post("/text-size")
def choose():
    form = TextSizeForm()
    back = back_to(form.back.data or "")
    response = redirect(back, code=303)
    if not form.validate_on_submit():
        sizes = ", ".join(f"{s}%" for s in TEXT_SIZES)
        flash(f"Text size: choose one of {sizes}.", "error")
        return response
    response.set_cookie(
        TEXT_SIZE_COOKIE,
        form.size.data,
        max_age=400 * 24 * 3600,
        httponly=True,
        samesite="Lax",
        secure=current_app.config["SESSION_COOKIE_SECURE"],  # SCOREKEEPER_SECURE_COOKIES
    )
    return response


@bp.app_context_processor
def chosen_text_size() -> dict:
    """Every page: the size chosen here (its root's data-text-size) and the switch's form."""
    return {"text_size": text_size(), "text_size_form": TextSizeForm}
