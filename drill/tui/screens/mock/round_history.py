"""Every mock round so far, newest first (local times); Enter opens one: its problems, answers,
truths, scores and worst slips."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from drill.estimate.rounds import RoundSummary, ending
from drill.stats.text import local_time
from drill.store.estimates import RoundRow
from drill.tui.widgets.pitch_timer import clock_text
from drill.tui.workers import ShowsWorkerFailures

if TYPE_CHECKING:
    from drill.estimate.attempt import Attempt
    from drill.study import Study

ENDED = {"done": "", "time": "time ran out", "abandoned": "abandoned", "unfinished": "unfinished"}


def round_ending(row: RoundRow) -> str:
    return ending(row.problems, row.answered, row.abandoned, finished=row.score is not None)


class MockHistoryScreen(ShowsWorkerFailures, Screen[None]):
    DEFAULT_CSS = """
    #history-head { padding: 0 1; color: $text-muted; }
    """

    BINDINGS = [Binding("escape", "app.home", "Home"), Binding("m", "app.mock", "New round")]

    def __init__(self, study: Study, rounds: list[RoundRow]) -> None:
        super().__init__()
        self.study = study
        self.rounds = rounds

    def compose(self) -> ComposeResult:
        yield Header()
        head = (
            "Enter opens a round: its problems, answers and scores."
            if self.rounds
            else "No mock rounds yet: m starts one."
        )
        yield Static(head, id="history-head")
        table: DataTable[str] = DataTable(id="history", cursor_type="row")
        table.add_columns("started", "answered", "score", "time used", "limit", "")
        for row in self.rounds:
            score = "—" if row.score is None else f"{row.score:.0%}"
            table.add_row(
                local_time(row.started_at),
                f"{row.answered}/{row.problems}",
                score,
                clock_text(row.seconds),
                clock_text(row.time_limit_s),
                ENDED[round_ending(row)],
            )
        yield table
        yield Footer(compact=True, show_command_palette=False)

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_round(self.rounds[event.cursor_row])

    @work(thread=True, group="study", exit_on_error=False)
    def open_round(self, row: RoundRow) -> None:
        attempts = self.study.estimation.round_attempts(row.id)
        self.app.call_from_thread(self._show, row, attempts)

    def _show(self, row: RoundRow, attempts: list[Attempt]) -> None:
        from drill.tui.screens.mock.round_summary import PastRoundScreen

        summary = RoundSummary(row.problems, attempts, row.seconds, round_ending(row))
        self.app.push_screen(PastRoundScreen(summary, started=local_time(row.started_at)))
