"""Where a leech is said: in the result on screen when that result is the flagged item's (so no
notice covers it), else in a notice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from textual.app import App

    from drill.schedule.leech import Flagged


@runtime_checkable
class ShowsLeech(Protocol):
    def show_leech(self, flagged: Flagged) -> bool:
        """Say `flagged` in the result on screen when it is that item's; False: not shown here."""
        ...


def say_leech(app: App[None], flagged: Flagged) -> None:
    """In the result on screen (an estimate's in a review, a drill given up) when it is the flagged
    item's, else a notice."""
    stack = app.screen_stack
    screen = stack[-1] if stack else None  # none before the first screen or after the last
    for place in (screen, getattr(screen, "view", None)):
        if isinstance(place, ShowsLeech) and place.show_leech(flagged):
            return
    app.notify(flagged.notice(), title="Leech", severity="warning", timeout=12)
