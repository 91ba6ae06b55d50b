"""The tables, as sqlmodel classes (the DDL itself lives in migrations.py)."""

from __future__ import annotations

from datetime import date, datetime

from sqlmodel import Field, SQLModel


class Item(SQLModel, table=True):
    """One thing the user practises, with its current text and SM-2 state."""

    id: str = Field(primary_key=True)
    kind: str
    block: str
    topic: str
    deck: str
    position: int
    prompt: str
    answer: str
    source: str
    points: str = "[]"  # JSON list
    target_seconds: int | None = None
    errata: str | None = None
    content_hash: str
    repetitions: int = 0
    interval: int = 0
    easiness: float = 2.5
    due_day: date | None = None
    last_review_day: date | None = None
    fsrs_stability: float | None = None
    fsrs_difficulty: float | None = None
    fsrs_due_day: date | None = None
    suspended: bool = False
    retired: bool = False
    created_at: datetime
    updated_at: datetime


class ItemRevision(SQLModel, table=True):
    """An earlier text of an item, kept when the content file changes it."""

    __tablename__ = "item_revision"
    id: int | None = Field(default=None, primary_key=True)
    item_id: str = Field(foreign_key="item.id")
    content_hash: str
    prompt: str
    answer: str
    replaced_at: datetime


class Review(SQLModel, table=True):
    """One grade, with the state before and after (equal for same-day repeats)."""

    id: int | None = Field(default=None, primary_key=True)
    item_id: str = Field(foreign_key="item.id")
    reviewed_at: datetime
    study_day: date
    button: int
    quality: int
    duration_ms: int
    counted: bool
    reps_before: int
    interval_before: int
    ease_before: float
    due_before: date | None = None
    last_day_before: date | None = None
    reps_after: int
    interval_after: int
    ease_after: float
    due_after: date | None = None
    fsrs_stability_before: float | None = None  # the FSRS memory before it (None before the first review)
    fsrs_difficulty_before: float | None = None


class MockRound(SQLModel, table=True):
    """A timed round of estimation problems."""

    __tablename__ = "mock_round"
    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime
    finished_at: datetime | None = None
    problems: int
    time_limit_s: int
    blocks: str  # JSON list
    score: float | None = None
    abandoned: bool = False


class EstimateAttempt(SQLModel, table=True):
    """One answer to a generated estimation problem, in a review or a mock round."""

    __tablename__ = "estimate_attempt"
    id: int | None = Field(default=None, primary_key=True)
    item_id: str = Field(foreign_key="item.id")
    review_id: int | None = Field(default=None, foreign_key="review.id")
    mock_round_id: int | None = Field(default=None, foreign_key="mock_round.id")
    attempted_at: datetime
    params: str  # JSON
    answer: str
    parsed: float | None = None
    truth: float
    unit: str
    score: float
    log_error: float | None = None
    slip: str | None = None
    error: str | None = None
    seconds: float


class CodingAttempt(SQLModel, table=True):
    """One run of a coding drill's hidden tests against the user's file."""

    __tablename__ = "coding_attempt"
    id: int | None = Field(default=None, primary_key=True)
    item_id: str = Field(foreign_key="item.id")
    review_id: int | None = Field(default=None, foreign_key="review.id")
    started_at: datetime
    finished_at: datetime
    status: str
    passed: int
    failed: int
    device: str
    hints_used: int = 0
    seconds: float
    speed_ratio: float | None = None
    workspace: str


class MockInterview(SQLModel, table=True):
    """A timed mock interview: its sections (JSON: settings, items per section, the items), scores."""

    __tablename__ = "mock_interview"
    id: int | None = Field(default=None, primary_key=True)
    started_at: datetime
    finished_at: datetime | None = None
    seconds_allowed: int
    seconds_used: float | None = None
    sections: str  # JSON
    grill_score: float | None = None
    pitch_score: float | None = None
    estimate_score: float | None = None
    coding_score: float | None = None
    score: float | None = None
    ended: str | None = None  # "done", "time" or "abandoned"
    abandoned: bool = False


class MockInterviewAnswer(SQLModel, table=True):
    """One answer in a mock interview; a graded one points at the review it also was."""

    __tablename__ = "mock_interview_answer"
    id: int | None = Field(default=None, primary_key=True)
    interview_id: int = Field(foreign_key="mock_interview.id")
    position: int
    section: str
    item_id: str = Field(foreign_key="item.id")
    review_id: int | None = Field(default=None, foreign_key="review.id")
    answered_at: datetime
    button: int | None = None
    score: float
    seconds: float
    target_seconds: int | None = None
    answer: str | None = None
    result: str | None = None
    detail: str | None = None


class StoreFact(SQLModel, table=True):
    """A named fact about the store itself, e.g. which scheduler set the stored due days."""

    __tablename__ = "store_fact"
    key: str = Field(primary_key=True)
    value: str
