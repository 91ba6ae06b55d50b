"""Writes that happen during study: a grade, its undo, suspending, forgetting (an event of the
item's history). Each commits at once."""

from __future__ import annotations

import json
from datetime import datetime

from sqlalchemy import Connection, Engine, bindparam, delete, insert, select, update

from drill.schedule.grading import ItemState
from drill.schedule.records import Grade, Regrade
from drill.store.item_states import (
    MOVE_STATE,
    SET_STATE,
    current_state,
    move_params,
    state_params,
    transition_params,
)
from drill.store.reschedule import rebuild_in
from drill.store.tables import FORGET, estimate_attempt, item, review, schedule_event
from drill.store.transactions import writing

RECORD = insert(review)  # the columns are the rows' keys; many rows at once
RECORD_ONE = insert(review).returning(review.c.id)  # one row, giving its id (no lastrowid on PostgreSQL)
REVIEWED_SINCE = select(1).where(review.c.item_id == bindparam("item_id"), review.c.reviewed_at > bindparam("at"))
RECORD_EVENT = insert(schedule_event)
SAME_EVENT = select(1).where(
    schedule_event.c.item_id == bindparam("item_id"),
    schedule_event.c.happened_at == bindparam("happened_at"),
    schedule_event.c.kind == bindparam("kind"),
)
SAME_REVIEW = (
    select(review.c.id)
    .where(review.c.item_id == bindparam("item_id"), review.c.reviewed_at == bindparam("reviewed_at"))
    .order_by(review.c.id.desc())
    .limit(1)
)


def insert_review(connection: Connection, grade: Grade, regrade: Regrade, replayed: bool = False) -> int:
    """Move the item to its new state and insert the review row; return the review id.

    The grade is written against the state it was computed from: the item is moved only while it
    still has `grade.before` (one statement); when another session moved it since, the grade is
    rebased on the stored state with `regrade`, so it is never counted twice on one study day. A
    `replayed` grade (from the journal) already stored (same item, same moment) is not written
    again; its id is returned."""
    if replayed:
        stored = connection.execute(SAME_REVIEW, {"item_id": grade.item_id, "reviewed_at": grade.reviewed_at}).scalar()
        if stored is not None:
            return stored
    if not connection.execute(MOVE_STATE, move_params(grade.item_id, grade.before, grade.after)).rowcount:
        current = current_state(connection, grade.item_id)
        if current is not None and current != grade.before:
            grade = grade.rebased(current, regrade)
        connection.execute(SET_STATE, state_params(grade.item_id, grade.after))
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
    return review_id


def record_grade(engine: Engine, grade: Grade, regrade: Regrade, replayed: bool = False) -> int:
    """Store the review and the item's new state in one committed transaction; return the review id."""
    with writing(engine) as connection:
        return insert_review(connection, grade, regrade, replayed)


def undo_grade(engine: Engine, grade: Grade, scheduler: str) -> None:
    """Delete the review `grade` wrote and put the item back in the state it had before it; when
    another session graded the item since (or the grade was rebased), replay its remaining history
    with `scheduler` instead. Nothing happens when the review is not stored."""
    with writing(engine) as connection:
        review_id = connection.execute(
            SAME_REVIEW, {"item_id": grade.item_id, "reviewed_at": grade.reviewed_at}
        ).scalar()
        if review_id is None:
            return
        current = current_state(connection, grade.item_id)
        connection.execute(delete(estimate_attempt).where(estimate_attempt.c.review_id == review_id))
        connection.execute(delete(review).where(review.c.id == review_id))
        if current == grade.after:
            connection.execute(SET_STATE, state_params(grade.item_id, grade.before))
        else:
            rebuild_in(connection, [grade.item_id], scheduler, rewrite_log=True)


def set_suspended(engine: Engine, item_id: str, suspended: bool) -> None:
    with writing(engine) as connection:
        connection.execute(update(item).where(item.c.id == item_id).values(suspended=suspended))


def forget_item(engine: Engine, item_id: str, at: datetime, scheduler: str) -> None:
    """Put the item back to new (SM-2 and FSRS state reset, no due or last review day) and record
    the forget in its history at `at`, so every replay of the history starts again there; its
    reviews and attempts stay. A forget already stored (the same moment: a journalled write made
    again) is not stored twice. One that comes after a review given later than `at` (replayed from
    the journal late) takes its place in the history, and the item's schedule is replayed with
    `scheduler` from it: the later reviews count from new."""
    with writing(engine) as connection:
        forget = {"item_id": item_id, "happened_at": at, "kind": FORGET}
        if connection.execute(SAME_EVENT, forget).first() is None:
            connection.execute(RECORD_EVENT, forget)
        if connection.execute(REVIEWED_SINCE, {"item_id": item_id, "at": at}).first() is None:
            connection.execute(SET_STATE, state_params(item_id, ItemState()))
        else:
            rebuild_in(connection, [item_id], scheduler, rewrite_log=True)
