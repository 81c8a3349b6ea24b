"""`scorekeeper serve` prints the address a phone opens, and beside it the same
address as a QR code drawn in the terminal: the first phone joins with one scan.
The text is turned back into a picture here (no segno involved) and read by
zbarimg, the way a phone's camera reads the terminal."""

from __future__ import annotations

import io
import re
import subprocess
import sys

from PIL import Image

from scorekeeper import serve as serving

# segno's compact drawing: two rows of modules per line of text, a light module
# drawn as ink on the terminal's dark background. (top, bottom): True = light.
HALF_BLOCKS = {"█": (True, True), "▀": (True, False), "▄": (False, True), " ": (False, False)}
SCALE = 8  # pixels per module: zbarimg wants more than one


def qr_lines(output: str) -> list[str]:
    """The lines of `output` that are the drawn code (nothing but half blocks)."""
    return [line for line in output.splitlines() if line and set(line) <= set(HALF_BLOCKS)]


def decoded(lines: list[str], zbarimg: str, png) -> str:
    """Paint the lines as a terminal shows them (light ink on black) and read the code."""
    width = max(len(line) for line in lines)
    image = Image.new("L", (width, 2 * len(lines)), 0)
    for y, line in enumerate(lines):
        for x, char in enumerate(line.ljust(width)):
            top, bottom = HALF_BLOCKS[char]
            image.putpixel((x, 2 * y), 255 if top else 0)
            image.putpixel((x, 2 * y + 1), 255 if bottom else 0)
    image.resize((width * SCALE, 2 * len(lines) * SCALE), Image.NEAREST).save(png)
    run = subprocess.run([zbarimg, "--raw", "-q", str(png)], capture_output=True, text=True)
    assert run.returncode == 0, f"zbarimg read no code: {run.stderr}"
    return run.stdout.strip()


def test_serve_prints_the_phone_address_as_a_qr_code_that_scans_to_it(
    monkeypatch, capsys, tmp_path, zbarimg
):
    served = []
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setattr("waitress.serve", lambda app, **options: served.append(options))
    assert serving.serve(port=8123, instance=str(tmp_path / "instance")) == 0
    output = capsys.readouterr().out
    printed = re.findall(r"On a phone on the same network: (\S+)", output)
    assert printed == ["http://192.168.1.23:8123/"]
    lines = qr_lines(output)
    assert len(lines) == 17  # a version 2 code (25 modules) and its quiet zone, two rows a line
    assert decoded(lines, zbarimg, tmp_path / "qr.png") == "http://192.168.1.23:8123/"
    assert [(options["host"], options["port"]) for options in served] == [("0.0.0.0", 8123)]


def test_a_named_host_is_printed_with_its_code(monkeypatch, capsys, tmp_path, zbarimg):
    monkeypatch.setattr("waitress.serve", lambda app, **options: None)
    assert serving.serve(host="10.0.0.7", port=8000, instance=str(tmp_path / "instance")) == 0
    output = capsys.readouterr().out
    assert "Listening on 10.0.0.7, port 8000 only: http://10.0.0.7:8000/" in output
    assert decoded(qr_lines(output), zbarimg, tmp_path / "qr.png") == "http://10.0.0.7:8000/"


def test_no_code_when_phones_cannot_reach_the_machine(monkeypatch, capsys, tmp_path):
    monkeypatch.setattr("waitress.serve", lambda app, **options: None)
    assert serving.serve(host="127.0.0.1", port=8000, instance=str(tmp_path / "instance")) == 0
    assert qr_lines(capsys.readouterr().out) == []
    monkeypatch.setattr(serving, "lan_address", lambda: None)
    assert serving.serve(port=8000, instance=str(tmp_path / "instance")) == 0
    output = capsys.readouterr().out
    assert "No local network address found" in output
    assert qr_lines(output) == []


def test_on_a_terminal_the_code_is_forced_white_on_black(zbarimg, tmp_path):
    """A light terminal would otherwise show the code inverted."""
    plain = serving.address_qr("http://192.168.1.23:8000/")
    coloured = serving.address_qr("http://192.168.1.23:8000/", colours=True).splitlines()
    assert coloured == [f"\033[97;40m{line}\033[0m" for line in plain.splitlines()]
    assert decoded(plain.splitlines(), zbarimg, tmp_path / "qr.png") == "http://192.168.1.23:8000/"


def test_an_output_without_half_blocks_gets_the_address_alone(monkeypatch, tmp_path):
    """A Windows console on a legacy code page cannot print the code: the server
    still starts and prints the address."""
    monkeypatch.setattr(serving, "lan_address", lambda: "192.168.1.23")
    monkeypatch.setattr("waitress.serve", lambda app, **options: None)
    raw = io.BytesIO()
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(raw, encoding="cp1252"))
    assert serving.serve(port=8000, instance=str(tmp_path / "instance")) == 0
    sys.stdout.flush()
    output = raw.getvalue().decode("cp1252")
    assert "  On a phone on the same network: http://192.168.1.23:8000/\n" in output
    assert qr_lines(output) == []
