"""One timed attempt at a coding drill: edit, run the hidden tests, hints, the reference solution."""

from __future__ import annotations

import os
import shlex
import subprocess
import time
from datetime import datetime
from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult, SuspendNotSupported
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, Static

from drill.tui.widgets.pitch_timer import clock_text
from drill.tui.workers import ShowsWorkerFailures

if TYPE_CHECKING:
    from drill.coding.drills import Drill
    from drill.coding.result import TestResult, TestRun
    from drill.coding.workspace import Workspace
    from drill.schedule.records import Card
    from drill.study import Study

MARK = {"passed": "✓", "failed": "✗", "error": "!", "skipped": "·"}


class TestReported(Message):
    """One hidden test finished (posted from the runner's thread)."""

    __test__ = False

    def __init__(self, result: "TestResult") -> None:
        super().__init__()
        self.result = result


class RunFinished(Message):
    def __init__(self, run: "TestRun", started_at: datetime) -> None:
        super().__init__()
        self.run = run
        self.started_at = started_at


class DrillScreen(ShowsWorkerFailures, Screen[str | None]):
    """The timer runs from the moment the workspace is made until the tests pass or you give up."""

    BINDINGS = [
        Binding("e", "edit", "Edit"),
        Binding("t", "test", "Run tests"),
        Binding("w", "watch", "Watch"),
        Binding("h", "hint", "Hint"),
        Binding("g", "give_up", "Give up"),
        Binding("s", "solution", "Solution"),
        Binding("escape", "leave", "Back"),
    ]

    def __init__(self, study: "Study", drill: "Drill", card: "Card", workspace: "Workspace",
                 back_to_session: bool = False) -> None:
        super().__init__()
        self.back_to_session = back_to_session  # opened from today's review: Escape returns there
        self.study = study
        self.drill = drill
        self.card = card
        self.workspace = workspace
        self.started = time.monotonic()
        self.hints_used = 0
        self.running = False
        self.watching = False
        self.watched_mtime = workspace.solution.stat().st_mtime_ns
        self.finished: str | None = None  # "pass" or "gave up": the review has been recorded
        self.results: list[TestResult] = []

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="drill-status")
        with VerticalScroll(id="drill-body"):
            yield Static(f"Your file: [b]{self.workspace.solution}[/b]", id="drill-file")
            yield Markdown("", id="drill-results")
            yield Markdown("", id="drill-hints")
            yield Markdown(self.drill.prompt.read_text(encoding="utf-8"), id="drill-prompt")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.set_interval(1.0, self.tick)
        self.set_interval(0.5, self.poll_file)
        if not self.environment_missing():
            self.prewarm()
        self.tick()

    def environment_missing(self) -> bool:
        """Say so, with the fixing command, when this Python cannot run the tests (find_spec only)."""
        from drill.coding.environment import describe, missing_requirements

        if missing := missing_requirements(self.drill):
            self.query_one("#drill-results", Markdown).update(
                f"**The tests cannot run here; nothing is recorded.** {describe(missing)}")
        return bool(missing)

    @work(thread=True, group="prewarm", exit_on_error=False)
    def prewarm(self) -> None:
        from drill.coding.api import prewarm

        prewarm()

    @property
    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def tick(self) -> None:
        state = "running tests…" if self.running else (self.finished or ("watching your file" if self.watching else "ready"))
        self.query_one("#drill-status", Static).update(
            f"{self.drill.title} · {self.drill.difficulty} · {clock_text(self.elapsed)} / budget "
            f"{clock_text(self.drill.budget_s)} · hints {self.hints_used}/{len(self.drill.hints)} · {state}"
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "solution":
            return self.finished is not None
        if action in ("give_up", "hint"):
            return self.finished is None
        return True

    def action_leave(self) -> None:
        """Back to the review that opened this drill (saying whether it ended), else home."""
        if self.back_to_session:
            self.dismiss(self.finished)
        else:
            self.app.action_home()

    # -- editing and watching -------------------------------------------------------------

    def action_edit(self) -> None:
        editor = os.environ.get("EDITOR")
        if not editor:
            self.notify(f"$EDITOR is not set. Edit {self.workspace.solution} in another window and press "
                        "w to rerun the tests on every save.", title="No editor", severity="warning", timeout=12)
            return
        try:
            with self.app.suspend():
                subprocess.run([*shlex.split(editor), str(self.workspace.solution)], check=False)
        except SuspendNotSupported:
            self.notify(f"This terminal cannot hand over to {editor}; edit {self.workspace.solution} in "
                        "another window and press w to watch it.", severity="warning", timeout=12)
            return
        self.run_tests()

    def action_watch(self) -> None:
        self.watching = not self.watching
        self.notify("Watching: the tests rerun each time you save." if self.watching else "Stopped watching.")
        self.tick()

    def poll_file(self) -> None:
        try:
            mtime = self.workspace.solution.stat().st_mtime_ns
        except OSError:
            return
        if mtime != self.watched_mtime:
            self.watched_mtime = mtime
            if self.watching:
                self.run_tests()

    # -- running --------------------------------------------------------------------------

    def action_test(self) -> None:
        self.run_tests()

    def run_tests(self) -> None:
        if self.running or self.environment_missing():
            return
        self.running = True
        self.results = []
        self.query_one("#drill-results", Markdown).update("Running the hidden tests…")
        self.run_in_thread()
        self.tick()

    @work(thread=True, group="tests", exit_on_error=False)
    def run_in_thread(self) -> None:
        from drill.coding.api import run_tests

        started_at = self.study.clock()
        run = run_tests(self.drill, self.workspace.solution, "cpu",
                        on_test=lambda result: self.post_message(TestReported(result)))
        self.post_message(RunFinished(run, started_at))

    def on_test_reported(self, message: TestReported) -> None:
        self.results.append(message.result)
        self.show_results(f"Running… {len(self.results)} done")

    def show_results(self, head: str) -> None:
        lines = [f"**{head}**", ""]
        for result in self.results:
            line = f"- {MARK.get(result.outcome, '?')} `{result.name}`"
            if result.outcome in ("failed", "error") and (result.summary or result.message):
                line += f" — {(result.summary or result.message).splitlines()[0][:160]}"
            lines.append(line)
        self.query_one("#drill-results", Markdown).update("\n".join(lines))

    def worker_failed(self, worker) -> None:
        """The test run itself broke (said in a notice): nothing is recorded and `r` runs again."""
        if worker.group == "tests":
            self.running = False
            self.query_one("#drill-results", Markdown).update("**The tests could not run; nothing is recorded.**")
            self.tick()

    def on_run_finished(self, message: RunFinished) -> None:
        run = message.run
        self.running = False
        if run.environment:  # this Python failed, not the user's code: no attempt, no review
            self.query_one("#drill-results", Markdown).update(
                f"**The tests could not run; nothing is recorded.** {run.reason}")
            self.tick()
            return
        self.results = list(run.tests) or self.results
        head = {"pass": "All hidden tests pass", "fail": f"{run.failed} failing, {run.passed} passing",
                "error": "The tests could not run", "timeout": "Timed out"}[run.status]
        if run.reason:
            head += f": {run.reason}"
        passed_now = run.status == "pass" and self.finished is None
        grade = self.study.grade_coding(self.card, "pass", self.elapsed, self.hints_used) if passed_now else None
        self.record(run, message.started_at, grade)
        if passed_now:
            self.finished = "pass"
            head += f" — solved in {clock_text(self.elapsed)} (budget {clock_text(self.drill.budget_s)}). Press s for the reference."
        self.show_results(head)
        self.refresh_bindings()
        self.tick()

    def record(self, run: "TestRun", started_at: datetime, grade) -> None:
        from drill.coding.attempt import CodingAttempt

        self.study.save_coding(CodingAttempt.of(run, self.card.item_id, started_at, self.study.clock(),
                                                self.hints_used, self.elapsed, str(self.workspace.folder)), grade)

    # -- hints, giving up, the reference ----------------------------------------------------

    def action_hint(self) -> None:
        if self.hints_used >= len(self.drill.hints):
            self.notify("No more hints.")
            return
        self.hints_used += 1
        hints = "\n".join(f"{n}. {hint}" for n, hint in enumerate(self.drill.hints[: self.hints_used], start=1))
        self.query_one("#drill-hints", Markdown).update(f"**Hints**\n\n{hints}")
        self.tick()

    def action_give_up(self) -> None:
        if self.finished is not None:
            return
        last = "fail" if any(result.outcome == "failed" for result in self.results) else "error"
        grade = self.study.grade_coding(self.card, last, self.elapsed, self.hints_used)
        from drill.coding.result import TestRun

        self.record(TestRun(status=last, passed=0, failed=0, reason="gave up"), self.study.clock(), grade)
        self.finished = "gave up"
        self.refresh_bindings()
        self.action_solution()

    def action_solution(self) -> None:
        if self.finished is None:
            return
        self.query_one("#drill-prompt", Markdown).update(
            f"## Reference solution\n\n```python\n{self.drill.solution.read_text(encoding='utf-8').rstrip()}\n```"
        )
        self.query_one("#drill-body", VerticalScroll).scroll_home(animate=False)
