"""`scorekeeper score FILE|-`, `scorekeeper serve`, `scorekeeper variants`,
`scorekeeper matches`."""

from __future__ import annotations

import argparse
import json
import sys

from .matchfile import loads
from .report import score_document
from .variants import VARIANTS, MatchError

EXIT_INVALID = 2


def cmd_score(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
    except (OSError, UnicodeDecodeError) as exc:
        print(
            f"file: cannot read {args.file}: {getattr(exc, 'strerror', None) or exc}",
            file=sys.stderr,
        )
        return EXIT_INVALID
    try:
        match = loads(text)
        doc = score_document(match)
    except MatchError as exc:
        for line in exc.lines:
            # One problem, one line, whatever the input held.
            print(line.replace("\r", "\\r").replace("\n", "\\n"), file=sys.stderr)
        return EXIT_INVALID
    json.dump(doc, sys.stdout, indent=2, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    for cls in VARIANTS.values():
        counts = "/".join(str(n) for n in cls.player_counts)
        print(f"{cls.id:18} {counts:7} {cls.name}: {cls.summary}")
    return 0


def cmd_matches(args: argparse.Namespace) -> int:
    """Every match in this machine's store with its address: the home page of a
    phone lists only the matches it started or opened."""
    from . import InstanceUnwritable, create_app
    from .db import connect, list_matches

    try:
        app = create_app()
    except InstanceUnwritable as exc:
        print(exc, file=sys.stderr)
        return 1
    db = connect(app.config["DATABASE"])
    try:
        found = list_matches(db)
    finally:
        db.close()
    for match in found:
        name = VARIANTS[match.variant].name if match.variant in VARIANTS else match.variant
        state = " (deleted)" if match.deleted else ""
        print(
            f"/m/{match.id}  {match.updated[:16].replace('T', ' ')}  {name}"
            f"  {match.title or '-'}  {', '.join(match.players)}{state}"
        )
    if not found:
        print("No matches yet.")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from .serve import serve

    return serve(host="127.0.0.1" if args.local else args.host, port=args.port)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a match file and print the result as JSON")
    score.add_argument("file", help="the match file, or - to read standard input")
    score.set_defaults(run=cmd_score)
    variants = commands.add_parser("variants", help="list the variants and their ids")
    variants.set_defaults(run=cmd_variants)
    listing = commands.add_parser(
        "matches", help="list every match stored on this machine with its address"
    )
    listing.set_defaults(run=cmd_matches)
    serve = commands.add_parser("serve", help="serve the table app with waitress")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--local", action="store_true", help="listen on this machine only")
    serve.set_defaults(run=cmd_serve)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
