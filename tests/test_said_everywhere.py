"""English left on pages read in another language (issue #26, what remained):
each is said in the phone's language, and English stays word for word what it
was (the match file, the JSON and the command line read the English)."""

from __future__ import annotations

import time

import pytest

from scorekeeper.changelog import played_summary
from scorekeeper.speech import english
from tests.webtools import visible_text

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
HAND = {"declarer": "Ann", "level": "4", "strain": "S", "tricks": "10"}
NO_STAKE = {"title": "", "stake_amount": "", "stake_per": "", "stake_currency": ""}


@pytest.fixture(autouse=True)
def in_utc(monkeypatch):
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def at(monkeypatch, stamp: str) -> None:
    from scorekeeper import db as store

    monkeypatch.setattr(store, "now", lambda: stamp)


def read(client, path: str, lang: str) -> str:
    client.set_cookie("lang", lang)
    return visible_text(client.get(path))


# --- 4. the day played's line: the day's name and month in the reader's words ------------


def test_the_day_played_line_stays_english_for_the_match_file():
    from datetime import date

    line = played_summary(date(2026, 11, 20), date(2026, 11, 27))
    assert english(line) == (
        "Day played changed to Friday 20 November 2026 (was Friday 27 November 2026)"
    )


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", "Jour joué changé en vendredi 20 novembre 2026 (avant : vendredi 27 novembre 2026)"),
        (
            "de",
            "Spieltag geändert auf Freitag, 20. November 2026 (vorher Freitag, 27. November 2026)",
        ),
        ("pl", "Dzień gry zmieniono na piątek, 20 listopada 2026 (było piątek, 27 listopada 2026)"),
        ("en", "Day played changed to Friday 20 November 2026 (was Friday 27 November 2026)"),
    ],
)
def test_the_day_played_line_names_the_days_in_the_readers_language(
    actions, monkeypatch, lang, said
):
    at(monkeypatch, "2026-11-27T20:00:00.000+00:00")
    match_id = actions.start("chicago", PLAYERS)
    at(monkeypatch, "2026-11-28T10:00:00.000+00:00")
    actions.client.post(f"/m/{match_id}/settings", data={**NO_STAKE, "played": "2026-11-20"})
    assert said in read(actions.client, f"/m/{match_id}/history", lang)


# --- 6. the stake under the match's name -----------------------------------------------


STAKE = {"title": "", "stake_amount": "0.50", "stake_per": "1", "stake_currency": "EUR"}
STAKE_PER_3 = {"title": "", "stake_amount": "1.00", "stake_per": "3", "stake_currency": "EUR"}


@pytest.mark.parametrize(
    ("lang", "stake", "said"),
    [
        ("fr", STAKE, "mise 0,50 € par point"),
        ("de", STAKE, "Einsatz 0,50 € pro Punkt"),
        ("pl", STAKE_PER_3, "stawka 1,00 € za 3 punkty"),
        ("en", STAKE_PER_3, "stake 1.00 EUR per 3 points"),
    ],
)
def test_the_stake_under_the_matchs_name_is_said_the_readers_way(actions, lang, stake, said):
    match_id = actions.start("rubber", PLAYERS)
    actions.client.post(f"/m/{match_id}/settings", data=stake)
    assert said in read(actions.client, f"/m/{match_id}", lang)


def test_the_stake_in_the_history_is_said_the_readers_way(actions):
    match_id = actions.start("rubber", PLAYERS)
    actions.client.post(f"/m/{match_id}/settings", data=STAKE)
    assert "No title, stake 0.50 EUR per point" in read(
        actions.client, f"/m/{match_id}/history", "en"
    )
    assert "Sans titre, mise 0,50 € par point" in read(
        actions.client, f"/m/{match_id}/history", "fr"
    )
