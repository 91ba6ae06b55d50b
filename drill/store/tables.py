"""The store's schema, one SQLModel table class per table: the one place it is declared.

Alembic's revisions (drill/store/revisions/versions) build it step by step and target this
metadata; tests/unit/store/test_schema_drift.py finds no difference between the two on SQLite and on
PostgreSQL. Queries are SQLAlchemy Core built on the tables (`review = Review.__table__`), never an
ORM session: the classes are never instantiated row by row.

Ids of rows drill adds are the database's (SQLite's rowid, PostgreSQL's identity); items keep the
ids their content gives them. Days and moments are typed in drill/store/column_types.py.

Importing the schema stays cheap: pydantic builds a table class's validator only if one is ever
made, PostgreSQL's dialect is not loaded for the partial indexes (see `_partial_on_postgresql`), and
the annotations are objects, not strings (no `from __future__ import annotations`) that pydantic and
SQLAlchemy would each compile and evaluate, field by field.
"""

from datetime import date, datetime
from typing import Any

from sqlalchemy import Connection, Identity, Index, MetaData, Table, Text, event, false, text
from sqlmodel import Field, SQLModel
from sqlmodel.main import SQLModelConfig

from drill.store.column_types import Day, Moment, Real

ZERO = text("0")

# The partial indexes' WHERE, on SQLite and PostgreSQL alike. A query meant to read one of them says
# it as it stands (SQLite's planner uses a partial index only for the terms written as the index writes them).
MEMORY_BEFORE_MISSING = text("fsrs_stability_before IS NULL AND last_day_before IS NOT NULL")
LAPSE = text("counted = TRUE AND button = 1 AND reps_before > 0")  # a counted Again on a learned item
CRAM = text("cram = TRUE")
FORGET = "forget"  # schedule_event.kind of a forget


def _row_id() -> int | None:
    """A row id the database gives (INTEGER PRIMARY KEY on SQLite, an identity on PostgreSQL)."""
    return Field(default=None, primary_key=True, sa_column_args=[Identity()])


class _Table(SQLModel):
    """A table class: never validated row by row, so pydantic builds no validator at import."""

    model_config = SQLModelConfig(defer_build=True)


class Item(_Table, table=True):
    """Everything practised: cards, pitches, estimation families, coding drills, and each one's schedule."""

    __tablename__ = "item"
    __table_args__ = (
        # The queue's covering indexes: building it reads these alone (sibling groups included).
        Index("ix_item_due", "retired", "suspended", "due_day", "kind", "block", "position", "id", "siblings"),
        Index("ix_item_new", "retired", "suspended", "last_review_day", "kind", "block", "position", "id", "siblings"),
        # The stats' items of one kind (pitches, estimation families, coding drills), and their count.
        Index("ix_item_kind", "kind", "block", "retired", "suspended", "id"),
    )

    id: str = Field(primary_key=True, sa_type=Text)
    kind: str = Field(sa_type=Text)
    block: str = Field(sa_type=Text)
    topic: str = Field(sa_type=Text)
    deck: str = Field(sa_type=Text)
    position: int
    prompt: str = Field(sa_type=Text)
    answer: str = Field(sa_type=Text)
    source: str = Field(sa_type=Text)
    points: str = Field(default="[]", sa_type=Text, sa_column_kwargs={"server_default": "[]"})  # JSON list
    target_seconds: int | None = None
    content_hash: str = Field(sa_type=Text)
    repetitions: int = Field(default=0, sa_column_kwargs={"server_default": ZERO})
    interval: int = Field(default=0, sa_column_kwargs={"server_default": ZERO})
    easiness: float = Field(default=2.5, sa_type=Real, sa_column_kwargs={"server_default": text("2.5")})
    due_day: date | None = Field(default=None, sa_type=Day)
    last_review_day: date | None = Field(default=None, sa_type=Day)
    suspended: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    retired: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    created_at: datetime = Field(sa_type=Moment)
    updated_at: datetime = Field(sa_type=Moment)
    fsrs_stability: float | None = Field(default=None, sa_type=Real)
    fsrs_difficulty: float | None = Field(default=None, sa_type=Real)
    fsrs_due_day: date | None = Field(default=None, sa_type=Day)
    errata: str | None = Field(default=None, sa_type=Text)
    siblings: str | None = Field(default=None, sa_type=Text)  # the effective sibling group
    # Its LAPSE reviews, kept by the review table's triggers (revision 0014) in each review row's transaction.
    lapse_count: int = Field(default=0, sa_column_kwargs={"server_default": ZERO})


class ItemRevision(_Table, table=True):
    """An item's text before an edit replaced it."""

    __tablename__ = "item_revision"

    id: int | None = _row_id()
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    content_hash: str = Field(sa_type=Text)
    prompt: str = Field(sa_type=Text)
    answer: str = Field(sa_type=Text)
    replaced_at: datetime = Field(sa_type=Moment)


