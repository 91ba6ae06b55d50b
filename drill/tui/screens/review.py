"""Review: prompt → Space reveals → 1–4 grades, each grade committed in the background."""

from __future__ import annotations

import time
from dataclasses import replace
from concurrent.futures import Future
from datetime import date
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult, SystemCommand
from textual.binding import ActiveBinding, Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Input, Markdown, Rule, Static, TextArea

from drill.days import describe_interval
from drill.schedule.grading import ItemState, comes_back_today, counts_today
from drill.schedule.session import ReviewSession
from drill.schedule.sm2 import BUTTON_LABEL, BUTTON_QUALITY
from drill.tui.messages import GradeNotSaved
from drill.tui.widgets.pitch_timer import PitchTimer, clock_text

if TYPE_CHECKING:
    from drill.estimate.draw import Problem
    from drill.schedule.records import Card, Grade
    from drill.study import Study


def grade_outcome(state: ItemState, after: ItemState, button: int, today: date) -> str:
    """What a grade does, for its Footer label: days until the next review, ↻ if it returns today."""
    again = "↻" if comes_back_today(button) else ""
    if not counts_today(state, today) or after.due_day is None:
        return again or "✓"
    return describe_interval((after.due_day - today).days) + again


def drill_invitation(card: "Card") -> str:
    """A due coding drill in the session: what it asks, and how to start it."""
    budget = clock_text(card.target_seconds or 0)
    return (f"**Coding drill** · budget {budget}\n\nPress **Enter** to start it (timer, a workspace, the hidden "
            f"tests) or **l** to do it later today.\n\n---\n\n{card.prompt}")


def errata_markdown(errata: str) -> str:
    """Where the source notes are wrong, shown apart from (and below) the answer."""
    return f"*Errata (the source notes):* {errata.strip()}"


def points_markdown(points: list[str]) -> str:
    """A checklist under its heading, for the reveal of a grill question or a pitch."""
    return "**Checklist**\n\n" + "\n".join(f"- [ ] {point}" for point in points)


