"""Behind one reverse proxy with TLS (docs/running.md): with SCOREKEEPER_BEHIND_PROXY
the share codes carry the public https address the proxy forwards; without it the
forwarded headers are ignored, so nobody can make the app print another host."""

import pytest

from scorekeeper.app import create_app
from tests.conftest import TableClient
from tests.webtools import Actions, parse

FORWARDED = {"X-Forwarded-Proto": "https", "X-Forwarded-Host": "scores.example.org"}


def shared_addresses(tmp_path, behind_proxy: bool) -> list[str]:
    app = create_app(
        {
            "TESTING": True,
            "WTF_CSRF_ENABLED": False,
            "DATABASE": str(tmp_path / "proxy.db"),
            "BEHIND_PROXY": behind_proxy,
        }
    )
    app.test_client_class = TableClient
    actions = Actions(app.test_client())
    match_id = actions.start("rubber", ["Ann", "Bob", "Cy", "Dee"])
    page = actions.client.get(f"/m/{match_id}", headers=FORWARDED).get_data(as_text=True)
    play = parse(page).find_all("figure", "qr-box")[0].text()
    return [play, match_id]


@pytest.mark.parametrize(
    "behind_proxy, start",
    [(True, "https://scores.example.org/m/"), (False, "http://localhost/m/")],
)
def test_share_address_follows_the_proxy_only_when_told(tmp_path, behind_proxy, start):
    play, match_id = shared_addresses(tmp_path, behind_proxy)
    assert play == f"{start}{match_id}"


def test_the_environment_switch_turns_it_on(tmp_path, monkeypatch):
    monkeypatch.setenv("SCOREKEEPER_BEHIND_PROXY", "1")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "env.db")})
    assert type(app.wsgi_app).__name__ == "ProxyFix"
    monkeypatch.delenv("SCOREKEEPER_BEHIND_PROXY")
    app = create_app({"TESTING": True, "DATABASE": str(tmp_path / "env2.db")})
    assert type(app.wsgi_app).__name__ != "ProxyFix"
