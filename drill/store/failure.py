"""Why a store write failed, in words: one line for the user, never SQLAlchemy's SQL and parameters."""

from __future__ import annotations

import errno
import sqlite3
from collections.abc import Iterator

READ_ONLY = "the database is read-only"
DISK_FULL = "the disk is full"
HELD = "another program holds the database"

# SQLite's primary result codes (an extended code's low byte), PostgreSQL's SQLSTATEs and errnos.
_SQLITE_CODES = {
    sqlite3.SQLITE_READONLY: READ_ONLY,
    sqlite3.SQLITE_FULL: DISK_FULL,
    sqlite3.SQLITE_BUSY: HELD,
    sqlite3.SQLITE_LOCKED: HELD,
    sqlite3.SQLITE_PERM: "drill is not allowed to write the database",
    sqlite3.SQLITE_CANTOPEN: "the database file cannot be opened",
    sqlite3.SQLITE_IOERR: "the disk could not be read or written (an I/O error)",
    sqlite3.SQLITE_CORRUPT: "the database file is damaged",
    sqlite3.SQLITE_NOTADB: "the database file is damaged",
}
_SQLSTATES = {
    "53100": DISK_FULL,
    "25006": READ_ONLY,
    "55P03": HELD,
    "40P01": HELD,
    "57014": HELD,
}
_SQLSTATE_CLASSES = {
    "08": "the database server cannot be reached",
    "28": "the database server refused drill's login",
    "53": "the database server is out of resources",
}
_ERRNOS = {
    errno.ENOSPC: DISK_FULL,
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "the disk is read-only",
    errno.EACCES: "drill is not allowed to write there",
    errno.EPERM: "drill is not allowed to write there",
    errno.EIO: "the disk could not be read or written (an I/O error)",
}
# What SQLite says, for errors that come without their code.
_SQLITE_WORDS = {
    "readonly database": READ_ONLY,
    "read-only": READ_ONLY,
    "database or disk is full": DISK_FULL,
    "database is locked": HELD,
    "database table is locked": HELD,
}


def causes(error: BaseException) -> Iterator[BaseException]:
    """`error`, the driver error SQLAlchemy wraps, and what each was raised from."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        yield cause
        cause = getattr(cause, "orig", None) or cause.__cause__ or cause.__context__


def _known(cause: BaseException) -> str | None:
    if isinstance(cause, OSError) and cause.errno in _ERRNOS:
        return _ERRNOS[cause.errno] + (f" ({cause.filename})" if cause.filename else "")
    code = getattr(cause, "sqlite_errorcode", None)
    if isinstance(code, int) and code & 0xFF in _SQLITE_CODES:
        return _SQLITE_CODES[code & 0xFF]
    state = getattr(cause, "sqlstate", None) or getattr(cause, "pgcode", None)
    if isinstance(state, str):
        return _SQLSTATES.get(state) or _SQLSTATE_CLASSES.get(state[:2])
    if isinstance(cause, sqlite3.Error):
        text = str(cause).casefold()
        return next((words for sign, words in _SQLITE_WORDS.items() if sign in text), None)
    return None


def known_reason(error: BaseException) -> str | None:
    """Why `error` (or one it wraps) stopped a write, in words, when it is a known cause, else None."""
    return next((words for cause in causes(error) if (words := _known(cause)) is not None), None)


def database_reason(error: BaseException) -> str | None:
    """known_reason, where `error` comes from the database (SQLite's or PostgreSQL's driver), else None."""
    from_database = any(isinstance(cause, sqlite3.Error) or hasattr(cause, "sqlstate") for cause in causes(error))
    return known_reason(error) if from_database else None


def in_words(error: BaseException) -> str:
    """One line saying why a write failed: the known cause, else the driver's own first line."""
    if (words := known_reason(error)) is not None:
        return words
    original = getattr(error, "orig", None) or error
    lines = str(original).strip().splitlines()
    return lines[0] if lines else type(original).__name__
