"""A study over the small decks, grades given through it, and the reviews read back from a
database file (read-only, so a backup or a restored copy is never touched)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from drill.study import Study
from drill.study.writes import write_grade


def open_study(paths, clock) -> Study:
    study = Study.open(paths, clock)
    study.drain()
    return study


def grade(study: Study, item_id: str, button: int = 3) -> None:
    write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 1000))


def rows(database: Path, sql: str) -> list[tuple]:
    connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()


def reviewed(database: Path) -> list[str]:
    return [item_id for (item_id,) in rows(database, "SELECT item_id FROM review ORDER BY id")]


@pytest.fixture
def study(small_paths, clock):
    """The study over conftest's small_paths, closed after the test (import it by name)."""
    study = open_study(small_paths, clock)
    yield study
    study.close()
