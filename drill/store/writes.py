"""Writes that happen during study: a grade, its undo, suspending, forgetting. Each commits at once."""

from __future__ import annotations

import json
from dataclasses import asdict

from sqlalchemy import Connection, Engine, text

from drill.schedule.grading import ItemState
from drill.schedule.records import Grade
from drill.store.transactions import writing

INSERT_REVIEW = """INSERT INTO review (item_id, reviewed_at, study_day, button, quality, duration_ms, counted,
        reps_before, interval_before, ease_before, due_before, last_day_before,
        reps_after, interval_after, ease_after, due_after, fsrs_stability_before, fsrs_difficulty_before,
        typed_answer, ticked, cram)
    VALUES (:item_id, :reviewed_at, :study_day, :button, :quality, :duration_ms, :counted,
        :reps_before, :interval_before, :ease_before, :due_before, :last_day_before,
        :reps_after, :interval_after, :ease_after, :due_after, :fsrs_stability_before, :fsrs_difficulty_before,
        :typed_answer, :ticked, :cram)"""
RECORD = text(INSERT_REVIEW)  # many rows at once
RECORD_ONE = text(INSERT_REVIEW + " RETURNING id")  # one row, giving its id (no lastrowid on PostgreSQL)
SET_STATE = text(
    """UPDATE item SET repetitions=:repetitions, interval=:interval, easiness=:easiness,
        due_day=:due_day, last_review_day=:last_review_day, fsrs_stability=:fsrs_stability,
        fsrs_difficulty=:fsrs_difficulty, fsrs_due_day=:fsrs_due_day WHERE id=:item_id"""
)


def state_params(item_id: str, state: ItemState) -> dict[str, object]:
    """SET_STATE's parameters for moving `item_id` to `state`."""
    return {"item_id": item_id, **asdict(state)}


def transition_params(before: ItemState, after: ItemState) -> dict[str, object]:
    """A review row's state columns: the SM-2 state before and after it, and the FSRS memory before
    it (what calibration predicts the review's recall from)."""
    return {
        "reps_before": before.repetitions,
        "interval_before": before.interval,
        "ease_before": before.easiness,
        "due_before": before.due_day,
        "last_day_before": before.last_review_day,
        "reps_after": after.repetitions,
        "interval_after": after.interval,
        "ease_after": after.easiness,
        "due_after": after.due_day,
        "fsrs_stability_before": before.fsrs_stability,
        "fsrs_difficulty_before": before.fsrs_difficulty,
    }


def insert_review(connection: Connection, grade: Grade) -> int:
    """Insert the review row and move the item to its new state; return the review id."""
    review_id = connection.execute(
        RECORD_ONE,
        {
            "item_id": grade.item_id,
            "reviewed_at": grade.reviewed_at,
            "study_day": grade.study_day,
            "button": grade.button,
            "quality": grade.quality,
            "duration_ms": grade.duration_ms,
            "counted": grade.counted,
            "typed_answer": grade.typed_answer,
            "ticked": None if grade.ticked is None else json.dumps(list(grade.ticked)),
            "cram": grade.cram,
            **transition_params(grade.before, grade.after),
        },
    ).scalar_one()
    connection.execute(SET_STATE, state_params(grade.item_id, grade.after))
    return review_id


def record_grade(engine: Engine, grade: Grade) -> int:
    """Store the review and the item's new state in one committed transaction; return the review id."""
    with writing(engine) as connection:
        return insert_review(connection, grade)


def undo_grade(engine: Engine, review_id: int, grade: Grade) -> None:
    """Delete the review and put the item back in the state it had before it."""
    with writing(engine) as connection:
        connection.execute(text("DELETE FROM estimate_attempt WHERE review_id = :id"), {"id": review_id})
        connection.execute(text("DELETE FROM review WHERE id = :id"), {"id": review_id})
        connection.execute(SET_STATE, state_params(grade.item_id, grade.before))


def set_suspended(engine: Engine, item_id: str, suspended: bool) -> None:
    with writing(engine) as connection:
        connection.execute(text("UPDATE item SET suspended = :s WHERE id = :id"), {"s": suspended, "id": item_id})


def forget_item(engine: Engine, item_id: str) -> None:
    """Put the item back to new (SM-2 and FSRS state reset, no due or last review day); its reviews
    and attempts stay."""
    with writing(engine) as connection:
        connection.execute(SET_STATE, state_params(item_id, ItemState()))
