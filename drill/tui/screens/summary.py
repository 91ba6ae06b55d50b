"""The end of a review session: how many, how many failed, how long."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Static

from drill.schedule.session import SessionSummary
from drill.tui.widgets.pitch_timer import clock_text
from drill.words import counted


class SummaryScreen(Screen[None]):
    BINDINGS = [Binding("escape,enter", "app.home", "Home")]

    def __init__(self, summary: SessionSummary) -> None:
        super().__init__()
        self.summary = summary

    def compose(self) -> ComposeResult:
        s = self.summary
        yield Header()
        with Vertical(id="summary"):
            yield Static("[b]Session complete[/b]")
            repeats = f" and {counted(s.repeats, 'repeat')} of failed ones" if s.repeats else ""
            yield Static(
                f"Reviewed   {counted(s.items, 'item')}{repeats}\n"
                f"Again rate {s.again_rate:.0%}\n"
                f"Time spent {clock_text(s.seconds)}"
            )
            yield Static("Press Enter to go home.")
        yield Footer(compact=True, show_command_palette=False)
