"""The study library: content synced into the store, today's queue, grading. No Textual here."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime

from drill.config import Config
from drill.content.errors import ContentError
from drill.days import study_day, utc_now
from drill.library import load_library
from drill.paths import Paths
from drill.schedule import grading, queue
from drill.schedule.records import Card, Grade
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store import queries
from drill.store.engine import open_engine
from drill.store.recorder import Recorder
from drill.store.sync import SyncReport, sync_content
from drill.store.writes import record_grade, set_suspended, undo_grade


@dataclass(frozen=True)
class HomeSummary:
    """What the home screen and `drill stats` show first."""

    today: date
    by_block: dict[str, dict[str, int]]
    reviews_total: int
    due_today: int
    new_available: int
    interview_date: date | None
    content_errors: list[ContentError] = field(default_factory=list)

    @property
    def items(self) -> int:
        return sum(block["items"] for block in self.by_block.values())

    @property
    def days_left(self) -> int | None:
        return None if self.interview_date is None else (self.interview_date - self.today).days


class Study:
    """One user's study state: open it once, then ask it for queues and give it grades."""

    def __init__(self, paths: Paths, config: Config, clock: Callable[[], datetime] = utc_now) -> None:
        self.paths = paths
        self.config = config
        self.clock = clock
        self.engine = open_engine(paths.database)
        self.recorder = Recorder()
        self.content_errors: list[ContentError] = []
        self.last_sync = SyncReport()

    @classmethod
    def open(cls, paths: Paths | None = None, clock: Callable[[], datetime] = utc_now) -> "Study":
        """Create the state folder if needed, open the database and sync the content into it."""
        paths = paths or Paths.resolve()
        paths.ensure()
        study = cls(paths, Config.load(paths.config), clock)
        study.sync()
        return study

    def sync(self) -> SyncReport:
        load = load_library(self.paths)
        self.content_errors = load.errors
        self.last_sync = sync_content(self.engine, load.items, load.broken_decks, self.clock())
        return self.last_sync

    @property
    def today(self) -> date:
        return study_day(self.clock(), self.config.rollover_hour)

    def queue(self) -> list[str]:
        """Today's item ids in review order."""
        today = self.today
        progress = queries.day_progress(self.engine, today)
        room = max(0, self.config.max_reviews_per_day - progress.reviews_done)
        due, new = queries.queue_candidates(self.engine, today, per_block=room)
        limits = queue.Limits(
            new_per_day=self.config.new_per_day,
            max_reviews_per_day=self.config.max_reviews_per_day,
            new_done_today=progress.new_done,
            reviews_done_today=progress.reviews_done,
        )
        return queue.build(due, new, limits)

    def cards(self, ids: list[str]) -> list[Card]:
        return queries.cards(self.engine, ids)

    def home(self) -> HomeSummary:
        today = self.today
        by_block = queries.block_counts(self.engine, today)
        progress = queries.day_progress(self.engine, today)
        unseen = sum(block["new"] for block in by_block.values())
        return HomeSummary(
            today=today,
            by_block=by_block,
            reviews_total=queries.reviews_total(self.engine),
            due_today=sum(block["due"] for block in by_block.values()),
            new_available=min(unseen, max(0, self.config.new_per_day - progress.new_done)),
            interview_date=self.config.interview_date,
            content_errors=self.content_errors,
        )

    def grade(self, card: Card, button: int, duration_ms: int) -> Grade:
        """The grade for pressing `button` on `card` now (pure: nothing is written yet)."""
        now = self.clock()
        today = study_day(now, self.config.rollover_hour)
        after = grading.apply(card.state, button, today)
        return Grade(card.item_id, button, BUTTON_QUALITY[button], duration_ms, now, today, card.state, after)

    def record(self, grade: Grade) -> int:
        return record_grade(self.engine, grade)

    def undo(self, review_id: int, grade: Grade) -> None:
        undo_grade(self.engine, review_id, grade)

    def suspend(self, item_id: str, suspended: bool = True) -> None:
        set_suspended(self.engine, item_id, suspended)

    def close(self) -> None:
        self.recorder.drain()
        self.recorder.close()
        self.engine.dispose()
