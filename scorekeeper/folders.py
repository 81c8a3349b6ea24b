"""Where the pages' files are: the shared templates/ and static/, and each
game's own, in its folder scorekeeper/games/<family>/templates/ and static/
(pure Python: the PDF worker reads it too).

A game's files keep the addresses they would have in the shared folders:
its page `games/<family>/hand.html` is its templates/hand.html, and the
address /static/games/<family>/<file> serves its static/<file>. The app asks
the kits for their folders (GameKit.folder) and hands them here, so nothing
shared names a game, as datasette serves each plugin's bundled files.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

GAMES = "games/"  # the address prefix of a game's files: games/<family>/…


@dataclass(frozen=True)
class StaticFolders:
    """The shared static folder and each game family's (family, folder)."""

    shared: str
    games: tuple[tuple[str, str], ...] = ()

    def split(self, filename: str) -> tuple[str, str]:
        """(folder, name inside it) of a static file's name as addresses give it."""
        if filename.startswith(GAMES):
            family, _, rest = filename[len(GAMES) :].partition("/")
            for name, folder in self.games:
                if name == family:
                    return folder, rest
        return self.shared, filename

    def find(self, filename: str) -> Path | None:
        """The file on disk, None when there is none (or the name leaves its folder)."""
        folder, name = self.split(filename)
        root = Path(folder).resolve()
        path = (root / name).resolve()
        if not name or not path.is_relative_to(root) or not path.is_file():
            return None
        return path

    def stylesheets(self) -> list[Path]:
        """Every stylesheet a page or a PDF may link: shared and the games'."""
        found = sorted(Path(self.shared).glob("*.css"))
        for _, folder in self.games:
            found += sorted(Path(folder).glob("*.css"))
        return found