class Review(_Table, table=True):
    """One grade: when, how, and the item's schedule just before and after it."""

    __tablename__ = "review"
    __table_args__ = (
        Index("ix_review_item", "item_id", "reviewed_at"),
        Index("ix_review_day", "study_day"),
        # The stats' covering indexes: per study day, and per item with the day.
        Index("ix_review_stats_day", "study_day", "counted", "interval_before", "button", "duration_ms"),
        Index("ix_review_stats_item", "item_id", "study_day", "counted", "interval_before", "button", "duration_ms"),
        # Rows that still lack the FSRS memory before them (empty once opening has replayed them).
        Index("ix_review_without_memory", "item_id", sqlite_where=MEMORY_BEFORE_MISSING),
        # Lapses (drill.store.leeches) and cram reviews, each read through an index of their own.
        Index("ix_review_lapse", "item_id", sqlite_where=LAPSE),
        Index("ix_review_cram", "study_day", "item_id", "counted", sqlite_where=CRAM),
    )

    id: int | None = _row_id()
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    reviewed_at: datetime = Field(sa_type=Moment)
    study_day: date = Field(sa_type=Day)
    button: int
    quality: int
    duration_ms: int
    counted: bool  # the first grade of the item on its study day: the one that moves its schedule
    reps_before: int
    interval_before: int
    ease_before: float = Field(sa_type=Real)
    due_before: date | None = Field(default=None, sa_type=Day)
    last_day_before: date | None = Field(default=None, sa_type=Day)
    reps_after: int
    interval_after: int
    ease_after: float = Field(sa_type=Real)
    due_after: date | None = Field(default=None, sa_type=Day)
    fsrs_stability_before: float | None = Field(default=None, sa_type=Real)
    fsrs_difficulty_before: float | None = Field(default=None, sa_type=Real)
    typed_answer: str | None = Field(default=None, sa_type=Text)
    ticked: str | None = Field(default=None, sa_type=Text)  # JSON list of the checklist points ticked
    cram: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class ReviewDay(_Table, table=True):
    """The reviews of one study day and block, summed (drill.store.counters): kept by the review
    table's triggers (revision 0014) in the transaction of each review row's change, so the
    activity figures read a row per day, not every review. Counted reviews are young or mature by
    their interval before (MATURE_DAYS), passed when not Again."""

    __tablename__ = "review_day"
    __table_args__ = (Index("ix_review_day_block", "block", "reviews"),)  # home's reviews per block, in order

    study_day: date = Field(primary_key=True, sa_type=Day)
    block: str = Field(primary_key=True, sa_type=Text)
    reviews: int
    duration_ms: int
    mature: int
    mature_passed: int
    young: int
    young_passed: int


class ScheduleEvent(_Table, table=True):
    """A change to an item's schedule made by hand, kept in its history beside the reviews: a replay of
    the history applies it in time order. The one kind is FORGET (the item starts again from new)."""

    __tablename__ = "schedule_event"
    __table_args__ = (Index("ix_schedule_event_item", "item_id", "happened_at"),)

    id: int | None = _row_id()
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    happened_at: datetime = Field(sa_type=Moment)
    kind: str = Field(sa_type=Text)


class MockRound(_Table, table=True):
    """A timed round of estimation problems."""

    __tablename__ = "mock_round"

    id: int | None = _row_id()
    started_at: datetime = Field(sa_type=Moment)
    finished_at: datetime | None = Field(default=None, sa_type=Moment)
    problems: int
    time_limit_s: int
    blocks: str = Field(sa_type=Text)  # JSON list
    score: float | None = Field(default=None, sa_type=Real)
    abandoned: bool = Field(default=False, sa_column_kwargs={"server_default": false()})


class EstimateAttempt(_Table, table=True):
    """One answer to an estimation problem, in a review or a mock round."""

    __tablename__ = "estimate_attempt"
    __table_args__ = (
        Index("ix_estimate_item", "item_id", "attempted_at"),
        # The stats' covering indexes: per family over time, in order of error, per round.
        Index("ix_estimate_stats", "item_id", "attempted_at", "score", "log_error", "slip"),
        Index("ix_estimate_error", "item_id", "log_error", "attempted_at"),
        Index("ix_estimate_round", "mock_round_id"),
        # The whole period's median in order of error, the trend's buckets over time, slips per family.
        Index("ix_estimate_by_error", "log_error", "attempted_at", "item_id"),
        Index("ix_estimate_time", "attempted_at", "log_error", "score", "item_id"),
        Index("ix_estimate_slip", "item_id", "slip", "attempted_at"),
    )

    id: int | None = _row_id()
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    review_id: int | None = Field(default=None, foreign_key="review.id", ondelete="SET NULL")
    mock_round_id: int | None = Field(default=None, foreign_key="mock_round.id")
    attempted_at: datetime = Field(sa_type=Moment)
    params: str = Field(sa_type=Text)  # JSON object
    answer: str = Field(sa_type=Text)
    parsed: float | None = Field(default=None, sa_type=Real)
    truth: float = Field(sa_type=Real)
    unit: str = Field(sa_type=Text)
    score: float = Field(sa_type=Real)
    log_error: float | None = Field(default=None, sa_type=Real)
    slip: str | None = Field(default=None, sa_type=Text)
    error: str | None = Field(default=None, sa_type=Text)
    seconds: float = Field(sa_type=Real)


