"""One timed attempt at a coding drill: edit, run the hidden tests, hints, the reference solution.

The attempt is resumable: its clock and hints are kept beside the workspace (drill.coding.progress),
Escape asks whether to keep it for later or discard it, and opening the drill again offers the
last unfinished one (open_attempt). Hints and the reference open above the test results, scrolled
into view.

Runs: one at a time. Asking for one while one goes on (`t`, the editor closing, a save while
watching) runs the file as it is then once the current run ends, so no save is left untested. `x`
cancels the run under way (the runner kills its process tree); nothing is recorded. While a run
goes on, a line counts its results; the list is drawn once, with the verdict.

The clock counts the time spent waiting for a run, as an interviewer's would, except for a run
that never came to a verdict on the code: one cancelled with `x`, or one stopped at the runner's
time limit (a hang). That run's whole wait comes off the clock when it ends.
"""

from __future__ import annotations

import threading
import time
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Footer, Header, Markdown, Static
from textual.worker import Worker

from drill.days import to_local
from drill.tui.routes import RoutedScreen
from drill.tui.widgets.fresh_markdown import FreshMarkdown
from drill.tui.widgets.path_label import PathLabel
from drill.tui.widgets.pitch_timer import clock_text
from drill.tui.workers import ShowsWorkerFailures
from drill.words import counted

WATCH_DEBOUNCE_MS = 200  # saves closer together than this are one save

if TYPE_CHECKING:
    from collections.abc import Callable

    from drill.coding.drills import Drill
    from drill.coding.progress import Progress
    from drill.coding.runner.result import TestResult, TestRun
    from drill.coding.workspace import Workspace
    from drill.schedule.leech import Flagged
    from drill.schedule.records import Card, Grade
    from drill.study import Study

Finished = Literal["pass", "gave up"]  # how an attempt ended that was its review


class TestReported(Message):
    """One hidden test finished (posted from the runner's thread)."""

    __test__ = False

    def __init__(self, result: TestResult) -> None:
        super().__init__()
        self.result = result


class FileSaved(Message):
    """The workspace's file changed on disk (posted from the watcher's thread)."""


class RunFinished(Message):
    def __init__(self, run: TestRun, started_at: datetime) -> None:
        super().__init__()
        self.run = run
        self.started_at = started_at


def open_attempt(
    app: App[None],
    study: Study,
    drill: Drill,
    card: Card,
    unfinished: tuple[Workspace, Progress] | None,
    on_close: Callable[[str | None], None] | None,
) -> None:
    """Open the attempt screen on a fresh workspace, or first ask whether to resume `unfinished`
    (the drill's last workspace that was neither passed, given up nor discarded). With `on_close`
    (a review or a mock interview opened it) the screen returns there with how it ended; else it
    replaces the drills list."""
    from drill.coding.progress import Progress, save_progress
    from drill.coding.workspace import create_workspace
    from drill.tui.dialogs.choose import Choose

    def show(workspace: Workspace, progress: Progress) -> None:
        screen = DrillScreen(study, drill, card, workspace, progress, back_to_session=on_close is not None)
        if on_close is None:
            app.switch_screen(screen)
        else:
            app.push_screen(screen, on_close)

    def fresh() -> None:
        try:
            if unfinished is not None:
                save_progress(unfinished[0], unfinished[1].ending("discarded"))  # one unfinished at a time
            workspace = create_workspace(drill, study.paths.workspaces, study.clock())
        except OSError as error:
            app.notify(f"Could not open the drill {drill.id}: {error}", severity="error", timeout=10)
            return
        show(workspace, Progress())

    def answered(choice: str | None) -> None:
        if choice == "resume" and unfinished is not None:
            show(*unfinished)
        elif choice == "fresh":
            fresh()

    if unfinished is None:
        fresh()
        return
    workspace, progress = unfinished
    started = to_local(workspace.created_at)
    app.push_screen(
        Choose(
            f"Resume your attempt at {drill.title} from {started:%a %d %b %H:%M}? "
            f"{clock_text(progress.seconds)} on its clock, "
            f"{progress.hints_used} of {counted(len(drill.hints), 'hint')} shown.",
            [("r", "resume it", "resume"), ("f", "start fresh (that attempt is set aside)", "fresh")],
            "cancel",
        ),
        answered,
    )


