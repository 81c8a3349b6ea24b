"""The shared scripts' words (templates/_script_words.html; what they are:
test_script_words.py), drawn once per language, catalog and template
(views/language.script_words): each phone reads its own language's, a phone
switching language reads the new one's, and an edit of the template read again
while running shows on the next page."""

from __future__ import annotations

import json
import re
import threading

from jinja2 import ChoiceLoader, DictLoader

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
SAVED = {"fr": "Enregistré.", "de": "Gespeichert.", "en": "Saved."}
WORDS = re.compile(r'<script type="application/json" id="script-words">(.*?)</script>')


def test_one_phone_switching_language_between_pages_reads_each_in_its_own(actions, client):
    """The next page of a phone whose language changed is all in the new one,
    its scripts' words too."""
    match_id = actions.start("rubber", PLAYERS)
    said = {"fr": "Donne 1", "de": "Spiel 1", "en": "Hand 1"}
    for code in ("fr", "de", "fr", "en"):
        client.set_cookie("lang", code)
        text = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
        assert f'<html lang="{code}"' in text
        assert said[code] in text
        words = WORDS.search(text)
        assert json.loads(words.group(1))["saved"] == SAVED[code]


def test_the_scripts_words_edited_while_running_are_read_again(app, client):
    """The scripts' words are kept per language, but never past their template:
    an app that reads its templates again when they change (TEMPLATES_AUTO_RELOAD,
    `flask run --debug`) shows the edit on the next page, as the rest of it does."""
    edited = {"_script_words.html": '<script id="script-words">{{ _("Saved.") }} 1</script>'}
    app.jinja_env.auto_reload = True
    app.jinja_env.loader = ChoiceLoader([DictLoader(edited), app.jinja_env.loader])
    client.set_cookie("lang", "fr")
    words = re.compile(r'<script id="script-words">(.*?)</script>')
    assert words.findall(client.get("/").get_data(as_text=True)) == ["Enregistré. 1"]
    edited["_script_words.html"] = edited["_script_words.html"].replace(" 1<", " 2<")
    assert words.findall(client.get("/").get_data(as_text=True)) == ["Enregistré. 2"]


def test_phones_reading_in_two_languages_at_once_each_read_their_own(app, actions):
    """waitress answers with several threads: the scripts' words kept per
    language never cross from one phone to another."""
    match_id = actions.start("rubber", PLAYERS)
    said = {"fr": "Donne 1", "de": "Spiel 1"}
    start = threading.Barrier(len(said))
    wrong: list[tuple[str, int]] = []

    def phone(code: str) -> None:
        client = app.test_client()
        client.set_cookie("lang", code)
        start.wait(timeout=30)
        for n in range(15):
            text = client.get(f"/m/{match_id}/hand/new").get_data(as_text=True)
            words = WORDS.search(text)
            if said[code] not in text or json.loads(words.group(1))["saved"] != SAVED[code]:
                wrong.append((code, n))

    threads = [threading.Thread(target=phone, args=(code,)) for code in said]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    assert wrong == []
