"""A page drawn anew reads its catalogs once for the request, not once for each
word (views/language.page_translations for the templates' words,
spoken_translations for the rules' sentences): a long match's hand log says
hundreds of them after every change. A `force_locale` block inside a request is
still said in its own language, and the next request of the same phone in its
new one."""

from __future__ import annotations

import flask_babel
from flask import render_template_string
from flask_babel import force_locale

from scorekeeper.speech import Said
from scorekeeper.views import language

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
HANDS = [("Ann", "1", "C", "8"), ("Bob", "2", "H", "7"), ("Cy", "3", "NT", "9")]


def counted(monkeypatch, module, name: str) -> list[int]:
    calls: list[int] = []
    real = getattr(module, name)

    def counting():
        calls.append(1)
        return real()

    monkeypatch.setattr(module, name, counting)
    return calls


def test_a_match_page_drawn_anew_looks_each_catalog_up_once(actions, client, monkeypatch):
    match_id = actions.start("rubber", PLAYERS)
    for declarer, level, strain, tricks in HANDS * 2:  # a rubber of six hands
        actions.save_hand(
            match_id, {"declarer": declarer, "level": level, "strain": strain, "tricks": tricks}
        )
    client.set_cookie("lang", "fr")
    client.get(f"/m/{match_id}")  # the last save's message, shown once
    page_words = counted(monkeypatch, flask_babel, "get_translations")
    rules_words = counted(monkeypatch, language, "get_translations")
    text = client.get(f"/m/{match_id}?hand=1").get_data(as_text=True)  # drawn anew
    assert '<html lang="fr"' in text
    assert "Totaux" in text  # the page's words, in French
    assert "sous la ligne" in text  # the rules' explanations, in French
    assert (len(page_words), len(rules_words)) == (1, 1)


def test_force_locale_inside_a_request_says_its_own_language(app):
    template = "{{ _('Hand') }} {{ line }}"
    line = Said("Hand %(number)s", named={"number": 3})
    with app.test_request_context("/", headers={"Cookie": "lang=fr"}):
        app.preprocess_request()  # the request's hooks: the rules' sentences said in French
        assert render_template_string(template, line=line) == "Donne Donne 3"
        with force_locale("de"):
            assert render_template_string(template, line=line) == "Spiel Spiel 3"
        assert render_template_string(template, line=line) == "Donne Donne 3"
        flask_babel.refresh()  # the language chosen again, as after a switch
        assert str(line) == "Donne 3"


def test_each_request_reads_its_own_phones_language(app):
    line = Said("Hand %(number)s", named={"number": 3})
    for code, said in (("fr", "Donne 3"), ("de", "Spiel 3"), ("en", "Hand 3"), ("fr", "Donne 3")):
        with app.test_request_context("/", headers={"Cookie": f"lang={code}"}):
            app.preprocess_request()
            assert str(line) == said
            assert render_template_string("{{ _('Hand') }}") == said[:-2]
