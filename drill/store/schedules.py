"""Every item's schedule with its whole review log, read at once: what an export that carries
the schedules to Anki needs (drill export --anki --with-schedule)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date

from sqlalchemy import Engine, false, select

from drill.schedule.state import ItemState
from drill.store.dialect import as_date, as_day
from drill.store.queries import STATE_COLUMNS, item_state
from drill.store.review_log import moment, to_ms
from drill.store.tables import item, review

ITEMS = select(item.c.id, item.c.suspended, *STATE_COLUMNS).where(item.c.retired == false())
REVIEWS = select(
    review.c.item_id,
    review.c.reviewed_at,
    review.c.study_day,
    review.c.button,
    review.c.duration_ms,
    review.c.counted,
    review.c.cram,
    review.c.reps_before,
    review.c.ease_after,
    review.c.due_after,
).order_by(review.c.item_id, review.c.reviewed_at, review.c.id)


@dataclass(frozen=True, slots=True)
class LoggedGrade:
    """One stored grade, with what it did to the schedule."""

    ms: int  # Unix time of the grade in milliseconds
    study_day: date
    button: int
    duration_ms: int
    counted: bool  # the first grade of its study day: the one that moved the schedule
    cram: bool
    reps_before: int  # SM-2's repetitions before it (0: new, or failed last time)
    ease_after: float  # SM-2's easiness after it
    due_after: date | None


@dataclass(frozen=True, slots=True)
class ItemSchedule:
    """An item's schedule as stored now, and every grade it had, oldest first."""

    state: ItemState
    suspended: bool
    grades: tuple[LoggedGrade, ...]


def item_schedules(engine: Engine) -> dict[str, ItemSchedule]:
    """The schedule and review log of every item not retired, by item id."""
    grades: defaultdict[str, list[LoggedGrade]] = defaultdict(list)
    with engine.connect() as connection:
        for row in connection.execute(REVIEWS):
            grades[row.item_id].append(
                LoggedGrade(
                    to_ms(moment(row.reviewed_at)),
                    as_day(row.study_day),
                    row.button,
                    row.duration_ms,
                    bool(row.counted),
                    bool(row.cram),
                    row.reps_before,
                    row.ease_after,
                    as_date(row.due_after),
                )
            )
        return {
            row.id: ItemSchedule(item_state(row), bool(row.suspended), tuple(grades.get(row.id, ())))
            for row in connection.execute(ITEMS)
        }
