"""python -m scorekeeper.translations [--check]: compile the catalogs that
changed; with --check, list what is missing or broken and fail if anything is."""

from __future__ import annotations

import sys

from . import catalog_problems, compile_catalogs, stale


def main(argv: list[str]) -> int:
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
