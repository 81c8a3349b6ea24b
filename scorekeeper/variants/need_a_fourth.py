"""Placeholder: being written."""

from .common import Game


class NeedAFourth(Game):
    id = "todo-NeedAFourth"
    player_counts = (4,)
