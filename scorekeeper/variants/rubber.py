"""Placeholder: being written."""

from .common import Game


class Rubber(Game):
    id = "todo-Rubber"
    player_counts = (4,)


class Honeymoon(Game):
    id = "todo-Honeymoon"
    player_counts = (4,)


class Chicago(Game):
    id = "todo-Chicago"
    player_counts = (4,)
