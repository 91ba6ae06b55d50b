"""Read queries for replaying memory models: the counted reviews per item, oldest first.

Only counted reviews (the first grade of an item on a study day) move a schedule, so only
they are returned; in-session repeats stay in the review table for the stats.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date

from sqlalchemy import Engine, bindparam, func, select

from drill.schedule.replay import PastReview
from drill.store.dialect import as_day
from drill.store.tables import review

ITEM_REVIEWS = (
    select(review.c.study_day, review.c.button)
    .where(review.c.item_id == bindparam("item_id"), review.c.counted)
    .order_by(review.c.reviewed_at, review.c.id)
)
ALL_REVIEWS = (
    select(review.c.item_id, review.c.study_day, review.c.button, review.c.quality)
    .where(review.c.counted)
    .order_by(review.c.item_id, review.c.reviewed_at, review.c.id)
)
# Fitting FSRS needs only days and buttons: one item's counted reviews have one study day each, so
# day order is time order, and the covering index ix_review_stats_item gives them in that order
# without reading the table (a million reviews in a second or two, not a scattered read of each row).
DAYS_AND_BUTTONS = (
    select(review.c.item_id, review.c.study_day, review.c.button)
    .where(review.c.counted)
    .order_by(review.c.item_id, review.c.study_day)
)
COUNTS = select(func.count(), func.count().filter(review.c.counted))


def item_reviews(engine: Engine, item_id: str) -> list[tuple[date, int]]:
    """One item's counted reviews as (study day, button), oldest first (uses ix_review_item)."""
    with engine.connect() as connection:
        return [(as_day(day), button) for day, button in connection.execute(ITEM_REVIEWS, {"item_id": item_id})]


def review_history(engine: Engine) -> Iterator[PastReview]:
    """Every counted review, item by item and oldest first within an item, streamed."""
    with engine.connect() as connection:
        for item_id, day, button, quality in connection.execute(ALL_REVIEWS):
            yield PastReview(item_id, as_day(day), button, quality)


def days_and_buttons(engine: Engine) -> list[list[tuple[date, int]]]:
    """Every reviewed item's counted reviews as (study day, button), oldest first, item by item."""
    histories: list[list[tuple[date, int]]] = []
    days: dict[object, date] = {}  # a few thousand study days among a million reviews: each parsed once
    last = None
    with engine.connect() as connection:
        for item_id, stored, button in connection.execute(DAYS_AND_BUTTONS):
            if item_id != last:
                histories.append([])
                last = item_id
            day = days.get(stored)
            if day is None:
                day = days[stored] = as_day(stored)
            histories[-1].append((day, button))
    return histories


def review_counts(engine: Engine) -> tuple[int, int]:
    """All reviews stored, and how many of them were counted."""
    with engine.connect() as connection:
        total, counted = connection.execute(COUNTS).one()
    return total, counted
