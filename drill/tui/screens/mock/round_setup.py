"""Setting up a mock estimation round: how many problems, how long, which blocks. The setup opens
on the last one chosen (config.toml remembers it)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Checkbox, Footer, Header, Select, Static, Switch

from drill.estimate.rounds import BLOCKS, RoundSettings
from drill.tui.routes import RoutedScreen
from drill.tui.widgets.remembered import options_with, picked
from drill.tui.workers import ShowsWorkerFailures
from drill.words import counted

if TYPE_CHECKING:
    from drill.study import Study

LENGTHS = (5, 10, 20)
MINUTES = (5, 10, 15, 30)


class MockSetupScreen(ShowsWorkerFailures, RoutedScreen[None]):
    """Pick a round; ctrl+s starts it (and remembers the choice)."""

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("h", "app.mock_history", "History"),
        Binding("escape", "app.home", "Home"),
    ]

    def __init__(self, study: Study) -> None:
        super().__init__()
        self.study = study

    def compose(self) -> ComposeResult:
        chosen = RoundSettings.from_config(self.study.config)
        yield Header()
        with Vertical(id="mock-setup"):
            yield Static("[b]Mock estimation round[/b] — fresh numbers, answers with units, a countdown.")
            with Horizontal(classes="row"):
                yield Select(
                    options_with(LENGTHS, chosen.problems, lambda n: counted(n, "problem")),
                    value=chosen.problems,
                    allow_blank=False,
                    id="problems",
                )
                yield Select(
                    options_with(MINUTES, chosen.minutes, lambda m: counted(m, "minute")),
                    value=chosen.minutes,
                    allow_blank=False,
                    id="minutes",
                )
            yield Static("Blocks:")
            with Horizontal(classes="row"):
                for block in BLOCKS:
                    yield Checkbox(block, value=block in chosen.blocks, id=f"block-{block}")
            with Horizontal(classes="row"):
                yield Switch(value=chosen.grade_at_end, id="grade-at-end")
                yield Static("grade at the end (off: after each answer)", classes="switch-label")
            yield Static("[b]ctrl+s[/b] start   [b]h[/b] history   [b]escape[/b] home", id="setup-keys")
        yield Footer(compact=True, show_command_palette=False)

    def settings(self) -> RoundSettings:
        blocks = tuple(block for block in BLOCKS if self.query_one(f"#block-{block}", Checkbox).value)
        return RoundSettings(
            problems=picked(self.query_one("#problems", Select)),
            minutes=picked(self.query_one("#minutes", Select)),
            blocks=blocks,
            grade_at_end=self.query_one("#grade-at-end", Switch).value,
        )

    def action_start(self) -> None:
        settings = self.settings()
        if not settings.blocks:
            self.notify("Pick at least one block.", severity="warning")
            return
        self.start(settings)

    @work(thread=True, group="mock", exit_on_error=False)
    def start(self, settings: RoundSettings) -> None:
        """Remember the setup in config.toml, then start the round (which draws its problems)."""
        from drill.config import ConfigError

        try:
            self.study.remember(settings.config_values())
        except (OSError, ValueError, ConfigError) as error:  # only not remembered: the round goes on
            self.app.call_from_thread(
                self.notify, f"Could not remember the setup in config.toml: {error}", severity="warning"
            )
        self.app.call_from_thread(self.app.start_mock_round, settings)
