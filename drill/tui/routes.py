"""The ways between screens that a screen takes through the app: home, a coding drill, a mock round.
They are declared here, below the screens, so that a screen calls them typed without importing
drill.tui.app (which imports the screens); DrillApp makes them."""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import getters
from textual.app import App
from textual.screen import Screen, ScreenResultType

if TYPE_CHECKING:
    from textual.worker import Worker

    from drill.estimate.rounds import RoundSettings


class Routes(App[None]):
    """The app as its screens see it."""

    @abstractmethod
    def action_home(self) -> None:
        """Close every screen above home, and refresh it."""

    @abstractmethod
    def start_drill(
        self, drill_id: str, on_close: Callable[[str | None], None] | None = None, fresh: bool = False
    ) -> None:
        """The timed attempt screen for a coding drill (`on_close`: it returns there with how it ended)."""

    @abstractmethod
    def start_mock_round(self, settings: RoundSettings) -> Worker[None]:
        """Draw a mock round's problems in a worker, then show the round."""


class RoutedScreen(Screen[ScreenResultType]):
    """A screen that takes routes through the app: `self.app` is the Routes (Textual checks it is)."""

    app = getters.app(Routes)
