"""The games: one package per family (rules, hand entry, sheet, and its kit).

The list of games is scorekeeper/games/catalog.py's `GAMES`. It is not kept
here on purpose: this file runs whenever any shared piece (games.common) is
imported, so it stays empty and every shared helper can sit below the games.
"""