class DrillScreen(ShowsWorkerFailures, RoutedScreen[str | None]):
    """The timer runs while the screen is open, from the workspace's start (or where a resumed
    attempt left off) until the tests pass or you give up; then it shows the time it ended at."""

    DEFAULT_CSS = """
    #drill-reference {
        padding: 0 2;
        margin-bottom: 1;
    }
    #drill-leech {
        color: $text-warning;
        margin-bottom: 1;
    }
    """
    BINDINGS = [
        Binding("e", "edit", "Edit"),
        Binding("t", "test", "Run tests"),
        Binding("w", "watch", "Watch"),
        Binding("x", "cancel_run", "Cancel run"),
        Binding("h", "hint", "Hint"),
        Binding("g", "give_up", "Give up"),
        Binding("s", "solution", "Solution"),
        Binding("y", "copy_path", "Copy path"),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(
        self,
        study: Study,
        drill: Drill,
        card: Card,
        workspace: Workspace,
        progress: Progress | None = None,
        back_to_session: bool = False,
    ) -> None:
        super().__init__()
        self.back_to_session = back_to_session  # opened from today's review: Escape returns there
        self.study = study
        self.drill = drill
        self.card = card
        self.workspace = workspace
        self.resumed = progress is not None and (progress.seconds > 0 or progress.hints_used > 0)
        self.started = time.monotonic() - (progress.seconds if progress else 0.0)
        self.final_seconds: float | None = None  # the clock stopped here at the pass or giving up
        self.hints_used = progress.hints_used if progress else 0
        self.running = False
        self.run_started = 0.0  # time.monotonic() when the run under way started
        self.cancel: threading.Event | None = None  # set: the run under way stops (x)
        self.rerun = False  # a run was asked for during the one under way: it runs once that one ends
        self.watching: threading.Event | None = None  # set: the watcher stops
        self.finished: Finished | None = None  # the review has been recorded
        self.discarded = False  # left with "discard": never offered again
        self.results: list[TestResult] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="drill-status")
        with VerticalScroll(id="drill-body"):
            yield PathLabel("Your file (y copies its path):", self.workspace.solution, id="drill-file")
            yield Markdown("", id="drill-hints")
            yield Static("", id="drill-leech", markup=False)  # giving up made it a leech: said above the reference
            yield Static("", id="drill-reference")
            yield Static("", id="drill-progress", markup=False)
            yield FreshMarkdown("", id="drill-results")  # drawn once parsed: never a run's list before
            yield Markdown(self.drill.prompt.read_text(encoding="utf-8"), id="drill-prompt")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.query_one("#drill-hints").display = self.hints_used > 0
        self.query_one("#drill-reference").display = False
        self.query_one("#drill-leech").display = False
        self.query_one("#drill-progress").display = False
        if self.hints_used:
            self.show_hints()
        if self.resumed:
            self.notify(f"Resumed at {clock_text(self.elapsed)} on the clock.")
        self.keep_progress()
        self.set_interval(1.0, self.tick)
        if not self.environment_missing():
            self.prewarm()
        self.tick()

    def on_unmount(self) -> None:
        self.keep_progress()  # quitting the app keeps an unfinished attempt, with its clock
        if self.watching is not None:
            self.watching.set()

    def keep_progress(self) -> None:
        """Write where this attempt stands beside its workspace, so it can be resumed."""
        from drill.coding.progress import Progress, save_progress

        ended = "discarded" if self.discarded else self.finished
        try:
            save_progress(self.workspace, Progress(self.elapsed, self.hints_used, ended))
        except OSError as error:
            self.notify(f"Could not keep this attempt's progress for later: {error}", severity="warning")

    def environment_missing(self) -> bool:
        """Say so, with the fixing command, when this Python cannot run the tests (find_spec only)."""
        from drill.coding.runner.environment import describe, missing_requirements

        if missing := missing_requirements(self.drill):
            self.query_one("#drill-results", Markdown).update(
                f"**The tests cannot run here; nothing is recorded.** {describe(missing)}"
            )
        return bool(missing)

    @work(thread=True, group="prewarm", exit_on_error=False)
    def prewarm(self) -> None:
        from drill.coding.runner.api import prewarm

        prewarm()

    @property
    def elapsed(self) -> float:
        """Seconds on the drill's clock: still running, or where it stopped at the pass or giving up."""
        return self.final_seconds if self.final_seconds is not None else time.monotonic() - self.started

    def stop_clock(self) -> None:
        self.final_seconds = self.elapsed

    def clock_line(self) -> str:
        """'5:00 / budget 10:00' while it runs; 'solved in 6:55 (budget 10:00)' once passed."""
        budget, now = clock_text(self.drill.budget_s), clock_text(self.elapsed)
        ended = {"pass": "solved in", "gave up": "gave up at"}.get(self.finished or "")
        return f"{ended} {now} (budget {budget})" if ended else f"{now} / budget {budget}"

    def tick(self) -> None:
        parts = [
            self.drill.title,
            self.drill.difficulty,
            self.clock_line(),
            f"hints {self.hints_used}/{len(self.drill.hints)}",
        ]
        if self.running:
            parts.append("running tests…")
        elif self.watching is not None:
            parts.append("watching your file")
        elif self.finished is None:
            parts.append("ready")
        self.query_one("#drill-status", Static).update(" · ".join(parts))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "solution":
            return self.finished is not None
        if action in ("give_up", "hint"):
            return self.finished is None
        if action == "cancel_run":
            return self.running
        return True

    # -- leaving --------------------------------------------------------------------------

    def action_leave(self) -> None:
        """Leave an ended attempt at once; an unfinished one asks: keep it for later, discard it, or stay."""
        if self.finished is not None:
            self.go_back()
            return
        from drill.tui.dialogs.choose import Choose

        asked_at = self.elapsed

        def left(choice: str | None) -> None:
            if choice is None:  # stay: the clock has run on all along
                return
            self.final_seconds = asked_at  # kept at the time the question said
            self.discarded = choice == "discard"
            self.keep_progress()
            self.go_back()

        self.app.push_screen(
            Choose(
                f"Leave {self.drill.title} unfinished? Its clock stops at {clock_text(asked_at)}.",
                [
                    ("k", "keep it for later: opening the drill again offers to resume it", "keep"),
                    ("d", "discard it: the next start is fresh", "discard"),
                ],
                "stay",
            ),
            left,
        )

    def go_back(self) -> None:
        """Back to the review that opened this drill (saying whether it ended), else home."""
        if self.back_to_session:
            self.dismiss(self.finished)
        else:
            self.app.action_home()

    # -- editing and watching -------------------------------------------------------------

    def action_copy_path(self) -> None:
        """The solution's full path to the clipboard (the terminal's, through OSC 52), to open it
        in an editor or another terminal."""
        self.app.copy_to_clipboard(str(self.workspace.solution))
        self.notify(f"Copied {self.query_one(PathLabel).path}", timeout=3)

    def action_edit(self) -> None:
        """The solution in $VISUAL or $EDITOR (neither set: say how to work without one); the tests
        rerun once the editor exits."""
        from drill.tui.editor import run_editor

        problem = run_editor(
            self.app, self.workspace.solution, fallback=None, meanwhile=" and press w to rerun the tests on every save"
        )
        if problem is not None:
            self.notify(problem, title="No editor", severity="warning", timeout=12)
            return
        self.run_tests()

    def action_watch(self) -> None:
        if self.watching is None:
            self.watching = threading.Event()
            self.watch_file(self.watching)
            self.notify("Watching: the tests rerun each time you save.")
        else:
            self.watching.set()
            self.watching = None
            self.notify("Stopped watching.")
        self.tick()

    @work(thread=True, group="watch", exit_on_error=False)
    def watch_file(self, stop: threading.Event) -> None:
        """Post FileSaved for each save of the workspace's file (OS file events, debounced), until
        `stop` is set. The folder is watched: editors often save by renaming a new file over it."""
        from watchfiles import watch

        target = str(self.workspace.solution)
        for _changes in watch(
            self.workspace.folder,
            watch_filter=lambda _change, path: path == target,
            debounce=WATCH_DEBOUNCE_MS,
            step=50,
            stop_event=stop,
            rust_timeout=500,
            yield_on_timeout=False,
            raise_interrupt=False,
        ):
            self.post_message(FileSaved())

    def on_file_saved(self, message: FileSaved) -> None:
        if self.watching is not None:
            self.run_tests()

    # -- running --------------------------------------------------------------------------

    def action_test(self) -> None:
        self.run_tests()

    def run_tests(self) -> None:
        """Start a run of the hidden tests on the file as it is now; during a run, run it once that
        run ends."""
        if self.environment_missing():
            return
        if self.running:
            self.rerun = True
            self.show_progress()
            return
        self.running, self.rerun = True, False
        self.results = []
        self.run_started = time.monotonic()
        self.cancel = threading.Event()
        self.query_one("#drill-results").display = False
        self.query_one("#drill-progress").display = True
        self.show_progress()
        self.run_in_thread(self.cancel)
        self.refresh_bindings()
        self.tick()

    @work(thread=True, group="tests", exit_on_error=False)
    def run_in_thread(self, cancel: threading.Event) -> None:
        from drill.coding.runner.api import run_tests

        def reported(result: TestResult) -> None:
            self.post_message(TestReported(result))

        started_at = self.study.clock()
        run = run_tests(self.drill, self.workspace.solution, "cpu", on_test=reported, cancel=cancel)
        self.post_message(RunFinished(run, started_at))

    def on_test_reported(self, message: TestReported) -> None:
        self.results.append(message.result)
        self.show_progress()

    def show_progress(self) -> None:
        """The run's line: what its results came to so far (one Static: cheap at any rate of results)."""
        from drill.tui.screens.drill_results import tally

        if self.cancel is not None and self.cancel.is_set():
            said = "Cancelling the run…"
        else:
            said = " — ".join(filter(None, ["Running the hidden tests…", tally(self.results)])) + " (x cancels)"
        if self.rerun:
            said += "; your latest save runs next"
        self.query_one("#drill-progress", Static).update(said)

    def action_cancel_run(self) -> None:
        """Stop the run under way (a save made during it still runs next)."""
        if self.running and self.cancel is not None:
            self.cancel.set()
            self.show_progress()

    async def show_results(self, head: str, lines: bool = True) -> None:
        """The run's verdict in bold and (with `lines`) a line per test, in place of its progress
        line once drawn."""
        from drill.tui.screens.drill_results import result_lines

        said = [f"**{head}**", "", *result_lines(self.results, head)] if lines else [f"**{head}**"]
        results = self.query_one("#drill-results", Markdown)
        results.display = True
        await results.update("\n".join(said))
        self.query_one("#drill-progress").display = False

    def worker_failed(self, worker: Worker[Any]) -> None:
        """The test run itself broke (said in a notice): nothing is recorded and `t` runs again."""
        if worker.group == "tests":
            self.call_later(self.run_ended, "The tests could not run; nothing is recorded.", lines=False)
        elif worker.group == "watch":
            self.watching = None
            self.tick()

    async def on_run_finished(self, message: RunFinished) -> None:
        run = message.run
        waited = time.monotonic() - self.run_started
        cancelled = self.cancel is not None and self.cancel.is_set() and run.status != "pass"
        if cancelled or run.status == "timeout":  # no verdict on the code: the wait is off the clock
            self.started += waited
        if cancelled:
            await self.run_ended(f"Run cancelled after {clock_text(waited)}; nothing is recorded", lines=False)
            return
        if run.environment:  # this Python failed, not the user's code: no attempt, no review
            await self.run_ended(f"The tests could not run; nothing is recorded. {run.reason}", lines=False)
            return
        self.results = list(run.tests) or self.results
        head = run.headline
        if run.status == "timeout":
            head += f" ({clock_text(waited)} of waiting taken off the clock)"
        passed_now = run.status == "pass" and self.finished is None
        if passed_now:
            self.stop_clock()
            self.finished = "pass"
        grade = self.study.drills.grade(self.card, "pass", self.elapsed, self.hints_used) if passed_now else None
        self.record(run, message.started_at, grade)
        if passed_now:
            head += f" — {self.clock_line()}. Press s for the reference."
        await self.run_ended(head)

    async def run_ended(self, head: str, lines: bool = True) -> None:
        """Say how the run ended; once that is drawn the screen is ready, or runs again when a run
        was asked for meanwhile."""
        await self.show_results(head, lines)
        self.running, self.cancel = False, None
        self.keep_progress()
        self.refresh_bindings()
        self.tick()
        rerun, self.rerun = self.rerun, False
        if rerun and self.finished is None:
            self.run_tests()

    def record(self, run: TestRun, started_at: datetime, grade: Grade | None) -> None:
        from drill.coding.attempt import CodingAttempt

        self.study.drills.save_attempt(
            CodingAttempt.of(
                run,
                self.card.item_id,
                started_at,
                self.study.clock(),
                self.hints_used,
                self.elapsed,
                str(self.workspace.folder),
            ),
            grade,
        )

    # -- hints, giving up, the reference: each opens above the results, in view -----------------

    def bring_into_view(self, widget: Widget) -> None:
        """Scroll the body so `widget` is at its top, and focus the body so the keys scroll it. A
        widget shown this moment may have no place yet after the next refresh (it is laid out once
        its own update comes through, a Markdown's after parsing in a thread): the scroll looks
        again each frame until it has one."""
        body = self.query_one("#drill-body", VerticalScroll)
        body.focus()

        def scroll() -> None:
            target = self._leech_above(widget)
            if target.virtual_region.height:
                body.scroll_to_widget(target, top=True, animate=False)
            elif target.display and target.is_attached:
                self.set_timer(1 / 60, scroll)

        self.call_after_refresh(scroll)

    def show_hints(self) -> Markdown:
        hints = self.query_one("#drill-hints", Markdown)
        shown = "\n".join(f"{n}. {hint}" for n, hint in enumerate(self.drill.hints[: self.hints_used], start=1))
        hints.update(f"**Hints** ({self.hints_used} of {len(self.drill.hints)})\n\n{shown}")
        hints.display = True
        return hints

    def action_hint(self) -> None:
        if self.hints_used >= len(self.drill.hints):
            self.notify("No more hints.")
            return
        self.hints_used += 1
        self.bring_into_view(self.show_hints())
        self.keep_progress()
        self.tick()

    def action_give_up(self) -> None:
        """Ask first: giving up ends the attempt as a lapse and shows the reference."""
        if self.finished is not None:
            return
        from drill.tui.dialogs.confirm import Confirm

        def answered(yes: bool | None) -> None:
            if yes:
                self.give_up()

        self.app.push_screen(
            Confirm(f"Give up on {self.drill.title}? It counts as a lapse, and the reference solution is shown."),
            answered,
        )

    def give_up(self) -> None:
        if self.finished is not None:
            return
        from drill.coding.runner.result import TestRun

        self.stop_clock()
        last: Literal["fail", "error"] = (
            "fail" if any(result.outcome == "failed" for result in self.results) else "error"
        )
        grade = self.study.drills.grade(self.card, last, self.elapsed, self.hints_used)
        self.record(TestRun(status=last, passed=0, failed=0, reason="gave up"), self.study.clock(), grade)
        self.finished = "gave up"
        self.keep_progress()
        self.refresh_bindings()
        self.tick()
        self.action_solution()

    def _leech_above(self, widget: Widget) -> Widget:
        """The leech notice, when it is shown and sits just above `widget` (the reference): a scroll to
        the reference, whichever lands last, keeps the notice in view too."""
        notice = self.query_one("#drill-leech", Static)
        return notice if notice.display and widget.id == "drill-reference" else widget

    def show_leech(self, flagged: Flagged) -> bool:
        """Giving up made this drill a leech: said above the reference, in view, where no notice covers it."""
        if self.finished is None or flagged.standing.item_id != self.card.item_id:
            return False
        notice = self.query_one("#drill-leech", Static)
        notice.update(flagged.notice())
        notice.display = True
        self.bring_into_view(notice)
        return True

    def action_solution(self) -> None:
        if self.finished is None:
            return
        from rich.console import Group
        from rich.syntax import Syntax
        from rich.text import Text

        code = self.drill.solution.read_text(encoding="utf-8").rstrip()
        theme = "ansi_dark" if self.app.current_theme.dark else "ansi_light"
        reference = self.query_one("#drill-reference", Static)
        reference.update(
            Group(
                Text("Reference solution", style="bold"),
                Text(),
                Syntax(code, "python", theme=theme, line_numbers=True, word_wrap=True, background_color="default"),
            )
        )
        reference.display = True
        self.bring_into_view(reference)
