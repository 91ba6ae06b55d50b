"""A mock interview under way: grill questions, a pitch, estimation problems and optionally a coding
drill under one countdown, each in the review's view for its kind. Every graded answer is committed
as it is given, as that item's review and as an interview answer."""

from __future__ import annotations

import time
from concurrent.futures import Future
from typing import TYPE_CHECKING

from textual import on
from textual.binding import Binding

from drill.estimate.answer_check import check_answer
from drill.interview.plan import InterviewPlan, Step
from drill.interview.scorecard import CODING_RESULTS, InterviewAnswer, Scorecard, button_score
from drill.interview.settings import GRILL_TARGET_S, SECTION_TITLES
from drill.schedule.sm2 import BUTTON_LABEL
from drill.tui.review.card_view import CardView, Graded
from drill.tui.review.coding_card import CodingView
from drill.tui.review.estimate_card import EstimateView
from drill.tui.review.pitch_card import PitchView
from drill.tui.screens.mock.timed_session import TimedSession

if TYPE_CHECKING:
    from textual.screen import Screen

    from drill.estimate.attempt import Attempt
    from drill.study import Study

HOW = {
    "grill": "Answer aloud as you would to an interviewer; [b]Space[/b] shows the model answer and its checklist.",
    "pitch": "Give the pitch aloud against its target; [b]Space[/b] stops the clock and shows the checklist.",
    "estimate": "Type your answer with units (2.7 GB, 0.49 s, 300 GB/s); [b]Enter[/b] submits it.",
    "coding": "[b]Enter[/b] opens the drill (workspace, hidden tests, its own timer); [b]Escape[/b] there comes "
    "back here. [b]s[/b] skips it.",
}
PITCH_TIME = "**Your time {taken}** against a target of {target}.\n\n"  # the scorecard judges it, not the reveal


