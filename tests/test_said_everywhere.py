"""English left on pages read in another language (issue #26, what remained):
each is said in the phone's language, and English stays word for word what it
was (the match file, the JSON and the command line read the English)."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from scorekeeper.changelog import played_summary
from scorekeeper.speech import english
from tests.test_day_played import HAND, NO_STAKE, PLAYERS, at, in_utc  # noqa: F401 (a fixture)
from tests.webtools import visible_text


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


# --- 1. a group's history lines -----------------------------------------------------------


def said_in(code: str, line: str) -> str:
    """A group's stored line as a phone in `code` reads it (the real catalogs)."""
    from babel.support import Translations

    from scorekeeper.groups.said import said_line
    from scorekeeper.languages import language
    from scorekeeper.speech import listening

    folder = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
    translations = Translations.load(str(folder), [code])
    with listening(lambda: translations, lambda: language(code).formats):
        return str(said_line(line))


NBSP = "\xa0"
GROUP_LINES = [
    ("fr", "Member retired: Cy", f"Membre retiré{NBSP}: Cy"),
    ("de", "Undone: Member retired: Cy", "Rückgängig gemacht: Mitglied ausgetragen: Cy"),
    ("pl", "Member back: Cy", "Przywrócono członka: Cy"),
    ("fr", "Undone: who knows", f"Annulé{NBSP}: who knows"),  # the app's words around it
    ("fr", "Group renamed: Friday → Fridays", f"Groupe renommé{NBSP}: Friday → Fridays"),
    ("de", "Members in order: Bob, Ann, Cy", "Reihenfolge der Mitglieder: Bob, Ann, Cy"),
    (
        "fr",
        "Match started: Chicago, 27 Nov 2026 (Ann, Bob, Cy, Dee); Cy back on the member list;"
        " Dee as a guest",
        f"Match commencé{NBSP}: Chicago, 27 nov. 2026 (Ann, Bob, Cy, Dee); Cy de retour dans la"
        " liste des membres; Dee en invité",
    ),
    (
        "de",
        "Match taken out: Rubber bridge, 13 Nov 2026 (Ann, Bob, Cy, Dee)",
        "Partie herausgenommen: Robber-Bridge, 13. Nov. 2026 (Ann, Bob, Cy, Dee)",
    ),
    (
        "de",
        "Mapping changed: Rubber bridge, 13 Nov 2026 (Ann, Bob, Cy, Dee): Dee → a guest (was Dee);"
        " Eve → Eve (new member) (was a guest)",
        "Spieler der Partie geändert: Robber-Bridge, 13. Nov. 2026 (Ann, Bob, Cy, Dee): Dee → ein"
        " Gast (vorher Dee); Eve → Eve (neues Mitglied) (vorher ein Gast)",
    ),
    (
        "pl",
        "Paid: Ann paid Bob 7.50 EUR; Cy paid Dee 2.00; and 3 more payments",
        f"Zapłacono: Ann → Bob, 7,50{NBSP}€; Cy → Dee, 2,00; i jeszcze 3 płatności",
    ),
    (
        "fr",
        "Stake for every game: 0.50 EUR per point",
        f"Mise pour tous les jeux{NBSP}: 0,50{NBSP}€ par point",
    ),
    ("de", "Stake for Chicago: 1.00 per 100 points", "Einsatz für Chicago: 1,00 pro 100 Punkte"),
    ("pl", "Stake for Chicago: no stake", "Stawka dla Chicago: bez stawki"),
    (
        "pl",
        "Matches added from a group file: 3 matches",
        "Dodano mecze z pliku grupy: 3 mecze",
    ),
    (
        "fr",
        "Group started: Friday trio (Ann, Bob, Cy)",
        f"Groupe créé{NBSP}: Friday trio (Ann, Bob, Cy)",
    ),
]


@pytest.mark.parametrize(("code", "stored", "said"), GROUP_LINES)
def test_a_groups_history_line_is_said_in_the_readers_language(code, stored, said):
    assert said_in(code, stored) == said
    assert said_in("en", stored) == stored


@pytest.mark.parametrize(
    "stored",
    ["Something a newer app wrote", "Paid: Ann gave Bob a beer", "Mapping changed: who knows", ""],
)
def test_a_line_the_app_did_not_write_so_is_shown_as_kept(stored):
    assert said_in("fr", stored) == stored


