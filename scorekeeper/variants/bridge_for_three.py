"""Placeholder: being written."""

from .common import Game


class BridgeForThree(Game):
    id = "todo-BridgeForThree"
    player_counts = (4,)
