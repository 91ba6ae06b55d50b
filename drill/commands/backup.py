"""`drill backup` and `drill restore`: copies of the SQLite database under DRILL_HOME/backups."""

from __future__ import annotations

import argparse
import sys


def register(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    backup = commands.add_parser("backup", help="back up the database now, or list the backups")
    backup.add_argument("--list", action="store_true", help="list the backups: name, size, time")
    backup.set_defaults(handler=cmd_backup)
    restore = commands.add_parser(
        "restore", help="replace the database with a backup (the current one is backed up and checked first)"
    )
    which = restore.add_mutually_exclusive_group(required=True)
    which.add_argument("file", nargs="?", metavar="FILE", help="a backup file, or a name from `drill backup --list`")
    which.add_argument("--latest", action="store_true", help="the newest backup")
    restore.set_defaults(handler=cmd_restore)


def _refused() -> bool:
    """With DRILL_DB_URL set, say that these backups do not apply."""
    from drill.store.backup import SERVER_MESSAGE, uses_server

    if not uses_server():
        return False
    print(f"drill: {SERVER_MESSAGE}", file=sys.stderr)
    return True


def cmd_backup(args: argparse.Namespace) -> int:
    from drill.config import Config
    from drill.days import utc_now
    from drill.paths import Paths
    from drill.store.backup import BackupError, list_backups, make_backup

    if _refused():
        return 1
    paths = Paths.resolve()
    if args.list:
        backups = list_backups(paths.backups)
        for backup in backups:
            print(f"{backup.path.name:<50} {backup.size / 1024:>10,.0f} KiB  {backup.taken_at:%Y-%m-%d %H:%M:%S}")
        if not backups:
            print(f"no backups yet in {paths.backups}", file=sys.stderr)
        return 0
    paths.ensure()
    keep = Config.load(paths.config).backups_keep_manual
    try:
        print(make_backup(paths.database, paths.backups, keep, utc_now()))
    except (BackupError, OSError) as error:
        print(f"drill: {error}", file=sys.stderr)
        return 1
    return 0


def cmd_restore(args: argparse.Namespace) -> int:
    from pathlib import Path

    from drill.days import utc_now
    from drill.paths import Paths
    from drill.store.backup import BackupError, list_backups, restore
    from drill.store.session_lock import SessionLockError

    if _refused():
        return 1
    paths = Paths.resolve()
    paths.ensure()
    if args.latest:
        backups = list_backups(paths.backups)
        if not backups:
            print(f"drill: no backups in {paths.backups}", file=sys.stderr)
            return 1
        source = backups[-1].path
    else:
        source = Path(args.file)
        if not source.exists() and (paths.backups / args.file).exists():
            source = paths.backups / args.file
    try:
        before = restore(paths.database, source, paths.backups, utc_now())
    except (BackupError, SessionLockError, OSError) as error:
        print(f"drill: {error}", file=sys.stderr)
        return 1
    print(f"restored {paths.database} from {source}")
    if before is not None and before.name.startswith("damaged-"):
        print(f"the damaged database was moved, unchanged, to {before}")
    elif before is not None:
        print(f"the database as it was before is in {before}, checked (drill restore {before} undoes this)")
    return 0
