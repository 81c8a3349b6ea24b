"""Placeholder: being written."""

from .common import Game


class MiniBridge(Game):
    id = "todo-MiniBridge"
    player_counts = (4,)


class MiniBridgeThree(Game):
    id = "todo-MiniBridgeThree"
    player_counts = (4,)
