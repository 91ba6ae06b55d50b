"""A write-ahead log that lost the last grade saved (cut short, or another database's) is noticed
before the database opens, with a message, and nothing is changed; a sound log after a crash
opens with every grade."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from helpers.content import TestPaths, write_deck

from drill.store.damage import DamagedDatabaseError
from drill.store.last_review import record_path, wal_path
from drill.study import Study
from drill.study.writes import write_grade


def graded_copy(paths: TestPaths, clock, into: Path, grades: int) -> list[str]:
    """Grade `grades` cards and copy the database, its log and the last-grade record to `into`
    while the app still has them open (what a crash, or a copy taken mid-session, leaves)."""
    study = Study.open(paths, clock)
    graded = []
    for card in study.reviews.cards(study.reviews.queue())[:grades]:
        write_grade(study, study.reviews.grade(card, 3, 1_000))
        graded.append(card.item_id)
    into.mkdir(parents=True, exist_ok=True)
    for path in (paths.database, wal_path(paths.database), record_path(paths.database)):
        shutil.copy(path, into / path.name)
    study.close()
    return graded


def reviews(paths: TestPaths, clock) -> list[str]:
    study = Study.open(paths, clock)
    try:
        with study.engine.connect() as connection:
            return [row[0] for row in connection.exec_driver_sql("SELECT item_id FROM review ORDER BY id")]
    finally:
        study.close()


def test_a_sound_log_left_by_a_crash_opens_with_every_grade(small_paths, clock, tmp_path) -> None:
    copy = TestPaths(tmp_path / "copy", small_paths.decks)
    graded = graded_copy(small_paths, clock, copy.home, 3)
    assert wal_path(copy.database).stat().st_size > 0
    assert reviews(copy, clock) == graded


def test_a_log_cut_short_is_refused_and_left_as_it_is(small_paths, clock, tmp_path) -> None:
    copy = TestPaths(tmp_path / "copy", small_paths.decks)
    graded_copy(small_paths, clock, copy.home, 3)
    wal = wal_path(copy.database)
    with wal.open("r+b") as log:
        log.truncate(wal.stat().st_size - 4096)  # the last frames, with the last commit, are gone
    before = (copy.database.read_bytes(), wal.read_bytes())
    with pytest.raises(DamagedDatabaseError, match=r"write-ahead log drill\.db-wal is cut short or belongs to another"):
        Study.open(copy, clock)
    assert (copy.database.read_bytes(), wal.read_bytes()) == before


def test_another_databases_log_is_refused(small_paths, clock, tmp_path, deck_dir) -> None:
    mine = TestPaths(tmp_path / "mine", small_paths.decks)
    graded_copy(small_paths, clock, mine.home, 2)
    other_decks = tmp_path / "other-decks"
    write_deck(other_decks, "a.toml", [("o-1", "memory"), ("o-2", "memory"), ("o-3", "compute")])
    other = TestPaths(tmp_path / "other", other_decks)
    graded_copy(other, clock, tmp_path / "other-copy", 3)
    shutil.copy(tmp_path / "other-copy" / "drill.db-wal", wal_path(mine.database))  # a sync tool mixed them up
    with pytest.raises(DamagedDatabaseError, match="cut short or belongs to another database"):
        Study.open(mine, clock)
