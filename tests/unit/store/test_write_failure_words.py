"""A write that fails is said on one line, in words: never SQLAlchemy's SQL and parameters."""

from __future__ import annotations

import errno
import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from drill.store.failure import database_reason, in_words, known_reason
from drill.store.recorder import Recorder, WriteFailures


def read_only_database(tmp_path: Path):
    """A real SQLite file opened read-only: SQLite itself refuses the write."""
    path = tmp_path / "drill.db"
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE item (id TEXT PRIMARY KEY, suspended INTEGER)")
        connection.execute("INSERT INTO item VALUES ('m-1', 0)")
    connection.close()
    return create_engine(f"sqlite:///file:{path}?mode=ro&uri=true")


def test_a_read_only_database_is_said_in_words(tmp_path) -> None:
    engine = read_only_database(tmp_path)
    reported = []
    recorder = Recorder(on_failure=reported.append)

    def suspend(item_id: str) -> None:
        with engine.begin() as connection:
            connection.execute(text("UPDATE item SET suspended = 1 WHERE id = :id"), {"id": item_id})

    recorder.submit("suspending m-1", suspend, "m-1")
    with pytest.raises(WriteFailures) as raised:
        recorder.drain()
    recorder.close()
    engine.dispose()
    assert "[SQL:" in str(raised.value.failures[0].error)  # what SQLAlchemy says, and the screen must not
    assert str(raised.value) == "suspending m-1: the database is read-only"
    assert [str(failure) for failure in reported] == ["suspending m-1: the database is read-only"]


class _PostgresError(Exception):
    def __init__(self, sqlstate: str) -> None:
        super().__init__("ERROR: something\nDETAIL: more\n[SQL: UPDATE item SET x = %(x)s]")
        self.sqlstate = sqlstate


@pytest.mark.parametrize(
    "error, words",
    [
        (sqlite3.OperationalError("attempt to write a readonly database"), "the database is read-only"),
        (sqlite3.OperationalError("database or disk is full"), "the disk is full"),
        (sqlite3.OperationalError("database is locked"), "another program holds the database"),
        (OSError(errno.EROFS, "Read-only file system", "/mnt/drill.db"), "the disk is read-only (/mnt/drill.db)"),
        (OSError(errno.ENOSPC, "No space left on device"), "the disk is full"),
        (_PostgresError("25006"), "the database is read-only"),
        (_PostgresError("08006"), "the database server cannot be reached"),
        (_PostgresError("55P03"), "another program holds the database"),
    ],
)
def test_known_causes(error, words) -> None:
    assert known_reason(error) == words == in_words(error)
    wrapped = RuntimeError("the write")
    wrapped.__cause__ = error
    assert known_reason(wrapped) == words


def test_only_the_databases_errors_are_a_database_reason() -> None:
    assert (
        database_reason(sqlite3.OperationalError("attempt to write a readonly database")) == "the database is read-only"
    )
    assert database_reason(_PostgresError("53100")) == "the disk is full"
    assert database_reason(OSError(errno.EACCES, "Permission denied", "/etc/x")) is None


def test_an_unknown_cause_keeps_its_own_first_line() -> None:
    assert known_reason(ValueError("odd")) is None
    assert in_words(ValueError("odd\n[SQL: UPDATE item]\n(Background on this error)")) == "odd"
    assert in_words(ValueError()) == "ValueError"
