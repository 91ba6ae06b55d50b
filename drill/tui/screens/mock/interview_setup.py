"""Setting up a mock interview: one countdown, and how many questions each section asks."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, Select, Static, Switch

from drill.interview.settings import MINUTES, InterviewSettings
from drill.tui.widgets.pitch_timer import clock_text
from drill.tui.widgets.remembered import options_with, picked
from drill.tui.workers import ShowsWorkerFailures
from drill.words import counted

if TYPE_CHECKING:
    from drill.interview.plan import InterviewPlan
    from drill.study import Study


RUNGS = {30: "30-second", 120: "2-minute", 300: "5-minute"}


def describe(settings: InterviewSettings) -> str:
    """The round in one sentence."""
    parts = []
    if settings.grill:
        parts.append(counted(settings.grill, "grill question") + " (aloud)")
    if settings.pitch_seconds:
        parts.append(f"a {RUNGS.get(settings.pitch_seconds, clock_text(settings.pitch_seconds))} pitch")
    if settings.estimates:
        parts.append(counted(settings.estimates, "estimation problem"))
    if settings.coding:
        parts.append("a coding drill")
    return f"{counted(settings.minutes, 'minute')}: {', '.join(parts) if parts else 'nothing yet — pick a section'}."


class MockInterviewSetupScreen(ShowsWorkerFailures, Screen[None]):
    """Pick the interview's length and sections; ctrl+s starts it (and remembers the choice)."""

    DEFAULT_CSS = """
    #interview-setup { padding: 1 2; height: auto; }
    #interview-setup .row { height: auto; }
    #interview-setup .label { width: 11; padding: 1 0; }
    #interview-setup Select { width: 24; margin-right: 2; }
    #interview-setup #interview-describe { margin: 1 0; }
    #interview-setup #interview-setup-keys { color: $text-muted; }
    """

    BINDINGS = [
        Binding("ctrl+s", "start", "Start", priority=True),
        Binding("H", "app.mock_interview_history", "History"),
        Binding("escape", "app.home", "Home"),
    ]

    def __init__(self, study: Study) -> None:
        super().__init__()
        self.study = study
        self.initial = InterviewSettings.from_config(study.config)
        self.starting = False

    def compose(self) -> ComposeResult:
        chosen = self.initial
        yield Header()
        with Vertical(id="interview-setup"):
            yield Static("[b]Mock interview[/b]: one countdown; every graded answer is also that item's review.")
            with Horizontal(classes="row"):
                yield Static("Length", classes="label")
                yield Select(
                    options_with(MINUTES, chosen.minutes, lambda m: counted(m, "minute")),
                    value=chosen.minutes,
                    allow_blank=False,
                    id="minutes",
                )
                yield Static("Pitch", classes="label")
                yield Select(
                    [("no pitch", 0), ("30 s rung", 30), ("2 min rung", 120), ("5 min rung", 300)],
                    value=chosen.pitch_seconds,
                    allow_blank=False,
                    id="pitch",
                )
            with Horizontal(classes="row"):
                yield Static("Grill", classes="label")
                yield Select(
                    options_with(range(7), chosen.grill, lambda n: counted(n, "question") if n else "none"),
                    value=chosen.grill,
                    allow_blank=False,
                    id="grill",
                )
                yield Static("Estimates", classes="label")
                yield Select(
                    options_with(range(7), chosen.estimates, lambda n: counted(n, "problem") if n else "none"),
                    value=chosen.estimates,
                    allow_blank=False,
                    id="estimates",
                )
            with Horizontal(classes="row"):
                yield Static("Coding", classes="label")
                yield Switch(value=chosen.coding, id="coding")
                yield Static("a coding drill with hidden tests (its own timer)", classes="switch-label")
            yield Static(describe(chosen), id="interview-describe")
            yield Static(
                "[b]ctrl+s[/b] start   [b]H[/b] past interviews   [b]escape[/b] home", id="interview-setup-keys"
            )
        yield Footer(compact=True, show_command_palette=False)

    def settings(self) -> InterviewSettings:
        return InterviewSettings(
            minutes=picked(self.query_one("#minutes", Select)),
            grill=picked(self.query_one("#grill", Select)),
            pitch_seconds=picked(self.query_one("#pitch", Select)),
            estimates=picked(self.query_one("#estimates", Select)),
            coding=self.query_one("#coding", Switch).value,
        )

    def on_select_changed(self, _event: Select.Changed) -> None:
        self.query_one("#interview-describe", Static).update(describe(self.settings()))

    def on_switch_changed(self, _event: Switch.Changed) -> None:
        self.query_one("#interview-describe", Static).update(describe(self.settings()))

    def action_start(self) -> None:
        settings = self.settings()
        problem = settings.problem()
        if problem:
            self.notify(problem, severity="warning")
            return
        if self.starting:
            return
        self.starting = True
        self.query_one("#interview-describe", Static).update("Drawing the questions…")
        self.prepare(settings)

    @work(thread=True, group="interview", exit_on_error=False)
    def prepare(self, settings: InterviewSettings) -> None:
        """Remember the setup, draw the items (sympy warms up here, off the UI thread), store the start."""
        from drill.config import ConfigError

        try:
            self.study.remember(settings.config_values())
        except (OSError, ValueError, ConfigError) as error:  # the setup is only not remembered; the interview goes on
            self.app.call_from_thread(
                self.notify, f"Could not remember the setup in config.toml: {error}", severity="warning"
            )
        try:
            plan = self.study.interviews.plan(settings)
        except Exception as error:  # noqa: BLE001 - a broken problem file, say: said, and the setup stays open
            self.app.call_from_thread(self.not_started, f"Could not draw the interview: {error}")
            return
        if not plan.steps:
            self.app.call_from_thread(self.not_started, "No content to ask: the chosen sections have no items.")
            return
        try:
            interview_id = self.study.interviews.start(plan).result()
        except Exception:  # noqa: BLE001 - the writer has already said why it was not saved
            self.app.call_from_thread(self.not_started, None)
            return
        self.app.call_from_thread(self.begin, plan, interview_id)

    def not_started(self, reason: str | None) -> None:
        self.starting = False
        if reason:
            self.notify(reason, severity="warning")
        self.query_one("#interview-describe", Static).update(describe(self.settings()))

    def begin(self, plan: InterviewPlan, interview_id: int) -> None:
        from drill.tui.screens.mock.interview import MockInterviewScreen

        self.app.switch_screen(MockInterviewScreen(self.study, plan, interview_id))
