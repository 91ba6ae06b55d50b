"""The last grade saved, recorded beside the SQLite file, so a damaged write-ahead log is noticed.

SQLite trusts the `drill.db-wal` it finds: a log cut short (a copy taken mid-write, a sync tool,
a disk error) silently drops the grades in its lost frames, and a log from another database
silently swaps pages. After each grade commits, drill writes which review it was to
`drill.db.last-review`; before opening a database whose log is not empty, it reads (read-only,
so nothing is checkpointed) whether that review is there as recorded, and refuses to open it
with a message when it is not. The record only ever names a committed review, so it can lag
behind the log (another drill's grade, an import) but never run ahead of a sound one.

The record is written over the start of the file in place (what follows it is left, and not
read), sealed with a checksum of what it names. A new file renamed over the old one made the file
system write it out on every grade, which took nearly as long as the commit itself. A record read
while another drill writes it, or left half-written by a crash, fails its checksum and counts as
no record: the check is skipped, never misled into refusing a sound log.
"""

from __future__ import annotations

import json
import os
import sqlite3
import zlib
from contextlib import closing, suppress
from datetime import datetime
from pathlib import Path
from typing import Any

SUFFIX = ".last-review"
NO_LINKS = getattr(os, "O_NOFOLLOW", 0)  # the record is never written through a link (Windows has no flag)


def record_path(database: Path) -> Path:
    return database.with_name(database.name + SUFFIX)


def wal_path(database: Path) -> Path:
    return database.with_name(database.name + "-wal")


def note(database: Path, review_id: int, item_id: str, reviewed_at: datetime) -> None:
    """Record `review_id` as the last grade committed (written over the record in place, sealed)."""
    named = {"id": review_id, "item_id": item_id, "reviewed_at": reviewed_at.isoformat()}
    record = json.dumps({"check": _checksum(named), **named}).encode()
    with suppress(OSError):  # a full disk loses only this check, never the grade
        handle = os.open(record_path(database), os.O_WRONLY | os.O_CREAT | NO_LINKS, 0o644)
        try:
            os.write(handle, record)  # a descriptor just opened writes from the start of the file
        finally:
            os.close(handle)


def _checksum(named: dict[str, Any]) -> int:
    return zlib.crc32(json.dumps(named, sort_keys=True).encode())


def forget(database: Path) -> None:
    """Drop the record (the database was replaced on purpose, or its last review undone)."""
    record_path(database).unlink(missing_ok=True)


def _recorded(database: Path) -> dict[str, Any] | None:
    """The record, when it is whole (its checksum matches what it names)."""
    try:
        recorded, _end = json.JSONDecoder().raw_decode(record_path(database).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(recorded, dict) or not {"check", "id", "item_id", "reviewed_at"} <= recorded.keys():
        return None
    named = {key: recorded[key] for key in ("id", "item_id", "reviewed_at")}
    return named if recorded["check"] == _checksum(named) else None


def log_problem(database: Path) -> str | None:
    """What is wrong with the database's write-ahead log, judged by the last grade recorded;
    None when there is no log, no record, or the recorded grade is there."""
    recorded = _recorded(database)
    wal = wal_path(database)
    if recorded is None or not wal.is_file() or wal.stat().st_size == 0 or not database.is_file():
        return None
    try:
        with closing(sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)) as connection:
            row = connection.execute(
                "SELECT item_id, reviewed_at FROM review WHERE id = ?", (recorded["id"],)
            ).fetchone()
    except sqlite3.Error:
        return None  # what SQLite cannot read is for the damage check that follows
    if row is None or tuple(row) != (recorded["item_id"], recorded["reviewed_at"]):
        return (
            f"its write-ahead log {wal.name} is cut short or belongs to another database: the last grade saved "
            f"({recorded['item_id']} at {recorded['reviewed_at']}) is not in it. Move {wal.name} aside to open the "
            f"database as of its last checkpoint, or restore a backup"
        )
    return None
