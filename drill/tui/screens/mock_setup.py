"""Setting up a mock estimation round: how many problems, how long, which blocks."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Checkbox, Footer, Header, Select, Static, Switch

from drill.estimate.rounds import BLOCKS, RoundSettings

LENGTHS = [("5 problems", 5), ("10 problems", 10), ("20 problems", 20)]
MINUTES = [("5 minutes", 5), ("10 minutes", 10), ("15 minutes", 15), ("30 minutes", 30)]


class MockSetupScreen(Screen[None]):
    """Pick a round; Enter starts it."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("h", "app.mock_history", "History"),
        Binding("escape", "app.home", "Home"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical(id="mock-setup"):
            yield Static("[b]Mock estimation round[/b] — fresh numbers, answers with units, a countdown.")
            with Horizontal(classes="row"):
                yield Select(LENGTHS, value=10, allow_blank=False, id="problems")
                yield Select(MINUTES, value=15, allow_blank=False, id="minutes")
            yield Static("Blocks:")
            with Horizontal(classes="row"):
                for block in BLOCKS:
                    yield Checkbox(block, value=True, id=f"block-{block}")
            with Horizontal(classes="row"):
                yield Switch(value=True, id="grade-at-end")
                yield Static("grade at the end (off: after each answer)", classes="switch-label")
            yield Static("[b]ctrl+s[/b] start   [b]h[/b] history   [b]escape[/b] home", id="setup-keys")
        yield Footer(compact=True, show_command_palette=False)

    def settings(self) -> RoundSettings:
        blocks = tuple(block for block in BLOCKS if self.query_one(f"#block-{block}", Checkbox).value)
        return RoundSettings(
            problems=self.query_one("#problems", Select).value,
            minutes=self.query_one("#minutes", Select).value,
            blocks=blocks,
            grade_at_end=self.query_one("#grade-at-end", Switch).value,
        )

    def action_start(self) -> None:
        settings = self.settings()
        if not settings.blocks:
            self.notify("Pick at least one block.", severity="warning")
            return
        self.app.start_mock_round(settings)
