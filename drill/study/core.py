"""The study's core: one user's store opened (the journal of an earlier drill replayed into it),
the content synced, the study day, the scheduler's next states, and the one background writer
every write goes through. The jobs (reviews, estimation, drills, interviews, browsing) work on it."""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from concurrent.futures import Future, wait
from datetime import date, datetime
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from drill.config import Config, write_setting
from drill.content.decks import DeckLoad
from drill.content.errors import ContentError
from drill.content.fingerprint import content_fingerprint
from drill.days import study_day, utc_now
from drill.library import load_library
from drill.paths import Paths
from drill.schedule import grading
from drill.schedule import plan as planning
from drill.schedule.fsrs_model import FSRSSettings
from drill.schedule.grading import ItemState
from drill.schedule.leech import Flagged
from drill.schedule.load_balance import Balance
from drill.schedule.records import Card, Grade
from drill.store import facts, queries, reschedule
from drill.store.busy import is_busy
from drill.store.damage import checked_open
from drill.store.engine import open_store
from drill.store.fsrs_parameters import read_parameters
from drill.store.journal import Journal
from drill.store.pending_writes import as_json, replay
from drill.store.recorder import FailedWrite, Recorder
from drill.store.session_lock import hold_session
from drill.store.sync import SyncReport, sync_content
from drill.study.leeches import Leeches
from drill.study.writes import ADDS_ROWS, PENDING

CoreT = TypeVar("CoreT", bound="Core")  # open()'s own type: mypy lets Self type no function nested in it
QUIT_WAIT_S = 5.0  # how long closing waits for writes the database is too busy to take
READING_DECKS = "Reading your decks…"
UPGRADE_SAID = "upgrading your store for this drill (one time)…"  # what a command says of an upgrade


