"""The last-grade record is written over in place and sealed: the newest note is the one read back,
whatever was longer before it, and a record that is not whole (torn, mixed, or an older drill's
unsealed one) counts as no record, so the log check is skipped rather than misled."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import pytest

from drill.store import last_review

AT = datetime(2026, 11, 27, 9, 30, tzinfo=UTC)


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A database holding review 7 of item `m-1`, with a write-ahead log that is not empty."""
    path = tmp_path / "drill.db"
    connection = sqlite3.connect(path)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("PRAGMA wal_autocheckpoint = 0")
    connection.execute("CREATE TABLE review (id INTEGER PRIMARY KEY, item_id TEXT, reviewed_at TEXT)")
    connection.execute("INSERT INTO review VALUES (7, 'm-1', ?)", (AT.isoformat(),))
    connection.commit()
    yield path
    connection.close()


def test_the_newest_note_is_read_back_over_a_longer_one(database: Path) -> None:
    last_review.note(database, 123456789, "a-much-longer-item-id-than-the-next", AT)
    last_review.note(database, 7, "m-1", AT)
    assert last_review.log_problem(database) is None  # review 7 of m-1 is there as recorded
    last_review.note(database, 8, "m-1", AT)  # a review the log does not hold
    assert "cut short or belongs to another database" in (last_review.log_problem(database) or "")


def test_a_record_that_names_another_review_than_it_was_sealed_with_is_no_record(database: Path) -> None:
    last_review.note(database, 8, "m-1", AT)  # would be refused, were it read as written
    record = last_review.record_path(database)
    recorded, _end = json.JSONDecoder().raw_decode(record.read_text())
    record.write_text(json.dumps(recorded | {"id": 9}))  # half of one write and half of another
    assert last_review.log_problem(database) is None
    record.write_text(json.dumps({key: recorded[key] for key in ("id", "item_id", "reviewed_at")}))  # unsealed
    assert last_review.log_problem(database) is None
    last_review.note(database, 8, "m-1", AT)
    record.write_text(record.read_text()[:-20])  # torn: a sealed record cut short
    assert last_review.log_problem(database) is None


def test_a_note_on_a_folder_that_cannot_be_written_loses_only_the_record(tmp_path: Path) -> None:
    missing = tmp_path / "gone" / "drill.db"
    last_review.note(missing, 1, "m-1", AT)
    assert not last_review.record_path(missing).exists()


def test_a_record_that_is_a_link_is_not_written_through(database: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "someone-elses-file"
    elsewhere.write_text("kept as it is")
    last_review.record_path(database).symlink_to(elsewhere)
    last_review.note(database, 7, "m-1", AT)
    assert elsewhere.read_text() == "kept as it is"
