"""The drill application: opens the study in a worker after first paint, then routes screens."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import wait
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from textual import on, work
from textual.app import SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from drill.days import utc_now
from drill.paths import Paths
from drill.tui.messages import (
    HistoryProgress,
    HomeRefreshed,
    LeechFlagged,
    OpeningStep,
    QueueLoaded,
    StudyFailed,
    StudyOpened,
    WriteFailed,
    WriteWaiting,
)
from drill.tui.routes import Routes
from drill.tui.screens.home import HomeScreen
from drill.tui.workers import ShowsWorkerFailures

if TYPE_CHECKING:
    from textual.worker import Worker

    from drill.coding.drills import Drill
    from drill.estimate.draw import Problem
    from drill.estimate.rounds import RoundSettings
    from drill.interview.scorecard import Scorecard
    from drill.schedule.custom import CustomSession
    from drill.store.coding import DrillRecord
    from drill.store.estimates import RoundRow
    from drill.study import Study


WAITING_NOTICE_S = 8  # how often "waiting for the database" is said, at most
SESSION_END_WAIT_S = 2.0  # how long home's counts wait for the session's leeches to be suspended
POSIX_SIGNALS = hasattr(signal, "SIGHUP")  # a terminal that closes (SIGHUP), a stop asked for (SIGTERM)


STUDY_ACTIONS = frozenset(
    {
        "review",
        "custom",
        "mock",
        "mock_history",
        "mock_interview",
        "mock_interview_history",
        "drills",
        "interview_date",
        "stats",
        "browse",
    }
)  # the app's actions that need an open study


class DrillApp(ShowsWorkerFailures, Routes):
    """Home first; the database opens in a thread so the first paint never waits for it."""

    CSS_PATH = Path(__file__).with_name("drill.tcss")
    TITLE = "drill"
    BINDINGS = [Binding("f1", "toggle_help", "Help", show=True)]

    def __init__(
        self,
        paths: Paths,
        *,
        start_review: bool = False,
        clock: Callable[[], datetime] = utc_now,
        start_interview: bool = False,
        custom: CustomSession | None = None,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.clock = clock
        self.start_review = start_review
        self.custom = custom  # the custom session last set up (`drill review --block …`: the first review)
        self.start_interview = start_interview  # `drill mock`: open on the mock-interview setup
        self.study: Study | None = None
        self.home_screen = HomeScreen()
        self._quitting = False
        self.study_failed = False  # the study could not be opened: only keys, help and quit still work
        self._waiting_said_at = float("-inf")
        self._before_hang_up: Any = signal.SIG_DFL
        self._progress_said_at = float("-inf")

    def get_default_screen(self) -> HomeScreen:
        return self.home_screen

    def on_mount(self) -> None:
        # After home's first frame, which "Opening your study…" already fills: the opening thread
        # would take the interpreter from that frame's layout and rendering.
        self.call_after_refresh(self.open_study)
        if POSIX_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):  # a loop that takes none
                asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, self._asked_to_stop)
            with contextlib.suppress(ValueError):  # not the main thread
                self._before_hang_up = signal.signal(signal.SIGHUP, self._terminal_closed)

    def on_unmount(self) -> None:
        """Any other ending than quit or hang-up (an exception, a test's pilot) still closes the
        study: its writes are waited for a bounded time, and what is left stays in the journal."""
        if POSIX_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError):
                asyncio.get_running_loop().remove_signal_handler(signal.SIGTERM)
            with contextlib.suppress(ValueError):
                signal.signal(signal.SIGHUP, self._before_hang_up)
        if self.study is not None and not self._quitting:
            from drill.study.core import QUIT_WAIT_S

            self._quitting = True
            self.study.close(QUIT_WAIT_S)

    @work(thread=True, exclusive=True, group="study", exit_on_error=False)
    def open_study(self) -> None:
        from drill.errors import UserFacingError
        from drill.study import Study

        try:
            replayed: list[str] = []
            study = Study.open(
                self.paths,
                self.clock,
                say=replayed.append,
                background=True,
                on_slow_step=lambda words: self.post_message(OpeningStep(words)),
            )
            study.on_write_failed(lambda failure: self.post_message(WriteFailed(failure)))
            study.on_write_waiting(lambda what: self.post_message(WriteWaiting(what)))
            study.on_history_progress(lambda what, done, total: self.post_message(HistoryProgress(what, done, total)))
            for line in replayed:
                self.notify(line[0].upper() + line[1:] + ".", title="Kept writes", timeout=15)
            study.on_leech(lambda flagged: self.post_message(LeechFlagged(flagged)))
            self.post_message(StudyOpened(study, study.browsing.home()))
        except (UserFacingError, OSError) as error:
            self.post_message(StudyFailed(str(error)))
            return
        self.backup_daily(study)

    def backup_daily(self, study: Study) -> None:
        """Today's automatic backup, once the home screen has what it needs (in the study worker)."""
        from drill.store.backup import daily_backup

        try:
            daily_backup(self.paths.database, self.paths.backups, study.config.backups_keep, study.clock())
        except Exception as error:  # noqa: BLE001 - a failed backup is reported, never a crash of the app
            self.notify(f"backup failed: {error}", severity="error", timeout=10)

    @on(OpeningStep)
    def _opening_step(self, message: OpeningStep) -> None:
        """Home says what the open is doing until the study opens (its counts then replace it)."""
        self.home_screen.show_opening_step(message.words)

    @on(StudyOpened)
    def _study_opened(self, message: StudyOpened) -> None:
        self.study = message.study
        self._use_remembered_theme(message.study.config.theme)
        self.home_screen.show(message.home)
        if message.home.content_errors:
            files = sorted({error.path.name for error in message.home.content_errors})
            self.notify(
                f"Broken content in {', '.join(files)}; run `drill check`. The rest is loaded.",
                severity="warning",
                timeout=10,
            )
        if self.start_review:
            self.start_review = False
            self.load_queue(self.custom)
        if self.start_interview:
            self.start_interview = False
            self.action_mock_interview()

    def _use_remembered_theme(self, theme: str | None) -> None:
        """Apply the theme config.toml remembers (none: Textual's default)."""
        if theme is None:
            return
        if theme in self.available_themes:
            self.theme = theme
        else:
            self.notify(
                f"config.toml names a theme drill does not know, {theme!r}: the default is used.", severity="warning"
            )

    def watch_theme(self, theme: str) -> None:
        """Remember the theme picked in the command palette in config.toml, for the next start."""
        if self.study is None or self.study.config.theme == theme:
            return
        from drill.config import ConfigError, write_setting

        try:
            self.study.config = write_setting(self.study.paths.config, "theme", theme)
        except (OSError, ConfigError) as error:
            self.notify(f"Could not remember the theme in config.toml: {error}", severity="warning")

    @on(WriteFailed)
    def _write_failed(self, message: WriteFailed) -> None:
        """Every failed write is said, whatever screen handed it over; nothing is shown as saved."""
        self.notify(f"Not saved — {message.failure}", title="Could not save", severity="error", timeout=20)

    @on(WriteWaiting)
    def _write_waiting(self, message: WriteWaiting) -> None:
        """Say (at most every few seconds) that writes wait for another drill to finish writing."""
        now = time.monotonic()
        if now - self._waiting_said_at > WAITING_NOTICE_S:
            self._waiting_said_at = now
            self.notify(
                f"Another drill is writing — waiting for the database. {message.what[0].upper()}"
                f"{message.what[1:]} is kept and saved as soon as it is free.",
                title="Waiting",
                severity="warning",
                timeout=WAITING_NOTICE_S,
            )

    @on(HistoryProgress)
    def _history_progress(self, message: HistoryProgress) -> None:
        """Say (at most every few seconds, and when it is done) how far the history work of the open has
        come, when it takes more than one write: a few reviews are filled in without a word."""
        from drill.store.reschedule import FILL_REVIEWS

        if message.total <= FILL_REVIEWS:
            return
        now = time.monotonic()
        finished = message.done >= message.total
        if finished or now - self._progress_said_at > WAITING_NOTICE_S:
            self._progress_said_at = now
            share = 100 * message.done // max(1, message.total)
            self.notify(
                f"{message.what[0].upper()}{message.what[1:]}: {'done' if finished else f'{share} %'}",
                title="In the background",
                timeout=WAITING_NOTICE_S,
            )

    @on(LeechFlagged)
    def _leech_flagged(self, message: LeechFlagged) -> None:
        """Say that an item became a leech, what happens to it, and how to deal with it: in its result
        when that is on screen, else in a notice."""
        from drill.tui.review.leech_notice import say_leech

        say_leech(self, message.flagged)

    @on(StudyFailed)
    def _study_failed(self, message: StudyFailed) -> None:
        self.study_failed = True
        self.home_screen.show_failure(message.reason)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No way into the study is offered, or taken, when it could not be opened."""
        return not (self.study_failed and action in STUDY_ACTIONS)

    # -- actions shared by screens -------------------------------------------------------

    def action_review(self) -> None:
        """Load today's queue (in a thread) and open the review screen."""
        if self.study is not None:
            self.load_queue()

    def action_custom(self) -> None:
        """Set up a custom session (blocks, kinds, topics, cram, review ahead, weakest) and start it."""
        from drill.tui.screens.custom_session import CustomSessionScreen

        if self.study is not None:
            self.push_screen(CustomSessionScreen(self.custom), self.custom_chosen)

    def custom_chosen(self, custom: CustomSession | None) -> None:
        """Start the custom session set up, and keep its setup for the next time (or a retry)."""
        if custom is not None:
            self.custom = custom
            self.load_queue(custom)

    def load_queue(self, custom: CustomSession | None = None) -> None:
        """Read today's queue (or the custom session's) in a thread, then open the review screen;
        the keys typed meanwhile are kept and pressed there, on its first card."""
        self.home_screen.keep_keys()
        self.read_queue(custom)

    @work(thread=True, exclusive=True, group="study", exit_on_error=False)
    def read_queue(self, custom: CustomSession | None) -> None:
        assert self.study is not None
        reviews = self.study.reviews
        cards = reviews.cards(reviews.queue()) if custom is None else reviews.custom_cards(custom)
        if any(card.kind == "estimate" for card in cards):
            self.study.estimation.warm_up()  # sympy loads here, never on the start-up path
        self.post_message(QueueLoaded(cards, custom))

    def worker_failed(self, worker: Worker[Any]) -> None:
        """A queue that could not be read opens no review: home takes keys again."""
        if worker.name == "read_queue":
            self.home_screen.kept_keys()

    @on(QueueLoaded)
    def _queue_loaded(self, message: QueueLoaded) -> None:
        from drill.tui.screens.review import ReviewScreen

        typed_ahead = self.home_screen.kept_keys()
        if not message.cards:
            if message.custom is None:
                self.notify("Nothing is due and no new cards are left for today.", title="All done")
            else:
                from drill.tui.screens.custom_session import CustomSessionScreen

                self.push_screen(CustomSessionScreen(message.custom), self.custom_chosen)
                self.notify(
                    f"Nothing matches this session ({message.custom.describe()}): change the setup, or esc for home.",
                    title="Nothing to review",
                )
            return
        assert self.study is not None
        self.push_screen(ReviewScreen(self.study, message.cards, message.custom, typed_ahead))

    def action_mock(self) -> None:
        """Set up a mock estimation round."""
        from drill.tui.screens.mock.round_setup import MockSetupScreen

        if self.study is not None:
            self.push_screen(MockSetupScreen(self.study))

    @work(thread=True, group="mock", exit_on_error=False)
    def start_mock_round(self, settings: RoundSettings) -> None:
        """Draw the round's problems (sympy warms up here, off the UI thread), then show it."""
        assert self.study is not None
        self.study.estimation.warm_up()
        round_id, problems = self.study.estimation.start_round(settings)
        self.call_from_thread(self._show_round, round_id, problems, settings)

    def _show_round(self, round_id: int, problems: list[Problem], settings: RoundSettings) -> None:
        from drill.tui.screens.mock.round import MockRoundScreen

        assert self.study is not None
        self.switch_screen(MockRoundScreen(self.study, round_id, problems, settings))

    def action_mock_interview(self) -> None:
        """Set up a mock interview: grill questions, a pitch, estimates, a drill, one countdown."""
        from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen

        if self.study is not None:
            self.push_screen(MockInterviewSetupScreen(self.study))

    def action_mock_interview_history(self) -> None:
        if self.study is not None:
            self.open_interview_history()

    @work(thread=True, group="study", exit_on_error=False)
    def open_interview_history(self) -> None:
        assert self.study is not None
        self.study.settle()  # the interview's last writes land first; a failed one was said when it failed
        from drill.store.interviews import interview_history

        interviews = interview_history(self.study.engine)
        self.call_from_thread(self._show_interview_history, interviews)

    def _show_interview_history(self, interviews: list[Scorecard]) -> None:
        from drill.tui.screens.mock.interview_history import MockInterviewHistoryScreen

        assert self.study is not None
        self.push_screen(MockInterviewHistoryScreen(self.study, interviews))

    def action_drills(self) -> None:
        """The coding drills list."""
        if self.study is not None:
            self.open_drills()

    @work(thread=True, group="drills", exit_on_error=False)
    def open_drills(self) -> None:
        assert self.study is not None
        from drill.coding.drills import load_drills
        from drill.store.coding import drill_records

        drills, records = load_drills(self.paths.kernel_dirs()), drill_records(self.study.engine)
        self.call_from_thread(self._show_drills, drills, records)

    def _show_drills(self, drills: list[Drill], records: dict[str, DrillRecord]) -> None:
        from drill.tui.screens.drills import DrillListScreen

        self.push_screen(DrillListScreen(drills, records))

    def start_drill(
        self, drill_id: str, on_close: Callable[[str | None], None] | None = None, fresh: bool = False
    ) -> None:
        """The timed attempt screen for a drill, on a fresh workspace or (asked first) its last
        unfinished one; `fresh` (a mock interview, timed from zero) never offers that one. With
        `on_close` (a review session opened it) the drill screen returns there with how it ended;
        else it replaces the list."""
        if self.study is not None:
            self.open_drill(drill_id, on_close, fresh)

    @work(thread=True, group="drills", exit_on_error=False)
    def open_drill(self, drill_id: str, on_close: Callable[[str | None], None] | None, fresh: bool = False) -> None:
        from drill.coding.drills import DrillError, find_drill, item_id
        from drill.coding.progress import last_unfinished
        from drill.tui.screens.drill_attempt import open_attempt

        assert self.study is not None
        try:
            drill = find_drill(self.paths.kernel_dirs(), drill_id)
            card = self.study.reviews.cards([item_id(drill_id)])[0]
        except (DrillError, OSError, IndexError) as error:
            self.notify(f"Could not open the drill {drill_id}: {error}", severity="error", timeout=10)
            return
        unfinished = None if fresh else last_unfinished(self.paths.workspaces, drill_id)
        self.call_from_thread(open_attempt, self, self.study, drill, card, unfinished, on_close)

    def action_interview_date(self) -> None:
        """Set or clear the interview date that the plan works towards."""
        from drill.tui.dialogs.ask_date import AskDate

        if self.study is None:
            return

        def chosen(value: date | Literal[False] | None) -> None:
            if value is False or self.study is None:
                return
            from drill.config import set_interview_date

            self.study.config = set_interview_date(self.study.paths, value)
            self.notify(f"Interview date set to {value}." if value else "Interview date cleared.")
            self.refresh_home()

        self.push_screen(AskDate("Interview date:", self.study.config.interview_date, after=self.study.today), chosen)

    def action_mock_history(self) -> None:
        if self.study is not None:
            self.open_mock_history()

    @work(thread=True, group="study", exit_on_error=False)
    def open_mock_history(self) -> None:
        assert self.study is not None
        self.study.settle()  # a failed write was said when it happened; history shows what was saved
        from drill.store.estimates import round_history

        rounds = round_history(self.study.engine)
        self.call_from_thread(self._show_mock_history, rounds)

    def _show_mock_history(self, rounds: list[RoundRow]) -> None:
        from drill.tui.screens.mock.round_history import MockHistoryScreen

        assert self.study is not None
        self.push_screen(MockHistoryScreen(self.study, rounds))

    def action_stats(self) -> None:
        """Progress: readiness, the load ahead, the heatmap, retention, estimation, drills, pitches."""
        from drill.tui.screens.stats import StatsScreen  # plotting loads here, not at start-up

        if self.study is not None:
            self.push_screen(StatsScreen(self.study))

    def action_browse(self) -> None:
        """The card browser: every item with its state, search and filters, card info, suspend, forget."""
        from drill.tui.screens.browser import BrowserScreen

        if self.study is not None:
            self.push_screen(BrowserScreen(self.study))

    def action_home(self) -> None:
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.refresh_home()

    @work(thread=True, exclusive=True, group="study", exit_on_error=False)
    def refresh_home(self) -> None:
        """Back home, the session has ended: its leeches are suspended (drill.study.leeches), then
        the counts are read (at once if the database is too busy to take the suspension now)."""
        if self.study is not None:
            wait([self.study.leeches.end_session()], timeout=SESSION_END_WAIT_S)
            self.post_message(HomeRefreshed(self.study.browsing.home()))

    @on(HomeRefreshed)
    def _home_refreshed(self, message: HomeRefreshed) -> None:
        self.home_screen.show(message.home)

    def action_toggle_help(self) -> None:
        if self.screen.query("HelpPanel"):
            self.action_hide_help_panel()
        else:
            self.action_show_help_panel()

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        yield SystemCommand("Review", "Start today's review", self.action_review)
        yield SystemCommand("Home", "Go back to the home screen", self.action_home)
        yield SystemCommand("Mock round", "A timed round of estimation problems", self.action_mock)
        yield SystemCommand("Coding drills", "Timed coding exercises with hidden tests", self.action_drills)
        yield SystemCommand(
            "Interview date", "Set or clear the date the plan works towards", self.action_interview_date
        )
        yield SystemCommand("Mock history", "Every mock round so far", self.action_mock_history)
        yield SystemCommand(
            "Mock interview", "Grill, pitch, estimates (and a drill) under one countdown", self.action_mock_interview
        )
        yield SystemCommand("Mock interview history", "Every mock interview so far", self.action_mock_interview_history)
        yield SystemCommand("Stats", "Readiness, forecast, heatmap, retention, estimation, drills", self.action_stats)
        yield SystemCommand("Browse", "Every item: search, filter, card info, suspend, forget", self.action_browse)
        yield from getattr(screen, "screen_commands", lambda: ())()

    async def action_quit(self) -> None:
        """Quit once every write is made, waiting a bounded time when the database is busy; what
        still cannot be made stays in the journal, said on exit, and the next start makes it."""
        if self._quitting:
            return
        self._quitting = True
        study = self.study
        if study is None:
            self.exit()
            return
        from drill.study.core import QUIT_WAIT_S
        from drill.words import counted

        waiting = study.writes_waiting
        if waiting:
            self.notify(
                f"Saving {counted(waiting, 'write')}: waiting up to {QUIT_WAIT_S:.0f} s for the database…",
                title="Quitting",
                timeout=QUIT_WAIT_S + 1,
            )
        kept = await asyncio.to_thread(study.close, QUIT_WAIT_S)
        self.exit(message=_kept_message(kept, study.journal) if kept else None)

    def _asked_to_stop(self) -> None:
        """SIGTERM: keep what is not yet written in the journal (fsynced) and end, without waiting
        on the screen; the terminal is restored as on quit."""
        self._close_at_once()
        self.exit()

    def _terminal_closed(self, _signal: int, _frame: object) -> None:
        """SIGHUP, handled before any signal sent with it: the kernel's hang-up also sends SIGCONT, on
        which Textual would start drawing again on the closed terminal, and its exit could then wait
        for good on output nobody reads. So SIGCONT is left to its default, and a thread keeps what
        is not yet written in the journal (fsynced) and ends the process: there is nothing to restore.
        A second SIGHUP is ignored: one thread ends it."""
        signal.signal(signal.SIGCONT, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        threading.Thread(target=self._end_after_hang_up, name="drill-hang-up").start()

    def _end_after_hang_up(self) -> None:
        try:
            self._close_at_once()
        finally:
            os._exit(0)

    def _close_at_once(self) -> None:
        """Close the study without waiting for its writes: those not yet made stay in the journal."""
        if self.study is not None and not self._quitting:
            self._quitting = True
            self.study.close(0)


def _kept_message(kept: int, journal: Path) -> str:
    from drill.words import counted

    return (
        f"drill: {counted(kept, 'write')} could not be saved yet (another program holds the database); "
        f"kept in {journal} and saved the next time drill starts."
    )