class MockInterviewScreen(TimedSession):
    """One question at a time until the plan is done, the countdown runs out, or Escape abandons."""

    TITLE = "Mock interview"
    ABANDON = "Abandon this mock interview? The answers given so far are kept."
    BINDINGS = [
        Binding("space", "reveal", "Show answer"),
        Binding("t", "type_answer", "Type notes"),
        Binding("1", "grade(1)", "Again"),
        Binding("2", "grade(2)", "Hard"),
        Binding("3", "grade(3)", "Good"),
        Binding("4", "grade(4)", "Easy"),
        Binding("enter", "open_drill", "Open drill"),
        Binding("s", "skip_drill", "Skip drill"),
        Binding("escape", "abandon", "Abandon"),
    ]

    def __init__(self, study: Study, plan: InterviewPlan, interview_id: int) -> None:
        super().__init__(study, plan.settings.seconds)
        self.plan = plan
        self.interview_id = interview_id
        self.index = 0
        self.answers: list[InterviewAnswer] = []
        self.recorded: list[Future[None]] = []  # the interview-answer writes, in order
        self.drill_open_at: float | None = None

    def views(self) -> dict[str, CardView]:
        """Grill questions and the pitch are spoken against a clock, with notes and the checklist (the
        errata of the notes left out); an estimate is typed; the drill opens in its own screen."""
        return {
            "grill": PitchView(
                self.study,
                how=HOW["grill"],
                target_seconds=GRILL_TARGET_S,
                time_said="",
                errata=False,
                suggests_at_reveal=True,
            ),
            "pitch": PitchView(
                self.study, how=HOW["pitch"], time_said=PITCH_TIME, errata=False, suggests_at_reveal=True
            ),
            "estimate": EstimateView(
                self.study, how=HOW["estimate"], placeholder="your answer with units, e.g. 2.7 GB — Enter submits"
            ),
            "coding": CodingView(self.study, how=HOW["coding"], says_keys=False),
        }

    @property
    def step(self) -> Step | None:
        return self.plan.steps[self.index] if self.index < len(self.plan.steps) else None

    def status_text(self) -> str:
        step = self.step
        if step is None:
            return ""
        same = [i for i, other in enumerate(self.plan.steps) if other.section == step.section]
        where = f"{SECTION_TITLES[step.section]} {same.index(self.index) + 1}/{len(same)}"
        return f"{where} · question {self.index + 1} of {len(self.plan.steps)} · {self.countdown()}"

    def show_step(self) -> None:
        step = self.step
        if step is None:
            self.end("done")
        else:
            self.present(step.section, step.card, step.problem)

    @staticmethod
    def target_for(step: Step) -> int | None:
        if step.section == "grill":
            return GRILL_TARGET_S
        return step.card.target_seconds

    # -- answers -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("open_drill", "skip_drill"):
            step = self.step
            return not self.over and step is not None and step.section == "coding"
        return super().check_action(action, parameters)

    def action_reveal(self) -> None:
        self.view.reveal()

    def action_type_answer(self) -> None:
        self.view.type_answer()

    def action_grade(self, button: int) -> None:
        self.view.grade(button)

    @on(Graded)
    def _graded(self, message: Graded) -> None:
        """A self-grade against the checklist, or an estimate the grader graded: the item's review
        and the interview's answer."""
        step = self.step
        if step is None or self.over or message.card is not step.card:
            return
        if message.attempt is not None:
            self.give(*self.estimate_answer(step, message.attempt))
        elif message.button is not None:
            button = message.button
            grade = self.study.reviews.grade(
                step.card, button, int(message.seconds * 1000), typed_answer=message.typed_answer, ticked=message.ticked
            )
            self.give(
                InterviewAnswer(
                    self.index,
                    step.section,
                    step.item_id,
                    message.seconds,
                    button_score(button),
                    button,
                    self.target_for(step),
                    message.typed_answer,
                    BUTTON_LABEL[button],
                ),
                self.study.reviews.save_grade(grade),
            )

    def estimate_answer(self, step: Step, attempt: Attempt) -> tuple[InterviewAnswer, Future[int]]:
        """An estimate the grader graded: its review is handed to the writer."""
        grade = self.study.reviews.grade_estimate(step.card, attempt)
        recorded = self.study.reviews.save_estimate(grade, attempt)
        detail = f"{attempt.problem.prompt}\n\n{attempt.report()}"
        return InterviewAnswer(
            self.index,
            "estimate",
            step.item_id,
            attempt.seconds,
            attempt.score,
            grade.button,
            None,
            attempt.answer,
            attempt.result.feedback,
            detail,
        ), recorded

    def action_open_drill(self) -> None:
        step = self.step
        if step is None:
            return
        from drill.coding.drills import drill_id

        self.drill_open_at = time.monotonic()  # a drill that could not open is said by the app; Enter tries again
        self.app.start_drill(drill_id(step.item_id), self.drill_closed, fresh=True)  # on the interview's clock

    def drill_closed(self, ended: str | None) -> None:
        """Back from the drill: its pass or giving up was already its review; record the result here."""
        step = self.step
        opened, self.drill_open_at = self.drill_open_at, None
        if step is None or step.section != "coding" or self.over or opened is None:
            return
        result = ended or "unfinished"
        self.give(
            InterviewAnswer(
                self.index,
                "coding",
                step.item_id,
                time.monotonic() - opened,
                CODING_RESULTS.get(result, 0.0),
                None,
                step.card.target_seconds,
                None,
                result,
            )
        )

    def action_skip_drill(self) -> None:
        self.drill_open_at = None
        self.index += 1
        self.show_step()

    def keep(self, answer: InterviewAnswer, recorded: Future[int] | None = None) -> None:
        """Keep an answer and commit it (after the review it also was)."""
        self.answers.append(answer)
        self.recorded.append(self.study.interviews.save_answer(self.interview_id, answer, recorded))

    def give(self, answer: InterviewAnswer, recorded: Future[int] | None = None) -> None:
        """Keep an answer and go on (or end, when the countdown ran out meanwhile)."""
        self.keep(answer, recorded)
        self.index += 1
        if self.step is not None and self.remaining_s <= 0:
            self.end("time")
        else:
            self.show_step()

    # -- the end -----------------------------------------------------------------------------

    def time_up(self) -> None:
        """Time ran out: an estimate typed in the box (not sent yet) counts if it parses."""
        step, view = self.step, self.view
        if step is not None and step.problem is not None and isinstance(view, EstimateView) and not view.answered:
            typed = view.typed()
            if typed.strip() and check_answer(step.problem, typed) is None:
                attempt = self.study.estimation.answer(step.problem, typed, time.monotonic() - self.shown_at)
                self.keep(*self.estimate_answer(step, attempt))
        self.end("time")

    def finish(self, ended: str) -> Screen[None]:
        scorecard = Scorecard(
            settings=self.plan.settings,
            planned=self.plan.planned,
            answers=tuple(self.answers),
            seconds_used=self.used_s,
            ended=ended,
            interview_id=self.interview_id,
            items=tuple((step.section, step.item_id) for step in self.plan.steps),
            forecast=self.plan.forecast,
        )
        self.study.interviews.save_end(self.interview_id, scorecard)
        from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen, item_titles

        return MockInterviewScorecardScreen(scorecard, item_titles([step.card for step in self.plan.steps]))
