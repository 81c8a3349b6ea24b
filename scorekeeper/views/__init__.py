"""Blueprints: thin views that turn a form into a command, and its outcome into a page.

One module per blueprint (`matches`, `hands`, `history`, `live`, `sheets`,
`rules`, `groups`, `groupfile`, `ledger`); beneath them, what they share, each
by concept and defining no routes: `pages` (a match loaded for its pages,
sheet, stake, settlement, share codes), `commands` (the write path: a form
becomes one command for `db.apply`), `messages` (what changed, flashed
problems, Undo), `phone` (this phone's cookies), `routing` (the address
converters), `same_deal` (two versions of one hand), `hand_problems` (a refused
hand's problems on its buttons) and `group_import` (a group file sent with an
import form). What a page shows, its CSV rows and its PDF answer are
scorekeeper/viewmodels/'s. Imports point down: a blueprint never
imports another (tests/test_layers.py), and no function here runs over 50 lines.
"""
