"""Placeholder: being written."""

from .common import Game


class Calypso(Game):
    id = "todo-Calypso"
    player_counts = (4,)
