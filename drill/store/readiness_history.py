"""Readiness over time: the score drill predicts for a mock interview (drawn at random from all it
may ask, as `drill plan` predicts the interview day's) had it been held on each of a few past days.

    readiness_history(engine, config, today) -> tuple[ReadinessPoint, ...]    oldest first, today last

No daily record of readiness is kept: each day's is worked out again from the review history, once
per visit to the stats screen. An item's state at the end of a past day is the state its first
counted review after that day started from (the review row keeps it: reps, interval, ease, FSRS
memory and the last review day before it); an item with no counted review since is as it is now,
and one never reviewed by then is unseen. Each day's prediction uses the user's record as it stands
today (drill.store.forecast.records), so the days differ only in what was remembered, not in how
the model judges it. A forget after the day is not undone (its item counts as it was after it).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta
from typing import TYPE_CHECKING

from sqlalchemy import bindparam, select

from drill.interview.forecast import Forecast, expectation, forecast
from drill.interview.plan import section_pools
from drill.interview.settings import InterviewSettings
from drill.schedule import memory
from drill.schedule.state import ItemState
from drill.store.forecast import EVERY_ITEM, records
from drill.store.queries import cards
from drill.store.tables import review

if TYPE_CHECKING:
    from sqlalchemy import Engine

    from drill.config import Config

WEEKS = 8  # how far back the line goes, a point a week

# The counted reviews after a day, each item's oldest first: the state each one started from.
REVIEWS_AFTER = (
    select(
        review.c.item_id,
        review.c.study_day,
        review.c.reps_before,
        review.c.interval_before,
        review.c.ease_before,
        review.c.due_before,
        review.c.last_day_before,
        review.c.fsrs_stability_before,
        review.c.fsrs_difficulty_before,
    )
    .where(review.c.counted, review.c.study_day > bindparam("since"))
    .order_by(review.c.item_id, review.c.reviewed_at, review.c.id)
)


@dataclass(frozen=True)
class ReadinessPoint:
    """The interview predicted for the end of `day`."""

    day: date
    predicted: Forecast


def point_days(today: date, weeks: int = WEEKS) -> list[date]:
    """Today and the same weekday in each of the `weeks` weeks before, oldest first."""
    return [today - timedelta(weeks=back) for back in range(weeks, -1, -1)]


def states_on(engine: Engine, days: list[date]) -> dict[date, dict[str, ItemState]]:
    """Per day (oldest first), the state at its end of each item reviewed (counted) after it; the
    items not listed are as they are now."""
    with engine.connect() as connection:
        after = connection.execute(REVIEWS_AFTER, {"since": days[0]}).all()
    states: dict[date, dict[str, ItemState]] = {day: {} for day in days}
    for row in after:
        before = ItemState(
            repetitions=row.reps_before,
            interval=row.interval_before,
            easiness=row.ease_before,
            due_day=row.due_before,
            last_review_day=row.last_day_before,
            fsrs_stability=row.fsrs_stability_before,
            fsrs_difficulty=row.fsrs_difficulty_before,
            # the row keeps no FSRS due day; retrievability does not depend on it, fsrs wants one
            fsrs_due_day=None if row.fsrs_stability_before is None else row.due_before or row.last_day_before,
        )
        for day in days:  # the item's first review after `day` (rows come oldest first)
            if row.study_day > day:
                states[day].setdefault(row.item_id, before)
    return states


def readiness_history(engine: Engine, config: Config, today: date) -> tuple[ReadinessPoint, ...]:
    """The interview predicted at the end of each of point_days(today), oldest first, with the
    interview settings, memory model and record in use today."""
    with engine.connect() as connection:
        ids = list(connection.execute(EVERY_ITEM).scalars())
    items = cards(engine, ids)
    settings = InterviewSettings.from_config(config)
    pools = section_pools(items, settings)
    model, record = memory.get(config.scheduler), records(engine, config.scheduler)
    days = point_days(today)
    points = []
    for day, states in states_on(engine, days).items():
        expectations = [
            expectation(section, replace(card, state=states.get(card.item_id, card.state)), day, model, record)
            for section, pool in pools.items()
            for card in pool
        ]
        points.append(ReadinessPoint(day, forecast(expectations, settings.wanted())))
    return tuple(points)
