"""Every mock interview so far, newest first (local times); Enter opens one's scorecard."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from drill.interview.scorecard import Scorecard
from drill.stats.text import local_time
from drill.tui.widgets.pitch_timer import clock_text
from drill.tui.workers import ShowsWorkerFailures

if TYPE_CHECKING:
    from drill.schedule.records import Card
    from drill.study import Study

ENDED = {"done": "", "time": "time ran out", "abandoned": "abandoned"}


def history_row(card: Scorecard) -> tuple[str, ...]:
    scores = card.section_scores()
    cell = lambda value: "—" if value is None else f"{value:.0%}"  # noqa: E731
    started = local_time(card.started_at) if card.started_at else ""
    used = f"{clock_text(card.seconds_used)}/{clock_text(card.settings.seconds)}"
    return (
        started,
        used,
        cell(card.score),
        cell(scores["grill"]),
        cell(scores["pitch"]),
        cell(scores["estimate"]),
        cell(scores["coding"]),
        ENDED.get(card.ended, card.ended),
    )


class MockInterviewHistoryScreen(ShowsWorkerFailures, Screen[None]):
    DEFAULT_CSS = """
    #interview-history-head { padding: 0 2; color: $text-muted; }
    """

    BINDINGS = [
        Binding("escape", "app.home", "Home"),
        Binding("M", "app.mock_interview", "New interview"),
    ]

    def __init__(self, study: Study, interviews: list[Scorecard]) -> None:
        super().__init__()
        self.study = study
        self.interviews = interviews

    def compose(self) -> ComposeResult:
        yield Header()
        head = "Enter opens an interview's scorecard." if self.interviews else "No mock interviews yet: M starts one."
        yield Static(head, id="interview-history-head")
        table: DataTable[str] = DataTable(id="interview-history", cursor_type="row")
        table.add_columns("started", "time", "overall", "grill", "pitch", "estim.", "coding", "")
        for card in self.interviews:
            table.add_row(*history_row(card))
        yield table
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.title = "Mock interviews"

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.open_scorecard(self.interviews[event.cursor_row])

    @work(thread=True, group="interview", exit_on_error=False)
    def open_scorecard(self, card: Scorecard) -> None:
        cards = self.study.reviews.cards(sorted({item for _, item in card.items}))
        self.app.call_from_thread(self._show, card, cards)

    def _show(self, card: Scorecard, cards: list[Card]) -> None:
        from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen, item_titles

        self.app.push_screen(MockInterviewScorecardScreen(card, item_titles(cards)))
