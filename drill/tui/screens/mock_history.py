"""Every mock round so far, newest first."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header

from drill.stats.text import local_time
from drill.store.estimates import RoundRow
from drill.tui.widgets.pitch_timer import clock_text


class MockHistoryScreen(Screen[None]):
    BINDINGS = [Binding("escape", "app.home", "Home"), Binding("m", "app.mock", "New round")]

    def __init__(self, rounds: list[RoundRow]) -> None:
        super().__init__()
        self.rounds = rounds

    def compose(self) -> ComposeResult:
        yield Header()
        table = DataTable(id="history", cursor_type="row")
        table.add_columns("started", "answered", "score", "time used", "limit", "")
        for row in self.rounds:
            score = "—" if row.score is None else f"{row.score:.0%}"
            table.add_row(
                local_time(row.started_at), f"{row.answered}/{row.problems}", score,
                clock_text(row.seconds), clock_text(row.time_limit_s), "abandoned" if row.abandoned else "",
            )
        yield table
        yield Footer(compact=True, show_command_palette=False)
