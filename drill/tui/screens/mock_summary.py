"""After a mock round: score, time per problem, the worst slips and their worked solutions."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown

from drill.estimate.rounds import RoundSummary
from drill.tui.widgets.pitch_timer import clock_text


def summary_markdown(summary: RoundSummary, abandoned: bool) -> str:
    head = "Round abandoned" if abandoned else "Round complete"
    lines = [
        f"## {head}: score {summary.score:.0%}",
        "",
        f"{summary.answered} of {summary.problems} answered in {clock_text(summary.seconds)} "
        "(unanswered problems score zero).",
        "",
        "| # | problem | your answer | truth | score | time |",
        "|---|---|---|---|---|---|",
    ]
    for number, attempt in enumerate(summary.attempts, start=1):
        result = attempt.result
        lines.append(
            f"| {number} | {attempt.problem.family_id} | {result.parsed_pretty or attempt.answer or '—'} "
            f"| {result.truth_pretty} | {attempt.score:.2f} | {clock_text(attempt.seconds)} |"
        )
    worst = summary.worst()
    if worst:
        lines += ["", "## Worst slips", ""]
        for attempt in worst:
            lines += [f"### {attempt.problem.family_id}", "", attempt.problem.prompt, "", attempt.report(), ""]
    return "\n".join(lines)


class MockSummaryScreen(Screen[None]):
    BINDINGS = [
        Binding("enter,escape", "app.home", "Home"),
        Binding("h", "app.mock_history", "History"),
        Binding("m", "app.mock", "New round"),
    ]

    def __init__(self, summary: RoundSummary, abandoned: bool) -> None:
        super().__init__()
        self.summary = summary
        self.abandoned = abandoned

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="mock-summary"):
            yield Markdown(summary_markdown(self.summary, self.abandoned))
        yield Footer(compact=True, show_command_palette=False)
