"""The card browser's reads: every item with its schedule and standing (reviews, lapses, suspended,
leech), one item's history (reviews, estimation attempts, drill attempts), and which ids exist."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from pydantic import TypeAdapter
from pydantic.dataclasses import dataclass as read_model
from sqlalchemy import Connection, Engine, Row, bindparam, false, func, select

from drill.read_model import ReadModel
from drill.store.dialect import as_date, as_day
from drill.store.leeches import standing, standings
from drill.store.review_log import moment
from drill.store.tables import coding_attempt, estimate_attempt, item, review

_REVIEWS = select(func.count()).where(review.c.item_id == item.c.id).scalar_subquery()
ALL_ROWS = (
    select(
        item.c.id,
        item.c.kind,
        item.c.block,
        item.c.topic,
        item.c.prompt,
        item.c.answer,
        item.c.source,
        item.c.due_day,
        item.c.last_review_day,
        item.c.easiness,
        item.c.fsrs_stability,
        item.c.suspended,
        _REVIEWS.label("reviews"),
    )
    .where(item.c.retired == false())
    .order_by(item.c.position)
)
SOME_ROWS = ALL_ROWS.where(item.c.id.in_(bindparam("ids", expanding=True)))
KNOWN = select(item.c.id).where(item.c.retired == false(), item.c.id.in_(bindparam("ids", expanding=True)))
POINTS = select(item.c.points).where(item.c.id == bindparam("id"))
REVIEWS = (
    select(
        review.c.reviewed_at,
        review.c.study_day,
        review.c.button,
        review.c.due_after,
        review.c.duration_ms,
        review.c.counted,
        review.c.cram,
        review.c.typed_answer,
        review.c.ticked,
    )
    .where(review.c.item_id == bindparam("id"))
    .order_by(review.c.reviewed_at, review.c.id)
)
ESTIMATES = (
    select(
        estimate_attempt.c.attempted_at,
        estimate_attempt.c.answer,
        estimate_attempt.c.truth,
        estimate_attempt.c.unit,
        estimate_attempt.c.score,
        estimate_attempt.c.slip,
        estimate_attempt.c.error,
        estimate_attempt.c.seconds,
        estimate_attempt.c.mock_round_id,
    )
    .where(estimate_attempt.c.item_id == bindparam("id"))
    .order_by(estimate_attempt.c.attempted_at, estimate_attempt.c.id)
)
DRILLS = (
    select(
        coding_attempt.c.started_at,
        coding_attempt.c.status,
        coding_attempt.c.passed,
        coding_attempt.c.failed,
        coding_attempt.c.hints_used,
        coding_attempt.c.seconds,
        coding_attempt.c.device,
    )
    .where(coding_attempt.c.item_id == bindparam("id"))
    .order_by(coding_attempt.c.started_at, coding_attempt.c.id)
)
STATE = {"due", "interval", "reviews", "lapses", "suspended", "leech"}  # `drill list --json`'s "state"


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item as the browser and `drill list` show it. A plain frozen dataclass, written out
    through a TypeAdapter: the browser reads every item's row at once, and a validated model costs
    about half as much again to build as the dataclass."""

    item_id: str
    kind: str
    block: str
    topic: str
    prompt: str
    answer: str
    source: str
    due: date | None  # None: never reviewed (new)
    interval: int  # days from the last review to the due day (0 while new or relearning)
    easiness: float  # SM-2's ease
    stability: float | None  # FSRS's stability in days (None while new)
    reviews: int  # every grade given, repeats included
    lapses: int
    suspended: bool
    leech: bool

    @property
    def is_new(self) -> bool:
        return self.due is None

    def state_json(self) -> dict[str, object]:
        """`drill list --json`'s "state": the schedule and standing fields, as JSON."""
        return _ROW.dump_python(self, mode="json", include=STATE)


_ROW = TypeAdapter(ItemRow)


class ReviewEntry(ReadModel):
    """One grade in an item's history."""

    reviewed_at: datetime  # aware, UTC
    button: int
    interval_after: int | None  # days from its study day to the due day it gave (None: no due day)
    seconds: float
    counted: bool  # False: a repeat the same day, which moved no schedule
    cram: bool
    typed_answer: str | None
    ticked: tuple[int, ...] | None


