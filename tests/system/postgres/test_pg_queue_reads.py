"""Today's queue on PostgreSQL reads what it does on SQLite (the due items up to the day the room
is reached) and is the same queue as reading every candidate."""

from __future__ import annotations

import pytest
from helpers.queue_store import open_store, read_everything


@pytest.mark.slow
@pytest.mark.parametrize("max_reviews", [5, 7, 60])
def test_the_queue_is_the_one_read_from_every_candidate(pg_url, small_paths, clock, monkeypatch, max_reviews) -> None:
    study = open_store(small_paths, clock, max_reviews)
    try:
        assert study.engine.dialect.name == "postgresql"
        fast = study.reviews.queue()
        with monkeypatch.context() as patch:
            read_everything(patch)
            assert study.reviews.queue() == fast
        assert 0 < len(fast) <= max_reviews - 1
    finally:
        study.close()
