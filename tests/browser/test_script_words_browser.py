"""The scripts say what the page gives them (issue 26): a hand form's script
fills in its game's sentences from #form-words, and a counted sentence is the
one for the plural category the browser's Intl.PluralRules gives the count in
the page's language (static/app.js Scorekeeper.word / counted)."""

from __future__ import annotations

import re

from .conftest import PHONE, settled

POLISH = {
    "one": "%(num)s ręka czeka (%(hands)s)",
    "few": "%(num)s ręce czekają (%(hands)s)",
    "many": "%(num)s rąk czeka (%(hands)s)",
}


def test_a_counted_sentence_follows_the_plural_rules_of_the_pages_language(browser, server):
    context = browser.new_context(viewport=PHONE, locale="pl-PL")
    page = context.new_page()
    page.goto(f"{server}/")
    settled(page)
    assert page.get_attribute("html", "lang") == "pl"
    # The page's Polish sentences (the catalog's, once translated) in place of the words.
    page.evaluate(
        """(forms) => {
          const block = document.getElementById("script-words");
          const words = JSON.parse(block.textContent);
          block.textContent = JSON.stringify({ ...words, hands_waiting: forms });
        }""",
        POLISH,
    )
    said = page.evaluate(
        """() => [1, 2, 5, 22, 112].map(
          (n) => window.Scorekeeper.counted("hands_waiting", n, { hands: "R" }))"""
    )
    assert said == [
        "1 ręka czeka (R)",
        "2 ręce czekają (R)",
        "5 rąk czeka (R)",
        "22 ręce czekają (R)",
        "112 rąk czeka (R)",
    ]
    context.close()


def test_a_hand_forms_script_says_its_games_sentences_as_the_page_gives_them(table):
    page = table.page

    # The page as a phone in another language would get it: the sentence of the
    # contract line said otherwise in #form-words.
    def reworded(route):
        response = route.fetch()
        body = response.text().replace(
            "%(contract)s by %(declarer)s: needs %(tricks)s tricks.",
            "%(declarer)s joue %(contract)s : il faut %(tricks)s levées.",
        )
        route.fulfill(response=response, body=body)

    table.start_match("rubber", ["Ann", "Bob", "Cy", "Di"])
    page.route(re.compile(r".*/hand/new$"), reworded)
    with page.expect_navigation():
        page.reload()
    settled(page)
    table.tap_button("declarer", "Ann")
    table.tap_button("level", "4")
    table.tap_button("strain", "S")
    assert page.inner_text("#contract-line") == "Ann joue 4♠ : il faut 10 levées."
    table.tap_button("level", "3")
    assert page.inner_text("#contract-line") == "Ann joue 3♠ : il faut 9 levées."
