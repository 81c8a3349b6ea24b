"""Scorekeeper: keeps score at a real card table.

The package's front door holds one name: `create_app`, the app factory
(scorekeeper/app.py), as `flask --app scorekeeper run` expects to find it. It
is imported only when first asked for, so the command line and the PDF worker,
which import this package first, start without Flask. Where things live (the
instance folder, the secret key, the shared folders) is scorekeeper/instance.py."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """`scorekeeper.create_app`, imported from scorekeeper/app.py on first use."""
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