class Core:
    """One user's opened store, content and writer; the jobs ask it for the day and hand it writes."""

    def __init__(
        self,
        paths: Paths,
        config: Config,
        clock: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        on_slow_step: Callable[[str], object] = lambda _words: None,
    ) -> None:
        """Open the store (its upgrade, where an older drill wrote it, told to `on_slow_step`)."""
        self.paths = paths
        self.config = config
        self.clock = clock
        self.rng = rng or random.Random()
        self._session = hold_session(paths.database)  # `drill restore` waits for every open session to end
        self.engine = open_store(paths, on_slow_step)
        self.fsrs_settings = FSRSSettings(config.desired_retention, read_parameters(self.engine))
        self.replayed = replay(paths.pending_writes, self._make_kept, is_busy)
        self.writer = Recorder(Journal(paths.pending_writes), is_busy)
        self.leeches = Leeches(self)
        self.content_errors: list[ContentError] = []
        self.last_sync = SyncReport()
        self.backfill: reschedule.Backfill | None = None  # history work the writer does after the open
        self.history_progress: Callable[[str, int, int], object] = lambda _what, _done, _total: None
        self._add_jobs()

    def _add_jobs(self) -> None:
        """Give the opened core its jobs (drill.study.Study's)."""

    @classmethod
    def open(
        cls: type[CoreT],
        paths: Paths | None = None,
        clock: Callable[[], datetime] = utc_now,
        rng: random.Random | None = None,
        say: Callable[[str], None] = lambda line: print(f"drill: {line}", file=sys.stderr),
        background: bool = False,
        on_slow_step: Callable[[str], object] | None = None,
    ) -> CoreT:
        """Create the state folder if needed, open the database, make the writes an earlier drill
        kept in its journal (each said to `say`) and sync the content into it. History work the
        open begins (the FSRS backfill) is finished before it returns, said to `say` as it passes
        each tenth of the way, unless `background` (the app: home shows at once and the writer does
        it after, its progress on screen; every figure read meanwhile leaves out what is not filled
        in yet).
        `on_slow_step` is told each slow step of the open in words, as it begins: the backup before
        upgrading a store an older drill wrote, each revision of the upgrade, reading the decks
        when they changed since the last sync; an open of an up-to-date store whose decks did not
        change tells it nothing. Left out (the commands), the upgrade is said once to `say`.
        A database file SQLite cannot read raises DamagedDatabaseError (the file is left as it is)."""
        paths = paths or Paths.resolve()
        paths.ensure()
        config = Config.load(paths.config)

        def opened() -> CoreT:
            study = cls(paths, config, clock, rng, on_slow_step or _once(lambda: say(UPGRADE_SAID)))
            for line in study.replayed.lines():
                say(line)
            study.sync(on_slow_step or (lambda _words: None))
            if not background:
                study.on_history_progress(_by_tenths(say))
            study.reconcile_schedule()
            if study.backfill is not None and not background:
                study.backfill.finished.result()
            return study

        return checked_open(paths.database, paths.backups, opened)

    def _make_kept(self, op: str, arguments: tuple[Any, ...]) -> object:
        """Make a write that a drill which closed before it could kept in its journal."""
        return PENDING[op](self, *arguments, **({"replayed": True} if op in ADDS_ROWS else {}))

    # -- content ----------------------------------------------------------------------------

    def sync(self, on_slow_step: Callable[[str], object] = lambda _words: None) -> SyncReport:
        """Bring the store in line with the content files; skipped when none changed since the
        last sync that found no errors (else READING_DECKS is told to `on_slow_step` first)."""
        fingerprint = content_fingerprint(self.paths)
        if facts.read_fact(self.engine, facts.CONTENT) == fingerprint:
            self.content_errors, self.last_sync = [], SyncReport()
            return self.last_sync
        on_slow_step(READING_DECKS)
        return self._sync_load(load_library(self.paths), fingerprint)

    def _sync_load(self, load: DeckLoad, fingerprint: str) -> SyncReport:
        self.content_errors = load.errors
        self.last_sync = sync_content(
            self.engine, load.items, load.broken_decks, self.clock(), None if load.errors else fingerprint
        )
        return self.last_sync

    def sync_edit(self, edited: Path) -> list[ContentError]:
        """Re-read the content after `edited` changed in an editor and sync it (edited text keeps
        the item's id, history and schedule), unless `edited` now has errors: those are returned
        and nothing is synced, so the old text stays."""
        load = load_library(self.paths)
        errors = [error for error in load.errors if Path(error.path).resolve() == edited.resolve()]
        if not errors:
            self._sync_load(load, content_fingerprint(self.paths))
        return errors

    def save_edit(self, edited: Path) -> Future[list[ContentError]]:
        """Sync a content file just edited (sync_edit) in the background; the future gives its errors."""
        return self.writer.submit(f"the edit of {edited.name}", self.sync_edit, edited)

    def reconcile_schedule(self) -> None:
        """Rebuild items graded without FSRS memory and apply a scheduler change made in config.toml;
        the FSRS memory before each review where an older drill stored none is filled in by the
        writer in the background (self.backfill; its progress goes to `on_history_progress`)."""
        missing = reschedule.items_without_memory(self.engine)
        if missing:
            reschedule.rebuild(self.engine, missing, self.config.scheduler)
        if reschedule.stored_scheduler(self.engine) != self.config.scheduler:
            reschedule.switch_scheduler(self.engine, self.config.scheduler)
        if (self.backfill is None or self.backfill.finished.done()) and reschedule.any_review_without_memory(
            self.engine
        ):
            self.backfill = reschedule.Backfill(
                self.engine,
                self.config.scheduler,
                self.writer,
                lambda done, total: self.history_progress(reschedule.Backfill.WHAT, done, total),
            )

    def remember(self, values: dict[str, Any]) -> None:
        """Write the config.toml settings that differ from these values (a mock's setup, kept for the next)."""
        config = self.config
        for key, value in values.items():
            if getattr(config, key) != value:
                config = write_setting(self.paths.config, key, value)
        self.config = config

    # -- the day and the schedule -------------------------------------------------------------

    @property
    def today(self) -> date:
        return study_day(self.clock(), self.config.rollover_hour)

    def interview_plan(self, today: date) -> planning.Plan | None:
        """The plan towards the interview date, while one is set and still ahead."""
        interview = self.config.interview_date
        if interview is None or not planning.is_active(today, interview):
            return None
        start = planning.window_start(interview, self.config.plan_window_days)
        return planning.make(
            today,
            interview,
            queries.plan_counts(self.engine, today, interview, start),
            window=self.config.plan_window_days,
            new_per_day=self.config.new_per_day,
            max_reviews_per_day=self.config.max_reviews_per_day,
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

    # -- the one write path: each commits in the background; every failure is reported --------

    def on_write_failed(self, report: Callable[[FailedWrite], object]) -> None:
        """Call `report` (from the writer's thread) with every write that fails from now on."""
        self.writer.on_failure = report

    def on_leech(self, report: Callable[[Flagged], object]) -> None:
        """Call `report` (from the writer's thread) whenever a saved grade flags its item as a leech."""
        self.leeches.report = report

    def on_history_progress(self, report: Callable[[str, int, int], object]) -> None:
        """Call `report` (from the writer's thread) with (what, done, out of how many) as the history
        work begun by the open (the backfill) goes on."""
        self.history_progress = report

    def on_write_waiting(self, report: Callable[[str], object]) -> None:
        """Call `report` (from the writer's thread) with a write that waits for the database (another
        drill is writing); it is tried again until it commits."""
        self.writer.on_waiting = report

    def write(self, what: str, op: str, *arguments: Any, watch: str | None = None) -> Future[Any]:
        """Journal the write `op` (drill.study.writes.PENDING) with its arguments and hand it to the
        writer; `what` names it in words; `watch`: an item whose leech standing it may change."""
        make = partial(PENDING[op], self)
        journalled = (op, as_json(op, arguments))
        if watch is None:
            return self.writer.submit(what, make, *arguments, journalled=journalled)
        return self.writer.submit(what, self.leeches.watching, watch, make, *arguments, journalled=journalled)

    def drain(self) -> None:
        """Wait for every write handed over so far; raise WriteFailures naming each that failed."""
        self.writer.drain()

    def settle(self) -> list[FailedWrite]:
        """Wait for every write handed over so far (before reading what they wrote); the
        failures are returned, already reported to `on_write_failed`."""
        return self.writer.settle()

    @property
    def writes_waiting(self) -> int:
        """Writes handed over and not yet made."""
        return self.writer.waiting

    @property
    def journal(self) -> Path:
        """The file that keeps this session's writes until they are made."""
        assert self.writer.journal is not None
        return self.writer.journal.path

    def close(self, wait_s: float | None = None) -> int:
        """Wait for the writes handed over (at most `wait_s` seconds; None: until each is made or
        failed, failures already reported) and close. Returns how many could not be made: they
        stay in the journal, fsynced, and the next start makes them. Closing ends the session: the
        leeches its writes flagged are suspended last (drill.study.leeches). History work still
        going on (the backfill) is finished when waiting without bound, else stopped after its
        current write (the next open goes on with it)."""
        deadline = None if wait_s is None else time.monotonic() + wait_s
        if self.backfill is not None:
            if wait_s is None:
                wait([self.backfill.finished])
            else:
                self.backfill.stop()
        self.writer.settle(wait_s)  # the session's writes made first: the leeches they flag are known then
        if self.leeches.to_suspend:
            self.leeches.end_session()
        kept = self.writer.close(None if deadline is None else max(0.0, deadline - time.monotonic()))
        assert self.writer.journal is not None
        self.writer.journal.close()
        if not kept:
            self.engine.dispose()
        self._session.close()
        return kept


def _once(say: Callable[[], object]) -> Callable[[str], None]:
    """Told any number of steps, `say()` the first time only."""
    said = False

    def told(_words: str) -> None:
        nonlocal said
        if not said:
            said = True
            say()

    return told


def _by_tenths(say: Callable[[str], None]) -> Callable[[str, int, int], None]:
    """History work's progress (what, done, out of how many), said at its first report and then each
    time it passes a tenth more of the way; work done in one write goes without a word (as in the app)."""
    said = -1

    def told(what: str, done: int, total: int) -> None:
        nonlocal said
        if total <= reschedule.FILL_REVIEWS:
            return
        tenths = done * 10 // total
        if tenths > said:
            said = tenths
            say(f"filling in {what}: {tenths * 10}% ({done:,} of {total:,} reviews){'.' if done >= total else '…'}")

    return told
