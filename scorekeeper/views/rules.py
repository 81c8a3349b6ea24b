"""Rules pages: one per variant, in our own words, with every Decision we took."""

from __future__ import annotations

from flask import Blueprint, abort, render_template

from ..registry import stem
from ..variants import VARIANTS

bp = Blueprint("rules", __name__, url_prefix="/rules")


@bp.get("/")
def index():
    return render_template("rules/index.html", variants=VARIANTS)


@bp.get("/<variant_id>")
def show(variant_id: str):
    cls = VARIANTS.get(variant_id)
    if cls is None:
        abort(404)
    return render_template(f"rules/{stem(variant_id)}.html", variant=cls, variants=VARIANTS)
