"""The `drill` command: the TUI by default, and subcommands for scripts.

Imports stay inside the commands so that `drill` reaches its first paint quickly.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from datetime import date


def _parser() -> argparse.ArgumentParser:
    from drill import __version__
    from drill.commands import (
        backup,
        config,
        estimate,
        export,
        imports,
        items,
        kernel,
        mock,
        plan,
        queue,
        review,
        scheduler,
        stats,
    )

    parser = argparse.ArgumentParser(prog="drill", description="Practise for ML-systems interviews in the terminal.")
    parser.add_argument("--version", action="version", version=f"drill {__version__}")
    parser.add_argument(
        "--today",
        type=plan.day_argument,
        metavar="YYYY-MM-DD",
        help="study as if today were this day (also DRILL_TODAY): to practise a schedule, or for tests",
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    parser.set_defaults(handler=cmd_tui)
    review.register(commands)
    check = commands.add_parser("check", help="validate every content file (exit 0 only when all are valid)")
    check.add_argument("--json", action="store_true", help="print the errors as JSON")
    check.set_defaults(handler=cmd_check)
    items.register(commands)
    stats.register(commands)
    queue.register(commands)
    commands.add_parser("locate", help="print where drill keeps its files").set_defaults(handler=cmd_locate)
    config.register(commands)
    kernel.register(commands)
    estimate.register(commands)
    plan.register(commands)
    scheduler.register(commands)
    backup.register(commands)
    export.register(commands)
    imports.register(commands)
    mock.register(commands)
    return parser


def _practise(today: date | None) -> None:
    """Make `today` (else DRILL_TODAY's day, else none) the study day of every command and the app."""
    from drill.days import TODAY_VARIABLE, as_day, practise_on
    from drill.errors import UserFacingError

    if today is None and (variable := os.environ.get(TODAY_VARIABLE)):
        try:
            today = as_day(variable)
        except ValueError as error:
            raise UserFacingError(f"{TODAY_VARIABLE}: {error}") from None
    rollover_hour = 0
    if today is not None:
        from drill.config import Config
        from drill.paths import Paths

        rollover_hour = Config.load(Paths.resolve().config).rollover_hour
    practise_on(today, rollover_hour)


def cmd_check(args: argparse.Namespace) -> int:
    from drill.commands.output import print_json
    from drill.library import check_all
    from drill.paths import Paths
    from drill.words import counted

    report = check_all(Paths.resolve())
    errors = report.errors
    if args.json:
        print_json(report.model_dump(mode="json"))
    else:
        for error in errors:
            print(error)
        if report.overrides:
            print(f"{counted(len(report.overrides), 'override')}: {', '.join(map(str, report.overrides))}")
        print(counted(len(errors), "error") if errors else "all content is valid", file=sys.stderr)
    return 1 if errors else 0


def cmd_locate(_args: argparse.Namespace) -> int:
    from drill.paths import Paths
    from drill.store.postgres import database_url, masked

    places = Paths.resolve().as_dict()
    if url := database_url():
        places["database"] = masked(url)
    width = max(map(len, places))
    for name, path in places.items():
        print(f"{name:<{width}}  {path}")
    return 0


def cmd_tui(args: argparse.Namespace) -> int:
    from drill.paths import Paths

    paths = Paths.resolve()
    paths.ensure()
    from drill.tui.app import DrillApp

    DrillApp(paths).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    from drill.errors import UserFacingError

    try:
        _practise(args.today)
        code = args.handler(args)
        sys.stdout.flush()
        return code
    except UserFacingError as error:
        print(f"drill: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`drill list | head -1`): stop quietly; nothing more can be written.
        # Point stdout at devnull so the interpreter's own flush at exit does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        from drill.store.busy import is_busy

        if is_busy(error):
            print(
                "drill: another drill (or `drill import`) held the database's write lock for too long; "
                "nothing more was written: run it again in a moment",
                file=sys.stderr,
            )
            return 1
        unwritable = _disk_full(error)
        if unwritable is not None:
            print(
                f"drill: the disk is full: cannot write {unwritable}; free some space and run it again", file=sys.stderr
            )
            return 1
        from drill.store.failure import database_reason

        reason = database_reason(error)
        if reason is None:
            raise
        print(f"drill: not saved — {reason}", file=sys.stderr)  # one line, never the SQL behind it
        return 1
    finally:
        from drill.days import practise_on

        practise_on(None, 0)  # the real day again for whatever runs next in this process (tests)


def _disk_full(error: BaseException) -> str | None:
    """What could not be written, when `error` or an error it wraps or was raised from says the
    disk is full (ENOSPC or a quota; SQLite's SQLITE_FULL; PostgreSQL's disk_full), else None."""
    import errno
    import sqlite3

    from drill.store.failure import causes

    full = (sqlite3.SQLITE_FULL, "53100")  # SQLite's error code, PostgreSQL's SQLSTATE disk_full
    for cause in causes(error):
        if isinstance(cause, OSError) and cause.errno in (errno.ENOSPC, errno.EDQUOT):
            return str(cause.filename) if cause.filename else "a file"
        code = getattr(cause, "sqlite_errorcode", None) or getattr(cause, "sqlstate", None)
        if code in full:
            return _database()
    return None


def _database() -> str:
    """The database drill writes: DRILL_DB_URL's (password masked), else the SQLite file."""
    from drill.paths import Paths
    from drill.store.postgres import database_url, masked

    url = database_url()
    return f"the database {masked(url) if url else Paths.resolve().database}"