class ReviewScreen(Screen[None]):
    """Shows one card at a time until today's queue is empty."""

    BINDINGS = [
        Binding("space", "reveal", "Show answer"),
        Binding("t", "type_answer", "Type answer"),
        Binding("1", "grade(1)", "Again"),
        Binding("2", "grade(2)", "Hard"),
        Binding("3", "grade(3)", "Good"),
        Binding("4", "grade(4)", "Easy"),
        Binding("u", "undo", "Undo"),
        Binding("s", "suspend", "Suspend"),
        Binding("enter", "next", "Next"),
        Binding("enter", "start_drill", "Start drill"),
        Binding("l", "later", "Later today"),
        Binding("escape", "back", "Home"),
    ]

    def __init__(self, study: "Study", cards: list["Card"]) -> None:
        super().__init__()
        self.study = study
        self.session = ReviewSession(cards)
        self.pending: list[Future] = []  # one per grade in session.given, same order
        self.revealed = False
        self.shown_at = 0.0
        self.pitch_seconds: float | None = None  # a pitch's speaking time, frozen at the reveal
        self.problem: Problem | None = None  # an estimate card's fresh numbers
        self.showing_result = False  # an estimate was graded; Enter moves on
        self.grade_labels: dict[str, str] = {}  # grade key → Footer label with its interval, after a reveal

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="status")
        with VerticalScroll(id="card"):
            yield Markdown("", id="prompt")
            yield PitchTimer(id="timer")
            yield TextArea("", id="typed", soft_wrap=True)
            yield Input(placeholder="your answer with units, e.g. 2.7 GB — Enter grades it", id="estimate")
            yield Static("", id="answer-error", classes="answer-error", markup=False)
            yield Rule(id="divider")
            yield Markdown("", id="answer")
            yield Markdown("", id="points")
            yield Markdown("", id="errata", classes="errata")
        yield Footer()

    def on_mount(self) -> None:
        self.show_current()

    # -- showing -------------------------------------------------------------------------

    def show_current(self) -> None:
        card = self.session.current
        if card is None:
            self.finish()
            return
        self.revealed = False
        self.showing_result = False
        self.shown_at = time.monotonic()
        self.pitch_seconds = None
        self.refresh_status()
        is_estimate = card.kind == "estimate"
        self.problem = self.study.new_problem(card.item_id) if is_estimate else None
        self.query_one("#prompt", Markdown).update(
            self.problem.prompt if self.problem else drill_invitation(card) if card.kind == "coding" else card.prompt
        )
        is_pitch = card.kind == "pitch"
        timer = self.query_one(PitchTimer)
        timer.display = is_pitch
        if is_pitch:
            timer.start(card.target_seconds or 0)
        typed = self.query_one("#typed", TextArea)
        typed.text = ""
        typed.display = False
        for selector in ("#divider", "#answer", "#points", "#errata"):
            self.query_one(selector).display = False
        self.query_one("#card", VerticalScroll).scroll_home(animate=False)
        entry = self.query_one("#estimate", Input)
        entry.value = ""
        entry.display = is_estimate
        self.show_answer_error(None)
        self.set_focus(entry if is_estimate else None)
        self.refresh_bindings()

    def refresh_status(self) -> None:
        card = self.session.current
        if card is not None:
            self.query_one("#status", Static).update(
                f"{len(self.session.given)} done · {self.session.remaining} to go · {card.block} · {card.topic} · {card.kind}"
            )

    def label_grades(self, card: "Card") -> None:
        """Work out the interval each grade would give, for the Footer labels (active_bindings)."""
        today = self.study.today
        self.grade_labels = {
            str(button): f"{BUTTON_LABEL[button]} {grade_outcome(card.state, self.study.next_state(card, BUTTON_QUALITY[button], today), button, today)}"
            for button in (1, 2, 3, 4)
        }

    @property
    def active_bindings(self) -> dict[str, ActiveBinding]:
        """Textual's active bindings, with each grade key labelled by the interval it gives."""
        active = super().active_bindings
        for key, label in self.grade_labels.items():
            if key in active:
                node, binding, enabled, tooltip = active[key]
                active[key] = ActiveBinding(node, replace(binding, description=label), enabled, tooltip)
        return active

    # -- actions -------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        card = self.session.current
        if self.showing_result:  # an estimate's worked solution is on screen
            return action in ("next", "undo")
        if action == "next":
            return False
        is_coding = card is not None and card.kind == "coding"
        if action in ("start_drill", "later"):
            return is_coding
        if is_coding and action in ("reveal", "type_answer", "grade"):
            return False
        if action in ("reveal",):
            return card is not None and not self.revealed and card.kind != "estimate"
        if action == "type_answer":
            return card is not None and card.kind == "pitch" and not self.revealed
        if action == "grade":
            return card is not None and self.revealed
        if action == "undo":
            return bool(self.session.given)
        if action == "suspend":
            return card is not None
        return True

    def action_reveal(self) -> None:
        card = self.session.current
        if card is None or self.revealed:
            return
        self.revealed = True
        answer = card.answer
        if card.kind == "pitch":
            taken = self.pitch_seconds = self.query_one(PitchTimer).stop()
            answer = f"**Your time {clock_text(taken)}** against a target of {clock_text(card.target_seconds or 0)}.\n\n{answer}"
        self.query_one("#answer", Markdown).update(answer)
        points = self.query_one("#points", Markdown)
        points.update(points_markdown(card.points) if card.points else "")
        for selector in ("#divider", "#answer"):
            self.query_one(selector).display = True
        points.display = bool(card.points)
        errata = self.query_one("#errata", Markdown)
        errata.update(errata_markdown(card.errata) if card.errata else "")
        errata.display = bool(card.errata)
        self.set_focus(None)
        self.label_grades(card)
        self.refresh_bindings()

    def show_answer_error(self, message: str | None) -> None:
        """Say why the estimate answer in the box cannot be graded (None: hide the line)."""
        line = self.query_one("#answer-error", Static)
        line.update(message or "")
        line.display = message is not None

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """An estimate answer: checked, graded by the grader, committed, then its worked solution
        shown. One that cannot be graded (a typo, a missing unit) only gets its message under
        the box; the problem, the text and the focus stay."""
        card = self.session.current
        if card is None or self.problem is None or self.showing_result:
            return
        message = self.study.check_answer(self.problem, event.value)
        self.show_answer_error(message)
        if message is not None:
            event.input.focus()
            return
        attempt = self.study.answer_problem(self.problem, event.value, time.monotonic() - self.shown_at)
        grade = self.study.grade_attempt(card, attempt)
        self.session.answer(grade)
        self.keep(grade, self.study.save_estimate(grade, attempt))
        self.showing_result = True
        answer = self.query_one("#answer", Markdown)
        answer.update(attempt.report() + "\n\nPress **Enter** for the next card.")
        self.query_one("#estimate", Input).display = False
        for selector in ("#divider", "#answer"):
            self.query_one(selector).display = True
        self.set_focus(None)
        self.refresh_bindings()

    def action_next(self) -> None:
        if self.showing_result:
            self.show_current()

    def action_type_answer(self) -> None:
        typed = self.query_one("#typed", TextArea)
        typed.display = True
        typed.focus()
        self.notify("Typing your answer: Tab or Escape leaves the box and keeps the text.", timeout=4)

    def action_back(self) -> None:
        """Escape: out of the answer box (keeping what is typed), else home."""
        if self.focused is self.query_one("#typed", TextArea):
            self.set_focus(None)
            return
        self.app.action_home()

    def action_grade(self, button: int) -> None:
        card = self.session.current
        if card is None or not self.revealed:
            return
        seconds = self.pitch_seconds if self.pitch_seconds is not None else time.monotonic() - self.shown_at
        duration_ms = int(seconds * 1000)
        grade = self.study.grade(card, button, duration_ms)
        self.session.answer(grade)
        self.keep(grade, self.study.save_grade(grade))
        self.show_current()

    def keep(self, grade: "Grade", saved: Future) -> None:
        """Hold a grade's write until it commits; one that fails is taken back (GradeNotSaved)."""
        self.pending.append(saved)
        saved.add_done_callback(lambda done: done.exception() is not None and self.post_message(GradeNotSaved(grade)))

    @on(GradeNotSaved)
    def _grade_not_saved(self, message: GradeNotSaved) -> None:
        """The app has said the grade was not saved; its card comes back next, to be graded again."""
        if not any(given is message.grade for given in self.session.given):
            return  # already undone
        del self.pending[self.session.withdraw(message.grade)]
        if self.session.current is not None and self.session.current.item_id == message.grade.item_id:
            self.show_current()
        else:
            self.refresh_status()

    def action_start_drill(self) -> None:
        card = self.session.current
        if card is not None and card.kind == "coding":
            from drill.coding.items import drill_id

            self.app.start_drill(drill_id(card.item_id), self.drill_closed)

    def drill_closed(self, ended: str | None) -> None:
        """Back from the drill: an ended drill (passed or given up) was its review; else it waits."""
        if ended is None:
            self.action_later()
            return
        self.session.drop_current()
        self.show_current()

    def action_later(self) -> None:
        """Move the current item to the end of today's session."""
        self.session.postpone_current()
        self.show_current()

    def action_undo(self) -> None:
        grade = self.session.undo()
        if grade is None:
            return
        recorded = self.pending.pop()
        self.study.save_undo(recorded, grade)
        self.notify(f"Undid {BUTTON_LABEL[grade.button]} on {grade.item_id}", timeout=2)
        self.show_current()

    def action_suspend(self) -> None:
        card = self.session.drop_current()
        if card is None:
            return
        self.study.save_suspended(card.item_id)
        self.notify(f"Suspended {card.item_id}; it will not be shown until unsuspended.", timeout=3)
        self.show_current()

    def finish(self) -> None:
        from drill.tui.screens.summary import SummaryScreen

        self.app.switch_screen(SummaryScreen(self.session.summary()))

    def screen_commands(self):
        yield SystemCommand("Undo last grade", "Take back the last grade and its database write", self.action_undo)
        yield SystemCommand("Suspend card", "Stop showing the current card", self.action_suspend)
