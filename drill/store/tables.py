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
    content_hash: str
    repetitions: int = 0
    interval: int = 0
    easiness: float = 2.5
    due_day: date | None = None
    last_review_day: date | None = None
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
