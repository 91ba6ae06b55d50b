"""A question over the current screen with a key for each answer, and Escape for "not now"."""

from __future__ import annotations

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.markup import escape
from textual.screen import ModalScreen
from textual.widgets import Static


class Choose(ModalScreen[str | None]):
    """Dismisses with the value of the answer whose key was pressed, or None on Escape."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Cancel")]
    DEFAULT_CSS = """
    Choose {
        align: center middle;
    }
    Choose > Vertical {
        width: 60;
        max-width: 100%;
        height: auto;
        padding: 1 2;
        border: thick $warning;
        background: $surface;
    }
    Choose .choose-keys {
        margin-top: 1;
    }
    """

    def __init__(self, question: str, answers: list[tuple[str, str, str]], escape_says: str) -> None:
        """answers: (key, what it does, the value it dismisses with); escape_says: what Escape does."""
        super().__init__()
        self.question = question
        self.answers = answers
        self.escape_says = escape_says

    def compose(self) -> ComposeResult:
        keys = [f"[b]{key}[/b] {escape(says)}" for key, says, _ in self.answers]
        with Vertical():
            yield Static(self.question, markup=False)
            yield Static("\n".join([*keys, f"[b]esc[/b] {escape(self.escape_says)}"]), classes="choose-keys")

    def on_key(self, event: events.Key) -> None:
        for key, _, value in self.answers:
            if event.key == key:
                event.stop()
                self.dismiss(value)
