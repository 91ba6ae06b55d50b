"""Backups of the SQLite database: one a day, `drill backup`, `drill restore`.

Copies go through SQLite's online backup API, so they are consistent while other connections
write (the database is in WAL mode), and land under their final name only when complete.
Names and kinds: drill.store.backup_files. Each kind is pruned on its own, the first made going
first; pruning deletes only backups so named, never the one just made.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
from collections.abc import Collection
from contextlib import closing, suppress
from datetime import datetime
from pathlib import Path

from drill.days import to_local
from drill.errors import UserFacingError
from drill.store import last_review
from drill.store.backup_files import Kind, backup_name, list_backups
from drill.store.busy import BUSY_TIMEOUT_MS
from drill.store.migrations import SCHEMA_VERSION
from drill.store.session_lock import hold_alone

SAFETY_KEEP = 5  # pre-restore and pre-migration backups kept (not configurable)
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
        _sync_folder(target.parent)
    except sqlite3.Error as error:
        raise BackupError(f"cannot back up {database}: {error}") from None
    finally:
        Path(temporary).unlink(missing_ok=True)  # gone already once it has been renamed


def _sync_folder(folder: Path) -> None:
    """Make a rename in `folder` survive a power cut, where the system allows it (not Windows)."""
    with suppress(OSError):
        descriptor = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(descriptor)
        finally:
            os.close(descriptor)


def _new_backup(database: Path, backups_dir: Path, now: datetime, kind: Kind) -> Path:
    """A backup of `kind` numbered after every backup in `backups_dir`, its name telling `now`."""
    backups_dir.mkdir(parents=True, exist_ok=True)
    number = max((backup.number for backup in list_backups(backups_dir)), default=0) + 1
    taken_at = to_local(now).replace(tzinfo=None, microsecond=0)
    target = backups_dir / backup_name(number, kind, taken_at)
    backup_to(database, target)
    return target


def _prune(backups_dir: Path, kind: Kind, keep: int, spare: Collection[Path]) -> None:
    """Delete all but the last `keep` backups of `kind` made, never one in `spare`."""
    made = [backup.path for backup in list_backups(backups_dir) if backup.kind is kind]
    for path in made[:-keep]:
        if path not in spare:
            path.unlink(missing_ok=True)


def make_backup(database: Path, backups_dir: Path, keep: int, now: datetime, kind: Kind = Kind.MANUAL) -> Path:
    """Back up `database` into `backups_dir` as a backup of `kind`, keep the last `keep` of that
    kind made; return the new file."""
    target = _new_backup(database, backups_dir, now, kind)
    _prune(backups_dir, kind, keep, {target})
    return target


def daily_backup(database: Path, backups_dir: Path, keep: int, now: datetime) -> Path | None:
    """Make a daily backup unless one is named for the local day of `now` (or the store is a server)."""
    if uses_server() or not database.is_file():
        return None
    today = to_local(now).date()
    if any(backup.kind is Kind.DAILY and backup.taken_at.date() == today for backup in list_backups(backups_dir)):
        return None
    return make_backup(database, backups_dir, keep, now, Kind.DAILY)


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
        raise BackupError(
            f"{backup_file}: written by a newer drill (schema {version} > {SCHEMA_VERSION}); upgrade drill"
        )


def _intact(database: Path) -> bool:
    """Whether SQLite can read `database` whole (a damaged file cannot go through the backup API)."""
    try:
        with closing(_read_only(database)) as connection:
            return [row[0] for row in connection.execute("PRAGMA quick_check")] == ["ok"]
    except sqlite3.DatabaseError:
        return False


def _set_aside(database: Path, backups_dir: Path, now: datetime) -> Path:
    """Move a damaged database (and its WAL files) into `backups_dir` byte for byte, under a new
    name pruning never deletes; the restore then writes a fresh file."""
    backups_dir.mkdir(parents=True, exist_ok=True)
    stamp, number = f"{to_local(now):%Y%m%d-%H%M%S}", 1
    kept = backups_dir / f"damaged-{stamp}-{database.name}"
    while any(kept.with_name(kept.name + suffix).exists() for suffix in ("", "-wal", "-shm")):
        number += 1
        kept = backups_dir / f"damaged-{stamp}-{number}-{database.name}"
    for suffix in ("", "-wal", "-shm"):
        source = database.with_name(database.name + suffix)
        if source.exists():
            os.replace(source, kept.with_name(kept.name + suffix))
    return kept


def _contents(connection: sqlite3.Connection) -> tuple[list[str], int | None]:
    """The tables of a database and its number of reviews (None without a review table)."""
    tables = [row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    reviews = connection.execute("SELECT COUNT(*) FROM review").fetchone()[0] if "review" in tables else None
    return tables, reviews


def _verify_copy(database: Path, copy: Path) -> None:
    """Raise BackupError unless `copy` passes SQLite's quick check and holds the tables and the
    number of reviews of `database`."""
    try:
        with closing(_read_only(copy)) as copied, closing(_read_only(database)) as live:
            checked = [row[0] for row in copied.execute("PRAGMA quick_check")]
            problem = checked[0] if checked != ["ok"] else None
            if problem is None and _contents(copied) != _contents(live):
                problem = "its tables or reviews differ"
    except sqlite3.DatabaseError as error:
        problem = str(error)
    if problem is not None:
        raise BackupError(
            f"the copy of {database} made before restoring, {copy}, is not sound ({problem}); nothing was restored"
        )


def _undo_copy(database: Path, backups_dir: Path, now: datetime) -> Path | None:
    """Keep the database as it is out of a restore's way: a verified pre-restore backup, or a
    damaged file moved aside whole; None when there is no database."""
    if not database.is_file():
        return None
    if not _intact(database):
        return _set_aside(database, backups_dir, now)
    try:
        copy = _new_backup(database, backups_dir, now, Kind.PRE_RESTORE)
    except OSError as error:
        raise BackupError(f"cannot copy {database} before restoring ({error}); nothing was restored") from None
    try:
        _verify_copy(database, copy)
    except BackupError:
        copy.unlink(missing_ok=True)
        raise
    return copy


def restore(database: Path, backup_file: Path, backups_dir: Path, now: datetime) -> Path | None:
    """Replace the contents of the live `database` with `backup_file`, after checking it and
    keeping the current database (returned, None when there was none) so that the restore can
    itself be undone. Refused, with nothing changed, while a drill session has the database
    open or when that copy cannot be made and verified. An older schema is migrated the next
    time the database opens."""
    with hold_alone(database):
        check_backup(backup_file)
        before = _undo_copy(database, backups_dir, now)
        try:
            with closing(_read_only(backup_file)) as source, closing(_connect(database)) as live:
                source.backup(live)  # through a live connection, so the WAL and other readers stay right
        except sqlite3.Error as error:
            raise BackupError(f"cannot restore {backup_file} into {database}: {error}") from None
        last_review.forget(database)  # the restored database has its own last grade
        _prune(backups_dir, Kind.PRE_RESTORE, SAFETY_KEEP, (before,) if before else ())
    return before
