"""A due coding drill in the review: what it asks, Enter to start it, `l` to leave it for later today."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Markdown

from drill.tui.review.card_view import CardView
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.schedule.records import Card


def drill_invitation(card: "Card") -> str:
    """A due coding drill in the session: what it asks, and how to start it (a leech: hints first)."""
    budget = clock_text(card.target_seconds or 0)
    leech = ("" if card.leech is None else f"**A leech** ({card.leech}): this time open the hints first "
             "(**h** in the drill), and the reference (**s**) if they are not enough.\n\n")
    return (f"**Coding drill** · budget {budget}\n\n{leech}Press **Enter** to start it (timer, a workspace, the "
            f"hidden tests) or **l** to do it later today.\n\n---\n\n{card.prompt}")


class CodingView(CardView):
    """The drill's invitation; passing or giving up in the drill screen is its review."""

    def compose(self) -> ComposeResult:
        yield Markdown("", id="prompt")

    def show(self, card: "Card") -> None:
        super().show(card)
        self.query_one("#prompt", Markdown).update(drill_invitation(card))

    def allows(self, action: str) -> bool:
        return action in ("start_drill", "later", "suspend")
