"""A checklist the keyboard ticks: [x] and [ ] in the text itself, so a tick reads the same in any
terminal's colours. Space or Enter ticks the highlighted point."""

from __future__ import annotations

from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.widgets import OptionList


class Checklist(OptionList):
    """Points to tick; `ticked` holds their positions."""

    BINDINGS = [Binding("space", "tick", "Tick", show=False)]

    class Changed(Message):
        """The ticks changed."""

        def __init__(self, checklist: Checklist) -> None:
            super().__init__()
            self.checklist = checklist

        @property
        def control(self) -> Checklist:
            return self.checklist

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.points: list[str] = []
        self.ticked: set[int] = set()

    def show_points(self, points: list[str]) -> None:
        """A fresh list of `points`, none ticked."""
        self.points, self.ticked = list(points), set()
        self._draw()

    def _draw(self) -> None:
        highlighted = self.highlighted
        self.clear_options()
        self.add_options([Text(f"[{'x' if n in self.ticked else ' '}] {point}") for n, point in enumerate(self.points)])
        if self.points:
            self.highlighted = highlighted if highlighted is not None else 0

    def action_tick(self) -> None:
        if self.highlighted is None:
            return
        self.ticked ^= {self.highlighted}
        self._draw()
        self.post_message(self.Changed(self))

    def _on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.action_tick()
