"""After a mock round (or opening one from the history): how it ended, the score, every answer
against the truth with its time, and the worst slips with their worked solutions."""

from __future__ import annotations

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, Static

from drill.estimate.rounds import RoundSummary
from drill.tui.plain_text import plain_text
from drill.tui.widgets.pitch_timer import clock_text

HEADS = {
    "done": "Round complete",
    "time": "Time ran out",
    "abandoned": "Round abandoned",
    "unfinished": "Round left unfinished (drill closed during it)",
}


def headline(summary: RoundSummary) -> Text:
    text = Text(f"{HEADS[summary.ended]}: score {summary.score:.0%}", style="bold")
    answered = f"{summary.answered} of {summary.problems} answered"
    if summary.ended == "time":
        text.append(f"\n{answered} before the {clock_text(summary.seconds)} ran out")
        text.append(" (the rest score zero).", style="dim")
    else:
        text.append(f"\n{answered} in {clock_text(summary.seconds)}")
        text.append(" (unanswered problems score zero).", style="dim")
    return text


def answers_table(summary: RoundSummary) -> Table:
    """Every answer: the problem's title (wrapped), the answer and the truth (never wrapped)."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, header_style="bold", expand=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("problem", ratio=1, min_width=12)
    for name in ("your answer", "truth"):
        table.add_column(name, no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    for number, attempt in enumerate(summary.attempts, start=1):
        result = attempt.result
        table.add_row(
            str(number),
            attempt.problem.topic or attempt.problem.family_id,
            result.parsed_pretty or attempt.answer or "—",
            result.truth_pretty,
            f"{attempt.score:.2f}",
            clock_text(attempt.seconds),
        )
    return table


def top(summary: RoundSummary) -> Group:
    """The headline and the answers (the table only when there are answers)."""
    parts: list[RenderableType] = [headline(summary)]
    if summary.attempts:
        parts += [Text(""), answers_table(summary)]
    return Group(*parts)


def slips_markdown(summary: RoundSummary) -> str:
    """The worst answers with their problems and worked solutions."""
    worst = summary.worst()
    if not worst:
        return ""
    lines = ["## Worst slips", ""]
    for attempt in worst:
        problem = attempt.problem
        lines += [f"### {problem.topic or problem.family_id}", "", problem.prompt, "", attempt.report(), ""]
    return "\n".join(lines)


class MockSummaryScreen(Screen[None]):
    DEFAULT_CSS = """
    #mock-summary-top { margin-top: 1; }
    """

    BINDINGS = [
        Binding("enter,escape", "app.home", "Home"),
        Binding("h", "app.mock_history", "History"),
        Binding("m", "app.mock", "New round"),
    ]

    def __init__(self, summary: RoundSummary) -> None:
        super().__init__()
        self.summary = summary

    @property
    def abandoned(self) -> bool:
        return self.summary.abandoned

    def compose(self) -> ComposeResult:
        yield Header()
        with VerticalScroll(id="mock-summary"):
            yield Static(top(self.summary), id="mock-summary-top")
            slips = slips_markdown(self.summary)
            markdown = Markdown(slips, id="mock-summary-slips")
            markdown.display = bool(slips)
            yield markdown
        yield Footer(compact=True, show_command_palette=False)

    def text(self) -> str:
        """The summary as plain text (what the screen shows, slips included)."""
        return plain_text(top(self.summary)) + "\n" + slips_markdown(self.summary)


class PastRoundScreen(MockSummaryScreen, inherit_bindings=False):
    """A round opened from the history: the same summary, titled by when it started; Escape (or h)
    goes back to the list."""

    # not the fresh summary's Home (Enter) and New round (m): Screen's own and Back only
    BINDINGS = [*Screen.BINDINGS, Binding("escape,h", "app.pop_screen", "Back")]

    def __init__(self, summary: RoundSummary, started: str) -> None:
        super().__init__(summary)
        self.started = started

    def on_mount(self) -> None:
        self.title = f"Mock round of {self.started}"
