"""The choices of a radio field drawn as buttons (views/buttons.py): the very text
the template's loop drew (kept below as it was), for any choices, labels, value,
refused and hidden choices."""

from __future__ import annotations

from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st
from jinja2 import Environment
from markupsafe import Markup
from wtforms import Form

from scorekeeper.entry import choice_field
from scorekeeper.views.buttons import radio_choices

# templates/macros.html `buttons`, its loop over the choices before views/buttons.py.
THE_LOOP = (Path(__file__).parent / "recorded" / "buttons_loop.html").read_text(encoding="utf-8")
NOW = """\
{% set refused = f.refused if f.refused is defined else {} %}
{% set hidden_choices = f.hidden_choices if f.hidden_choices is defined else [] %}
  <div class="grid">
{{ radio_choices(f, refused, hidden_choices) }}  </div>
"""
ENVIRONMENT = Environment(autoescape=True, trim_blocks=True, lstrip_blocks=True)
ENVIRONMENT.globals["radio_choices"] = radio_choices
DRAWN = [ENVIRONMENT.from_string(text) for text in (THE_LOOP, NOW)]  # compiled once

values = st.one_of(
    st.integers(-2, 40), st.sampled_from(["", "N", "x", "H", "NT", "Ann", "a&b", '"q"', "<i>"])
)
labels = st.one_of(
    st.sampled_from(["1", "♠", "Ann", "a & b", '"Bo"', "<b>", "Zoë 🃏"]),
    st.sampled_from(["<span>♥</span>", "<b>7</b>"]).map(Markup),
)


@settings(max_examples=300, deadline=None)
@given(
    name=st.sampled_from(["level", "declarer", "strain", "a&b"]),
    choices=st.lists(st.tuples(values, labels), max_size=8, unique_by=lambda c: str(c[0])),
    data=st.one_of(st.none(), values),
    picks=st.lists(st.integers(0, 7), max_size=4),
    hides=st.lists(st.integers(0, 7), max_size=3),
    marks=st.sampled_from(["none", "refused", "hidden", "both"]),
)
def test_the_buttons_are_the_loops_text(name, choices, data, picks, hides, marks):
    form = type("One", (Form,), {name: choice_field("Label", choices)})()
    field = form[name]
    field.data = data
    texts = [str(value) for value, _ in choices]
    if marks in ("refused", "both"):
        field.refused = {texts[i]: f"reason {i}" for i in picks if i < len(texts)}
    if marks in ("hidden", "both"):
        field.hidden_choices = [texts[i] for i in hides if i < len(texts)]
    drawn = [template.render(f=field) for template in DRAWN]
    assert drawn[1] == drawn[0]


def test_a_field_of_a_real_form_drawn_the_same():
    """A declarer field with a refused and a hidden player, Ann's chosen."""
    players = [("Ann", "Ann"), ("Bo", "Bo"), ("Cy", "Cy"), ("Di", "Di")]
    form = type("One", (Form,), {"declarer": choice_field("Declarer", players)})()
    field = form["declarer"]
    field.data, field.refused, field.hidden_choices = "Ann", {"Bo": "dummy"}, ["Di"]
    drawn = [template.render(f=field) for template in DRAWN]
    assert drawn[1] == drawn[0]
    ann = '<input type="radio" name="declarer" id="declarer-0" value="Ann"      checked>'
    bo = (
        '<input type="radio" name="declarer" id="declarer-1" value="Bo" disabled'
        ' aria-disabled="true" aria-describedby="group-declarer-refused"      >'
    )
    assert ann in drawn[1] and bo in drawn[1]
    assert '<label for="declarer-3" title="Di" hidden>Di</label>' in drawn[1]
