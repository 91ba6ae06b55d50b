"""Two machines (processes with their own DRILL_HOME) on one PostgreSQL database: both sync the
same new content at once, then grade 500 items each at once; nothing is lost or doubled."""

from __future__ import annotations

import os

import pytest
from helpers.concurrent_grading import ITEMS, REVIEWS_OF_ONE, assert_counted_once, grade_at_once, grade_one_card_twice
from helpers.content import write_deck
from sqlalchemy import create_engine, text


@pytest.mark.slow
def test_two_machines_grade_at_once(pg_url, tmp_path) -> None:
    homes = [tmp_path / "machine-a", tmp_path / "machine-b"]
    for home in homes:
        write_deck(home / "decks", "many.toml", [(f"x-{i}", "memory") for i in range(ITEMS)])
    recorded = grade_at_once([{**os.environ, "DRILL_HOME": str(home), "DRILL_DB_URL": pg_url} for home in homes])
    engine = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            assert dict(connection.execute(text("SELECT id, item_id FROM review")).all()) == recorded
            assert connection.execute(text("SELECT COUNT(*) FROM item WHERE id LIKE 'x-%'")).scalar_one() == ITEMS
            assert connection.execute(text("SELECT COUNT(*) FROM item WHERE interval = 1")).scalar_one() == ITEMS
    finally:
        engine.dispose()
    assert not any((home / "drill.db").exists() for home in homes)


@pytest.mark.slow
def test_two_machines_grading_one_card_count_it_once(pg_url, tmp_path) -> None:
    homes = [tmp_path / "machine-a", tmp_path / "machine-b"]
    for home in homes:
        write_deck(home / "decks", "one.toml", [("x-0", "memory")])
    envs = [{**os.environ, "DRILL_HOME": str(home), "DRILL_DB_URL": pg_url} for home in homes]
    grade_one_card_twice(envs)
    engine = create_engine(pg_url.replace("postgresql://", "postgresql+psycopg://", 1))
    try:
        with engine.connect() as connection:
            reviews = [tuple(row) for row in connection.execute(text(REVIEWS_OF_ONE)).all()]
            item = tuple(connection.execute(text("SELECT repetitions, interval FROM item WHERE id = 'x-0'")).one())
    finally:
        engine.dispose()
    assert_counted_once(reviews, item)