class CodingAttempt(_Table, table=True):
    """One run of a coding drill's hidden tests."""

    __tablename__ = "coding_attempt"
    __table_args__ = (
        Index("ix_coding_item", "item_id", "started_at"),
        # The stats' covering index: a drill's runs grouped into attempts (workspaces).
        Index("ix_coding_stats", "item_id", "workspace", "finished_at", "status", "seconds", "hints_used"),
        # ... and a drill's latest attempt in a period, by finish time.
        Index("ix_coding_time", "item_id", "finished_at", "workspace", "status", "seconds", "hints_used"),
    )

    id: int | None = _row_id()
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    review_id: int | None = Field(default=None, foreign_key="review.id", ondelete="SET NULL")
    started_at: datetime = Field(sa_type=Moment)
    finished_at: datetime = Field(sa_type=Moment)
    status: str = Field(sa_type=Text)
    passed: int
    failed: int
    device: str = Field(sa_type=Text)
    hints_used: int = Field(default=0, sa_column_kwargs={"server_default": ZERO})
    seconds: float = Field(sa_type=Real)
    speed_ratio: float | None = Field(default=None, sa_type=Real)
    workspace: str = Field(sa_type=Text)


class StoreFact(_Table, table=True):
    """A named fact about the store itself (drill.store.facts)."""

    __tablename__ = "store_fact"

    key: str = Field(primary_key=True, sa_type=Text)
    value: str = Field(sa_type=Text)


class MockInterview(_Table, table=True):
    """A mock interview: one countdown over its sections, and how it ended."""

    __tablename__ = "mock_interview"
    __table_args__ = (Index("ix_interview_started", "started_at"),)

    id: int | None = _row_id()
    started_at: datetime = Field(sa_type=Moment)
    finished_at: datetime | None = Field(default=None, sa_type=Moment)
    seconds_allowed: int
    seconds_used: float | None = Field(default=None, sa_type=Real)
    sections: str = Field(sa_type=Text)  # JSON: the plan
    grill_score: float | None = Field(default=None, sa_type=Real)
    pitch_score: float | None = Field(default=None, sa_type=Real)
    estimate_score: float | None = Field(default=None, sa_type=Real)
    coding_score: float | None = Field(default=None, sa_type=Real)
    score: float | None = Field(default=None, sa_type=Real)
    ended: str | None = Field(default=None, sa_type=Text)
    abandoned: bool = Field(default=False, sa_column_kwargs={"server_default": false()})
    predicted_score: float | None = Field(default=None, sa_type=Real)  # drill's forecast at its start


class MockInterviewAnswer(_Table, table=True):
    """One answer in a mock interview; a graded one points at the review it also was."""

    __tablename__ = "mock_interview_answer"
    __table_args__ = (Index("ix_interview_answer", "interview_id", "position"),)

    id: int | None = _row_id()
    interview_id: int = Field(foreign_key="mock_interview.id")
    position: int
    section: str = Field(sa_type=Text)
    item_id: str = Field(foreign_key="item.id", sa_type=Text)
    review_id: int | None = Field(default=None, foreign_key="review.id", ondelete="SET NULL")
    answered_at: datetime = Field(sa_type=Moment)
    button: int | None = None
    score: float = Field(sa_type=Real)
    seconds: float = Field(sa_type=Real)
    target_seconds: int | None = None
    answer: str | None = Field(default=None, sa_type=Text)
    result: str | None = Field(default=None, sa_type=Text)
    detail: str | None = Field(default=None, sa_type=Text)


METADATA = SQLModel.metadata


@event.listens_for(METADATA, "before_create")
def _partial_on_postgresql(metadata: MetaData, connection: Connection, **_: Any) -> None:
    """Give PostgreSQL each partial index's WHERE as the tables declare it for SQLite. Said here, as
    they are created there, since a `postgresql_where=` in the tables would load PostgreSQL's
    dialect with them on every start; the revisions make the same indexes (drill/store/ddl.py)."""
    if connection.dialect.name == "postgresql":
        for table in metadata.tables.values():
            for index in table.indexes:
                index.dialect_options["postgresql"]["where"] = index.dialect_options["sqlite"]["where"]


# The Core tables queries are built on.
item: Table = Item.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
item_revision: Table = ItemRevision.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
review: Table = Review.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
review_day: Table = ReviewDay.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
schedule_event: Table = ScheduleEvent.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
mock_round: Table = MockRound.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
estimate_attempt: Table = EstimateAttempt.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
coding_attempt: Table = CodingAttempt.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
store_fact: Table = StoreFact.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
mock_interview: Table = MockInterview.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
mock_interview_answer: Table = MockInterviewAnswer.__table__  # type: ignore[attr-defined]  # SQLModel declares it untyped
