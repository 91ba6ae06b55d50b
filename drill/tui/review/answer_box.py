"""The box an estimate's answer is typed in: an Input whose Ctrl+Z undoes the typing (Textual's
Input has no undo), so in a box with text it never reaches the review's "undo last grade"."""

from __future__ import annotations

from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import Input


class AnswerBox(Input):
    """An Input that remembers its earlier values; Ctrl+Z goes back one while it holds text."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+z", "undo_typing", "Undo typing", show=False)]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.earlier: list[str] = []  # the values it had, oldest first

    def clear_history(self) -> None:
        """Forget the earlier values (a new card's box starts with nothing to undo)."""
        self.earlier = []

    def watch_value(self, old: str, new: str) -> None:
        if old != new:
            self.earlier.append(old)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "undo_typing":
            return bool(self.value)  # an empty box leaves Ctrl+Z to the screen (undo the last grade)
        return super().check_action(action, parameters)

    def action_undo_typing(self) -> None:
        if self.earlier:
            value = self.earlier.pop()
            self.value = value
            self.earlier.pop()  # the value the undo replaced, which watch_value has just kept
            self.cursor_position = len(value)
