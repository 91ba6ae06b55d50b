"""A pitch: a speaking timer against its target, an optional box to type the answer, then the
model answer with the time taken."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.widgets import TextArea

from drill.schedule.pitch_time import pitch_timing
from drill.tui.review.flash_card import FlashCardView
from drill.tui.widgets.pitch_timer import PitchTimer, clock_text

if TYPE_CHECKING:
    from drill.schedule.records import Card
    from drill.study import Study


TIME_AND_VERDICT = "**Your time {taken}** against a target of {target}: {timing}.\n\n"


class PitchView(FlashCardView):
    """A flashcard spoken against a timer; `t` opens a box to type the answer. `target_seconds`:
    one target for every card (else the card's); `time_said`: how the revealed answer opens, a
    format of the time `taken`, the `target` and the `timing` verdict ("" says nothing)."""

    def __init__(
        self, study: Study, target_seconds: int | None = None, time_said: str = TIME_AND_VERDICT, **kwargs: Any
    ) -> None:
        super().__init__(study, **kwargs)
        self.target_seconds = target_seconds
        self.time_said = time_said
        self.pitch_seconds: float | None = None  # the speaking time, frozen at the reveal

    def compose_question(self) -> ComposeResult:
        yield PitchTimer(id="timer")
        yield TextArea("", id="typed", soft_wrap=True)

    def show(self, card: Card) -> None:
        super().show(card)
        self.pitch_seconds = None
        self.query_one(PitchTimer).start(self.target(card))
        typed = self.query_one("#typed", TextArea)
        typed.text = ""
        typed.display = False
        typed.can_focus = True

    def allows(self, action: str) -> bool:
        if action == "type_answer":
            return not self.revealed
        return super().allows(action)

    def type_answer(self) -> None:
        typed = self.query_one("#typed", TextArea)
        typed.display = True
        typed.focus()  # the Footer says that Escape or Tab leaves the box and keeps the text

    def in_box(self) -> bool:
        return self.screen.focused is self.query_one("#typed", TextArea)

    def target(self, card: Card) -> int:
        return self.target_seconds or card.target_seconds or 0

    def answer_text(self, card: Card) -> str:
        taken = self.pitch_seconds = self.query_one(PitchTimer).stop()
        target = self.target(card)
        said = self.time_said.format(
            taken=clock_text(taken), target=clock_text(target), timing=pitch_timing(taken, target)
        )
        return f"{said}{card.answer}"

    def reveal(self) -> None:
        """The typed answer stays in view beside the model answer, but Tab no longer stops in it."""
        self.query_one("#typed", TextArea).can_focus = False
        super().reveal()

    def typed_answer(self) -> str | None:
        text = self.query_one("#typed", TextArea).text.strip()
        return text or None

    def draft(self) -> str:
        return "" if self.answered else self.typed_answer() or ""

    def seconds_taken(self) -> float:
        return self.pitch_seconds if self.pitch_seconds is not None else super().seconds_taken()
