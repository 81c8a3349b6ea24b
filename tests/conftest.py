"""Shared fixtures: the app on a temporary database with CSRF off (flaskr's shape)."""

import pytest

from scorekeeper import create_app


@pytest.fixture
def app(tmp_path):
    return create_app(
        {"TESTING": True, "WTF_CSRF_ENABLED": False, "DATABASE": str(tmp_path / "t.db")}
    )


@pytest.fixture
def client(app):
    return app.test_client()
