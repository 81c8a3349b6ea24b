"""`scorekeeper score FILE|-`, `scorekeeper ledger FILE...`, `scorekeeper serve`,
`scorekeeper variants`, `scorekeeper matches`, `scorekeeper backup FILE`,
`scorekeeper restore FILE`, `scorekeeper export DIR`, `scorekeeper import FILE...`."""

from __future__ import annotations

import argparse
import json
import os
import sqlite3
import sys
from datetime import date
from pathlib import Path

from .games.catalog import VARIANTS
from .ledger import Period, ledger
from .matchfile import MAX_FILE_BYTES, loads, parse_played
from .model import Match
from .report import match_summary, score_document
from .variants import MatchError

EXIT_INVALID = 2
# Enough to tell a match file or a group file over its limit (the group file's,
# groups.MAX_GROUP_FILE_BYTES, written out: importing that module here would
# load the store for `scorekeeper score` too; a test checks the two agree).
MAX_IMPORT_READ = max(MAX_FILE_BYTES, 4 * 1024 * 1024) + 1


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


def _day(option: str, text: str | None, problems: list[str]) -> date | None:
    if text is None:
        return None
    day, wrong = parse_played(text)
    if wrong:
        problems.append(f'{option}: {text!r:.60} is not a day written like "2026-11-20"')
    return day


def _evening(match: Match) -> str:
    """What makes two match files the same match: the same document once read
    (the same file given twice, or a copy of it), whatever its spacing."""
    return json.dumps(match.as_json(), sort_keys=True, ensure_ascii=False)


