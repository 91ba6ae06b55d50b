"""The study library: content synced into the store, today's queue, grading. No Textual here."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import replace
from functools import partial
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from drill.coding.items import drill_id
from drill.config import Config
from drill.content.errors import ContentError
from drill.content.fingerprint import content_fingerprint
from drill.days import study_day, utc_now
from drill.home import HomeSummary
from drill.paths import Paths
from drill.schedule import grading, memory, queue
from drill.schedule import plan as planning
from drill.schedule.fsrs_model import FSRSSettings
from drill.schedule.grading import ItemState
from drill.schedule.load_balance import Balance
from drill.schedule.records import Card, Grade
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.store import facts, last_review, queries, reschedule
from drill.store.damage import checked_open
from drill.store.engine import open_store
from drill.store.facts import read_fact
from drill.store.fsrs_parameters import read_parameters
from drill.store.busy import is_busy
from drill.store.journal import Journal
from drill.store.pending_writes import Replayed, as_json, replay
from drill.store.recorder import FailedWrite, Recorder
from drill.store.session_lock import hold_session
from drill.store.sync import SyncReport, sync_content
from drill.store.writes import forget_item, record_grade, set_suspended, undo_grade

if TYPE_CHECKING:
    from drill.coding.attempt import CodingAttempt
    from drill.coding.drills import Drill
    from drill.content.decks import DeckLoad
    from drill.estimate.attempt import Attempt, AttemptRow
    from drill.estimate.draw import Problem
    from drill.estimate.rounds import RoundSettings
    from drill.estimate.schema import Family
    from drill.interview.plan import InterviewPlan
    from drill.interview.scorecard import InterviewAnswer, Scorecard
    from drill.interview.settings import InterviewSettings
    from drill.schedule.custom import CustomSession
    from drill.schedule.leech import Flagged
    from drill.store.browse import ItemInfo, ItemRow
    from drill.store.coding import DrillRecord
    from drill.store.estimates import RoundRow

T = TypeVar("T")
QUIT_WAIT_S = 5.0  # how long closing waits for writes the database is too busy to take
PENDING = {  # each journalled write (drill.store.pending_writes) and the method that makes it
    "grade": "record", "estimate": "record_attempt", "coding": "record_coding", "undo": "undo",
    "suspend": "suspend", "forget": "forget", "round_answer": "record_round_attempt", "round_end": "finish_round",
}
ADDS_ROWS = {"grade", "estimate", "coding", "round_answer"}  # replayed, these skip what is stored already


class Study:
    """One user's study state: open it once, then ask it for queues and give it grades."""

    def __init__(
        self, paths: Paths, config: Config, clock: Callable[[], datetime] = utc_now, rng: random.Random | None = None
    ) -> None:
        self.paths = paths
        self.config = config
        self.clock = clock
        self.rng = rng or random.Random()
        self._session = hold_session(paths.database)  # `drill restore` waits for every open session to end
        self.engine = open_store(paths)
        self.fsrs_settings = FSRSSettings(config.desired_retention, read_parameters(self.engine))
        self.replayed = self._replay()
        self._writer = Recorder(Journal(paths.pending_writes), is_busy)
        self._on_leech: Callable[["Flagged"], None] = lambda _flagged: None
        self.content_errors: list[ContentError] = []
        self.last_sync = SyncReport()

    @classmethod
    def open(
        cls, paths: Paths | None = None, clock: Callable[[], datetime] = utc_now, rng: random.Random | None = None,
        say: Callable[[str], None] = lambda line: print(f"drill: {line}", file=sys.stderr),
    ) -> "Study":
        """Create the state folder if needed, open the database, make the writes an earlier drill
        kept in its journal (each said to `say`) and sync the content into it.
        A database file SQLite cannot read raises DamagedDatabaseError (the file is left as it is)."""
        paths = paths or Paths.resolve()
        paths.ensure()
        config = Config.load(paths.config)

        def opened() -> "Study":
            study = cls(paths, config, clock, rng)
            for line in study.replayed.lines():
                say(line)
            study.sync()
            study.reconcile_schedule()
            return study

        return checked_open(paths.database, paths.backups, opened)

    def _replay(self) -> Replayed:
        """Make the writes a drill that could not save them before it closed kept in its journal."""
        def make(op: str, arguments: tuple[Any, ...]) -> object:
            extra = {"replayed": True} if op in ADDS_ROWS else {}
            return getattr(self, PENDING[op])(*arguments, **extra)

        return replay(self.paths.pending_writes, make, is_busy)

    def sync(self) -> SyncReport:
        """Bring the store in line with the content files; skipped when none changed since the
        last sync that found no errors."""
        fingerprint = content_fingerprint(self.paths)
        if read_fact(self.engine, facts.CONTENT) == fingerprint:
            self.content_errors, self.last_sync = [], SyncReport()
            return self.last_sync
        from drill.library import load_library

        return self._sync_load(load_library(self.paths), fingerprint)

    def _sync_load(self, load: "DeckLoad", fingerprint: str) -> SyncReport:
        self.content_errors = load.errors
        self.last_sync = sync_content(
            self.engine, load.items, load.broken_decks, self.clock(), None if load.errors else fingerprint
        )
        return self.last_sync

    def sync_edit(self, edited: Path) -> list[ContentError]:
        """Re-read the content after `edited` changed in an editor and sync it (edited text keeps
        the item's id, history and schedule), unless `edited` now has errors: those are returned
        and nothing is synced, so the old text stays."""
        from drill.library import load_library

        load = load_library(self.paths)
        errors = [error for error in load.errors if Path(error.path).resolve() == edited.resolve()]
        if not errors:
            self._sync_load(load, content_fingerprint(self.paths))
        return errors

    def reconcile_schedule(self) -> None:
        """Rebuild items graded without FSRS memory, and fill in the FSRS memory before each review
        where an older drill stored none; apply a scheduler change made in config.toml."""
        missing = reschedule.items_without_memory(self.engine)
        if missing:
            reschedule.rebuild(self.engine, missing, self.config.scheduler)
        unfilled = reschedule.reviews_without_memory(self.engine)
        if unfilled:
            reschedule.fill_memory_before(self.engine, unfilled, self.config.scheduler)
        if reschedule.stored_scheduler(self.engine) != self.config.scheduler:
            reschedule.switch_scheduler(self.engine, self.config.scheduler)

    @property
    def today(self) -> date:
        return study_day(self.clock(), self.config.rollover_hour)

    def interview_plan(self, today: date) -> "planning.Plan | None":
        """The plan towards the interview date, while one is set and still ahead."""
        interview = self.config.interview_date
        if not planning.is_active(today, interview):
            return None
        start = planning.window_start(interview, self.config.plan_window_days)
        return planning.make(
            today, interview, queries.plan_counts(self.engine, today, interview, start),
            window=self.config.plan_window_days, new_per_day=self.config.new_per_day,
            max_reviews_per_day=self.config.max_reviews_per_day,
        )

    def queue(self) -> list[str]:
        """Today's item ids in review order."""
        today = self.today
        progress = queries.day_progress(self.engine, today)
        room = max(0, self.config.max_reviews_per_day - progress.reviews_done)
        due, new = queries.queue_candidates(self.engine, today, per_block=room)
        new_per_day = self.config.new_per_day
        today_plan = self.interview_plan(today)
        if today_plan is not None:
            # Items due after the interview get an effective due day in its final days; nothing is stored.
            interview = self.config.interview_date
            start = planning.window_start(interview, self.config.plan_window_days)
            due += queries.brought_forward(self.engine, today, interview, start, min(room, today_plan.bring_today))
            new_per_day = today_plan.new_per_day
        limits = queue.Limits(
            new_per_day=new_per_day,
            max_reviews_per_day=self.config.max_reviews_per_day,
            new_done_today=progress.new_done,
            reviews_done_today=progress.reviews_done,
            new_mix=self.config.new_mix,
            new_done_by_kind=progress.new_done_by_kind,
        )
        return queue.build(due, new, limits, queries.reviewed_today(self.engine, today))

    def cards(self, ids: list[str]) -> list[Card]:
        """The cards for `ids` in that order, each leech marked with why it is one."""
        from drill.store.leeches import standings

        with self.engine.connect() as connection:
            found = standings(connection, ids)
        threshold = self.config.leech_threshold
        return [
            replace(card, leech=found[card.item_id].describe()) if card.item_id in found
            and found[card.item_id].is_leech(threshold) else card
            for card in queries.cards(self.engine, ids)
        ]

    def custom_cards(self, spec: "CustomSession") -> list[Card]:
        """A custom session's cards: today's queue narrowed by the spec, or, for a session that shows
        items early (cram, review ahead, weakest), its pool from every active item."""
        from drill.schedule import custom
        from drill.store.leeches import lapse_counts

        if not spec.early:
            return [card for card in self.cards(self.queue()) if spec.matches(card)]
        today, model = self.today, memory.get(self.config.scheduler)
        pool = queries.session_pool(self.engine)
        recall = {card.item_id: value for card in pool if (value := model.recall(card.state, today)) is not None}
        with self.engine.connect() as connection:
            lapses = lapse_counts(connection)
        return custom.choose(spec, pool, today, recall, lapses, queries.mean_estimate_scores(self.engine))

    def home(self) -> HomeSummary:
        today = self.today
        by_block = queries.block_counts(self.engine, today)
        progress = queries.day_progress(self.engine, today)
        unseen = sum(counts.new for counts in by_block.values())
        new_per_day = self.config.new_per_day
        interview = self.config.interview_date
        today_plan = self.interview_plan(today)
        if today_plan is not None:
            start = planning.window_start(interview, self.config.plan_window_days)
            forward = queries.brought_forward_blocks(self.engine, interview, start, today_plan.bring_today)
            for block, number in forward.items():
                counts = by_block.get(block, queries.BlockCounts())
                by_block[block] = replace(counts, due=counts.due + number)
            new_per_day = today_plan.new_per_day
        return HomeSummary(
            today=today,
            by_block=by_block,
            reviews_total=queries.reviews_total(self.engine),
            due_today=sum(counts.due for counts in by_block.values()),
            new_available=min(unseen, max(0, new_per_day - progress.new_done)),
            interview_date=interview,
            content_errors=self.content_errors,
            plan=today_plan,
            drills_due=[drill_id(item) for item in queries.due_drills(self.engine, today)],
            reviews_today=progress.reviews_done,
        )

    def next_state(self, card: Card, quality: int, today: date) -> ItemState:
        """The item's state after a review of `quality` today; its due day from the configured
        scheduler, spread over the least loaded nearby days unless config.toml says `fuzz = false`;
        FSRS with the desired retention and, once fitted, the user's own parameters."""
        return self._advance(card.item_id, card.state, quality, today)

    def regrade(self, grade: Grade, current: ItemState) -> ItemState:
        """The state `grade` gives when applied to `current` (the stored state, when another session
        moved the item after this one showed it)."""
        return self._advance(grade.item_id, current, grade.quality, grade.study_day)

    def _advance(self, item_id: str, state: ItemState, quality: int, today: date) -> ItemState:
        balance = Balance(item_id, partial(queries.due_load, self.engine, item_id)) if self.config.fuzz else None
        return grading.advance(state, quality, today, self.config.scheduler, balance, self.fsrs_settings)

    def scheduled_day(self, state: ItemState) -> date | None:
        """The day the item is due once passed: a passed state's own due day, else the day the
        configured scheduler gives it (a failed item is due today until a repeat passes it)."""
        if state.due_day is not None and not state.relearning:
            return state.due_day
        return grading.due_day(state, self.config.scheduler)

    def grade(self, card: Card, button: int, duration_ms: int, typed_answer: str | None = None,
              ticked: tuple[int, ...] | None = None) -> Grade:
        """The grade for pressing `button` on `card` now, with what was typed and ticked (nothing is
        written yet)."""
        now = self.clock()
        today = study_day(now, self.config.rollover_hour)
        quality = BUTTON_QUALITY[button]
        return Grade(card.item_id, button, quality, duration_ms, now, today, card.state,
                     self.next_state(card, quality, today), typed_answer, ticked)

    def record(self, grade: Grade, replayed: bool = False) -> int:
        return self._noted(record_grade(self.engine, grade, self.regrade, replayed), grade)

    def _noted(self, review_id: T, grade: Grade | None) -> T:
        """Record a committed grade as the last one saved (drill.store.last_review; SQLite only)."""
        if isinstance(review_id, int) and grade is not None and self.engine.dialect.name == "sqlite":
            last_review.note(self.paths.database, review_id, grade.item_id, grade.reviewed_at)
        return review_id

    def undo(self, grade: Grade) -> None:
        undo_grade(self.engine, grade, self.config.scheduler)
        last_review.forget(self.paths.database)  # the last grade recorded may be the one undone

    def suspend(self, item_id: str, suspended: bool = True) -> None:
        set_suspended(self.engine, item_id, suspended)

    def forget(self, item_id: str, at: datetime | None = None) -> None:
        forget_item(self.engine, item_id, at or self.clock())

    # -- estimation --------------------------------------------------------------------

    def families(self) -> list["Family"]:
        from drill import estimate

        return estimate.families(self.paths.problem_dirs())

    def warm_up_estimation(self) -> None:
        """Pay sympy's import and compile the formulas now (call from a worker thread)."""
        from drill import estimate

        for family in self.families():
            estimate.warm_up(family)

    def new_problem(self, item_id: str) -> "Problem":
        """Fresh numbers for the family behind an estimate item."""
        from drill import estimate
        from drill.estimate.items import family_id

        return estimate.generate(estimate.family(self.paths.problem_dirs(), family_id(item_id)), self.rng)

    def answer_problem(self, problem: "Problem", answer: str, seconds: float) -> "Attempt":
        """Grade `answer` (never raises for any text) into an attempt."""
        from drill import estimate
        from drill.estimate.attempt import Attempt

        family = estimate.family(self.paths.problem_dirs(), problem.family_id)
        result = estimate.grade(family, problem.params, answer)
        return Attempt(problem, answer, result, seconds, self.clock())

    def check_answer(self, problem: "Problem", text: str) -> str | None:
        """None when `text` can be graded against `problem`, else what to fix (a typo is never graded)."""
        from drill import estimate

        return estimate.check_answer(problem, text)

    def grade_attempt(self, card: Card, attempt: "Attempt") -> Grade:
        """The review an answered estimate counts as: quality from the score, not from a button."""
        today = study_day(attempt.attempted_at, self.config.rollover_hour)
        quality = attempt.result.quality
        after = self.next_state(card, quality, today)
        button = grading.button_for_quality(quality)
        duration_ms = int(attempt.seconds * 1000)
        return Grade(card.item_id, button, quality, duration_ms, attempt.attempted_at, today, card.state, after)

    def record_attempt(self, grade: Grade, row: "AttemptRow", replayed: bool = False) -> int:
        from drill.store.estimates import record_review_attempt

        return self._noted(record_review_attempt(self.engine, grade, row, self.regrade, replayed), grade)

    def start_round(self, settings: "RoundSettings") -> tuple[int, list["Problem"]]:
        """Draw a mock round's problems and store the round; return its id and problems."""
        from drill.estimate.rounds import draw_round
        from drill.store.estimates import start_round

        problems = draw_round(self.families(), settings, self.rng)
        round_id = start_round(self.engine, self.clock(), settings.problems, settings.seconds, list(settings.blocks))
        return round_id, problems

    def record_round_attempt(self, round_id: int, row: "AttemptRow", replayed: bool = False) -> None:
        from drill.store.estimates import record_round_attempt

        record_round_attempt(self.engine, round_id, row, replayed)

    def finish_round(self, round_id: int, score: float, abandoned: bool, finished_at: datetime | None = None) -> None:
        from drill.store.estimates import finish_round

        finish_round(self.engine, round_id, finished_at or self.clock(), score, abandoned)

    def round_history(self) -> list["RoundRow"]:
        from drill.store.estimates import round_history

        return round_history(self.engine)

    def round_attempts(self, round_id: int) -> list["Attempt"]:
        """A past mock round's answers, in order, with their problems and worked solutions."""
        from drill.estimate.items import family_id
        from drill.estimate.rounds import stored_attempt
        from drill.store.estimates import round_attempts

        families = {family.id: family for family in self.families()}
        return [stored_attempt(row, families.get(family_id(row["item_id"])))
                for row in round_attempts(self.engine, round_id)]

    # -- coding drills -------------------------------------------------------------------

    def drills(self) -> list["Drill"]:
        from drill.coding.drills import load_drills

        return load_drills(self.paths.kernel_dirs())

    def drill_records(self) -> dict[str, "DrillRecord"]:
        from drill.store.coding import drill_records

        return drill_records(self.engine)

    def grade_coding(self, card: Card, status: str, seconds: float, hints_used: int) -> Grade:
        """The review a finished drill counts as: quality from the result and the time against budget."""
        from drill.coding.quality import quality

        now = self.clock()
        today = study_day(now, self.config.rollover_hour)
        q = quality(status, seconds, card.target_seconds or 0, hints_used)
        after = self.next_state(card, q, today)
        return Grade(card.item_id, grading.button_for_quality(q), q, int(seconds * 1000), now, today, card.state, after)

    def record_coding(self, attempt: "CodingAttempt", grade: Grade | None, replayed: bool = False) -> int | None:
        from drill.store.coding import record_attempt

        return self._noted(record_attempt(self.engine, attempt, grade, self.regrade, replayed), grade)

    # -- mock interviews ------------------------------------------------------------------

    def plan_interview(self, settings: "InterviewSettings") -> "InterviewPlan":
        """Draw a mock interview's items, with fresh numbers for its estimates (call from a
        worker: sympy evaluates them); nothing is stored until start_interview."""
        from drill.interview.plan import InterviewPlan, Step, draw
        from drill.store.interviews import pool

        drawn = draw(pool(self.engine), settings, self.rng, self.today)
        if any(section == "estimate" for section, _ in drawn):
            self.warm_up_estimation()
        return InterviewPlan(settings, tuple(
            Step(section, card, self.new_problem(card.item_id) if section == "estimate" else None)
            for section, card in drawn
        ))

    def remember_interview_settings(self, settings: "InterviewSettings") -> None:
        """Keep the interview's setup in config.toml for the next one."""
        self._remember(settings.config_values())

    def remember_round_settings(self, settings: "RoundSettings") -> None:
        """Keep the mock round's setup in config.toml for the next one."""
        self._remember(settings.config_values())

    def _remember(self, values: dict[str, Any]) -> None:
        """Write the config.toml settings that differ from these values."""
        from drill.config import write_setting

        config = self.config
        for key, value in values.items():
            if getattr(config, key) != value:
                config = write_setting(self.paths.config, key, value)
        self.config = config

    def record_interview_start(self, plan: "InterviewPlan", started_at: datetime) -> int:
        from drill.store.interviews import start_interview

        return start_interview(self.engine, plan, started_at)

    def record_interview_answer(self, interview_id: int, answer: "InterviewAnswer", answered_at: datetime,
                                recorded: Future[int] | None = None) -> None:
        from drill.store.interviews import record_answer

        record_answer(self.engine, interview_id, answer, answered_at, recorded)

    def finish_interview(self, interview_id: int, scorecard: "Scorecard", finished_at: datetime) -> None:
        from drill.store.interviews import finish_interview

        finish_interview(self.engine, interview_id, scorecard, finished_at)

    def interview_history(self, limit: int | None = 50) -> list["Scorecard"]:
        """Past mock interviews with their answers, newest first."""
        from drill.store.interviews import interview_history

        return interview_history(self.engine, limit)

    # -- the card browser ---------------------------------------------------------------------

    def browse(self) -> list["ItemRow"]:
        """Every item (retired ones aside) with its schedule, reviews, lapses and flags, in content order."""
        from drill.store.browse import item_rows

        return item_rows(self.engine, self.config.leech_threshold)

    def browse_item(self, item_id: str) -> "ItemRow | None":
        """One item's browser row as stored now (None: no such item)."""
        from drill.store.browse import item_row

        return item_row(self.engine, item_id, self.config.leech_threshold)

    def item_info(self, item_id: str) -> "ItemInfo | None":
        """One item's row, checklist and every review, estimation attempt and drill attempt."""
        from drill.store.browse import item_info

        return item_info(self.engine, item_id, self.config.leech_threshold)

    def unknown_ids(self, ids: list[str]) -> list[str]:
        """Those of `ids` that name no item, in the order given."""
        from drill.store.browse import unknown_ids

        return unknown_ids(self.engine, ids)

    def measures_stability(self) -> bool:
        """Whether the scheduler in use keeps memory as FSRS's stability (else as SM-2's ease and interval)."""
        return memory.get(self.config.scheduler).curve().memory == "stability"

    # -- the one write path: screens hand intentions here; each commits in the background ---

    def on_write_failed(self, report: Callable[[FailedWrite], None]) -> None:
        """Call `report` (from the writer's thread) with every write that fails from now on."""
        self._writer.on_failure = report

    def on_leech(self, report: Callable[["Flagged"], None]) -> None:
        """Call `report` (from the writer's thread) whenever a saved grade flags its item as a leech."""
        self._on_leech = report

    def on_write_waiting(self, report: Callable[[str], None]) -> None:
        """Call `report` (from the writer's thread) with a write that waits for the database (another
        drill is writing); it is tried again until it commits."""
        self._writer.on_waiting = report

    def _journalled(self, what: str, op: str, *arguments: Any, watch: str | None = None) -> Future[Any]:
        """Hand over the journalled write `op` (PENDING); `watch` an item whose leech standing it may change."""
        make = getattr(self, PENDING[op])
        journalled = (op, as_json(op, arguments))
        if watch is None:
            return self._writer.submit(what, make, *arguments, journalled=journalled)
        return self._writer.submit(what, self.watching_leeches, watch, make, *arguments, journalled=journalled)

    def save_grade(self, grade: Grade) -> Future[int]:
        """Commit a grade; the future gives its review id."""
        return self._journalled(f"the grade of {grade.item_id}", "grade", grade, watch=grade.item_id)

    def save_estimate(self, grade: Grade, attempt: "Attempt") -> Future[int]:
        """Commit an answered estimate card: its review and its attempt."""
        return self._journalled(f"the answer to {grade.item_id}", "estimate", grade, attempt.row(), watch=grade.item_id)

    def watching_leeches(self, item_id: str, write: Callable[..., T], *args: object) -> T:
        """Run a grade's write; if it flags the item as a leech, apply leech_action and report it."""
        from drill.schedule.leech import Flagged
        from drill.store.leeches import standing

        with self.engine.connect() as connection:
            before = standing(connection, item_id)
        written = write(*args)
        with self.engine.connect() as connection:
            after = standing(connection, item_id)
        if after.flagged_after(before, self.config.leech_threshold):
            suspend = self.config.leech_action == "suspend"
            if suspend:
                self.suspend(item_id)
            self._on_leech(Flagged(after, suspend))
        return written

    def save_undo(self, grade: Grade) -> Future[None]:
        """Take back a grade (written before it, in order)."""
        return self._journalled(f"the undo on {grade.item_id}", "undo", grade)

    def save_suspended(self, item_id: str, suspended: bool = True) -> Future[None]:
        what = f"{'suspending' if suspended else 'unsuspending'} {item_id}"
        return self._journalled(what, "suspend", item_id, suspended)

    def save_forget(self, item_id: str) -> Future[None]:
        """Put an item back to new; its history stays."""
        return self._journalled(f"forgetting {item_id}", "forget", item_id, self.clock())

    def save_edit(self, edited: Path) -> Future[list[ContentError]]:
        """Sync a content file just edited (sync_edit); the future gives its errors."""
        return self._writer.submit(f"the edit of {edited.name}", self.sync_edit, edited)

    def save_round_attempt(self, round_id: int, attempt: "Attempt") -> Future[None]:
        return self._journalled("a mock-round answer", "round_answer", round_id, attempt.row())

    def save_round_end(self, round_id: int, score: float, abandoned: bool) -> Future[None]:
        return self._journalled("the end of the mock round", "round_end", round_id, score, abandoned, self.clock())

    def save_coding(self, attempt: "CodingAttempt", grade: Grade | None) -> Future[int | None]:
        return self._journalled(f"the attempt at {attempt.item_id}", "coding", attempt, grade, watch=attempt.item_id)

    def start_interview(self, plan: "InterviewPlan") -> Future[int]:
        """Store a mock interview as it starts; the future gives its id."""
        return self._writer.submit("the start of the mock interview", self.record_interview_start, plan, self.clock())

    def save_interview_answer(self, interview_id: int, answer: "InterviewAnswer",
                              recorded: Future[int] | None = None) -> Future[None]:
        """Commit one interview answer after the review it also was (`recorded`, from save_grade
        or save_estimate), pointing at that review."""
        return self._writer.submit(f"the interview answer to {answer.item_id}", self.record_interview_answer,
                                   interview_id, answer, self.clock(), recorded)

    def save_interview_end(self, interview_id: int, scorecard: "Scorecard") -> Future[None]:
        return self._writer.submit("the end of the mock interview", self.finish_interview, interview_id, scorecard,
                                   self.clock())

    def drain(self) -> None:
        """Wait for every write handed over so far; raise WriteFailures naming each that failed."""
        self._writer.drain()

    def settle(self) -> list[FailedWrite]:
        """Wait for every write handed over so far (before reading what they wrote); the
        failures are returned, already reported to `on_write_failed`."""
        return self._writer.settle()

    @property
    def writes_waiting(self) -> int:
        """Writes handed over and not yet made."""
        return self._writer.waiting

    @property
    def journal(self) -> Path:
        """The file that keeps this session's writes until they are made."""
        assert self._writer.journal is not None
        return self._writer.journal.path

    def close(self, wait_s: float | None = None) -> int:
        """Wait for the writes handed over (at most `wait_s` seconds; None: until each is made or
        failed, failures already reported) and close. Returns how many could not be made: they
        stay in the journal, fsynced, and the next start makes them."""
        kept = self._writer.close(wait_s)
        assert self._writer.journal is not None
        self._writer.journal.close()
        if not kept:
            self.engine.dispose()
        self._session.close()
        return kept
