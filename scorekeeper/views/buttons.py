"""The choices of a radio field drawn as large buttons (templates/macros.html
`buttons`): an input and its label for each choice.

Every hand form draws forty or more of them, and a refused save draws its form
again with what was typed; a loop in the template spent about a fifth of that
answer on them, the same text built here in one pass."""

from __future__ import annotations

from collections.abc import Collection, Mapping

from markupsafe import Markup, escape
from wtforms import RadioField


def radio_choices(field: RadioField, refused: Mapping[str, str], hidden: Collection[str]) -> Markup:
    """Each choice of `field` as `<input type="radio">` and its `<label>`: a
    choice in `refused` (value -> reason) or `hidden` is drawn disabled, a
    hidden one hidden too; the field's value is checked unless it is off."""
    name = escape(field.name)
    data = None if field.data is None else str(field.data)
    drawn = []
    for index, (value, label) in enumerate(field.choices):
        text = str(value)
        hide = text in hidden
        off = hide or text in refused
        ident = f"{name}-{index}"
        label = escape(label)
        drawn.append(
            f'    <input type="radio" name="{name}" id="{ident}" value="{escape(value)}"'
            + (' disabled aria-disabled="true"' if off else "")
            + (" hidden" if hide else "")
            + (f' aria-describedby="group-{name}-refused"' if text in refused else "")
            + "      "
            + ("checked" if not off and data == text else "")
            + ">\n"
            + f'    <label for="{ident}" title="{label}"'
            + (" hidden" if hide else "")
            + f">{label}</label>\n"
        )
    return Markup("".join(drawn))
