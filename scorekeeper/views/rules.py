"""Rules pages: one per variant, in our own words, with every Decision we took
and the sections a page shows as the document says them (its scoring tables,
say), drawn from the variant's document in docs/, see `scorekeeper.docs`."""

from __future__ import annotations

from pathlib import Path

from flask import Blueprint, abort, current_app, render_template, url_for
from flask_babel import get_locale

from .. import docs
from ..games.catalog import VARIANTS, game_for

bp = Blueprint("rules", __name__, url_prefix="/rules")


def in_app(target: str) -> str | None:
    """A link of a variant's document as an address in the app: another variant's
    document is its rules page; anything else (the match file's description) is
    left as plain text."""
    path, _, anchor = target.partition("#")
    variant_id = path.removesuffix(".md")
    if "/" in path or not path.endswith(".md") or variant_id not in VARIANTS:
        return None
    address = url_for("rules.show", variant_id=variant_id)
    return f"{address}#{anchor}" if anchor else address


@bp.get("/")
def index():
    return render_template("rules/index.html", variants=VARIANTS)


@bp.get("/<variant_id>")
def show(variant_id: str):
    cls = VARIANTS.get(variant_id)
    if cls is None:
        abort(404)
    folder = Path(current_app.config["DOCS_FOLDER"])
    code = str(get_locale())  # the page's language: its document where there is one
    decisions = docs.decisions(folder, variant_id, in_app, code)

    def doc(heading: str, of: str = variant_id):
        """A section of the variant's document (or of the one it builds on, `of`:
        Chicago's page shows rubber bridge's scoring), drawn where the page shows it."""
        return docs.part(folder, of, heading, in_app, code)

    return render_template(
        game_for(variant_id).rules_template(variant_id),
        variant=cls,
        variants=VARIANTS,
        decisions=decisions,
        doc=doc,
    )
