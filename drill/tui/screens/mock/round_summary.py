"""After a mock round (or opening one from the history): how it ended, the score, every answer
against the truth with its time, and the worst slips with their worked solutions."""

from __future__ import annotations

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Header, Markdown, Static

from drill.estimate.attempt import Attempt
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


COLUMN_GAP, TABLE_EDGES = 3, 2  # the table's cells: padding 1, a space between, one at each edge
NAME_LINES = 2  # a problem's name wraps to at most this many lines where the width allows


def problem_name(attempt: Attempt) -> str:
    return attempt.problem.topic or attempt.problem.family_id


def answer_cells(attempt: Attempt) -> tuple[str, str, str, str]:
    """Your answer, the truth, the score and the time, as shown."""
    result = attempt.result
    answer = result.parsed_pretty or attempt.answer or "—"
    return answer, result.truth_pretty, f"{attempt.score:.2f}", clock_text(attempt.seconds)


def answers_table(summary: RoundSummary, stacked: bool = False) -> Table:
    """Every answer: the problem's title (wrapped), the answer and the truth (never wrapped), side
    by side or (`stacked`) your answer above the truth, which leaves the title more room."""
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, header_style="bold", expand=False)
    table.add_column("#", justify="right", no_wrap=True)
    table.add_column("problem", ratio=1, min_width=12)
    for name in ("answer / truth",) if stacked else ("your answer", "truth"):
        table.add_column(name, no_wrap=True)
    table.add_column("score", justify="right", no_wrap=True)
    table.add_column("time", justify="right", no_wrap=True)
    for number, attempt in enumerate(summary.attempts, start=1):
        answer, truth, score, seconds = answer_cells(attempt)
        values: tuple[str | Text, ...] = (
            (Text.assemble(("yours ", "dim"), answer, "\n", ("truth ", "dim"), truth),) if stacked else (answer, truth)
        )
        table.add_row(str(number), problem_name(attempt), *values, score, seconds)
    return table


class AnswersTable:
    """The answers table laid out for the width it is drawn at: side by side while every problem's
    name fits in NAME_LINES lines beside its values, else stacked (long names at 80 columns)."""

    def __init__(self, summary: RoundSummary) -> None:
        self.summary = summary

    def names_fit_side_by_side(self, console: Console, width: int) -> bool:
        rows = [(str(number), *answer_cells(attempt)) for number, attempt in enumerate(self.summary.attempts, 1)]
        headers = ("#", "your answer", "truth", "score", "time")
        widths = [max(cell_len(cell) for cell in column) for column in zip(headers, *rows, strict=True)]
        room = width - sum(widths) - COLUMN_GAP * len(widths) - TABLE_EDGES
        return room > 0 and all(
            len(Text(problem_name(attempt)).wrap(console, room)) <= NAME_LINES for attempt in self.summary.attempts
        )

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield answers_table(self.summary, stacked=not self.names_fit_side_by_side(console, options.max_width))


def top(summary: RoundSummary) -> Group:
    """The headline and the answers (the table only when there are answers)."""
    parts: list[RenderableType] = [headline(summary)]
    if summary.attempts:
        parts += [Text(""), AnswersTable(summary)]
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