def test_the_group_page_says_its_changes_in_the_phones_language(client):
    from tests.test_web_groups import group_of, start_group

    group_id = group_of(start_group(client))
    client.set_cookie("lang", "fr")
    answer = client.post(f"/g/{group_id}/members/3/retire", data={"revision": "1"})
    assert answer.status_code == 302
    french = read(client, f"/g/{group_id}", "fr")
    assert "Membre retiré : Cy." in french  # the line said when it was stored
    assert "Annuler le dernier changement Membre retiré : Cy" in french  # Undo's line
    assert "Membre retiré : Cy — depuis" in french  # the recent changes
    english_page = read(client, f"/g/{group_id}", "en")
    assert "Member retired: Cy — from" in english_page
    client.post(f"/g/{group_id}/undo", data={"revision": "2", "undoes": "2"})
    assert "Annulé : Membre retiré : Cy — depuis" in read(client, f"/g/{group_id}", "fr")


# --- 2 and 8. rubbers and rounds in sentences; "Level" as equal scores --------------------


@pytest.mark.parametrize(
    ("variant", "lang", "heading", "level"),
    [
        ("chicago", "fr", "Tour 1", "Égalité"),
        ("rubber", "de", "Robber 1", "Gleichstand"),
        ("chicago", "pl", "Runda 1", "Remis"),
        ("rubber", "en", "Rubber 1", "Level"),
    ],
)
def test_the_pad_names_its_rubbers_and_rounds_and_equal_scores(
    actions, variant, lang, heading, level
):
    match_id = actions.start(variant, PLAYERS)
    actions.save_hand(match_id, quick="passed_out")
    page = read(actions.client, f"/m/{match_id}", lang)
    assert f"{heading} " in page
    assert f" 0 0 {level} " in page  # the pad's totals, equal


def chicago_round(actions) -> str:
    """A Chicago match rounding each round to hundreds, at 0.10 EUR a 100, with one hand."""
    match_id = actions.start(
        "chicago",
        PLAYERS,
        {"round_to_hundreds": "y"},
        stake_amount="0.10",
        stake_per="100",
        stake_currency="EUR",
    )
    actions.save_hand(match_id, HAND)
    return match_id


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        (
            "fr",
            "Écart de chaque tour, Nous (Ann & Cy) − Eux (Bob & Dee), arrondi à la centaine :"
            " Tour Points Arrondi Tour 1 +420 +400",
        ),
        (
            "de",
            "Differenz jeder Runde, Wir (Ann & Cy) − Sie (Bob & Dee), auf volle 100 gerundet:"
            " Runde Punkte Gerundet Runde 1 +420 +400",
        ),
        (
            "en",
            "Each round's difference, We (Ann & Cy) − They (Bob & Dee), rounded to the nearest"
            " 100: Round Points Rounded Round 1 +420 +400",
        ),
    ],
)
def test_the_settle_page_says_each_rounds_difference(actions, lang, said):
    match_id = chicago_round(actions)
    page = read(actions.client, f"/m/{match_id}/settle", lang)
    assert said in page
    before = {"fr": "Avant cela, l’écart de chaque tour,", "de": "Davor wird die Differenz jeder"}
    assert before.get(lang, "Before that, the difference of every round,") in page


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("fr", "300 donne 1 · manche"),
        ("de", "300 Spiel 1 · Vollspiel"),
        ("en", "300 deal 1 · game"),
    ],
)
def test_chicagos_pad_cites_the_deal_in_the_readers_language(actions, lang, said):
    match_id = actions.start("chicago", PLAYERS)
    actions.save_hand(match_id, HAND)
    assert said in read(actions.client, f"/m/{match_id}", lang)


# --- 3. Need a Fourth?'s role letters -----------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "letters", "key"),
    [
        ("de", ["W", "P", "A"], "Kleine Buchstaben: W Wähler, P Partner"),
        ("pl", ["W", "P", "R"], "Małe liczby: W Wybierający, P Partner"),
        ("fr", ["Pr", "Pa", "D"], "En petit : Pr Preneur, Pa Partenaire"),
        ("en", ["C", "P", "D"], "Small figures: C Chooser, P Partner"),
    ],
)
def test_the_role_letters_are_the_ones_the_key_names(actions, lang, letters, key):
    match_id = actions.start("need-a-fourth", ["Ann", "Bob", "Cy"])
    actions.save_hand(match_id, chooser="Ann", partner="Bob", level="4", strain="S", tricks="10")
    actions.client.set_cookie("lang", lang)
    page = actions.client.get(f"/m/{match_id}").text
    marks = re.findall(r'data-player="(\w+)">[^<]*<span class="note"><b>([^<]+)</b>', page)
    assert [mark for _player, mark in marks] == letters
    assert key in visible_text(actions.client.get(f"/m/{match_id}"))


