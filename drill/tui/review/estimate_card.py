"""An estimation problem as a card: fresh numbers (or a mock's, drawn beforehand), an answer typed
with units and graded by the grader, then the worked solution until Enter."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.widgets import Input, Markdown, Rule, Static

from drill.estimate.answer_check import check_answer
from drill.tui.review.answer_box import AnswerBox
from drill.tui.review.card_view import CardView
from drill.tui.widgets.fresh_markdown import FreshMarkdown

if TYPE_CHECKING:
    from drill.estimate.draw import Problem
    from drill.schedule.leech import Flagged
    from drill.schedule.records import Card
    from drill.study import Study


class EstimateView(CardView):
    """The problem and the answer box; after a gradable answer, the result the screen gives (with
    `rule`, under a line). `placeholder`: what the empty box says."""

    DEFAULT_CSS = """
    EstimateView #leech-notice {
        color: $text-warning;
        margin-bottom: 1;
    }
    """

    def __init__(
        self,
        study: Study,
        placeholder: str = "your answer with units, e.g. 2.7 GB — Enter grades it",
        rule: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(study, **kwargs)
        self.placeholder = placeholder
        self.rule = rule
        self.problem: Problem | None = None  # this showing's numbers
        self.showing_result = False

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield FreshMarkdown("", id="worked-example")  # each drawn only once it is this showing's text
        yield FreshMarkdown("", id="prompt")
        yield AnswerBox(placeholder=self.placeholder, id="estimate")
        yield Static("", id="answer-error", classes="answer-error", markup=False)
        yield Rule(id="divider")
        yield Static("", id="leech-notice", markup=False)  # a leech flagged by this answer, said in its result
        yield FreshMarkdown("", id="answer")

    def show(self, card: Card | None, problem: Problem | None = None) -> None:
        """Ask `problem` (a mock's numbers; None: fresh ones for `card`); a mock round's problem has no card."""
        super().show(card)  # type: ignore[arg-type]  # a bare problem: no card
        self.showing_result = False
        if problem is None:
            assert card is not None
            problem = self.study.estimation.new_problem(card.item_id)
        self.problem = problem
        self.show_worked_example(card)
        self.query_one("#prompt", Markdown).update(problem.prompt)
        for selector in ("#divider", "#leech-notice", "#answer"):
            self.query_one(selector).display = False
        entry = self.query_one("#estimate", AnswerBox)
        entry.value = ""
        entry.clear_history()
        entry.display = True
        self.show_answer_error(None)
        entry.focus()

    def show_worked_example(self, card: Card | None) -> None:
        """A leech family opens with one of its problems solved (other numbers), to study before trying."""
        example = self.query_one("#worked-example", Markdown)
        example.display = card is not None and card.leech is not None
        if card is not None and card.leech is not None:
            estimation = self.study.estimation
            solved = estimation.answer(estimation.new_problem(card.item_id), "", 0.0)
            example.update(
                f"**A leech** ({card.leech}): study this solved one first, then try yours below.\n\n"
                f"{solved.worked_example()}\n\n---"
            )

    def allows(self, action: str) -> bool:
        if action == "next":
            return self.showing_result
        return super().allows(action)

    def swallows_text(self) -> bool:
        return self.showing_result

    def on_key(self, event: events.Key) -> None:
        """On the result, text keys do nothing: typing that ran on past the answer never reaches a
        command (Enter moves on)."""
        if self.showing_result and event.is_printable:
            event.stop()

    def draft(self) -> str:
        return "" if self.answered else self.typed().strip()

    def show_answer_error(self, message: str | None) -> None:
        """Say why the answer in the box cannot be graded (None: hide the line)."""
        line = self.query_one("#answer-error", Static)
        line.update(message or "")
        line.display = message is not None

    @on(Input.Submitted, "#estimate")
    def _submitted(self, event: Input.Submitted) -> None:
        """Checked, graded by the grader, handed to the screen, then the worked solution shown. One
        that cannot be graded (a typo, a missing unit) only gets its message under the box; the
        problem, the text and the focus stay."""
        event.stop()
        problem = self.problem
        if problem is None or self.answered:
            return
        message = check_answer(problem, event.value)
        self.show_answer_error(message)
        if message is not None:
            event.input.focus()
            return
        attempt = self.study.estimation.answer(problem, event.value, time.monotonic() - self.shown_at)
        self.answer(attempt.seconds, attempt=attempt, moves_on=False)

    def typed(self) -> str:
        """What is in the answer box now (time running out in a mock takes it as it stands)."""
        return self.query_one("#estimate", Input).value

    def show_result(self, text: str) -> None:
        """The answer is taken: `text` (what it counted as, the result and worked solution) stays until Enter."""
        self.showing_result = True
        answer = self.query_one("#answer", Markdown)
        answer.update(text)
        self.query_one("#estimate", Input).display = False
        self.query_one("#divider").display = self.rule
        answer.display = True
        self.focus()  # the keyboard scrolls the worked solution

    def show_leech(self, flagged: Flagged) -> bool:
        """A leech flagged by the answer whose result is on screen: said above that result."""
        if not self.showing_result or self.card is None or self.card.item_id != flagged.standing.item_id:
            return False
        notice = self.query_one("#leech-notice", Static)
        notice.update(flagged.notice())
        notice.display = True
        return True
