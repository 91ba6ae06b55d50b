"""Coding-drill attempts: each run of the hidden tests, and what the drill list shows."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, bindparam, case, func, insert, select

from drill.coding.attempt import CodingAttempt
from drill.schedule.records import Grade, Regrade
from drill.store.tables import coding_attempt
from drill.store.transactions import writing
from drill.store.writes import insert_review

INSERT_ATTEMPT = insert(coding_attempt)  # the columns are the row's keys
SAME_ATTEMPT = select(coding_attempt.c.review_id).where(
    coding_attempt.c.item_id == bindparam("item_id"), coding_attempt.c.finished_at == bindparam("finished_at")
)


@dataclass(frozen=True)
class DrillRecord:
    """One drill's history for the list: best passing time, last result, attempts, hints."""

    item_id: str
    attempts: int
    best_pass_s: float | None
    last_status: str | None
    hints_used: int


def record_attempt(
    engine: Engine, attempt: CodingAttempt, grade: Grade | None, regrade: Regrade, replayed: bool = False
) -> int | None:
    """Store a test run; with `grade` (the attempt ended) also the review and new SM-2 state.
    A `replayed` run (from the journal) already stored is not stored again.

    Returns the review id when a review was written.
    """
    with writing(engine) as connection:
        stored = connection.execute(SAME_ATTEMPT, attempt.row()).first() if replayed else None
        if stored is not None:
            return stored.review_id
        review_id = insert_review(connection, grade, regrade, replayed) if grade is not None else None
        connection.execute(INSERT_ATTEMPT, {**attempt.row(), "review_id": review_id})
    return review_id


_LAST = coding_attempt.alias("last")
_LAST_STATUS = (
    select(_LAST.c.status)
    .where(_LAST.c.item_id == coding_attempt.c.item_id)
    .order_by(_LAST.c.finished_at.desc(), _LAST.c.id.desc())
    .limit(1)
    .scalar_subquery()
)
RECORDS = select(
    coding_attempt.c.item_id,
    func.count().label("attempts"),
    func.min(case((coding_attempt.c.status == "pass", coding_attempt.c.seconds))).label("best"),
    _LAST_STATUS.label("last_status"),
    func.max(coding_attempt.c.hints_used).label("hints"),
).group_by(coding_attempt.c.item_id)


def drill_records(engine: Engine) -> dict[str, DrillRecord]:
    with engine.connect() as connection:
        rows = connection.execute(RECORDS).all()
    return {row.item_id: DrillRecord(row.item_id, row.attempts, row.best, row.last_status, row.hints) for row in rows}
