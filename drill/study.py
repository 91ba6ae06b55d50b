"""The study library: content synced into the store, today's queue, grading. No Textual here."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date, datetime
from typing import TYPE_CHECKING

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

if TYPE_CHECKING:
    from drill.coding.drills import Drill
    from drill.estimate.attempt import Attempt
    from drill.estimate.draw import Problem
    from drill.estimate.rounds import RoundSettings
    from drill.estimate.schema import Family
    from drill.store.coding import DrillRecord
    from drill.store.estimates import RoundRow


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

    def __init__(
        self, paths: Paths, config: Config, clock: Callable[[], datetime] = utc_now, rng: random.Random | None = None
    ) -> None:
        self.paths = paths
        self.config = config
        self.clock = clock
        self.rng = rng or random.Random()
        self.engine = open_engine(paths.database)
        self.recorder = Recorder()
        self.content_errors: list[ContentError] = []
        self.last_sync = SyncReport()

    @classmethod
    def open(
        cls, paths: Paths | None = None, clock: Callable[[], datetime] = utc_now, rng: random.Random | None = None
    ) -> "Study":
        """Create the state folder if needed, open the database and sync the content into it."""
        paths = paths or Paths.resolve()
        paths.ensure()
        study = cls(paths, Config.load(paths.config), clock, rng)
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

    # -- estimation --------------------------------------------------------------------

    def families(self) -> list["Family"]:
        from drill import estimate

        return estimate.families(self.paths.problems)

    def warm_up_estimation(self) -> None:
        """Pay sympy's import and compile the formulas now (call from a worker thread)."""
        from drill import estimate

        for family in self.families():
            estimate.warm_up(family)

    def new_problem(self, item_id: str) -> "Problem":
        """Fresh numbers for the family behind an estimate item."""
        from drill import estimate
        from drill.estimate.items import family_id

        return estimate.generate(estimate.family(self.paths.problems, family_id(item_id)), self.rng)

    def answer_problem(self, problem: "Problem", answer: str, seconds: float) -> "Attempt":
        """Grade `answer` (never raises for any text) into an attempt."""
        from drill import estimate
        from drill.estimate.attempt import Attempt

        family = estimate.family(self.paths.problems, problem.family_id)
        result = estimate.grade(family, problem.params, answer)
        return Attempt(problem, answer, result, seconds, self.clock())

    def grade_attempt(self, card: Card, attempt: "Attempt") -> Grade:
        """The review an answered estimate counts as: quality from the score, not from a button."""
        today = study_day(attempt.attempted_at, self.config.rollover_hour)
        quality = attempt.result["quality"]
        after = grading.apply_quality(card.state, quality, today)
        button = grading.button_for_quality(quality)
        duration_ms = int(attempt.seconds * 1000)
        return Grade(card.item_id, button, quality, duration_ms, attempt.attempted_at, today, card.state, after)

    def record_attempt(self, grade: Grade, attempt: "Attempt") -> int:
        from drill.store.estimates import record_review_attempt

        return record_review_attempt(self.engine, grade, attempt.row())

    def start_round(self, settings: "RoundSettings") -> tuple[int, list["Problem"]]:
        """Draw a mock round's problems and store the round; return its id and problems."""
        from drill.estimate.rounds import draw_round
        from drill.store.estimates import start_round

        problems = draw_round(self.families(), settings, self.rng)
        round_id = start_round(self.engine, self.clock(), settings.problems, settings.seconds, list(settings.blocks))
        return round_id, problems

    def record_round_attempt(self, round_id: int, attempt: "Attempt") -> None:
        from drill.store.estimates import record_round_attempt

        record_round_attempt(self.engine, round_id, attempt.row())

    def finish_round(self, round_id: int, score: float, abandoned: bool) -> None:
        from drill.store.estimates import finish_round

        finish_round(self.engine, round_id, self.clock(), score, abandoned)

    def round_history(self) -> list["RoundRow"]:
        from drill.store.estimates import round_history

        return round_history(self.engine)

    # -- coding drills -------------------------------------------------------------------

    def drills(self) -> list["Drill"]:
        from drill.coding.drills import load_drills

        return load_drills(self.paths.kernels)

    def drill_records(self) -> dict[str, "DrillRecord"]:
        from drill.store.coding import drill_records

        return drill_records(self.engine)

    def grade_coding(self, card: Card, status: str, seconds: float, hints_used: int) -> Grade:
        """The review a finished drill counts as: quality from the result and the time against budget."""
        from drill.coding.quality import quality

        now = self.clock()
        today = study_day(now, self.config.rollover_hour)
        q = quality(status, seconds, card.target_seconds or 0, hints_used)
        after = grading.apply_quality(card.state, q, today)
        return Grade(card.item_id, grading.button_for_quality(q), q, int(seconds * 1000), now, today, card.state, after)

    def record_coding(self, attempt: dict, grade: Grade | None) -> int | None:
        from drill.store.coding import record_attempt

        return record_attempt(self.engine, attempt, grade)

    def close(self) -> None:
        self.recorder.drain()
        self.recorder.close()
        self.engine.dispose()
