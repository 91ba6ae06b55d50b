"""What every review card view shares: the card it shows, the review actions it allows, and the
messages it posts (Revealed, Graded); the review screen keeps the session, undo and the writes."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

if TYPE_CHECKING:
    from drill.estimate.attempt import Attempt
    from drill.schedule.records import Card
    from drill.study import Study


class Revealed(Message):
    """The answer of `card` is on screen: grades can be given."""

    def __init__(self, card: Card) -> None:
        super().__init__()
        self.card = card


class Graded(Message):
    """`card` was answered: by a grade `button` after `seconds`, or by an estimate `attempt` (`card`
    None: a mock round's bare problem). `moves_on`: the screen shows the next card at once (else the
    view keeps the answer until the screen shows its result)."""

    def __init__(
        self,
        card: Card | None,
        seconds: float,
        button: int | None = None,
        attempt: Attempt | None = None,
        moves_on: bool = True,
        typed_answer: str | None = None,
        ticked: tuple[int, ...] | None = None,
    ) -> None:
        super().__init__()
        self.card, self.seconds, self.button, self.attempt, self.moves_on = card, seconds, button, attempt, moves_on
        self.typed_answer, self.ticked = typed_answer, ticked  # what was said, stored with the review


class CardView(VerticalScroll):
    """One kind of card on the review screen, or a step of a mock (drill.tui.screens.mock). `show`
    loads a card; the screen's key actions ask `allows` and call the view's methods."""

    def __init__(self, study: Study, how: str = "", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.study = study
        self.how = how  # a line above every card saying how to answer it (a mock's); "" for none
        self.card: Card | None = None
        self.shown_at = 0.0
        self.answered = False  # Graded was posted for this showing: no second answer

    def compose(self) -> ComposeResult:
        if self.how:
            yield Static(self.how, classes="how")

    def show(self, card: Card) -> None:
        """Show `card` from the top, its answer hidden."""
        self.card = card
        self.shown_at = time.monotonic()
        self.answered = False
        self.scroll_home(animate=False)

    def answer(
        self,
        seconds: float,
        button: int | None = None,
        attempt: Attempt | None = None,
        moves_on: bool = True,
        typed_answer: str | None = None,
        ticked: tuple[int, ...] | None = None,
    ) -> None:
        """Post this showing's one Graded."""
        if not self.answered:
            self.answered = True
            self.post_message(Graded(self.card, seconds, button, attempt, moves_on, typed_answer, ticked))

    def allows(self, action: str) -> bool:
        """Whether the screen's `action` applies to this view now (suspend does, until it is answered)."""
        return action == "suspend" and not self.answered

    # The screen's key actions: a screen calls each only while `allows` says it applies, so a view
    # that never allows one keeps it as it is here, doing nothing.

    def reveal(self) -> None:
        """Space: show the answer."""

    def grade(self, button: int) -> None:
        """1–4: the user's grade of the revealed answer."""

    def type_answer(self) -> None:
        """t: open a box to type the answer in."""

    def show_result(self, text: str) -> None:
        """The screen has taken this showing's answer: `text` (Markdown) says what it counted as, until
        the screen moves on (views whose answer is typed and graded: Graded's `moves_on` is False)."""

    def in_box(self) -> bool:
        """Whether a text box that Escape leaves (keeping its text) has the focus."""
        return False

    def swallows_text(self) -> bool:
        """Whether text keys go nowhere now (a result on screen): no single-key command may take them."""
        return False

    def draft(self) -> str:
        """What was typed for this showing and not yet answered ("" for nothing): leaving would lose it."""
        return ""

    def leave_box(self) -> bool:
        """Escape: leave a text box this view has focused (keeping its text); False when none is."""
        if not self.in_box():
            return False
        self.screen.set_focus(None)
        return True
