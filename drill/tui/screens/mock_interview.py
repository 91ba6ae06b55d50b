"""A mock interview under way: one countdown over grill questions, a pitch, estimation problems
and optionally a coding drill. Every graded answer is committed as it is given, as that item's
review and as an interview answer."""

from __future__ import annotations

import math
import time
from concurrent.futures import Future
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Markdown, Rule, Static, TextArea

from drill.estimate.answer_check import check_answer
from drill.interview.plan import InterviewPlan, Step
from drill.interview.scorecard import CODING_RESULTS, InterviewAnswer, Scorecard, button_score
from drill.interview.settings import GRILL_TARGET_S, SECTION_TITLES
from drill.schedule.sm2 import BUTTON_LABEL
from drill.tui.review.flash_card import suggestion_text
from drill.tui.widgets.checklist import Checklist
from drill.tui.widgets.confirm import Confirm
from drill.tui.widgets.pitch_timer import PitchTimer, clock_text

if TYPE_CHECKING:
    from drill.study import Study

monotonic = time.monotonic  # the interview's clock (tests replace it)

HOW = {
    "grill": "Answer aloud as you would to an interviewer; [b]Space[/b] shows the model answer and its checklist.",
    "pitch": "Give the pitch aloud against its target; [b]Space[/b] stops the clock and shows the checklist.",
    "estimate": "Type your answer with units (2.7 GB, 0.49 s, 300 GB/s); [b]Enter[/b] submits it.",
    "coding": "[b]Enter[/b] opens the drill (workspace, hidden tests, its own timer); [b]Escape[/b] there comes "
              "back here. [b]s[/b] skips it.",
}


