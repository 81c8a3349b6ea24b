"""Parts of docs/ that the app shows: each rules page's "Our decisions", and the
sections a page names (its scoring tables, say), are the sections of that name in
docs/variants/<id>.md, drawn as HTML, so the page and the document cannot say
different things.

The documents use a small part of Markdown there: paragraphs, "- " lists (a
continuation line is indented), "### " headings, tables of "|" rows with a
"|---|" line under the head, **bold**, *emphasis*, `code` and [links](target).
That part is drawn here; anything else is shown as the text it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup, escape

DECISIONS = "Our decisions"

_INLINE = re.compile(
    r"`(?P<code>[^`]+)`"
    # As in Markdown, no space just inside the stars: "a * b * c" is not emphasis.
    r"|\*\*(?P<bold>[^*\s](?:[^*]*[^*\s])?)\*\*"
    r"|\*(?P<em>[^*\s](?:[^*]*[^*\s])?)\*"
    r"|\[(?P<text>[^\]]+)\]\((?P<target>[^)\s]+)\)"
)


def _heading(line: str) -> str | None:
    """What a "## " line names: its words, or, in a translated document, the
    English heading in the comment after them ("## Nos décisions <!-- Our decisions -->")."""
    if not line.startswith("## "):
        return None
    named = re.fullmatch(r"## .*?<!--\s*(.+?)\s*-->\s*", line)
    return named.group(1) if named else line[3:]


def section(markdown: str, heading: str) -> str:
    """The text under `## heading`, up to the next heading of that level or higher."""
    lines = markdown.splitlines()
    try:
        start = [_heading(line) for line in lines].index(heading) + 1
    except ValueError:
        raise KeyError(heading) from None
    end = next((k for k in range(start, len(lines)) if re.match(r"#{1,2} ", lines[k])), len(lines))
    return "\n".join(lines[start:end]).strip()


def has_section(markdown: str, heading: str) -> bool:
    """Whether `section(markdown, heading)` finds the heading."""
    try:
        section(markdown, heading)
    except KeyError:
        return False
    return True


def inline(text: str, link: Callable[[str], str | None]) -> Markup:
    """One paragraph's or item's text as HTML: escaped, with code, bold, emphasis and
    links; `link(target)` gives a link's address in the app, or None for plain text."""
    out: list[Markup] = []
    at = 0
    for found in _INLINE.finditer(text):
        out.append(escape(text[at : found.start()]))
        if found["code"] is not None:
            out.append(Markup("<code>{}</code>").format(found["code"]))
        elif found["bold"] is not None:
            out.append(Markup("<strong>{}</strong>").format(found["bold"]))
        elif found["em"] is not None:
            out.append(Markup("<em>{}</em>").format(found["em"]))
        else:
            address = link(found["target"])
            words = found["text"]
            out.append(
                Markup('<a href="{}">{}</a>').format(address, words) if address else escape(words)
            )
        at = found.end()
    out.append(escape(text[at:]))
    return Markup("").join(out)


def cells(row: str) -> list[str]:
    """`| a | b |` -> `["a", "b"]` (an empty cell stays, as "")."""
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def blocks(markdown: str) -> list[tuple[str, list[str]]]:
    """("p", [text]) for a paragraph, ("ul", [item, …]) for a list, ("h3", [text])
    for a "### " heading and ("table", [row, …]) for a table (its head first, the
    "|---|" line left out), in order; the lines of one paragraph or item joined by
    spaces."""
    found: list[tuple[str, list[str]]] = []
    for chunk in re.split(r"\n\s*\n", markdown.strip()):
        lines = chunk.splitlines()
        if lines and lines[0].startswith("### "):
            found.append(("h3", [lines.pop(0)[4:].strip()]))
        if lines and all(line.startswith("|") for line in lines):
            rows = [line for line in lines if not re.fullmatch(r"\|[\s|:-]*", line)]
            found.append(("table", rows))
        elif lines and lines[0].startswith("- "):
            items: list[str] = []
            for line in lines:
                if line.startswith("- "):
                    items.append(line[2:].strip())
                else:
                    items[-1] += " " + line.strip()
            found.append(("ul", items))
        elif lines:
            found.append(("p", [" ".join(line.strip() for line in lines)]))
    return found


def table(rows: list[str], link: Callable[[str], str | None]) -> Markup:
    """A "|" table as the rules pages draw theirs: the first row is the head."""
    head, *body = [cells(row) for row in rows]

    def row(tag: str, texts: list[str]) -> Markup:
        return Markup("<tr>{}</tr>").format(
            Markup("").join(Markup(f"<{tag}>{{}}</{tag}>").format(inline(t, link)) for t in texts)
        )

    return Markup(
        '<table class="score rules-table"><thead>{}</thead><tbody>{}</tbody></table>'
    ).format(row("th", head), Markup("").join(row("td", r) for r in body))


def to_html(
    markdown: str, link: Callable[[str], str | None], item_class: str | None = "decision"
) -> Markup:
    """Paragraphs, headings, tables and lists as HTML; a list's items are the
    decisions (`item_class`), or plain items where `item_class` is None."""
    parts: list[Markup] = []
    for kind, texts in blocks(markdown):
        if kind == "p":
            parts.append(Markup("<p>{}</p>").format(inline(texts[0], link)))
        elif kind == "h3":
            parts.append(Markup("<h3>{}</h3>").format(inline(texts[0], link)))
        elif kind == "table":
            parts.append(table(texts, link))
        elif item_class is None:
            items = Markup("").join(Markup("<li>{}</li>").format(inline(t, link)) for t in texts)
            parts.append(Markup("<ul>{}</ul>").format(items))
        else:
            items = Markup("").join(
                Markup('<li class="{}">{}</li>').format(item_class, inline(t, link)) for t in texts
            )
            parts.append(Markup('<ul class="{}s">{}</ul>').format(item_class, items))
    return Markup("\n").join(parts)


@lru_cache(maxsize=64)
def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def document(folder: Path, variant_id: str, code: str | None = None) -> Path:
    """docs/variants/<code>/<id>.md, the variant's document in a reader's language
    where there is one, else the English docs/variants/<id>.md."""
    if code:
        translated = folder / "variants" / code / f"{variant_id}.md"
        if translated.is_file():
            return translated
    return folder / "variants" / f"{variant_id}.md"


def decisions(
    folder: Path, variant_id: str, link: Callable[[str], str | None], code: str | None = None
) -> Markup:
    """The variant's "Our decisions", from its document, as HTML."""
    text = _read(document(folder, variant_id, code))
    return to_html(section(text, DECISIONS), link)


def part(
    folder: Path,
    variant_id: str,
    heading: str,
    link: Callable[[str], str | None],
    code: str | None = None,
) -> Markup:
    """Any "## heading" section of the variant's document as HTML, for a rules page
    that shows it as the document says it (KeyError when there is none)."""
    text = _read(document(folder, variant_id, code))
    return to_html(section(text, heading), link, item_class=None)