def cmd_ledger(args: argparse.Namespace) -> int:
    """The ledger of a set of match files as JSON (docs/ledger.md)."""
    problems: list[str] = []
    same: dict[str, str] = {}
    for pair in args.same:
        name, sign, member = pair.partition("=")
        if not sign or not name.strip() or not member.strip():
            problems.append(f"--same: {pair!r:.60} is not NAME=MEMBER, e.g. --same Annie=Ann")
        else:
            same[name.strip()] = member.strip()
    period = Period(_day("--from", args.start, problems), _day("--to", args.end, problems))
    if period.start and period.end and period.start > period.end:
        problems.append(f"--to: {period.end} is before --from {period.start}")
    summaries = []
    seen: dict[str, str] = {}  # an evening played -> the first file that gave it
    repeated: list[str] = []
    for name in args.files:
        try:
            with open(name, encoding="utf-8") as handle:
                text = handle.read()
        except (OSError, UnicodeDecodeError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            problems.append(f"{name}: file: cannot read: {reason}")
            continue
        try:
            match = loads(text)
            evening = _evening(match)
            if evening in seen:
                repeated.append(f"{name}: the same match as {seen[evening]}: counted once")
                continue
            if match.hands:  # a file without hands is no evening played: never another's
                seen[evening] = name
            summaries.append(match_summary(match, key=name))
        except MatchError as exc:
            problems += [f"{name}: {line}" for line in exc.lines]
    if problems:
        for line in problems:
            print(_one_line(line), file=sys.stderr)
        return EXIT_INVALID
    for line in repeated:
        print(_one_line(line), file=sys.stderr)
    # Here only: the ratings library costs `scorekeeper score` time for nothing.
    from .ratings import played_order, ratings

    book = ledger(summaries, same=same, period=period)
    doc = book.as_json() | {"ratings": ratings(played_order(book.matches)).as_json()}
    json.dump(
        doc,
        sys.stdout,
        indent=2,
        ensure_ascii=False,
    )
    sys.stdout.write("\n")
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    for cls in VARIANTS.values():
        counts = "/".join(str(n) for n in cls.player_counts)
        print(f"{cls.id:18} {counts:7} {cls.name}: {cls.summary}")
    return 0


def _open_app(args: argparse.Namespace):
    """The app on the chosen instance folder, or None after saying why it cannot open."""
    from .app import create_app
    from .instance import InstanceUnwritable

    try:
        return create_app(instance=args.instance)
    except InstanceUnwritable as exc:
        print(exc, file=sys.stderr)
        return None


def _one_line(text: str) -> str:
    return text.replace("\r", "\\r").replace("\n", "\\n")


def cmd_matches(args: argparse.Namespace) -> int:
    """Every match in this machine's store with its address: the home page of a
    phone lists only the matches it started or opened."""
    from .db import connect, list_matches

    app = _open_app(args)
    if app is None:
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
    from .safekeeping import INTERVAL_VARIABLE, interval_from
    from .serve import serve

    if args.backup_interval is None:
        given = os.environ.get(INTERVAL_VARIABLE)
        interval = interval_from(given)
        if interval is None:
            print(
                _one_line(
                    f"{INTERVAL_VARIABLE}: {given!r} is not a whole number of seconds"
                    " (0 switches automatic backups off)"
                ),
                file=sys.stderr,
            )
            return EXIT_INVALID
    else:
        interval = args.backup_interval
    return serve(
        host="127.0.0.1" if args.local else args.host,
        port=args.port,
        instance=args.instance,
        backup_interval=interval,
    )


def _seconds(text: str) -> int:
    """An option's whole number of seconds, 0 or more."""
    from .safekeeping import interval_from

    seconds = interval_from(text)
    if seconds is None:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of seconds")
    return seconds


def _not_written(target: str, why: BaseException | str) -> int:
    """One line on standard error naming what was not written and why; status 1."""
    reason = getattr(why, "strerror", None) or str(why)
    print(f"{target}: not written: {reason}", file=sys.stderr)
    return 1


def cmd_backup(args: argparse.Namespace) -> int:
    """A consistent copy of the database, taken while the app may be writing."""
    from .db import StoreFileTarget, backup

    app = _open_app(args)
    if app is None:
        return 1
    try:
        count = backup(app.config["DATABASE"], args.file)
    except StoreFileTarget as exc:  # a slip of the tab key: nothing is touched
        _not_written(args.file, exc)
        return EXIT_INVALID
    except (ValueError, OSError, sqlite3.Error) as exc:
        return _not_written(args.file, exc)
    print(f"Backed up {count} match{'' if count == 1 else 'es'} to {args.file}")
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    """Put a backup in place of the store after checking it; the store it
    replaces is kept in the backups folder."""
    from .safekeeping import NotRestored, restore

    try:
        done = restore(Path(args.instance) if args.instance else None, Path(args.file))
    except NotRestored as exc:
        print(_one_line(f"{args.file}: not restored: {exc}"), file=sys.stderr)
        return exc.status
    except (OSError, sqlite3.Error) as exc:
        reason = getattr(exc, "strerror", None) or exc
        print(_one_line(f"{args.file}: not restored: {reason}"), file=sys.stderr)
        return 1
    matches = f"{done.matches} match{'' if done.matches == 1 else 'es'}"
    groups = f"{done.groups} group{'' if done.groups == 1 else 's'}"
    print(f"Restored {matches} and {groups} from {args.file}.")
    if done.kept is not None:
        damaged = " (damaged, with its -wal file if it had one)" if done.kept_damaged else ""
        print(f"The store as it was{damaged} is in {done.kept} (restore that file to undo).")
    return 0


def cmd_export(args: argparse.Namespace) -> int:
    """Every match as a match file in a folder (deleted ones in its deleted/
    folder), and every group as a group file in its groups/ folder."""
    from .backup import DELETED_FOLDER, export_matches
    from .db import connect
    from .groupfile import GROUPS_FOLDER, export_groups

    app = _open_app(args)
    if app is None:
        return 1
    folder = Path(args.dir)
    if folder.exists() and not folder.is_dir():
        return _not_written(args.dir, "it is a file, not a folder")
    db = connect(app.config["DATABASE"])
    try:
        folder.mkdir(mode=0o700, parents=True, exist_ok=True)
        in_play, deleted = export_matches(db, folder)
        groups = export_groups(db, folder)
    except OSError as exc:
        return _not_written(args.dir, exc)
    finally:
        db.close()
    also = f", and {deleted} deleted in {folder / DELETED_FOLDER}" if deleted else ""
    print(f"Exported {in_play} match{'' if in_play == 1 else 'es'} to {folder}{also}")
    if groups:
        plural = "" if groups == 1 else "s"
        print(f"Exported {groups} group{plural} to {folder / GROUPS_FOLDER}")
    return 0


def cmd_import(args: argparse.Namespace) -> int:
    """Load match files, each one whole or not at all; say which were refused."""
    from .backup import import_match_file
    from .db import StoreBusy, connect, hands_in

    app = _open_app(args)
    if app is None:
        return 1
    refused = 0
    db = connect(app.config["DATABASE"])
    try:
        for name in args.files:
            try:
                with open(name, "rb") as handle:
                    raw = handle.read(MAX_IMPORT_READ)
                if _imported_group(db, name, raw):  # a group file: the group, its matches
                    continue
                match_id, match = import_match_file(db, raw)
            except OSError as exc:
                problems = [f"cannot read: {exc.strerror or exc}"]
            except MatchError as exc:
                problems = exc.lines
            except StoreBusy as exc:
                problems = [f"the store cannot be written now ({exc}); try again"]
            else:
                hands = hands_in(match)  # as the rules count them: a redeal is no hand
                plural = "" if hands == 1 else "s"
                print(_one_line(f"{name}: imported as /m/{match_id} ({hands} hand{plural})"))
                continue
            refused += 1
            for problem in problems:
                print(_one_line(f"{name}: not imported: {problem}"), file=sys.stderr)
    finally:
        db.close()
    if refused:
        files = len(args.files)
        print(
            f"{refused} of {files} file{'' if files == 1 else 's'} not imported.", file=sys.stderr
        )
        return EXIT_INVALID
    return 0


def _imported_group(db, name: str, raw: bytes) -> bool:
    """Store `raw` as a new group with its matches when it is a group file (and
    say so); False when it is none. Raises MatchError naming what was refused."""
    from .backup import IMPORT_DEVICE
    from .games.common import Problem
    from .groupfile import GroupHere, import_group, names_group, read_group_file
    from .groups.state import GroupRefused

    if not names_group(raw):
        return False
    try:
        made = import_group(db, read_group_file(raw), device=IMPORT_DEVICE)
    except GroupHere as here:
        said = f"the group {here.state.name} is already here, as /g/{here.state.id}"
        raise MatchError([Problem(said)]) from None
    except GroupRefused as refused:
        raise MatchError([Problem(refused.message)]) from None
    count = len(made.state.matches)
    where = f"the group /g/{made.group_id} ({count} match{'' if count == 1 else 'es'})"
    print(_one_line(f"{name}: imported as {where}"))
    return True


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="scorekeeper", description=__doc__)
    # Every command that opens the store takes the instance folder.
    store = argparse.ArgumentParser(add_help=False)
    store.add_argument(
        "--instance",
        metavar="DIR",
        help="the folder of the database and secret key (default: $SCOREKEEPER_INSTANCE,"
        " else instance/ in a checkout, else $XDG_DATA_HOME/scorekeeper"
        " or ~/.local/share/scorekeeper)",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    score = commands.add_parser("score", help="score a match file and print the result as JSON")
    score.add_argument("file", help="the match file, or - to read standard input")
    score.set_defaults(run=cmd_score)
    book = commands.add_parser(
        "ledger", help="print the ledger of match files as JSON: balances and settle-up payments"
    )
    book.add_argument("files", metavar="FILE", nargs="+", help="match files (.json)")
    book.add_argument(
        "--same",
        metavar="NAME=MEMBER",
        action="append",
        default=[],
        help="count player NAME as MEMBER (repeatable), e.g. --same Annie=Ann",
    )
    book.add_argument(
        "--from",
        dest="start",
        metavar="YYYY-MM-DD",
        help="only matches played on or after this day",
    )
    book.add_argument(
        "--to", dest="end", metavar="YYYY-MM-DD", help="only matches played on or before this day"
    )
    book.set_defaults(run=cmd_ledger)
    variants = commands.add_parser("variants", help="list the variants and their ids")
    variants.set_defaults(run=cmd_variants)
    listing = commands.add_parser(
        "matches", parents=[store], help="list every match stored on this machine with its address"
    )
    listing.set_defaults(run=cmd_matches)
    serve = commands.add_parser("serve", parents=[store], help="serve the table app with waitress")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all)")
    serve.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    serve.add_argument("--local", action="store_true", help="listen on this machine only")
    serve.add_argument(
        "--backup-interval",
        metavar="SECONDS",
        type=_seconds,
        help="back up the store into the instance folder's backups/ after changes, at most"
        " once in SECONDS (default: $SCOREKEEPER_BACKUP_INTERVAL, else 3600; 0: never)",
    )
    serve.set_defaults(run=cmd_serve)
    backup = commands.add_parser(
        "backup",
        parents=[store],
        help="copy the database to FILE, consistently even while the app is running",
    )
    backup.add_argument("file", metavar="FILE", help="the copy to write (replaced if it exists)")
    backup.set_defaults(run=cmd_backup)
    putback = commands.add_parser(
        "restore",
        parents=[store],
        help="check the backup FILE and put it in place of the store (stop the server first);"
        " the store it replaces is kept in the backups folder",
    )
    putback.add_argument("file", metavar="FILE", help="a backup (scorekeeper backup, or backups/)")
    putback.set_defaults(run=cmd_restore)
    export = commands.add_parser(
        "export",
        parents=[store],
        help="write every match as a match file into DIR (deleted ones into DIR/deleted)"
        " and every group as a group file into DIR/groups",
    )
    export.add_argument("dir", metavar="DIR", help="the folder to write (made if missing)")
    export.set_defaults(run=cmd_export)
    load = commands.add_parser(
        "import",
        parents=[store],
        help="store each match file as a new match and each group file as a new group,"
        " whole or not at all",
    )
    load.add_argument("files", metavar="FILE", nargs="+", help="match files or group files (.json)")
    load.set_defaults(run=cmd_import)
    return parser


EXIT_PIPE_CLOSED = 141  # as a shell reports a command stopped by SIGPIPE


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.run(args)
    except BrokenPipeError:
        # The reader went away (`scorekeeper variants | head -1`): nothing left
        # to say. Point stdout at /dev/null so the flush at exit stays quiet.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED


if __name__ == "__main__":
    sys.exit(main())
