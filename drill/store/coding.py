"""Coding-drill attempts: each run of the hidden tests, and what the drill list shows."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import Engine, text

from drill.coding.attempt import CodingAttempt
from drill.schedule.records import Grade, Regrade
from drill.store.transactions import writing
from drill.store.writes import insert_review

INSERT_ATTEMPT = text(
    """INSERT INTO coding_attempt (item_id, review_id, started_at, finished_at, status, passed, failed,
        device, hints_used, seconds, speed_ratio, workspace)
    VALUES (:item_id, :review_id, :started_at, :finished_at, :status, :passed, :failed,
        :device, :hints_used, :seconds, :speed_ratio, :workspace)"""
)

SAME_ATTEMPT = text("SELECT review_id FROM coding_attempt WHERE item_id = :item_id AND finished_at = :finished_at")


@dataclass(frozen=True)
class DrillRecord:
    """One drill's history for the list: best passing time, last result, attempts, hints."""

    item_id: str
    attempts: int
    best_pass_s: float | None
    last_status: str | None
    hints_used: int


def record_attempt(engine: Engine, attempt: CodingAttempt, grade: Grade | None, regrade: Regrade,
                   replayed: bool = False) -> int | None:
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


def drill_records(engine: Engine) -> dict[str, DrillRecord]:
    with engine.connect() as connection:
        rows = connection.execute(
            text(
                """SELECT item_id, COUNT(*) AS attempts,
                    MIN(CASE WHEN status = 'pass' THEN seconds END) AS best,
                    (SELECT status FROM coding_attempt last WHERE last.item_id = a.item_id
                     ORDER BY finished_at DESC, id DESC LIMIT 1) AS last_status,
                    MAX(hints_used) AS hints
                FROM coding_attempt a GROUP BY item_id"""
            )
        ).all()
    return {row.item_id: DrillRecord(row.item_id, row.attempts, row.best, row.last_status, row.hints) for row in rows}
