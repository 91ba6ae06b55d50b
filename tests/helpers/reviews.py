"""A study over the small decks, grades given through it, and the reviews read back from a
database file (read-only, so a backup or a restored copy is never touched)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from drill.config import Config
from drill.paths import Paths
from drill.schedule.records import Grade
from drill.study import Study
from drill.study.writes import write_grade


def open_study(paths, clock) -> Study:
    study = Study.open(paths, clock)
    study.drain()
    return study


def sm2_study(paths, clock) -> Study:
    """A study over `paths` under SM-2 without fuzz (every interval exact), content synced."""
    paths.ensure()
    paths.config.write_text('scheduler = "sm2"\nfuzz = false\n')
    study = Study(paths, Config.load(paths.config), clock)
    study.sync()
    return study


def grade(study: Study, item_id: str, button: int = 3) -> Grade:
    """Grade the item with `button` after a second on it, written at once; the grade given."""
    given = study.reviews.grade(study.reviews.cards([item_id])[0], button, 1000)
    write_grade(study, given)
    return given


def grade_first_in_queue(button: int = 3) -> str:
    """Open the study of DRILL_HOME, grade the first item in today's queue (1.234 s on it), close;
    that item's id."""
    study = Study.open(Paths.resolve())
    try:
        item_id = study.reviews.queue()[0]
        write_grade(study, study.reviews.grade(study.reviews.cards([item_id])[0], button, 1234))
    finally:
        study.close()
    return item_id


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
