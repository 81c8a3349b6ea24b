"""Without Pango the app still runs, and says so before anyone taps a PDF link:
the links give way to a line with what to install on the system the server runs
on (after WeasyPrint's own installation notes) and a pointer to the browser's
Print. The hint is chosen from the platform and /etc/os-release."""

from __future__ import annotations

import pytest

from scorekeeper import pdf
from tests.webtools import visible_text

DEBIAN = pdf.INSTALL_HINT
FEDORA = "PDF export needs Pango: dnf install pango"
ARCH = "PDF export needs Pango: pacman -S pango"
ALPINE = (
    "PDF export needs Pango: apk add so:libpango-1.0.so.0 so:libpangoft2-1.0.so.0"
    " so:libharfbuzz.so.0 so:libharfbuzz-subset.so.0 so:libfontconfig.so.1"
)
MACOS = "PDF export needs Pango: install Homebrew (brew.sh), then run: brew install pango"
WINDOWS = (
    "PDF export needs Pango: install MSYS2 (msys2.org) in C:\\msys64, its usual folder,"
    " then in its terminal run: pacman -S mingw-w64-ucrt-x86_64-pango"
)
GENERIC = (
    "PDF export needs Pango 1.44 or later: install it with this system's packages"
    " (WeasyPrint's installation notes name them for each system)"
)


@pytest.mark.parametrize(
    ("system", "release", "hint"),
    [
        ("Linux", {"ID": "debian"}, DEBIAN),
        ("Linux", {"ID": "ubuntu", "ID_LIKE": "debian"}, DEBIAN),
        ("Linux", {"ID": "linuxmint", "ID_LIKE": "ubuntu debian"}, DEBIAN),
        ("Linux", {"ID": "raspbian", "ID_LIKE": "debian"}, DEBIAN),
        ("Linux", {"ID": "fedora"}, FEDORA),
        ("Linux", {"ID": "rocky", "ID_LIKE": "rhel centos fedora"}, FEDORA),
        ("Linux", {"ID": "arch"}, ARCH),
        ("Linux", {"ID": "manjaro", "ID_LIKE": "arch"}, ARCH),
        ("Linux", {"ID": "alpine"}, ALPINE),
        ("Linux", {"ID": "gentoo"}, GENERIC),
        ("Linux", {}, GENERIC),  # no /etc/os-release
        ("Darwin", None, MACOS),
        ("Windows", None, WINDOWS),
        ("FreeBSD", None, GENERIC),
    ],
)
def test_the_install_hint_fits_the_system(system, release, hint):
    assert pdf.install_hint(system, release) == hint


def test_the_hint_reads_the_machines_own_release(monkeypatch):
    monkeypatch.setattr(pdf.platform, "system", lambda: "Linux")
    monkeypatch.setattr(pdf.platform, "freedesktop_os_release", lambda: {"ID": "fedora"})
    assert pdf.install_hint() == FEDORA

    def missing():
        raise OSError("no os-release")

    monkeypatch.setattr(pdf.platform, "freedesktop_os_release", missing)
    assert pdf.install_hint() == GENERIC


@pytest.fixture
def no_pango(monkeypatch):
    monkeypatch.setattr(pdf, "MISSING_LIBRARIES", "cannot load library 'pango-1.0-0'")
    monkeypatch.setattr(pdf.platform, "system", lambda: "Darwin")
    pdf.clear_cache()


def test_without_pango_the_match_page_says_so_instead_of_pdf_links(actions, no_pango):
    match_id = actions.start("rubber", ("Ann", "Bob", "Cy", "Di"))
    for page in (f"/m/{match_id}", f"/m/{match_id}/settle"):
        html = actions.page(page)
        assert "sheet.pdf" not in html
        assert (
            "No PDF from this server (the machine that runs the app lacks a library). PDF"
            " export needs Pango: install Homebrew (brew.sh), then run: brew install pango"
            " Meanwhile your browser's own Print (on a phone: Share, then Print) puts this"
            " sheet on paper or saves it as a PDF."
        ) in visible_text(html)
        assert "<code>brew install pango</code>" in html
    # Asked for all the same (an old bookmark): the same words, never a broken file.
    response = actions.client.get(f"/m/{match_id}/sheet.pdf")
    assert response.status_code == 503
    assert response.text == f"{MACOS} (cannot load library 'pango-1.0-0')"


def test_with_pango_the_links_are_there_and_no_hint(actions):
    match_id = actions.start("rubber", ("Ann", "Bob", "Cy", "Di"))
    html = actions.page(f"/m/{match_id}")
    assert html.count(f'href="/m/{match_id}/sheet.pdf') == 3
    assert "No PDF from this server" not in html
    assert f'href="/m/{match_id}/sheet.pdf"' in actions.page(f"/m/{match_id}/settle")
