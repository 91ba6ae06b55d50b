"""The card browser's reads: every item with its schedule and standing (reviews, lapses, suspended,
leech), one item's history (reviews, estimation attempts, drill attempts), and which ids exist."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import date, datetime

from sqlalchemy import Connection, Engine, bindparam, text

from drill.store.dialect import as_date
from drill.store.leeches import standing, standings
from drill.store.review_log import moment

ROWS = """SELECT id, kind, block, topic, prompt, answer, source, due_day, last_review_day, easiness,
    fsrs_stability, suspended, (SELECT COUNT(*) FROM review WHERE review.item_id = item.id) AS reviews
    FROM item WHERE retired = FALSE {only} ORDER BY position"""
ALL_ROWS = text(ROWS.format(only=""))
SOME_ROWS = text(ROWS.format(only="AND id IN :ids")).bindparams(bindparam("ids", expanding=True))
KNOWN = text("SELECT id FROM item WHERE retired = FALSE AND id IN :ids").bindparams(bindparam("ids", expanding=True))
POINTS = text("SELECT points FROM item WHERE id = :id")
REVIEWS = text(
    """SELECT reviewed_at, study_day, button, due_after, duration_ms, counted, cram, typed_answer, ticked
    FROM review WHERE item_id = :id ORDER BY reviewed_at, id"""
)
ESTIMATES = text(
    """SELECT attempted_at, answer, truth, unit, score, slip, error, seconds, mock_round_id
    FROM estimate_attempt WHERE item_id = :id ORDER BY attempted_at, id"""
)
DRILLS = text(
    """SELECT started_at, status, passed, failed, hints_used, seconds, device
    FROM coding_attempt WHERE item_id = :id ORDER BY started_at, id"""
)


@dataclass(frozen=True, slots=True)
class ItemRow:
    """One item as the browser and `drill list` show it."""

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
        """`drill list --json`'s "state"."""
        return {
            "due": None if self.due is None else self.due.isoformat(), "interval": self.interval,
            "reviews": self.reviews, "lapses": self.lapses, "suspended": self.suspended, "leech": self.leech,
        }


@dataclass(frozen=True, slots=True)
class ReviewEntry:
    """One grade in an item's history."""

    reviewed_at: datetime  # aware, UTC
    button: int
    interval_after: int | None  # days from its study day to the due day it gave (None: no due day)
    seconds: float
    counted: bool  # False: a repeat the same day, which moved no schedule
    cram: bool
    typed_answer: str | None
    ticked: tuple[int, ...] | None


@dataclass(frozen=True, slots=True)
class EstimateEntry:
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


@dataclass(frozen=True, slots=True)
class DrillEntry:
    """One run of a coding drill's hidden tests."""

    started_at: datetime
    status: str
    passed: int
    failed: int
    hints_used: int
    seconds: float
    device: str


@dataclass(frozen=True)
class ItemInfo:
    """Everything card info shows about one item."""

    row: ItemRow
    points: tuple[str, ...]
    reviews: tuple[ReviewEntry, ...]
    estimates: tuple[EstimateEntry, ...]
    drills: tuple[DrillEntry, ...]


def _row(row, lapses: int, leech: bool) -> ItemRow:
    due, last = as_date(row.due_day), as_date(row.last_review_day)
    interval = (due - last).days if due is not None and last is not None else 0
    return ItemRow(
        row.id, row.kind, row.block, row.topic, row.prompt, row.answer, row.source, due, max(0, interval), row.easiness, row.fsrs_stability, row.reviews, lapses, bool(row.suspended), leech,
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
                moment(r.reviewed_at), r.button,
                None if r.due_after is None else (as_date(r.due_after) - as_date(r.study_day)).days,
                r.duration_ms / 1000, bool(r.counted), bool(r.cram), r.typed_answer,
                None if r.ticked is None else tuple(json.loads(r.ticked)),
            )
            for r in connection.execute(REVIEWS, {"id": item_id})
        )
        estimates = tuple(
            EstimateEntry(moment(r.attempted_at), r.answer, r.truth, r.unit, r.score, r.slip, r.error, r.seconds,
                          r.mock_round_id is not None)
            for r in connection.execute(ESTIMATES, {"id": item_id})
        )
        drills = tuple(
            DrillEntry(moment(r.started_at), r.status, r.passed, r.failed, r.hints_used, r.seconds, r.device)
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
