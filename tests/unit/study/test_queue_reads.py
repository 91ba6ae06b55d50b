"""Today's queue reads only what it can show (the due items up to the day the room is reached,
unseen items only when due ones leave room) and is the same queue as reading every candidate."""

from __future__ import annotations

import pytest
from helpers.queue_store import open_store, read_everything

from drill.store import queries


@pytest.mark.parametrize("max_reviews", [2, 4, 5, 9, 20, 36, 60])
def test_the_queue_is_the_one_read_from_every_candidate(small_paths, clock, monkeypatch, max_reviews: int) -> None:
    study = open_store(small_paths, clock, max_reviews)
    try:
        fast = study.reviews.queue()
        with monkeypatch.context() as patch:
            read_everything(patch)
            assert study.reviews.queue() == fast
        assert 0 < len(fast) <= max_reviews - 1  # one grade given today
    finally:
        study.close()


def test_due_items_that_fill_the_day_are_read_alone(small_paths, clock, monkeypatch) -> None:
    study = open_store(small_paths, clock, 7)
    due_reads: list[int | None] = []
    due = queries.due_candidates

    def counted(engine, today, per_block, first=None):
        due_reads.append(first)
        return due(engine, today, per_block, first)

    def unseen(*_):
        raise AssertionError("unseen items read though due items fill the day")

    monkeypatch.setattr(queries, "due_candidates", counted)
    monkeypatch.setattr(queries, "new_candidates", unseen)
    try:
        assert len(study.reviews.queue()) == 6
        assert due_reads == [6]  # the 6 most overdue and their day's others (one sibling left out): enough
    finally:
        study.close()


def test_siblings_left_out_make_the_queue_read_every_due_item(small_paths, clock, monkeypatch) -> None:
    """The 6-day-overdue cards are siblings: their day alone leaves one of the 4 wanted."""
    study = open_store(small_paths, clock, 5)
    due_reads: list[int | None] = []
    due = queries.due_candidates

    def counted(engine, today, per_block, first=None):
        due_reads.append(first)
        return due(engine, today, per_block, first)

    monkeypatch.setattr(queries, "due_candidates", counted)
    try:
        assert len(study.reviews.queue()) == 4
        assert due_reads == [4, None]
    finally:
        study.close()
