"""An item's schedule as the store keeps it: reading it inside a transaction and setting it."""

from __future__ import annotations

from dataclasses import fields

from sqlalchemy import Connection, bindparam, select, update

from drill.schedule.grading import ItemState
from drill.store.queries import STATE_COLUMNS, item_state
from drill.store.tables import item

# The columns set are the parameters' other keys (state_params gives all of ItemState's).
SET_STATE = update(item).where(item.c.id == bindparam("item_id"))
READ_STATE = select(*STATE_COLUMNS).where(item.c.id == bindparam("item_id"))
STATE_FIELDS = tuple(field.name for field in fields(ItemState))
# SET_STATE only while the item still has the state named by the "was_" parameters (a grade's
# `before`): no row moved when another session moved it since.
MOVE_STATE = SET_STATE.where(*(column.is_not_distinct_from(bindparam(f"was_{column.key}")) for column in STATE_COLUMNS))


def state_params(item_id: str, state: ItemState) -> dict[str, object]:
    """SET_STATE's parameters for moving `item_id` to `state`."""
    return {"item_id": item_id} | {name: getattr(state, name) for name in STATE_FIELDS}


def move_params(item_id: str, before: ItemState, after: ItemState) -> dict[str, object]:
    """MOVE_STATE's parameters for moving `item_id` from `before` to `after`."""
    return state_params(item_id, after) | {f"was_{name}": getattr(before, name) for name in STATE_FIELDS}


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


def current_state(connection: Connection, item_id: str) -> ItemState | None:
    """The item's schedule as stored now (None: no such item)."""
    row = connection.execute(READ_STATE, {"item_id": item_id}).one_or_none()
    return None if row is None else item_state(row)
