"""What a player does at the table, through the Flask test client (flaskr's
`AuthActions` shape): start a match, post a hand, read back what was stored and
what the page shows. Web tests use the `actions` fixture instead of their own
helpers, and assert on the text a player reads rather than on markup."""

from __future__ import annotations

import io
import json
import re
from html import unescape
from html.parser import HTMLParser
from typing import Any

_MATCH_ID = re.compile(r"/m/([\w-]{16})(?:/|$)")


class _Text(HTMLParser):
    """Collects the text a browser would show: no tags, no scripts or styles."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "template"):
            self._hidden += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "template") and self._hidden:
            self._hidden -= 1

    def handle_data(self, data):
        if not self._hidden:
            self.parts.append(data)


def visible_text(page: Any) -> str:
    """A page's (a response's or an HTML string's) readable text, whitespace collapsed."""
    html = page if isinstance(page, str) else page.get_data(as_text=True)
    parser = _Text()
    parser.feed(html)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


def errors(response) -> list[str]:
    """The field errors a form page shows, in page order."""
    return re.findall(r'<p class="error"[^>]*>([^<]*)</p>', response.get_data(as_text=True))


def field_errors(response) -> list[str]:
    """The field errors as a player reads them (`errors` with entities decoded)."""
    return [unescape(error) for error in errors(response)]


def match_id_in(location: str) -> str:
    return _MATCH_ID.search(location).group(1)


class Actions:
    """One phone at the table."""

    def __init__(self, client) -> None:
        self.client = client

    def start(
        self,
        variant: str = "top-game",
        players=("Ann", "Bob", "Cy"),
        options: dict[str, Any] | None = None,
        **fields: Any,
    ) -> str:
        """Start a match from the New match form; its id. `options` are the
        variant's options by name (sent as opt_<name>), `fields` any other form field."""
        data = {"variant": variant, **{f"player{i}": p for i, p in enumerate(players, 1)}}
        data.update({f"opt_{name}": value for name, value in (options or {}).items()})
        data.update(fields)
        response = self.client.post("/new", data=data)
        assert response.status_code == 302, visible_text(response)
        return match_id_in(response.location)

    def post_hand(self, match_id: str, data: dict | None = None, hand: int | None = None, **fields):
        """Post the hand form (a new hand, or hand id `hand`); the response."""
        where = "new" if hand is None else str(hand)
        return self.client.post(f"/m/{match_id}/hand/{where}", data={**(data or {}), **fields})

    def save_hand(self, match_id: str, data: dict | None = None, hand: int | None = None, **fields):
        """Post the hand form and insist that it was saved."""
        response = self.post_hand(match_id, data, hand, **fields)
        assert response.status_code == 302, visible_text(response)
        return response

    def refuse_hand(
        self, match_id: str, data: dict | None = None, hand: int | None = None, **fields
    ):
        """Post the hand form and insist that it came back (200) with nothing stored;
        the response, to read its messages."""
        before = self.hands(match_id)
        response = self.post_hand(match_id, data, hand, **fields)
        assert response.status_code == 200, response.status_code
        assert self.hands(match_id) == before
        return response

    def document(self, match_id: str) -> dict:
        """The match as stored, read back through the match-file export."""
        response = self.client.get(f"/m/{match_id}/match.json")
        assert response.status_code == 200
        return json.loads(response.get_data(as_text=True))

    def hands(self, match_id: str) -> list:
        return self.document(match_id)["hands"]

    def hand_ids(self, match_id: str) -> list[int]:
        """Database ids of the hands in play, in order, from the match page's edit links."""
        page = self.page(f"/m/{match_id}")
        return [int(n) for n in re.findall(rf'href="/m/{match_id}/hand/(\d+)"', page)]

    def import_file(self, document: dict | str | bytes, name: str = "m.json"):
        """Upload a match file; the response."""
        if isinstance(document, dict):
            document = json.dumps(document)
        if isinstance(document, str):
            document = document.encode()
        return self.client.post(
            "/import",
            data={"match_file": (io.BytesIO(document), name)},
            content_type="multipart/form-data",
        )

    def imported(self, document: dict | str | bytes) -> str:
        """Upload a match file that must be accepted; the new match's id."""
        response = self.import_file(document)
        assert response.status_code == 302, visible_text(response)
        return match_id_in(response.location)

    def page(self, url: str) -> str:
        """A page's HTML; it must answer 200."""
        response = self.client.get(url)
        assert response.status_code == 200, f"{url}: {response.status_code}"
        return response.get_data(as_text=True)

    def text(self, url: str) -> str:
        """What a player reads on a page."""
        return visible_text(self.page(url))

    def followed(self, response) -> str:
        """What a player reads after an answer: the page its redirect leads to, or the
        answer itself."""
        if 300 <= response.status_code < 400:
            return self.text(response.location)
        return visible_text(response)

    def revision(self, match_id: str) -> int:
        """The match's revision now, as a freshly drawn form carries it."""
        return self.client.get(f"/m/{match_id}/live").json["revision"]


