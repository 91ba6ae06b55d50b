"""Asks for a date (or none) over the current screen."""

from __future__ import annotations

from datetime import date
from typing import Literal

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static


class AskDate(ModalScreen[date | None | Literal[False]]):
    """Dismisses with a date, None to clear it, or False when cancelled with Escape."""

    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, question: str, current: date | None, after: date | None = None) -> None:
        super().__init__()
        self.question = question
        self.current = current
        self.after = after  # the date must come after this day (a bad one is said; the text stays)

    def compose(self) -> ComposeResult:
        with Vertical(id="ask-date"):
            yield Static(self.question)
            yield Input(
                value=self.current.isoformat() if self.current else "", placeholder="YYYY-MM-DD (empty clears it)"
            )
            yield Static("", id="ask-date-error")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        if not text:
            self.dismiss(None)
            return
        error = self.query_one("#ask-date-error", Static)
        try:
            day = date.fromisoformat(text)
        except ValueError:
            error.update(f"{text!r} is not a date like 2026-12-15")
            return
        if self.after is not None and day <= self.after:
            error.update(f"{day.isoformat()} has passed: pick a day after {self.after.isoformat()}")
            return
        self.dismiss(day)

    def action_cancel(self) -> None:
        self.dismiss(False)
