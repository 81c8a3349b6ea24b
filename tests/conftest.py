"""Shared fixtures: the app on a temporary database with CSRF off (flaskr's shape)."""

import os
import re
import shutil

import pytest
from flask.testing import FlaskClient

from scorekeeper.app import create_app
from scorekeeper.db import migrate
from tests.webtools import Actions

_MATCH_WRITE = re.compile(r"^/m/([\w-]{16})/")


class TableClient(FlaskClient):
    """The test client as a phone that has just drawn the form it posts: a POST
    to a match without the form's `revision` gets the match's current one.
    Tests of stale and repeated forms pass `revision` and `key` themselves."""

    def post(self, url, *args, **kwargs):
        found = _MATCH_WRITE.match(url)
        data = kwargs.get("data") or {}
        if found and isinstance(data, dict) and "revision" not in data:
            live = super().get(f"/m/{found.group(1)}/live")
            if live.status_code == 200:
                kwargs["data"] = {**data, "revision": str(live.json["revision"])}
        return super().post(url, *args, **kwargs)


@pytest.fixture(scope="session")
def migrated_template(tmp_path_factory):
    """An empty store with every migration applied, made once per test session
    (migrating takes half the time of building an app)."""
    path = tmp_path_factory.mktemp("template") / "template.db"
    migrate(str(path))  # closed again: the write-ahead log is folded into the file
    return path


@pytest.fixture
def store_path(tmp_path, migrated_template):
    """A fresh copy of the migrated template, for one test's app: its start
    finds nothing to migrate and only reads."""
    path = tmp_path / "t.db"
    shutil.copyfile(migrated_template, path)
    return str(path)


@pytest.fixture
def app(store_path):
    app = create_app({"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": store_path})
    app.test_client_class = TableClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def actions(client):
    """A phone at the table: start a match, post hands, read what is stored and shown."""
    return Actions(client)


@pytest.fixture
def zbarimg() -> str:
    """zbarimg reads QR codes (Debian's zbar-tools; scripts/setup.sh installs it)."""
    path = shutil.which("zbarimg")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail("zbarimg is missing: install zbar-tools (scripts/test.sh does)")
        pytest.skip("zbarimg is missing: apt-get install zbar-tools")
    return path