# --- reading one part of a page: a table, a list, a button group ---------------------

_VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source"}
_HIDDEN = {"script", "style", "template"}


class Element:
    """One element of a page: its tag, attributes and children (elements and text)."""

    def __init__(self, tag: str, attrs: dict[str, str | None]) -> None:
        self.tag = tag
        self.attrs = attrs
        self.children: list[Element | str] = []

    def has_class(self, css_class: str) -> bool:
        return css_class in (self.attrs.get("class") or "").split()

    def find_all(self, tag: str | None = None, css_class: str | None = None) -> list[Element]:
        """Descendants with that tag and/or class, in page order."""
        found = []
        for child in self.children:
            if isinstance(child, Element):
                if (tag is None or child.tag == tag) and (
                    css_class is None or child.has_class(css_class)
                ):
                    found.append(child)
                found.extend(child.find_all(tag, css_class))
        return found

    def text(self) -> str:
        """What a player reads inside it, whitespace collapsed (as `visible_text`)."""

        def parts(element):
            for child in element.children:
                if isinstance(child, str):
                    yield child
                elif child.tag not in _HIDDEN:
                    yield from parts(child)

        return " ".join(" ".join(parts(self)).split())


class _Tree(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Element("#page", {})
        self.open = [self.root]

    def handle_starttag(self, tag, attrs):
        element = Element(tag, dict(attrs))
        self.open[-1].children.append(element)
        if tag not in _VOID:
            self.open.append(element)

    def handle_startendtag(self, tag, attrs):
        self.open[-1].children.append(Element(tag, dict(attrs)))

    def handle_endtag(self, tag):
        for depth in range(len(self.open) - 1, 0, -1):
            if self.open[depth].tag == tag:
                del self.open[depth:]
                return

    def handle_data(self, data):
        self.open[-1].children.append(data)


def parse(page: Any) -> Element:
    """A page (a response or an HTML string) as a tree of elements; an element stays itself."""
    if isinstance(page, Element):
        return page
    tree = _Tree()
    tree.feed(page if isinstance(page, str) else page.get_data(as_text=True))
    tree.close()
    return tree.root


def tables(page: Any, css_class: str) -> list[list[list[str]]]:
    """Each table carrying `css_class`, as its rows of cell texts (th and td), header included."""
    return [
        [[cell.text() for cell in row.children if isinstance(cell, Element)] for row in rows]
        for rows in (table.find_all("tr") for table in parse(page).find_all("table", css_class))
    ]


def texts(page: Any, css_class: str, tag: str | None = None) -> list[str]:
    """The text of each element carrying `css_class` (of that tag, if given), in page order."""
    return [element.text() for element in parse(page).find_all(tag, css_class)]


def items(page: Any, css_class: str) -> list[str]:
    """The text of each list item inside the elements carrying `css_class`."""
    return [
        li.text() for found in parse(page).find_all(None, css_class) for li in found.find_all("li")
    ]


def errors_on(page: Any, name: str) -> list[str]:
    """The errors a form page shows on the button group or field `name`, as read."""
    found = []
    for element in parse(page).find_all():
        if element.attrs.get("data-field") == name:
            found.extend(texts(element, "error", "p"))
        elif element.tag == "p" and element.attrs.get("id") == f"{name}-error":
            found.append(element.text())
    return found


def links(page: Any, text: str, css_class: str | None = None) -> list[str]:
    """Where the links that read `text` (and carry `css_class`, e.g. "button") lead."""
    return [
        link.attrs.get("href")
        for link in parse(page).find_all("a", css_class)
        if link.text() == text
    ]


def offered(page: Any, name: str) -> list[str]:
    """The values the buttons (radio or checkbox inputs) named `name` send, in page order."""
    return [
        element.attrs.get("value") or ""
        for element in parse(page).find_all("input")
        if element.attrs.get("name") == name and element.attrs.get("type") in ("radio", "checkbox")
    ]


def checked(page: Any, name: str) -> list[str]:
    """The values of the buttons named `name` that are checked on a form page."""
    return [
        element.attrs.get("value") or ""
        for element in parse(page).find_all("input")
        if element.attrs.get("name") == name
        and element.attrs.get("type") in ("radio", "checkbox")
        and "checked" in element.attrs
    ]


def by_id(page: Any, element_id: str) -> Element:
    """The one element with this id (a section, a row, an input); it must be there."""
    [found] = [e for e in parse(page).find_all() if e.attrs.get("id") == element_id]
    return found
