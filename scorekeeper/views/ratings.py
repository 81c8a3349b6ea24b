"""A group's ratings (each member's, over all games and per game, with a chart
over the season), the same figures as CSV, and head to head: every two
members against each other and as partners, each member's rival and best
partner.

The arithmetic is scorekeeper/ratings.py; the matches are the group's kept
summaries (scorekeeper/summaries.py), every match of the group that can be
read and is not deleted, names mapped to members, in the order played.
"""

from __future__ import annotations

from flask import Blueprint, render_template

from ..ratings import head_to_head, ratings
from ..viewmodels.ratings import game_kinds, group_matches, member_place, rating_cards
from ..viewmodels.ratings import ratings_csv as group_ratings_csv
from .pages import load_group_or_404

bp = Blueprint("ratings", __name__)


@bp.get("/g/<match:group_id>/ratings")
def ratings_page(group_id: str):
    state = load_group_or_404(group_id)
    matches = group_matches(state)
    found = ratings(matches)
    return render_template(
        "ratings/ratings.html",
        group=state,
        cards=rating_cards(state, found),
        found=found,
        **game_kinds(),
    )


@bp.get("/g/<match:group_id>/ratings.csv")
def ratings_csv(group_id: str):
    return group_ratings_csv(load_group_or_404(group_id))


@bp.get("/g/<match:group_id>/head-to-head")
def head_to_head_page(group_id: str):
    state = load_group_or_404(group_id)
    met = head_to_head(group_matches(state))
    place = member_place(state)
    members = sorted({m for p in met.meetings for m in (p.first, p.second)}, key=place)
    return render_template(
        "ratings/head_to_head.html",
        group=state,
        met=met,
        members=members,
    )
