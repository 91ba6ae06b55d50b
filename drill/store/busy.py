"""Telling "another drill holds the database: wait and try again" from other store errors."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager

# PostgreSQL's lock_not_available (lock_timeout), query_canceled (statement_timeout),
# serialization_failure and deadlock_detected: each goes away once the other writer is done.
RETRYABLE_SQLSTATES = frozenset({"55P03", "57014", "40001", "40P01"})


BUSY_TIMEOUT_MS = 15_000  # how long a SQLite connection waits for another's write lock before "database is locked"
_acquiring: set[int] = set()  # threads waiting, now, for the write lock


@contextmanager
def acquiring_write_lock() -> Iterator[None]:
    """Mark the calling thread as waiting for the database's write lock while the block runs."""
    me = threading.get_ident()
    _acquiring.add(me)
    try:
        yield
    finally:
        _acquiring.discard(me)


def waits_for_lock(thread: threading.Thread) -> bool:
    """Whether `thread` is waiting, now, for another connection to give up the write lock."""
    return thread.ident in _acquiring


def is_busy(error: BaseException) -> bool:
    """Whether `error` (raised by SQLAlchemy or a driver) means the database is busy with another writer."""
    original = getattr(error, "orig", None) or error
    if isinstance(original, sqlite3.OperationalError):
        message = str(original)
        return "database is locked" in message or "database table is locked" in message or "busy" in message
    return getattr(original, "sqlstate", None) in RETRYABLE_SQLSTATES
