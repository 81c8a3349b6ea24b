"""Blueprints: thin views that turn a form into a command, and its outcome into a page.

One module per blueprint (`matches`, `hands`, `history`, `live`, `sheets`,
`rules`); beneath them, what they share, each by concept: `pages` (a match
loaded for its pages, sheet, stake, settlement, share codes), `commands` (the
write path: a form becomes one command for `db.apply`), `messages` (what
changed, flashed problems, Undo), `phone` (this phone's cookies), `routing`
(the address converters) and `group_import` (a group file sent with an
import form). Imports point down: a blueprint never imports another.
"""
