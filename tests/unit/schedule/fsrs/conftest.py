"""A store with enough reviews to fit FSRS, for the optimize command's tests."""

from __future__ import annotations

import sqlite3
from datetime import date, timedelta

import pytest
from helpers.content import TestPaths, write_deck

from drill.study import Study

START = date(2026, 1, 1)


def every_third_day(items: int, reviews: int) -> list[list[tuple[date, int]]]:
    """`items` items reviewed on `reviews` days each, every third day, all Good."""
    return [[(START + timedelta(days=3 * n + item % 3), 3) for n in range(reviews)] for item in range(items)]


@pytest.fixture
def histories():
    return every_third_day


@pytest.fixture
def fit_store(drill_home, deck_dir, clock) -> TestPaths:
    """A store whose 60 cards were each reviewed on 10 days (every_third_day): 540 scored reviews,
    enough to fit."""
    write_deck(deck_dir, "a.toml", [(f"m-{n}", "memory") for n in range(60)])
    paths = TestPaths(drill_home, deck_dir)
    paths.ensure()
    Study.open(paths, clock).close()
    rows = [
        (f"m-{item}", f"{day.isoformat()}T12:00:00+00:00", day.isoformat())
        for item, history in enumerate(every_third_day(60, 10))
        for day, _button in history
    ]
    with sqlite3.connect(paths.database) as connection:
        connection.executemany(
            """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
            reps_before, interval_before, ease_before, reps_after, interval_after, ease_after)
            VALUES (?, ?, ?, 3, 4, 1000, 1, 1, 3, 2.5, 2, 3, 2.5)""",
            rows,
        )
    return paths
