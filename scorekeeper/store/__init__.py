"""The storage layer beside `db.py`, split by concept: what the change logs of
matches and groups share (`journal.py`), a group's rows (`groups.py`) and the
kept summaries of a group's matches (`summaries.py`). With `db.py` (the
connection, the one write path, the matches) and `migrations.py` these are the
only modules with SQL (tests/test_layers.py checks it)."""
