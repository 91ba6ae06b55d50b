"""A mock round under way: countdown, progress, one problem at a time."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Markdown, ProgressBar, Static

from drill.estimate.answer_check import check_answer
from drill.estimate.rounds import RoundSettings, RoundSummary
from drill.tui.widgets.confirm import Confirm
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.estimate.attempt import Attempt
    from drill.estimate.draw import Problem
    from drill.study import Study


class MockRoundScreen(Screen[None]):
    """Answers are graded and committed as they are given; shown now or at the end.

    An answer that cannot be graded (a typo such as "1+", a missing or wrong unit) is not:
    its message shows under the box, which keeps the text and the focus. When time runs
    out, what is in the box counts if it can be graded.
    """

    BINDINGS = [Binding("escape", "abandon", "Abandon"), Binding("enter", "next", "Next", show=False)]

    def __init__(self, study: "Study", round_id: int, problems: list["Problem"], settings: RoundSettings) -> None:
        super().__init__()
        self.study = study
        self.round_id = round_id
        self.problems = problems
        self.settings = settings
        self.attempts: list[Attempt] = []
        self.started = time.monotonic()
        self.shown_at = self.started
        self.waiting_for_next = False
        self.over = False

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="round-status")
        yield ProgressBar(total=len(self.problems), show_eta=False, id="round-progress")
        with VerticalScroll(id="round-body"):
            yield Markdown("", id="round-prompt")
            yield Input(placeholder="your answer with units — Enter", id="round-answer")
            yield Static("", id="round-answer-error", classes="answer-error", markup=False)
            yield Markdown("", id="round-feedback")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.set_interval(0.5, self.tick)
        self.show_problem()

    @property
    def remaining_s(self) -> float:
        return self.settings.seconds - (time.monotonic() - self.started)

    def tick(self) -> None:
        if self.over:
            return
        if self.remaining_s <= 0:
            self.time_up()
            return
        if self.waiting_for_next:  # the feedback on screen is the last answer's: its number, its time
            number, this = len(self.attempts), self.attempts[-1].seconds
        else:
            number, this = len(self.attempts) + 1, time.monotonic() - self.shown_at
        self.query_one("#round-status", Static).update(
            f"problem {min(number, len(self.problems))}/{len(self.problems)} · "
            f"{clock_text(self.remaining_s)} left · this one {clock_text(this)}"
        )

    def show_problem(self) -> None:
        self.waiting_for_next = False
        self.shown_at = time.monotonic()
        problem = self.problems[len(self.attempts)]
        self.query_one("#round-prompt", Markdown).update(problem.prompt)
        feedback = self.query_one("#round-feedback", Markdown)
        feedback.update("")
        feedback.display = False
        entry = self.query_one("#round-answer", Input)
        entry.value = ""
        entry.display = True
        entry.focus()
        self.show_error(None)
        self.tick()

    def show_error(self, message: str | None) -> None:
        """Say why the answer in the box cannot be graded (None: hide the line)."""
        line = self.query_one("#round-answer-error", Static)
        line.update(message or "")
        line.display = message is not None

    def record(self, problem: "Problem", text: str) -> "Attempt":
        """Grade a checked answer, commit it and count it."""
        attempt = self.study.estimation.answer(problem, text, time.monotonic() - self.shown_at)
        self.attempts.append(attempt)
        self.study.estimation.save_round_answer(self.round_id, attempt)
        self.query_one("#round-progress", ProgressBar).advance(1)
        return attempt

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.over or self.waiting_for_next:
            return
        problem = self.problems[len(self.attempts)]
        message = check_answer(problem, event.value)
        if message is not None:  # nothing is graded: the problem and the text stay for a fix
            self.show_error(message)
            event.input.focus()
            return
        self.show_error(None)
        attempt = self.record(problem, event.value)
        if len(self.attempts) == len(self.problems):
            self.end("done")
        elif self.settings.grade_at_end:
            self.show_problem()
        else:
            self.waiting_for_next = True
            self.query_one("#round-answer", Input).display = False
            feedback = self.query_one("#round-feedback", Markdown)
            feedback.update(attempt.report() + "\n\nPress **Enter** for the next problem.")
            feedback.display = True
            self.set_focus(None)
            self.tick()

    def action_next(self) -> None:
        if self.waiting_for_next and not self.over:
            self.show_problem()

    def time_up(self) -> None:
        """The clock ran out: whatever is in the box is submitted (graded as it stands, a typo
        scoring zero with its message); the round ends."""
        if not self.waiting_for_next and len(self.attempts) < len(self.problems):
            text = self.query_one("#round-answer", Input).value
            if text.strip():
                self.record(self.problems[len(self.attempts)], text)
        self.end("done" if len(self.attempts) == len(self.problems) else "time")

    def action_abandon(self) -> None:
        def answered(yes: bool | None) -> None:
            if yes:
                self.end("abandoned")

        self.app.push_screen(Confirm("Abandon this round? Answers given so far are kept."), answered)

    def end(self, ended: str) -> None:
        """Close the round (`ended`: done, time or abandoned), store its end and show the summary."""
        from drill.tui.screens.mock_summary import MockSummaryScreen

        if self.over:
            return
        self.over = True
        used = min(float(self.settings.seconds), time.monotonic() - self.started)
        summary = RoundSummary(len(self.problems), list(self.attempts), used, ended)
        self.study.estimation.save_round_end(self.round_id, summary.score, summary.abandoned)
        self.app.switch_screen(MockSummaryScreen(summary))