class EstimateEntry(ReadModel):
    """One answer to an estimation problem (in a review or a mock round)."""

    attempted_at: datetime
    answer: str
    truth: float
    unit: str
    score: float
    slip: str | None
    error: str | None
    seconds: float
    in_round: bool


class DrillEntry(ReadModel):
    """One run of a coding drill's hidden tests."""

    started_at: datetime
    status: str
    passed: int
    failed: int
    hints_used: int
    seconds: float
    device: str


@read_model(frozen=True)
class ItemInfo:
    """Everything card info shows about one item (a dataclass to its screen, which replaces its row)."""

    row: ItemRow
    points: tuple[str, ...]
    reviews: tuple[ReviewEntry, ...]
    estimates: tuple[EstimateEntry, ...]
    drills: tuple[DrillEntry, ...]


def _row(row: Row[*tuple[Any, ...]], lapses: int, leech: bool) -> ItemRow:
    due, last = as_date(row.due_day), as_date(row.last_review_day)
    interval = (due - last).days if due is not None and last is not None else 0
    return ItemRow(
        row.id,
        row.kind,
        row.block,
        row.topic,
        row.prompt,
        row.answer,
        row.source,
        due,
        max(0, interval),
        row.easiness,
        row.fsrs_stability,
        row.reviews,
        lapses,
        bool(row.suspended),
        leech,
    )


def item_rows(engine: Engine, leech_threshold: int) -> list[ItemRow]:
    """Every item not retired, in content order."""
    with engine.connect() as connection:
        found = standings(connection)
        rows = []
        for row in connection.execute(ALL_ROWS):
            now = found.get(row.id)
            rows.append(_row(row, 0, False) if now is None else _row(row, now.lapses, now.is_leech(leech_threshold)))
        return rows


def _rows_of(connection: Connection, ids: list[str], leech_threshold: int) -> list[ItemRow]:
    rows = []
    for row in connection.execute(SOME_ROWS, {"ids": ids}):
        now = standing(connection, row.id)
        rows.append(_row(row, now.lapses, now.is_leech(leech_threshold)))
    return rows


def item_row(engine: Engine, item_id: str, leech_threshold: int) -> ItemRow | None:
    """One item's row as it is now (None: no such item)."""
    with engine.connect() as connection:
        rows = _rows_of(connection, [item_id], leech_threshold)
    return rows[0] if rows else None


def item_info(engine: Engine, item_id: str, leech_threshold: int) -> ItemInfo | None:
    """One item's row, checklist and whole history, oldest first (None: no such item)."""
    with engine.connect() as connection:
        rows = _rows_of(connection, [item_id], leech_threshold)
        if not rows:
            return None
        points = tuple(json.loads(connection.execute(POINTS, {"id": item_id}).scalar_one()))
        reviews = tuple(
            ReviewEntry(
                reviewed_at=moment(r.reviewed_at),
                button=r.button,
                interval_after=None if r.due_after is None else (as_day(r.due_after) - as_day(r.study_day)).days,
                seconds=r.duration_ms / 1000,
                counted=r.counted,
                cram=r.cram,
                typed_answer=r.typed_answer,
                ticked=None if r.ticked is None else json.loads(r.ticked),
            )
            for r in connection.execute(REVIEWS, {"id": item_id})
        )
        estimates = tuple(
            EstimateEntry(
                attempted_at=moment(r.attempted_at),
                answer=r.answer,
                truth=r.truth,
                unit=r.unit,
                score=r.score,
                slip=r.slip,
                error=r.error,
                seconds=r.seconds,
                in_round=r.mock_round_id is not None,
            )
            for r in connection.execute(ESTIMATES, {"id": item_id})
        )
        drills = tuple(
            DrillEntry(
                started_at=moment(r.started_at),
                status=r.status,
                passed=r.passed,
                failed=r.failed,
                hints_used=r.hints_used,
                seconds=r.seconds,
                device=r.device,
            )
            for r in connection.execute(DRILLS, {"id": item_id})
        )
    return ItemInfo(rows[0], points, reviews, estimates, drills)


def unknown_ids(engine: Engine, ids: Iterable[str]) -> list[str]:
    """Those of `ids` that name no item (retired ones included), in the order given."""
    ids = list(dict.fromkeys(ids))
    if not ids:
        return []
    with engine.connect() as connection:
        known = set(connection.execute(KNOWN, {"ids": ids}).scalars())
    return [item_id for item_id in ids if item_id not in known]
