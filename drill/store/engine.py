"""Opening the database: SQLite in WAL mode, foreign keys on, a busy timeout, migrated."""

from __future__ import annotations

import sqlite3
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import Engine, create_engine, event

from drill.store.migrations import migrate

BUSY_TIMEOUT_MS = 15_000


def _configure(connection: sqlite3.Connection) -> None:
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA synchronous = FULL")


def open_engine(path: Path) -> Engine:
    """Migrate the database at `path` (creating it if needed) and return an engine for it."""
    # Dates and times are written as ISO text explicitly (sqlite3's implicit adapters are deprecated).
    sqlite3.register_adapter(date, date.isoformat)
    sqlite3.register_adapter(datetime, datetime.isoformat)
    raw = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        _configure(raw)
        raw.execute("PRAGMA journal_mode = WAL")
        migrate(raw)
    finally:
        raw.close()
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
    )
    event.listen(engine, "connect", lambda dbapi_connection, _record: _configure(dbapi_connection))
    return engine