# --- 5. the running chart's words ------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "axis", "summary"),
    [
        ("fr", "Donne", "Après la donne 1 :"),
        ("de", "Spiel", "Nach Spiel 1:"),
        ("pl", "Rozdanie", "Po rozdaniu 1:"),
    ],
)
def test_the_running_chart_says_its_axis_and_summary_in_the_readers_language(
    actions, lang, axis, summary
):
    match_id = actions.start("rubber", PLAYERS)
    actions.save_hand(match_id, HAND)
    actions.client.set_cookie("lang", lang)
    page = actions.client.get(f"/m/{match_id}").text.replace(NBSP, " ")
    assert f'text-anchor="middle" fill="#5f6b7a">{axis}</text>' in page or (
        f">{axis}</text>" in page
    )
    assert re.search(rf"<title id=\"score-chart-title\">[^<]*{re.escape(summary)}", page)
    assert f'<th scope="col">{axis}</th>' in page


# --- 7. Bridge for Three's tables ----------------------------------------------------------


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("fr", ["4 joueurs", "1 2 3 (4 au repos)", "1 2 3 (4, 5 au repos)", "4♠, 10 levées"]),
        ("de", ["4 Spieler", "2 3 4 (1 setzt aus)", "2 3 4 (5, 1 setzen aus)", "Zug"]),
        ("pl", ["4 gracze", "5 graczy", "3 4 1 (2 pauzuje)", "4♠, lewy: 12"]),
        ("en", ["4 players", "1 2 3 (4 out)", "1 2 3 again", "2♠ doubled, 8 tricks"]),
    ],
)
def test_the_bridge_for_three_rules_tables_are_in_the_readers_language(client, lang, words):
    page = read(client, "/rules/bridge-for-three", lang)
    for said in words:
        assert said in page, said


# --- 9. the rules name options by the form's own labels -------------------------------


def form_label(client, variant: str, option: str) -> str:
    """The label the New match form shows for `option` when `variant` is chosen."""
    form = client.get("/new").text
    field = form[form.index(f'id="opt_{option}"') :]
    field = field[: field.index("</label>")]
    found = re.search(
        rf'data-variants="[^"]*\b{variant}\b[^"]*"><span class="option-games">[^<]*</span>'
        r"([^<]+)</span>",
        field,
    )
    assert found, (variant, option)
    return html.unescape(found.group(1))


@pytest.mark.parametrize("lang", ["en", "fr", "nl", "de", "sv", "zh_Hans_CN", "it", "pl"])
def test_the_rules_name_each_option_by_the_label_the_form_shows(client, lang):
    client.set_cookie("lang", lang)
    pairs = [
        ("chicago", "swap_vulnerability"),
        ("chicago", "round_to_hundreds"),
        ("rubber", "round_to_hundreds"),
    ]
    for variant, option in pairs:
        label = form_label(client, variant, option)
        rules = html.unescape(client.get(f"/rules/{variant}").text)
        assert f"<em>{label}</em>" in rules, (variant, option, label)


# --- 10. Swedish: one word for a retired member ---------------------------------------


def test_swedish_says_retired_one_way():
    from babel.messages.pofile import read_po

    folder = Path(__file__).resolve().parent.parent / "scorekeeper" / "translations"
    with open(folder / "sv" / "LC_MESSAGES" / "messages.po", "rb") as po:
        catalog = read_po(po, locale="sv")
    said = {m.id: m.string for m in catalog if m.id and isinstance(m.id, str)}
    texts = " ".join(said.values()).lower()
    assert ("arkiv" in texts, "utträd" in texts) == (False, False)
    assert said["Retire"] == "Inaktivera"
    assert said["Retired"] == "Inaktiva"
    assert said["%(name)s (retired)"] == "%(name)s (inaktiv)"
    assert said["Member retired: %(what)s"] == "Medlem inaktiverad: %(what)s"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "Ann +400 points +0.40 EUR Bob −400 points −0.40 EUR"),
        ("de", "Ann +400 Punkte +0,40 EUR Bob −400 Punkte −0,40 EUR"),
        ("fr", "Ann +400 points +0,40 EUR Bob −400 points −0,40 EUR"),
    ],
)
def test_the_settle_pages_balances_are_written_the_readers_way(actions, lang, said):
    match_id = chicago_round(actions)
    assert said in read(actions.client, f"/m/{match_id}/settle", lang)
