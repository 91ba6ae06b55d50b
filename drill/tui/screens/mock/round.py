"""A mock round under way: countdown, progress, one problem at a time in the review's estimate view."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import ProgressBar

from drill.estimate.rounds import RoundSettings, RoundSummary
from drill.tui.review.card_view import CardView, Graded
from drill.tui.review.estimate_card import EstimateView
from drill.tui.screens.mock.timed_session import TimedSession

if TYPE_CHECKING:
    from textual.screen import Screen

    from drill.estimate.attempt import Attempt
    from drill.estimate.draw import Problem
    from drill.study import Study


class MockRoundScreen(TimedSession):
    """Answers are graded and committed as they are given; shown now or at the end.

    An answer that cannot be graded (a typo such as "1+", a missing or wrong unit) is not:
    its message shows under the box, which keeps the text and the focus. When time runs
    out, what is in the box counts as it stands (a typo scoring zero).
    """

    ABANDON = "Abandon this round? Answers given so far are kept."
    BINDINGS = [Binding("escape", "abandon", "Abandon"), Binding("enter", "next", "Next", show=False)]

    def __init__(self, study: Study, round_id: int, problems: list[Problem], settings: RoundSettings) -> None:
        super().__init__(study, settings.seconds)
        self.round_id = round_id
        self.problems = problems
        self.settings = settings
        self.attempts: list[Attempt] = []

    def views(self) -> dict[str, CardView]:
        return {"estimate": EstimateView(self.study, placeholder="your answer with units — Enter", rule=False)}

    def compose_progress(self) -> ComposeResult:
        yield ProgressBar(total=len(self.problems), show_eta=False, id="round-progress")

    def status_text(self) -> str:
        """The problem on screen: the next one, or the last answered while its result shows."""
        number = len(self.attempts) + (1 if self.answered_in is None else 0)
        return f"problem {min(number, len(self.problems))}/{len(self.problems)} · {self.countdown()}"

    def show_step(self) -> None:
        self.present("estimate", None, self.problems[len(self.attempts)])

    def record(self, attempt: Attempt) -> None:
        """Count a graded answer and commit it."""
        self.attempts.append(attempt)
        self.study.estimation.save_round_answer(self.round_id, attempt)
        self.query_one("#round-progress", ProgressBar).advance(1)

    @on(Graded)
    def _graded(self, message: Graded) -> None:
        attempt = message.attempt
        if self.over or attempt is None:
            return
        self.record(attempt)
        if len(self.attempts) == len(self.problems):
            self.end("done")
        elif self.settings.grade_at_end:
            self.show_step()
        else:
            self.answered_in = attempt.seconds
            self.view.show_result(f"{attempt.report()}\n\nPress **Enter** for the next problem.")
            self.tick()

    def action_next(self) -> None:
        self.show_step()

    def time_up(self) -> None:
        """Whatever is in the box is submitted (graded as it stands, a typo scoring zero with its
        message); the round ends."""
        view = self.view
        if isinstance(view, EstimateView) and view.problem is not None and not view.answered and view.typed().strip():
            self.record(self.study.estimation.answer(view.problem, view.typed(), time.monotonic() - self.shown_at))
        self.end("done" if len(self.attempts) == len(self.problems) else "time")

    def finish(self, ended: str) -> Screen[None]:
        summary = RoundSummary(len(self.problems), list(self.attempts), self.used_s, ended)
        self.study.estimation.save_round_end(self.round_id, summary.score, summary.abandoned)
        from drill.tui.screens.mock.round_summary import MockSummaryScreen

        return MockSummaryScreen(summary)
