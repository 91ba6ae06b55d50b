"""The review log as rows for export and import: streamed out, checked against, bulk inserted."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date, datetime, timezone

from sqlalchemy import Connection, Engine, bindparam, text

from drill.store.writes import RECORD

ALL_REVIEWS = text(
    "SELECT item_id, reviewed_at, button, duration_ms, cram AND NOT counted FROM review ORDER BY reviewed_at, id"
)
ITEM_IDS = text("SELECT id FROM item")
TIMES = text("SELECT item_id, reviewed_at FROM review WHERE item_id IN :ids").bindparams(
    bindparam("ids", expanding=True)
)
BATCH = 500  # item ids per IN (...) query
STREAM = 1000  # rows fetched at a time while exporting


@dataclass(frozen=True, slots=True)
class LoggedReview:
    """One stored review as the open review-log format carries it."""

    item_id: str
    reviewed_at: datetime  # aware, UTC
    button: int
    duration_ms: int
    cram: bool = False  # a cram grade that kept the schedule: stored, never replayed into one


def moment(value: object) -> datetime:
    """A stored reviewed_at (ISO text in SQLite, a datetime elsewhere) as an aware UTC datetime."""
    stamp = value if isinstance(value, datetime) else datetime.fromisoformat(str(value))
    return stamp.replace(tzinfo=timezone.utc) if stamp.tzinfo is None else stamp.astimezone(timezone.utc)


def stream_reviews(engine: Engine) -> Iterator[LoggedReview]:
    """Every stored review, counted or not, oldest first, fetched in batches."""
    with engine.connect() as connection:
        rows = connection.execution_options(yield_per=STREAM).execute(ALL_REVIEWS)
        for item_id, reviewed_at, button, duration_ms, cram in rows:
            yield LoggedReview(item_id, moment(reviewed_at), button, duration_ms, bool(cram))


def item_ids(engine: Engine) -> list[str]:
    """Every item id in the store, retired ones included."""
    with engine.connect() as connection:
        return list(connection.execute(ITEM_IDS).scalars())


def review_times(connection: Connection, ids: Iterable[str]) -> set[tuple[str, datetime]]:
    """(item id, reviewed_at) of every stored review of `ids`."""
    ids = list(ids)
    found: set[tuple[str, datetime]] = set()
    for start in range(0, len(ids), BATCH):
        for item_id, reviewed_at in connection.execute(TIMES, {"ids": ids[start : start + BATCH]}):
            found.add((item_id, moment(reviewed_at)))
    return found


def insert_reviews(connection: Connection, reviews: list[tuple[LoggedReview, date, int]]) -> None:
    """Insert (review, study day, quality) rows. Their counted flag and before/after states are
    placeholders: the caller rebuilds the items' schedules (reschedule.rebuild_in, rewrite_log)."""
    if not reviews:
        return
    placeholder = {
        "counted": False, "reps_before": 0, "interval_before": 0, "ease_before": 2.5, "due_before": None,
        "last_day_before": None, "reps_after": 0, "interval_after": 0, "ease_after": 2.5, "due_after": None,
        "fsrs_stability_before": None, "fsrs_difficulty_before": None, "typed_answer": None, "ticked": None,

    }
    connection.execute(
        RECORD,
        [
            {
                **placeholder, "item_id": review.item_id, "reviewed_at": review.reviewed_at, "study_day": day,
                "button": review.button, "quality": quality, "duration_ms": review.duration_ms, "cram": review.cram,
            }
            for review, day, quality in reviews
        ],
    )
