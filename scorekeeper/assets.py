"""Static files with fingerprinted addresses: `url_for('static', ...)` adds
`?v=<hash of the file>`, and a file asked for with its current hash is cached
by the phone for a year without asking again (`immutable`). A save then costs
the POST and one page, not a revalidation of every stylesheet and script on
weak Wi-Fi. A changed file gets a new hash, so a phone never keeps a stale one.

The one `static` route serves the shared static folder and each game's own
(/static/games/<family>/… from scorekeeper/games/<family>/static/), as
scorekeeper/folders.py finds them: a game's files are addressed, fingerprinted
and cached like every other.
"""

from __future__ import annotations

import hashlib
import os
import time
from pathlib import Path
from typing import Any

from flask import Flask, current_app, request, send_from_directory

from .folders import StaticFolders

YEAR = 365 * 24 * 3600


# How long a file's hash is used before the file is looked at again: a page
# names ten static files, and asking the disk for each on every page would cost
# more than the rest of a page kept from an earlier revision (drawn.py).
RECHECK_SECONDS = 1.0


class Fingerprints:
    """The hash of each static file, read again when the file changes (seen
    within RECHECK_SECONDS)."""

    def __init__(self, folders: StaticFolders):
        self.folders = folders
        # filename: (checked at, mtime, hash, the file found on disk)
        self._known: dict[str, tuple[float, int, str, Path]] = {}

    def of(self, filename: str) -> str | None:
        known = self._known.get(filename)
        now = time.monotonic()
        if known is not None and now - known[0] < RECHECK_SECONDS:
            return known[2]
        # Looked at again: one stat of the file found before. Finding it anew
        # (resolving each folder of its path) asked the disk a dozen times,
        # each a moment when a busy server's other answers wait their turn.
        path, changed = self._stat(known[3]) if known is not None else (None, None)
        if changed is None:
            path = self.folders.find(filename)
            if path is None:
                return None
            path, changed = self._stat(path)
            if changed is None:
                return None
        if known is None or known[1] != changed:
            with open(path, "rb") as file:
                digest = hashlib.sha256(file.read()).hexdigest()[:12]
        else:
            digest = known[2]
        self._known[filename] = (now, changed, digest, path)
        return digest

    @staticmethod
    def _stat(path: Path) -> tuple[Path, int | None]:
        try:
            return path, os.stat(path).st_mtime_ns
        except OSError:
            return path, None


def static_folders() -> StaticFolders:
    """The running app's static folders (for the PDF, which reads the stylesheets)."""
    return current_app.extensions["static_folders"]


def serve_static(app: Flask, folders: StaticFolders) -> None:
    """Serve `folders` at /static/… and fingerprint every address of them."""
    app.extensions["static_folders"] = folders

    def static(filename: str):
        folder, name = folders.split(filename)
        return send_from_directory(folder, name, max_age=app.get_send_file_max_age(filename))

    app.view_functions["static"] = static
    prints = Fingerprints(folders)

    @app.url_defaults
    def _add_version(endpoint: str, values: dict[str, Any]) -> None:
        if endpoint == "static" and "v" not in values:
            version = prints.of(values.get("filename", ""))
            if version:
                values["v"] = version

    @app.after_request
    def _cache_for_a_year(response):
        if request.endpoint != "static" or response.status_code != 200:
            return response
        asked = request.args.get("v")
        if asked and asked == prints.of((request.view_args or {}).get("filename", "")):
            response.cache_control.public = True
            response.cache_control.max_age = YEAR
            response.cache_control.immutable = True
            response.cache_control.no_cache = None
        return response
