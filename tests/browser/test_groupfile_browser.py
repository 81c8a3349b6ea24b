"""A group file in Chromium: chosen in the first page's import form, it becomes
the group (its page says what came in, with the Download group file link); the
same file again answers "already here". Both pages pass axe in light and dark
and the CSP, and fit a 360 px phone with 44 px targets."""

from __future__ import annotations

import json
import re

from tests.test_groupfile import friday

from .test_csp_browser import (  # noqa: F401 (fixtures used by name)
    audited,
    narrow,
    report,
    watched_context,
)


def group_file(tmp_path, name: str):
    doc = friday()
    doc["name"] = name  # a group of its own in the session's shared store
    path = tmp_path / "friday.group.json"
    path.write_text(json.dumps(doc, indent=2), encoding="utf-8")
    return path


def import_it(phone, path) -> None:
    page = phone.page
    page.goto(phone.server + "/")
    page.set_input_files("form[action='/import'] input[type=file]", str(path))
    with page.expect_navigation():
        page.click("form[action='/import'] button")


def visit_both(phone, path, look) -> str:
    import_it(phone, path)
    address = phone.page.url
    assert re.search(r"/g/[\w-]{16}$", address), address
    assert "Imported the group" in phone.page.content()
    look("group page after import")
    import_it(phone, path)
    assert phone.page.locator("#group-already-here").count() == 1
    assert phone.page.get_attribute("#open-group", "href").endswith(address.split("/")[-1])
    look("already here")
    return address


def test_axe_finds_no_violation_on_the_imported_group_and_already_here(audited, tmp_path):  # noqa: F811
    path = group_file(tmp_path, f"Axe {audited.scheme}")
    visit_both(audited, path, audited.axe)
    assert audited.found == {}, "axe found:\n" + report(audited.found)
    assert audited.refused == {}, "refused:\n" + report(audited.refused)


def test_the_pages_fit_a_360_px_phone_with_44_px_targets(narrow, tmp_path):  # noqa: F811
    path = group_file(tmp_path, "Narrow")
    address = visit_both(narrow, path, narrow.measure)
    narrow.page.goto(address)
    with narrow.page.expect_download() as download:
        narrow.page.click("#group-download")
    assert download.value.suggested_filename.startswith("narrow-")
    saved = download.value.path().read_text(encoding="utf-8")
    assert json.loads(saved)["name"] == "Narrow"
    assert narrow.found == {}, "found:\n" + report(narrow.found)
    assert narrow.refused == {}, "refused:\n" + report(narrow.refused)
