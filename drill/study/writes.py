"""The writes the study journals, by the name each has in the journal (drill.store.pending_writes):
PENDING maps it to the store write that makes it, with its journalled arguments. The study hands
these to its writer as screens save, and makes them again at the next start when a drill could
not (keep the names: journals written by older drills are replayed through them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol, TypeVar

from sqlalchemy import Engine

from drill.coding.attempt import CodingAttempt
from drill.config import Config
from drill.estimate.attempt import AttemptRow
from drill.paths import Paths
from drill.schedule.grading import ItemState
from drill.schedule.records import Grade
from drill.store import last_review
from drill.store.coding import record_attempt
from drill.store.estimates import finish_round, record_review_attempt, record_round_attempt
from drill.store.writes import forget_item, record_grade, set_suspended, undo_grade

T = TypeVar("T")


class Target(Protocol):
    """What a journalled write is made against (the study core passes itself)."""

    engine: Engine
    paths: Paths
    config: Config

    def regrade(self, grade: Grade, current: ItemState) -> ItemState: ...


def noted(study: Target, review_id: T, grade: Grade | None) -> T:
    """Record a committed grade as the last one saved (drill.store.last_review; SQLite only)."""
    if isinstance(review_id, int) and grade is not None and study.engine.dialect.name == "sqlite":
        last_review.note(study.paths.database, review_id, grade.item_id, grade.reviewed_at)
    return review_id


def write_grade(study: Target, grade: Grade, replayed: bool = False) -> int:
    """A grade's review and the item's new state, in one transaction; the review id."""
    return noted(study, record_grade(study.engine, grade, study.regrade, replayed), grade)


def write_estimate(study: Target, grade: Grade, attempt: AttemptRow, replayed: bool = False) -> int:
    """An answered estimate card: its review, the item's new state and the attempt; the review id."""
    return noted(study, record_review_attempt(study.engine, grade, attempt, study.regrade, replayed), grade)


def write_coding(study: Target, attempt: CodingAttempt, grade: Grade | None, replayed: bool = False) -> int | None:
    """A drill's test run, with the review an ended drill counts as (`grade`); the review id, if any."""
    return noted(study, record_attempt(study.engine, attempt, grade, study.regrade, replayed), grade)


def write_undo(study: Target, grade: Grade) -> None:
    """Take a grade back (drill.store.writes.undo_grade)."""
    undo_grade(study.engine, grade, study.config.scheduler)
    last_review.forget(study.paths.database)  # the last grade recorded may be the one undone


def write_forget(study: Target, item_id: str, at: datetime) -> None:
    """Put an item back to new, the forget kept in its history (drill.store.writes.forget_item)."""
    forget_item(study.engine, item_id, at, study.config.scheduler)


def on_engine(write: Callable[..., T]) -> Callable[..., T]:
    """A store write whose journalled arguments follow the engine as they are."""
    return lambda study, *arguments, **options: write(study.engine, *arguments, **options)


def write_round_end(study: Target, round_id: int, score: float, abandoned: bool, finished_at: datetime) -> None:
    finish_round(study.engine, round_id, finished_at, score, abandoned)


PENDING: dict[str, Callable[..., Any]] = {
    "grade": write_grade,
    "estimate": write_estimate,
    "coding": write_coding,
    "undo": write_undo,
    "suspend": on_engine(set_suspended),
    "forget": write_forget,
    "round_answer": on_engine(record_round_attempt),
    "round_end": write_round_end,
}
ADDS_ROWS = {"grade", "estimate", "coding", "round_answer"}  # replayed, these skip what is stored already
