"""Opening the database: SQLite in WAL mode, foreign keys on, a busy timeout, migrated; or,
when DRILL_DB_URL is set, the PostgreSQL database it names (drill.store.postgres).

Write transactions (drill.store.transactions.writing) start with BEGIN IMMEDIATE, so two drill processes
queue for the write lock instead of failing half-way; reads never take it. On PostgreSQL the
same transactions take an advisory lock instead.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from datetime import date, datetime
from pathlib import Path

from sqlalchemy import Connection, Engine, create_engine, event

from drill.days import utc_now
from drill.paths import Paths
from drill.store import last_review
from drill.store.busy import BUSY_TIMEOUT_MS, acquiring_write_lock
from drill.store.damage import checked_open, damaged, foreign_tables
from drill.store.postgres import database_url, open_postgres
from drill.store.transactions import migrated

BACKING_UP = "Backing up your store before upgrading it (one time)…"


def upgrading(step: int, of: int) -> str:
    """What an open says as revision `step` of the `of` an upgrade applies begins."""
    return f"Upgrading your store for this drill: step {step} of {of}…"


def _configure(connection: sqlite3.Connection) -> None:
    connection.isolation_level = None  # SQLAlchemy's begin event below issues BEGIN itself
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("PRAGMA synchronous = FULL")


def _use_wal(connection: sqlite3.Connection) -> None:
    """Switch to WAL; a second process creating the database at the same moment may hold it briefly."""
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            if connection.execute("PRAGMA journal_mode = WAL").fetchone()[0] == "wal":
                return
        except sqlite3.OperationalError:
            if time.monotonic() > deadline:
                raise
        time.sleep(0.02)


def _begin(connection: Connection) -> None:
    if connection.get_execution_options().get("write"):
        with acquiring_write_lock():
            connection.exec_driver_sql("BEGIN IMMEDIATE")
    else:
        connection.exec_driver_sql("BEGIN DEFERRED")


def open_store(paths: Paths, on_slow_step: Callable[[str], object] = lambda _words: None) -> Engine:
    """The store every part of drill uses: the PostgreSQL database DRILL_DB_URL names when it is
    set, else the SQLite file under `paths`; migrated (the SQLite file's upgrade told step by step
    to `on_slow_step`, open_engine). A damaged SQLite file raises DamagedDatabaseError and is left
    as it is."""
    url = database_url()
    if url:
        return open_postgres(url)
    return checked_open(paths.database, paths.backups, lambda: open_engine(paths.database, paths.backups, on_slow_step))


def open_engine(
    path: Path, backups_dir: Path | None = None, on_slow_step: Callable[[str], object] = lambda _words: None
) -> Engine:
    """Migrate the SQLite database at `path` (creating it if needed) and return an engine for it;
    upgrading one an older drill wrote, `on_slow_step` is told in words of its backup (BACKING_UP),
    then of each revision as it begins (`upgrading`). Another program's SQLite file, or a
    write-ahead log that lost the last grade saved (drill.store.last_review), is refused before
    anything is written to it."""
    problem = last_review.log_problem(path)
    if problem is not None:
        raise damaged(path, backups_dir or path.parent / "backups", problem)
    # Dates and times are written as ISO text explicitly (sqlite3's implicit adapters are deprecated).
    sqlite3.register_adapter(date, date.isoformat)
    sqlite3.register_adapter(datetime, datetime.isoformat)
    raw = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    try:
        foreign = foreign_tables(raw)
        if foreign:
            raise damaged(
                path,
                backups_dir or path.parent / "backups",
                f"not a drill database: it holds tables drill did not make ({', '.join(foreign[:3])})",
            )
        _configure(raw)
        _use_wal(raw)
    finally:
        raw.close()
    engine = create_engine(
        f"sqlite:///{path}",
        connect_args={"timeout": BUSY_TIMEOUT_MS / 1000, "check_same_thread": False},
    )
    event.listen(engine, "connect", lambda dbapi_connection, _record: _configure(dbapi_connection))
    event.listen(engine, "begin", _begin)
    return migrated(
        engine,
        lambda: _backup_before_migrating(engine, path, backups_dir or path.parent / "backups", on_slow_step),
        lambda step, of: on_slow_step(upgrading(step, of)),
    )


def _backup_before_migrating(
    engine: Engine, path: Path, backups_dir: Path, on_slow_step: Callable[[str], object]
) -> None:
    """A pre-migration backup of a database that holds tables (a new one has nothing to keep),
    said to `on_slow_step` as it begins."""
    from drill.store.backup import SAFETY_KEEP, make_backup
    from drill.store.backup_files import Kind

    with engine.connect() as connection:
        empty = not connection.exec_driver_sql("SELECT 1 FROM sqlite_master LIMIT 1").first()
    if not empty:
        on_slow_step(BACKING_UP)
        make_backup(path, backups_dir, SAFETY_KEEP, utc_now(), Kind.PRE_MIGRATION)
