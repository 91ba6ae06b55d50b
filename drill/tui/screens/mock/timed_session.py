"""One countdown over a mock's steps, each shown in the review's card view for its kind (flash card,
pitch, estimate, coding drill). The mock interview and the mock round say which steps, what an
answer writes, and what sums the session up at the end."""

from __future__ import annotations

import math
import time
from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Footer, Header, Static

from drill.tui.dialogs.confirm import Confirm
from drill.tui.review.card_view import CardView, Revealed
from drill.tui.review.estimate_card import EstimateView
from drill.tui.routes import RoutedScreen
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.estimate.draw import Problem
    from drill.schedule.records import Card
    from drill.study import Study

VIEW_ACTIONS = ("reveal", "type_answer", "grade", "next")  # key actions the view on screen allows or not


class TimedSession(RoutedScreen[None]):
    """One step at a time until the steps run out, the countdown does, or Escape abandons (asked
    first). Time running out under a dialog or a drill ends the session once that has closed."""

    ABANDON = ""  # the question Escape asks

    def __init__(self, study: Study, seconds: int) -> None:
        super().__init__()
        self.study = study
        self.seconds = seconds
        self.started = time.monotonic()
        self.shown_at = self.started
        self.answered_in: float | None = None  # the step's time, frozen at its answer while the result shows
        self.over = False

    # -- what a session says --------------------------------------------------------------------

    def views(self) -> dict[str, CardView]:
        """The card view for each kind of step, the first shown first."""
        raise NotImplementedError

    def compose_progress(self) -> ComposeResult:
        """What stands between the status line and the step (nothing unless a session says)."""
        yield from ()

    def status_text(self) -> str:
        """Where the session is, ending in its countdown."""
        raise NotImplementedError

    def show_step(self) -> None:
        """Present the next step, or end the session when none is left."""
        raise NotImplementedError

    def time_up(self) -> None:
        """The countdown ran out (nothing is on top of the session)."""
        self.end("time")

    def finish(self, ended: str) -> Screen[None]:
        """Store the session's end and give the screen that sums it up."""
        raise NotImplementedError

    # -- showing ------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("", id="session-status")
        yield from self.compose_progress()
        views = self.views()
        for kind, view in views.items():
            view.id = f"{kind}-view"
            view.add_class("card-view")
        yield ContentSwitcher(*views.values(), id="card", initial=f"{next(iter(views))}-view")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.set_interval(0.5, self.tick)
        self.show_step()

    @property
    def view(self) -> CardView:
        """The view of the step on screen."""
        switcher = self.query_one(ContentSwitcher)
        return switcher.get_child_by_id(switcher.current or "", CardView)

    def present(self, kind: str, card: Card | None, problem: Problem | None = None) -> None:
        """Show a step, its clock from zero: `card` in the view for `kind` (an estimate: `problem`'s
        numbers, and a mock round's problem has no card)."""
        self.shown_at = time.monotonic()
        self.answered_in = None
        self.query_one(ContentSwitcher).current = f"{kind}-view"
        view = self.view
        if isinstance(view, EstimateView):
            view.show(card, problem)  # it focuses its answer box
        elif card is not None:
            view.show(card)
            view.focus()  # the keyboard scrolls the card
        self.refresh_bindings()
        self.tick()

    @on(Revealed)
    def _revealed(self) -> None:
        self.refresh_bindings()  # the grade keys apply now

    # -- the countdown --------------------------------------------------------------------------

    @property
    def remaining_s(self) -> float:
        return self.seconds - (time.monotonic() - self.started)

    @property
    def used_s(self) -> float:
        """The seconds the session ran, at most its countdown."""
        return min(float(self.seconds), time.monotonic() - self.started)

    def countdown(self) -> str:
        """The time left, and this step's time (frozen at its answer while its result shows)."""
        this = self.answered_in if self.answered_in is not None else time.monotonic() - self.shown_at
        return f"{clock_text(math.ceil(max(0.0, self.remaining_s)))} left · this one {clock_text(this)}"

    def tick(self) -> None:
        if self.over:
            return
        if self.remaining_s <= 0:
            if self.app.screen is self:
                self.time_up()
            return  # a dialog or the drill is on top: the session ends when it has closed
        self.query_one("#session-status", Static).update(self.status_text())

    # -- keys and the end -----------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in VIEW_ACTIONS:
            return not self.over and self.view.allows(action)
        return True

    def action_abandon(self) -> None:
        if self.over:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self.end("abandoned")

        self.app.push_screen(Confirm(self.ABANDON), answered)

    def end(self, ended: str) -> None:
        """Close the session once (`ended`: done, time or abandoned): its end stored, its summary shown."""
        if not self.over:
            self.over = True
            self.app.switch_screen(self.finish(ended))
