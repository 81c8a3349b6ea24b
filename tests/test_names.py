"""Names that are not what they look like: composed and combined letters, invisible
and direction characters, look-alike letters of other scripts. Each refused with
the field named: the new-match form (on the player's own input), a match file
(players), the settings' title and a phone's name. And real names that hold
joiners (emoji sequences, Sinhala, Persian) taken, each beside the deceiving
cousin that is refused; two names of one script that only look alike on a small
screen (Arnie and Amie) are two players."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.groupfile import from_group_document
from scorekeeper.groups.state import FORMAT as GROUP_FORMAT
from scorekeeper.matchfile import from_document
from scorekeeper.names import alike, look_alike, name_problem, normal, skeleton
from scorekeeper.variants import MatchError
from tests.webtools import errors_on, visible_text

ZOE_COMPOSED = "Zo\u00eb"
ZOE_COMBINED = "Zoe\u0308"
CYRILLIC_ANN = "\u0410nn"  # "Аnn": a Cyrillic capital A, then Latin nn


@pytest.mark.parametrize(
    "name, problem",
    [
        ("Ann", None),
        (ZOE_COMPOSED, None),
        ("Nguyễn Văn An", None),
        ("山田たろう", None),  # Han and Hiragana are written together
        ("Ivan Иванов", None),  # one script in each word
        ("Ελένη", None),
        ("محمد", None),
        ("Jean-Luc O'Neil", None),
        ("\ue000", None),  # a font's own sign: drawn
        ("\u200b", "has an invisible formatting character (U+200B ZERO WIDTH SPACE)"),
        ("\u2060", "has an invisible formatting character (U+2060 WORD JOINER)"),
        ("\u3164", "has a character that shows nothing (U+3164 HANGUL FILLER)"),
        ("Ann\u202e", "has a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE)"),
        ("Bo\u200db", "has a joiner that joins nothing here (U+200D ZERO WIDTH JOINER)"),
        ("\u0301", "has nothing visible: type letters or digits"),
        ("Bo\x85b", "has a line break or control character"),
        (CYRILLIC_ANN, "mixes look-alike letters of different scripts (“А” U+0410"),
        ("\u03a1aul", "mixes look-alike letters of different scripts (“Ρ” U+03A1"),
    ],
    ids=lambda v: repr(v)[:24],
)
def test_which_names_are_refused_and_why(name, problem):
    said = name_problem(name)
    assert (said is None) == (problem is None)
    if problem is not None:
        assert said.startswith(problem), said


ZWJ, ZWNJ = "\u200d", "\u200c"
JOINER = "has a joiner that joins nothing here (U+200D ZERO WIDTH JOINER)"
NON_JOINER = "has a joiner that joins nothing here (U+200C ZERO WIDTH NON-JOINER)"
TAG_G = "has an invisible tag character (U+E0067 TAG LATIN SMALL LETTER G) outside an emoji flag"
ENGLAND = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
SRIYANI = "\u0dc1\u0dca\u200d\u0dbb\u0dd2\u0dba\u0dcf\u0db1\u0dd2"  # ශ්‍රියානි
SRI = "\u0dc1\u0dca\u200d\u0dbb\u0dd3"  # ශ්‍රී
ALIREZA = "\u0639\u0644\u06cc\u200c\u0631\u0636\u0627"  # علی‌رضا: ZWNJ after a joining ی
AMIRHOSSEIN = "\u0627\u0645\u06cc\u0631\u200c\u062d\u0633\u06cc\u0646"  # امیر‌حسین: after ر


# Issue 24: each real name with a joiner or a tag, then its deceiving cousins.
@pytest.mark.parametrize(
    "name, problem",
    [
        ("Maria \U0001f469\u200d\U0001f467", None),  # woman, ZWJ, girl
        ("Dev \U0001f468\u200d\U0001f4bb", None),  # man technologist
        ("Pride \U0001f3f3\ufe0f\u200d\U0001f308", None),  # rainbow flag
        ("\U0001f469\U0001f3fd\u200d\U0001f4bb Ana", None),  # with a skin tone
        (f"England {ENGLAND}", None),  # a flag of tag characters
        (SRIYANI, None),  # ZWJ after the Sinhala virama (al-lakuna)
        (SRI, None),
        (ALIREZA, None),  # ZWNJ in Persian spelling
        (AMIRHOSSEIN, None),
        ("\u0915\u094d\u200d\u0937", None),  # Devanagari: ZWJ after the virama
        ("\u0915\u094d\u200c\u0937", None),  # and ZWNJ after it
        # the cousins: a joiner with nothing to join
        (ZWJ, "has a joiner that joins nothing here (U+200D"),
        (ZWJ + ZWNJ, "has a joiner that joins nothing here (U+200D"),
        (ZWJ + "Ann", JOINER),  # leading
        ("Ann" + ZWJ, JOINER),  # trailing
        ("Bo" + ZWNJ + "b", NON_JOINER),  # between Latin letters
        ("Ann " + ZWJ + "\U0001f467", JOINER),  # after a space
        ("a" + ZWJ + "\U0001f44d", JOINER),  # a letter joined to an emoji
        ("\U0001f469" + ZWJ, JOINER),  # an emoji joined to nothing
        ("\U0001f469" + ZWJ + ZWJ + "\U0001f467", JOINER),  # doubled
        ("\U0001f98a" + ZWJ + "\U0001f43a", JOINER),  # fox and wolf: no emoji sequence
        (SRI.replace(ZWJ, ZWJ + ZWJ), JOINER),  # doubled after the virama
        ("\u0dc1" + ZWJ + "\u0dbb\u0dd3", JOINER),  # Sinhala without the virama
        (ALIREZA.replace(ZWNJ, ZWNJ + ZWNJ), NON_JOINER),  # doubled
        (ALIREZA + ZWNJ, NON_JOINER),  # trailing
        ("\u0639\u0644\u06cc" + ZWNJ + "Reza", NON_JOINER),  # Persian to Latin
        # the cousins: tag characters outside a flag
        ("Ann\U000e0067", TAG_G),
        ("\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067", TAG_G),  # no end
        ("Ann" + ENGLAND[1:], TAG_G),  # a flag's tags without the flag
        ("\U000e007f", "has an invisible tag character (U+E007F CANCEL TAG) outside an emoji"),
        # and what deceived before still does
        ("Maria\u202e \U0001f469\u200d\U0001f467", "has a text-direction control (U+202E"),
        ("\U0001f469\u200d\U0001f467 \u0410nn", "mixes look-alike letters of different scripts"),
    ],
    ids=lambda v: repr(v)[:40],
)
def test_joiners_only_where_a_script_or_an_emoji_needs_them(name, problem):
    said = name_problem(name)
    assert (said is None) == (problem is None), said
    if problem is not None:
        assert said.startswith(problem), said


@pytest.mark.parametrize(
    "one, other, same",
    [
        (ZOE_COMPOSED, ZOE_COMBINED, True),  # one composed ë, one e + combining diaeresis
        ("Ann", "ann", True),  # case
        ("Ann", "\uff21\uff4e\uff4e", True),  # full-width letters (NFKC)
        ("Ann", CYRILLIC_ANN, True),
        ("Capa", "\u0421\u0430\u0440\u0430", True),  # all-Cyrillic "Сара"
        ("Ann", "Anne", False),
        ("Zoe", ZOE_COMPOSED, False),
        ("Li", "Lí", False),
        ("Bob", "Вов", False),
        # Two people of one script whose names look alike on a screen (issue 24).
        ("Arnie", "Amie", False),  # "rn" and "m"
        ("Kim", "Kirn", False),
        ("Al", "AI", False),  # a small L and a capital i
        ("Bob", "B0b", False),
        # The same name with and without a joiner (UTS #39 ignores them).
        (ALIREZA, ALIREZA.replace(ZWNJ, ""), True),
        ("Maria \U0001f469\u200d\U0001f467", "maria \U0001f469\U0001f467", True),
        (
            "Ivan \u0418\u0432\u0430\u043d\u043e\u0432",
            "IVAN \u0418\u0432\u0430\u043d\u043e\u0432",
            True,
        ),
        ("Sam \u0421\u0430\u0440\u0430", "Sam Capa", True),  # one word in another script
    ],
)
def test_names_a_reader_would_take_for_one(one, other, same):
    assert alike(one, other) is same
    assert alike(other, one) is same


@pytest.mark.parametrize(
    "one, other, similar",
    [("Arnie", "Amie", True), ("Kim", "Kirn", True), ("Al", "AI", True), ("Ann", "Anne", False),
     ("Ann", "ann", False), ("Ann", CYRILLIC_ANN, False)],
)  # fmt: skip
def test_names_of_one_script_that_only_look_alike(one, other, similar):
    """Two people, not one: said once, never refused (alike() is the refusal)."""
    assert look_alike(one, other) is similar
    assert look_alike(other, one) is similar


def test_the_skeleton_follows_unicode_confusables():
    assert skeleton("\u0410") == "A"
    assert skeleton("m") == "rn"
    assert normal(f"  {ZOE_COMBINED} ") == ZOE_COMPOSED


# --- the new-match form: each refusal on the player's own input ----------------------

FOUR = ["Ann", "Bob", "Cy", "Dee"]


@pytest.mark.parametrize(
    "second, message",
    [
        ("\u200b", "This name has an invisible formatting character (U+200B ZERO WIDTH SPACE)"),
        ("\u2060", "This name has an invisible formatting character (U+2060 WORD JOINER)"),
        ("\u3164", "This name has a character that shows nothing (U+3164 HANGUL FILLER)"),
        ("Bob\u202e", "This name has a text-direction control (U+202E RIGHT-TO-LEFT"),
        ("\u0410nn", "This name mixes look-alike letters of different scripts (“А” U+0410"),
        ("ann", "ann is already Player 1: give each player a different name"),
        ("\uff21\uff4e\uff4e", "Ａｎｎ looks the same as Player 1 (Ann): give each player a name"),
    ],
    ids=["zero-width-space", "word-joiner", "hangul-filler", "rtl-override", "cyrillic-a",
         "case", "full-width"],
)  # fmt: skip
def test_the_new_match_form_refuses_the_name_on_its_input(actions, client, second, message):
    data = {"variant": "rubber", "player1": "Ann", "player2": second, "player3": "Cy"}
    data["player4"] = "Dee"
    answer = client.post("/new", data=data)
    assert answer.status_code == 200
    [error] = errors_on(answer, "player2")
    assert error.startswith(message), error
    assert errors_on(answer, "player1") == []
    assert actions.page("/").count("/m/") == 0  # nothing stored


def test_two_zoes_typed_on_two_keyboards_are_one_name(actions, client):
    data = {"variant": "rubber", "player1": ZOE_COMPOSED, "player2": ZOE_COMBINED}
    data.update(player3="Cy", player4="Dee")
    answer = client.post("/new", data=data)
    assert errors_on(answer, "player2") == [
        "Zoë is already Player 1: give each player a different name (capitals do not count)."
    ]


def test_a_combined_name_is_kept_composed(actions):
    match_id = actions.start("rubber", [ZOE_COMBINED, "Bob", "Cy", "Dee"])
    assert actions.document(match_id)["players"][0] == ZOE_COMPOSED


# --- a match file ---------------------------------------------------------------------

FILE = {
    "format": "scorekeeper-match/1",
    "variant": "rubber",
    "players": FOUR,
    "hands": [{"declarer": "Ann", "contract": "2H", "tricks": 8}],
}


@pytest.mark.parametrize(
    "players, line",
    [
        (
            [ZOE_COMPOSED, ZOE_COMBINED, "Cy", "Dee"],
            f"players: player 2 '{ZOE_COMBINED}' looks the same as player 1 '{ZOE_COMPOSED}'",
        ),
        (
            ["Ann", CYRILLIC_ANN, "Cy", "Dee"],
            "players: player 2 'Аnn' mixes look-alike letters of different scripts",
        ),
        (
            ["Capa", "\u0421\u0430\u0440\u0430", "Cy", "Dee"],
            "players: player 2 'Сара' looks the same as player 1 'Capa': give each player a name",
        ),
        (
            ["Ann", "Bob\u202e", "Cy", "Dee"],
            "players: player 2 'Bob\\u202e' has a text-direction control (U+202E",
        ),
        (["Ann", "\u3164", "Cy", "Dee"], "players: player 2 'ㅤ' has a character that shows"),
    ],
    ids=["two-zoes", "cyrillic-a", "whole-script", "rtl-override", "hangul-filler"],
)
def test_a_match_file_with_such_a_name_is_refused_naming_the_player(players, line):
    document = copy.deepcopy(FILE)
    document["players"] = players
    document["hands"][0]["declarer"] = players[0]
    with pytest.raises(MatchError) as refused:
        from_document(document)
    assert any(got.startswith(line) for got in refused.value.lines), refused.value.lines


def test_a_match_file_keeps_a_combined_name_as_written_so_its_hands_still_name_it():
    document = copy.deepcopy(FILE)
    document["players"] = [ZOE_COMBINED, "Bob", "Cy", "Dee"]
    document["hands"][0]["declarer"] = ZOE_COMBINED
    assert from_document(document).players[0] == ZOE_COMBINED


def test_an_import_with_such_a_name_says_which_player(actions):
    document = copy.deepcopy(FILE)
    document["players"] = ["Ann", CYRILLIC_ANN, "Cy", "Dee"]
    page = actions.followed(actions.import_file(document))
    assert "Not imported: 1 problem in this file." in page
    assert "players: player 2 'Аnn' mixes look-alike letters of different scripts" in page


# --- the settings' title, and a phone's name -------------------------------------------


def test_a_title_with_a_direction_control_is_refused_on_the_title(actions, client):
    match_id = actions.start("rubber", FOUR)
    answer = client.post(
        f"/m/{match_id}/settings",
        data={"title": "Friday\u202e", "stake_amount": "", "stake_per": "", "stake_currency": ""},
    )
    assert errors_on(answer, "title") == [
        "has a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE):"
        " type it without that character"
    ]
    assert "title" not in actions.document(match_id)


@pytest.mark.parametrize(
    "typed, said",
    [
        ("Bob\u202e", "Phone name not changed: it has an invisible character (U+202E)."),
        ("\u200b", "Phone name not changed: it has an invisible character (U+200B)."),
        ("\u3164", "Phone name not changed: it has an invisible character (U+3164)."),
        (CYRILLIC_ANN, "Phone name not changed: it mixes look-alike letters of two scripts."),
    ],
)
def test_a_phone_name_that_is_not_what_it_looks_is_refused(actions, client, typed, said):
    client.post("/phone", data={"name": "Ann's phone", "next": "/"})
    answer = client.post("/phone", data={"name": typed, "next": "/"})
    assert answer.status_code == 302
    assert said in visible_text(actions.page("/"))
    assert client.get_cookie("phone").decoded_value == "Ann's phone"  # kept


def test_a_phone_cookie_with_a_direction_control_counts_as_no_name(actions, client):
    match_id = actions.start("rubber", FOUR)
    client.set_cookie("phone", "Bob\u202e")
    actions.save_hand(match_id, {"declarer": "Ann", "level": "2", "strain": "H", "tricks": "8"})
    history = visible_text(actions.page(f"/m/{match_id}/history"))
    assert "Hand 1 saved" in history and "· a phone" in history
    assert "\u202e" not in history


# --- issue 24: real names taken everywhere a name is typed or read ---------------------

REAL_NAMES = [
    "Maria \U0001f469\u200d\U0001f467",
    "Dev \U0001f468\u200d\U0001f4bb",
    "Pride \U0001f3f3\ufe0f\u200d\U0001f308",
    f"England {ENGLAND}",
    SRIYANI,
    SRI,
    ALIREZA,
    AMIRHOSSEIN,
]


@pytest.mark.parametrize("name", REAL_NAMES, ids=range(len(REAL_NAMES)))
def test_a_real_name_with_a_joiner_starts_a_match_and_names_a_member(actions, client, name):
    match_id = actions.start("rubber", [name, "Bob", "Cy", "Dee"])
    assert actions.document(match_id)["players"][0] == name
    document = copy.deepcopy(FILE)
    document["players"] = [name, "Bob", "Cy", "Dee"]
    document["hands"][0]["declarer"] = name
    assert from_document(document).players[0] == name
    client.post("/phone", data={"name": name, "next": "/"})
    assert client.get_cookie("phone").decoded_value == name


def test_arnie_and_amie_play_in_one_match_and_are_told_once(actions, client):
    data = {"variant": "rubber", "player1": "Arnie", "player2": "Amie", "player3": "Kim"}
    data["player4"] = "Kirn"
    answer = client.post("/new", data=data)
    assert answer.status_code == 302  # stored at the first Start, nothing to retype
    match_id = answer.location.split("/")[2]
    assert actions.document(match_id)["players"] == ["Arnie", "Amie", "Kim", "Kirn"]
    note = (
        "Arnie and Amie look alike on a small screen, and so do Kim and Kirn:"
        " check that each is the right player."
    )
    assert note in visible_text(client.get(answer.location).text)
    assert note not in visible_text(client.get(answer.location).text)  # said once


def test_a_match_file_of_kim_and_kirn_is_read():
    document = copy.deepcopy(FILE)
    document["players"] = ["Kim", "Kirn", "Arnie", "Amie"]
    document["hands"][0]["declarer"] = "Kirn"
    assert from_document(document).players == ["Kim", "Kirn", "Arnie", "Amie"]


def test_a_group_of_arnie_and_amie_is_started_and_told_once(client):
    fields = {"name": "Friday", "stake_game": "*", "member1": "Arnie", "member2": "Amie"}
    answer = client.post("/groups/new", data={**fields, "member3": "Kim"})
    assert answer.status_code == 302
    note = "Arnie and Amie look alike on a small screen: check that each is the right member."
    assert note in visible_text(client.get(answer.location).text)
    assert note not in visible_text(client.get(answer.location).text)
    revision = "1"
    added = client.post(f"{answer.location}/members", data={"name": "Kirn", "revision": revision})
    assert added.status_code == 302
    page = visible_text(client.get(added.location).text)
    assert "Member added: Kirn." in page
    assert "Kim and Kirn look alike on a small screen: check that each is the right member." in page


def test_a_group_file_finds_members_as_every_other_place_does():
    """Kim and Kirn are two members; a payment's `from` and a mapping find a
    member written in other capitals, as the group's pages do (names.pick)."""
    match = copy.deepcopy(FILE)
    match["players"] = ["Kim", "Kirn", "Arnie", "Amie"]
    match["hands"][0]["declarer"] = "Kim"
    pay = {"from": "KIRN", "to": "kim", "amount": "1.00", "currency": "EUR", "date": "2026-11-01"}
    document = {
        "format": GROUP_FORMAT,
        "name": "Friday",
        "members": ["Kim", "Kirn", "Arnie", "Amie"],
        "matches": [{"match": match, "mapping": {"Kim": "kim"}}],
        "payments": [pay],
    }
    group = from_group_document(document)
    assert group.members == ["Kim", "Kirn", "Arnie", "Amie"]
    assert group.matches[0].mapping == {
        "Kim": "Kim",
        "Kirn": "Kirn",
        "Arnie": "Arnie",
        "Amie": "Amie",
    }
    assert (group.payments[0].payer, group.payments[0].payee) == ("Kirn", "Kim")
