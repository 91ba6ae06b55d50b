"""The CLI says a refused write on one line, in words, with nothing of the SQL behind it."""

from __future__ import annotations

import sqlite3

import pytest
from helpers.content import write_deck

from drill.cli import main


@pytest.fixture
def read_only_store(drill_home, monkeypatch, capsys):
    """A synced store that SQLite then refuses to write (PRAGMA query_only: SQLite's read-only refusal,
    which a read-only file gives too, and which root, who ignores file modes, cannot get from chmod)."""
    import drill.store.engine as engine

    write_deck(drill_home / "decks", "mine.toml", [("m-1", "memory")])
    assert main(["list"]) == 0
    capsys.readouterr()
    configure = engine._configure

    def read_only(connection: sqlite3.Connection) -> None:
        configure(connection)
        connection.execute("PRAGMA query_only = ON")

    monkeypatch.setattr(engine, "_configure", read_only)
    return drill_home


def test_suspend_on_a_read_only_database_is_one_line(read_only_store, capsys) -> None:
    assert main(["suspend", "m-1"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "drill: not saved — suspending m-1: the database is read-only\n"


def test_a_write_refused_outside_the_writer_is_one_line_too(read_only_store, capsys) -> None:
    """A new deck makes the next command sync, and that write is refused before any command runs."""
    write_deck(read_only_store / "decks", "more.toml", [("n-1", "memory")])
    assert main(["list"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == "drill: not saved — the database is read-only\n"
