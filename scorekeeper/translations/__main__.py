"""python -m scorekeeper.translations [--check | --table]: compile the
catalogs that changed; with --check, list what is missing or broken and fail
if anything is; with --table, print the table of languages of docs/languages.md."""

from __future__ import annotations

import sys

from ..languages import LANGUAGES
from . import catalog_problems, compile_catalogs, completeness, stale


def table() -> str:
    """The languages with their catalogs' completeness, as docs/languages.md shows them."""
    counts = completeness()
    lines = ["| language | catalog | `lang` | complete |", "|---|---|---|---|"]
    for language in LANGUAGES:
        sound, total = counts.get(language.code, (0, 0))
        share = f"{100 * sound // total} %" if total else "no catalog"
        lines.append(f"| {language.name} | `{language.code}` | `{language.tag}` | {share} |")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    if "--table" in argv:
        print(table())
        return 0
    if "--check" not in argv:
        for mo in compile_catalogs():
            print(f"compiled {mo}")
        return 0
    failed = False
    for code, problems in catalog_problems().items():
        for problem in problems:
            print(f"{code}: {problem}")
            failed = True
    for code in stale():
        print(f"{code}: messages.mo is older than messages.po (run without --check)")
        failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