class MockInterviewScreen(Screen[None]):
    """One question at a time until the plan is done, the countdown runs out, or Escape abandons."""

    DEFAULT_CSS = """
    #interview-status { padding: 0 2; background: $boost; }
    #interview-body { padding: 0 2; }
    #interview-how { color: $text-muted; }
    #interview-prompt { text-style: bold; }
    #interview-timer { margin: 1 0 0 0; color: $accent; }
    #interview-timer.over { color: $error; }
    #interview-typed { height: 6; }
    #interview-check { color: $error; }
    #interview-points { height: auto; max-height: 12; border: round $primary-darken-2; }
    #interview-suggestion { color: $text-muted; }
    """

    BINDINGS = [
        Binding("space", "reveal", "Show answer"),
        Binding("t", "type_notes", "Type notes"),
        Binding("1", "grade(1)", "Again"),
        Binding("2", "grade(2)", "Hard"),
        Binding("3", "grade(3)", "Good"),
        Binding("4", "grade(4)", "Easy"),
        Binding("enter", "open_drill", "Open drill"),
        Binding("s", "skip_drill", "Skip drill"),
        Binding("escape", "abandon", "Abandon"),
    ]

    def __init__(self, study: "Study", plan: InterviewPlan, interview_id: int) -> None:
        super().__init__()
        self.study = study
        self.plan = plan
        self.interview_id = interview_id
        self.index = 0
        self.answers: list[InterviewAnswer] = []
        self.recorded: list[Future] = []  # the interview-answer writes, in order
        self.started = monotonic()
        self.shown_at = self.started
        self.revealed = False
        self.spoken: float | None = None  # seconds spoken, frozen at the reveal
        self.drill_open_at: float | None = None
        self.over = False

    # -- showing -----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="interview-status")
        with VerticalScroll(id="interview-body"):
            yield Static("", id="interview-how")
            yield Markdown("", id="interview-prompt")
            yield PitchTimer(id="interview-timer")
            yield TextArea("", id="interview-typed", soft_wrap=True)
            yield Input(placeholder="your answer with units, e.g. 2.7 GB — Enter submits", id="interview-answer")
            yield Static("", id="interview-check")
            yield Rule(id="interview-divider")
            yield Markdown("", id="interview-reveal")
            checklist = Checklist(id="interview-points")
            checklist.border_title = "Checklist: Tab to it, space ticks what you said"
            yield checklist
            yield Static("", id="interview-suggestion")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "Mock interview"
        self.set_interval(0.5, self.tick)
        self.show_step()

    @property
    def step(self) -> Step | None:
        return self.plan.steps[self.index] if self.index < len(self.plan.steps) else None

    @property
    def remaining_s(self) -> float:
        return self.plan.settings.seconds - (monotonic() - self.started)

    def status_text(self) -> str:
        step = self.step
        if step is None:
            return ""
        same = [i for i, other in enumerate(self.plan.steps) if other.section == step.section]
        where = f"{SECTION_TITLES[step.section]} {same.index(self.index) + 1}/{len(same)}"
        return (f"{where} · question {self.index + 1} of {len(self.plan.steps)} · "
                f"{clock_text(math.ceil(max(0.0, self.remaining_s)))} left · this one {clock_text(monotonic() - self.shown_at)}")

    def tick(self) -> None:
        if self.over:
            return
        if self.remaining_s <= 0:
            if self.app.screen is self:
                self.end("time")
            return  # a dialog or the drill is on top: the interview ends when it closes
        self.query_one("#interview-status", Static).update(self.status_text())

    def on_screen_resume(self) -> None:
        if not self.over and self.drill_open_at is None and self.remaining_s <= 0:
            self.end("time")

    def show_step(self) -> None:
        step = self.step
        if step is None:
            self.end("done")
            return
        self.revealed = False
        self.spoken = None
        self.shown_at = monotonic()
        card = step.card
        section = step.section
        self.query_one("#interview-how", Static).update(HOW[section])
        if section == "estimate":
            prompt = step.problem.prompt
        elif section == "coding":
            prompt = f"**Coding drill** · budget {clock_text(card.target_seconds or 0)}\n\n---\n\n{card.prompt}"
        else:
            prompt = card.prompt
        self.query_one("#interview-prompt", Markdown).update(prompt)
        timer = self.query_one(PitchTimer)
        timer.display = section in ("grill", "pitch")
        if timer.display:
            timer.start(self.target_for(step) or GRILL_TARGET_S)
        typed = self.query_one("#interview-typed", TextArea)
        typed.text = ""
        typed.display = False
        typed.can_focus = True
        entry = self.query_one("#interview-answer", Input)
        entry.value = ""
        entry.display = section == "estimate"
        check = self.query_one("#interview-check", Static)
        check.update("")
        check.display = False
        for selector in ("#interview-divider", "#interview-reveal", "#interview-points", "#interview-suggestion"):
            self.query_one(selector).display = False
        self.query_one("#interview-body", VerticalScroll).scroll_home(animate=False)
        self.set_focus(entry if section == "estimate" else None)
        self.refresh_bindings()
        self.tick()

    @staticmethod
    def target_for(step: Step) -> int | None:
        if step.section == "grill":
            return GRILL_TARGET_S
        return step.card.target_seconds

    # -- actions -----------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        step = self.step
        section = None if step is None or self.over else step.section
        if action == "abandon":
            return True
        if action == "reveal":
            return section in ("grill", "pitch") and not self.revealed
        if action == "type_notes":
            return section in ("grill", "pitch") and not self.revealed
        if action == "grade":
            return section in ("grill", "pitch") and self.revealed
        if action in ("open_drill", "skip_drill"):
            return section == "coding"
        return True

    def action_reveal(self) -> None:
        step = self.step
        if step is None or self.revealed or step.section not in ("grill", "pitch"):
            return
        self.revealed = True
        self.spoken = self.query_one(PitchTimer).stop()
        card = step.card
        answer = card.answer
        if step.section == "pitch":
            answer = (f"**Your time {clock_text(self.spoken)}** against a target of "
                      f"{clock_text(card.target_seconds or 0)}.\n\n{answer}")
        self.query_one("#interview-reveal", Markdown).update(answer)
        points = self.query_one("#interview-points", Checklist)
        points.show_points(card.points)
        for selector in ("#interview-divider", "#interview-reveal"):
            self.query_one(selector).display = True
        points.display = self.query_one("#interview-suggestion").display = bool(card.points)
        self.show_suggestion()
        self.query_one("#interview-typed", TextArea).can_focus = False  # notes stay in view; Tab skips them
        self.query_one("#interview-body", VerticalScroll).focus()  # the keyboard scrolls it; Tab: the checklist
        self.refresh_bindings()

    @on(Checklist.Changed, "#interview-points")
    def show_suggestion(self) -> None:
        step = self.step
        if step is not None and step.card.points:
            self.query_one("#interview-suggestion", Static).update(
                suggestion_text(len(self.ticked()), len(step.card.points)))

    def ticked(self) -> tuple[int, ...]:
        """The checklist points ticked, by their position."""
        return tuple(sorted(self.query_one("#interview-points", Checklist).ticked))

    def action_type_notes(self) -> None:
        typed = self.query_one("#interview-typed", TextArea)
        typed.display = True
        typed.focus()

    def action_grade(self, button: int) -> None:
        """A self-grade against the checklist: the item's review and the interview's answer."""
        step = self.step
        if step is None or not self.revealed or self.over:
            return
        seconds = self.spoken if self.spoken is not None else monotonic() - self.shown_at
        notes = self.query_one("#interview-typed", TextArea).text.strip() or None
        ticked = self.ticked() if step.card.points else None
        grade = self.study.reviews.grade(step.card, button, int(seconds * 1000), typed_answer=notes, ticked=ticked)
        recorded = self.study.reviews.save_grade(grade)
        self.give(InterviewAnswer(self.index, step.section, step.item_id, seconds, button_score(button), button,
                                  self.target_for(step), notes, BUTTON_LABEL[button]), recorded)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.submit_estimate(event.value)

    def submit_estimate(self, text: str) -> None:
        """Grade a typed estimate and go on; an answer that does not parse keeps the problem, with
        the reason under the box, and nothing is stored."""
        step = self.step
        if step is None or step.section != "estimate" or self.over:
            return
        message = check_answer(step.problem, text)
        if message is not None:
            check = self.query_one("#interview-check", Static)
            check.update(message)
            check.display = True
            return
        self.give(*self.grade_estimate(step, text))

    def grade_estimate(self, step: Step, text: str) -> tuple[InterviewAnswer, Future]:
        """Grade an answer that parses: the estimate's review is handed to the writer."""
        seconds = monotonic() - self.shown_at
        attempt = self.study.estimation.answer(step.problem, text, seconds)
        grade = self.study.reviews.grade_estimate(step.card, attempt)
        recorded = self.study.reviews.save_estimate(grade, attempt)
        detail = f"{step.problem.prompt}\n\n{attempt.report()}"
        return InterviewAnswer(self.index, "estimate", step.item_id, seconds, attempt.score, grade.button, None,
                               text, attempt.result.feedback, detail), recorded

    def action_open_drill(self) -> None:
        step = self.step
        if step is None or step.section != "coding" or self.over:
            return
        from drill.coding.drills import drill_id

        self.drill_open_at = monotonic()  # a drill that could not open is said by the app; Enter tries again
        self.app.start_drill(drill_id(step.item_id), self.drill_closed, fresh=True)  # the interview's clock, not a kept one

    def drill_closed(self, ended: str | None) -> None:
        """Back from the drill: its pass or giving up was already its review; record the result here."""
        step = self.step
        opened, self.drill_open_at = self.drill_open_at, None
        if step is None or step.section != "coding" or self.over or opened is None:
            return
        result = ended or "unfinished"
        self.give(InterviewAnswer(self.index, "coding", step.item_id, monotonic() - opened,
                                  CODING_RESULTS.get(result, 0.0), None, step.card.target_seconds, None, result))

    def action_skip_drill(self) -> None:
        step = self.step
        if step is not None and step.section == "coding" and not self.over:
            self.drill_open_at = None
            self.index += 1
            self.show_step()

    def keep(self, answer: InterviewAnswer, recorded: Future | None = None) -> None:
        """Keep an answer and commit it (after the review it also was)."""
        self.answers.append(answer)
        self.recorded.append(self.study.interviews.save_answer(self.interview_id, answer, recorded))

    def give(self, answer: InterviewAnswer, recorded: Future | None = None) -> None:
        """Keep an answer and go on (or end, when the countdown ran out meanwhile)."""
        self.keep(answer, recorded)
        self.index += 1
        if self.step is not None and self.remaining_s <= 0:
            self.end("time")
        else:
            self.show_step()

    def action_abandon(self) -> None:
        if self.over:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.end("abandoned")
            elif self.remaining_s <= 0:
                self.end("time")

        self.app.push_screen(Confirm("Abandon this mock interview? The answers given so far are kept."), answered)

    # -- the end -----------------------------------------------------------------------------

    def end(self, ended: str) -> None:
        """Close the interview: when time ran out, an estimate typed in the box counts if it parses."""
        if self.over:
            return
        step = self.step
        if ended == "time" and step is not None and step.section == "estimate":
            typed = self.query_one("#interview-answer", Input).value
            if typed.strip() and check_answer(step.problem, typed) is None:
                self.keep(*self.grade_estimate(step, typed))
        self.over = True
        scorecard = Scorecard(
            settings=self.plan.settings, planned=self.plan.planned, answers=tuple(self.answers),
            seconds_used=min(monotonic() - self.started, float(self.plan.settings.seconds)), ended=ended,
            interview_id=self.interview_id, items=tuple((step.section, step.item_id) for step in self.plan.steps),
        )
        self.study.interviews.save_end(self.interview_id, scorecard)
        from drill.tui.screens.mock_interview_scorecard import MockInterviewScorecardScreen, item_titles

        titles = item_titles([step.card for step in self.plan.steps])
        self.app.switch_screen(MockInterviewScorecardScreen(scorecard, titles))
