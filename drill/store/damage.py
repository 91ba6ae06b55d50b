"""A database file drill cannot read: what is wrong with it, and the way back to a good copy.

Nothing here writes: a damaged file is left exactly as it was found.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from drill.errors import UserFacingError
from drill.store.backup_files import list_backups
from drill.store.busy import is_busy

# What SQLite says of a file that is not (or no longer) a database it can read.
DAMAGE_SIGNS = ("file is not a database", "malformed", "disk image")

T = TypeVar("T")


class DamagedDatabaseError(UserFacingError):
    """The SQLite file cannot be used; the message names it, the problem and the newest backup."""

    def __init__(self, database: Path, problem: str, newest_backup: Path | None) -> None:
        way_back = (
            f"the newest backup is {newest_backup}; run `drill restore --latest`"
            if newest_backup is not None
            else "there is no backup of it; move the file away to start afresh"
        )
        super().__init__(f"{database} is damaged ({problem}); {way_back}. drill has not changed the file.")
        self.database = database
        self.newest_backup = newest_backup


def is_damage(error: BaseException) -> bool:
    """Whether `error` (sqlite3's, or SQLAlchemy's wrapping it) says the file itself is unreadable."""
    cause = getattr(error, "orig", None) or error
    return isinstance(cause, sqlite3.DatabaseError) and any(sign in str(cause) for sign in DAMAGE_SIGNS)


def damaged(database: Path, backups_dir: Path, problem: str) -> DamagedDatabaseError:
    """The error for `database`, naming the newest backup in `backups_dir` when there is one."""
    backups = list_backups(backups_dir) if backups_dir.is_dir() else []
    return DamagedDatabaseError(database, problem, backups[-1].path if backups else None)


def foreign_tables(connection: sqlite3.Connection) -> list[str]:
    """The tables of a database drill never versioned (another program's file); drill's own
    migrations set the version in the transaction that creates its tables."""
    if connection.execute("PRAGMA user_version").fetchone()[0] != 0:
        return []
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    return sorted(row[0] for row in rows)


class DatabaseBusyError(UserFacingError):
    """Another drill held the write lock for longer than drill waits when it opens."""

    def __init__(self) -> None:
        super().__init__(
            "another drill (or `drill import`) has been writing to the database for too long; "
            "nothing was changed: try again in a moment"
        )


def checked_open(database: Path, backups_dir: Path, open_database: Callable[[], T]) -> T:
    """`open_database()`, with SQLite's word that the file is unreadable turned into
    DamagedDatabaseError, and a write lock held too long by another drill into DatabaseBusyError;
    other errors pass unchanged."""
    from sqlalchemy.exc import DatabaseError

    try:
        return open_database()
    except (sqlite3.DatabaseError, DatabaseError) as error:
        if is_busy(error):
            raise DatabaseBusyError() from None
        if not is_damage(error):
            raise
        raise damaged(database, backups_dir, str(getattr(error, "orig", None) or error)) from None
