"""Two drill processes grading against one database at once: nothing lost, no lock errors."""

import os
import sqlite3
from pathlib import Path

import pytest
from helpers.concurrent_grading import (
    ITEMS,
    REVIEWS_OF_ONE,
    assert_counted_once,
    grade_at_once,
    grade_one_card_twice,
)
from helpers.content import write_deck


@pytest.mark.slow
def test_two_processes_grade_at_once(drill_home: Path) -> None:
    write_deck(drill_home / "decks", "many.toml", [(f"x-{i}", "memory") for i in range(ITEMS)])
    recorded = grade_at_once([dict(os.environ)] * 2)
    connection = sqlite3.connect(drill_home / "drill.db")
    assert dict(connection.execute("SELECT id, item_id FROM review")) == recorded
    assert connection.execute("SELECT COUNT(*) FROM item WHERE interval = 1").fetchone() == (ITEMS,)
    assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)


@pytest.mark.slow
def test_two_processes_grading_one_card_count_it_once(drill_home: Path) -> None:
    write_deck(drill_home / "decks", "one.toml", [("x-0", "memory")])
    grade_one_card_twice([dict(os.environ)] * 2)
    connection = sqlite3.connect(drill_home / "drill.db")
    reviews = [(bool(counted), *rest) for counted, *rest in connection.execute(REVIEWS_OF_ONE)]
    item = connection.execute("SELECT repetitions, interval FROM item WHERE id = 'x-0'").fetchone()
    assert_counted_once(reviews, item)
