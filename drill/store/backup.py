"""Backups of the SQLite database: one a day, `drill backup`, `drill restore`.

Copies go through SQLite's online backup API, so they are consistent while other connections
write (the database is in WAL mode), and land under their final name only when complete.
Backups are named drill-YYYYMMDD-HHMMSS.sqlite (local time); pruning deletes only such files.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from contextlib import closing
from datetime import datetime
from pathlib import Path

from drill.errors import UserFacingError
from drill.store.backup_files import list_backups
from drill.store.engine import BUSY_TIMEOUT_MS
from drill.store.migrations import SCHEMA_VERSION

SERVER_MESSAGE = "backups cover the embedded SQLite database; with DRILL_DB_URL use your server's tools (pg_dump)"


class BackupError(UserFacingError):
    """A backup cannot be made or restored; the message says which file and why."""


def uses_server() -> bool:
    """True when DRILL_DB_URL points the store at a server, where these backups do not apply."""
    return bool(os.environ.get("DRILL_DB_URL"))


def _connect(database: Path) -> sqlite3.Connection:
    return sqlite3.connect(database, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)


def _read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)


def backup_to(database: Path, target: Path) -> None:
    """A consistent copy of the live `database` at `target`, a self-contained file (no WAL)."""
    if not database.is_file():
        raise BackupError(f"no database to back up at {database}")
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    os.close(handle)
    try:
        with closing(_connect(database)) as source, closing(_connect(Path(temporary))) as copy:
            source.backup(copy)  # all pages in one step: one read snapshot, writers go on
            copy.execute("PRAGMA journal_mode = DELETE")
        os.replace(temporary, target)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {database}: {error}") from None
    finally:
        Path(temporary).unlink(missing_ok=True)  # gone already once it has been renamed


def _new_backup(database: Path, backups_dir: Path, now: datetime) -> Path:
    """A backup named after `now`, sorting after any other taken in the same second."""
    backups_dir.mkdir(parents=True, exist_ok=True)
    taken_at = now.astimezone().replace(tzinfo=None, microsecond=0)
    same_second = [backup.sequence for backup in list_backups(backups_dir) if backup.taken_at == taken_at]
    suffix = f"-{max(max(same_second) + 1, 2)}" if same_second else ""
    target = backups_dir / f"drill-{taken_at:%Y%m%d-%H%M%S}{suffix}.sqlite"
    backup_to(database, target)
    return target


def prune(backups_dir: Path, keep: int) -> list[Path]:
    """Delete all but the newest `keep` backups; return what was deleted."""
    old = [backup.path for backup in list_backups(backups_dir)[:-keep]]
    for path in old:
        path.unlink(missing_ok=True)
    return old


def make_backup(database: Path, backups_dir: Path, keep: int, now: datetime) -> Path:
    """Back up `database` into `backups_dir` now, keep the newest `keep`; return the new file."""
    target = _new_backup(database, backups_dir, now)
    prune(backups_dir, keep)
    return target


def daily_backup(database: Path, backups_dir: Path, keep: int, now: datetime) -> Path | None:
    """Make a backup unless one exists from the local day of `now` (or the store is a server)."""
    if uses_server() or not database.is_file():
        return None
    today = now.astimezone().date()
    if any(backup.taken_at.date() == today for backup in list_backups(backups_dir)):
        return None
    return make_backup(database, backups_dir, keep, now)


def check_backup(backup_file: Path) -> None:
    """Raise BackupError unless `backup_file` is an intact drill database this drill can open."""
    if not backup_file.is_file():
        raise BackupError(f"{backup_file}: no such backup file")
    try:
        with closing(_read_only(backup_file)) as connection:
            problems = [row[0] for row in connection.execute("PRAGMA integrity_check")]
            has_review = connection.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'review'"
            ).fetchone()
            version = connection.execute("PRAGMA user_version").fetchone()[0]
    except sqlite3.DatabaseError as error:
        raise BackupError(f"{backup_file}: not a readable SQLite database ({error})") from None
    if problems != ["ok"]:
        raise BackupError(f"{backup_file}: fails SQLite's integrity check: {problems[0]}")
    if not has_review or version < 1:
        raise BackupError(f"{backup_file}: not a drill database (it has no review table)")
    if version > SCHEMA_VERSION:
        raise BackupError(f"{backup_file}: written by a newer drill (schema {version} > {SCHEMA_VERSION}); upgrade drill")


def _intact(database: Path) -> bool:
    """Whether SQLite can read `database` whole (a damaged file cannot go through the backup API)."""
    try:
        with closing(_read_only(database)) as connection:
            return [row[0] for row in connection.execute("PRAGMA quick_check")] == ["ok"]
    except sqlite3.DatabaseError:
        return False


def _set_aside(database: Path, backups_dir: Path, now: datetime) -> Path:
    """Move a damaged database (and its WAL files) into `backups_dir` byte for byte, under a
    name pruning never deletes; the restore then writes a fresh file."""
    backups_dir.mkdir(parents=True, exist_ok=True)
    kept = backups_dir / f"damaged-{now.astimezone():%Y%m%d-%H%M%S}-{database.name}"
    for suffix in ("", "-wal", "-shm"):
        source = database.with_name(database.name + suffix)
        if source.exists():
            os.replace(source, kept.with_name(kept.name + suffix))
    return kept


def restore(database: Path, backup_file: Path, backups_dir: Path, keep: int, now: datetime) -> Path | None:
    """Replace the contents of the live `database` with `backup_file`, after checking it and
    backing up the current database (returned, None when there was none) so that the restore
    can itself be undone. An older schema is migrated the next time the database opens."""
    check_backup(backup_file)
    if not database.is_file():
        before = None
    elif _intact(database):
        before = _new_backup(database, backups_dir, now)
    else:
        before = _set_aside(database, backups_dir, now)
    try:
        with closing(_read_only(backup_file)) as source, closing(_connect(database)) as live:
            source.backup(live)  # through a live connection, so the WAL and other readers stay right
    except sqlite3.Error as error:
        raise BackupError(f"cannot restore {backup_file} into {database}: {error}") from None
    prune(backups_dir, keep)
    return before
