"""A due coding drill in the review: what it asks, Enter to start it, `l` to leave it for later today."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.widgets import Markdown

from drill.tui.review.card_view import CardView
from drill.tui.widgets.fresh_markdown import FreshMarkdown
from drill.tui.widgets.pitch_timer import clock_text

if TYPE_CHECKING:
    from drill.schedule.records import Card
    from drill.study import Study


def drill_invitation(card: Card, keys: bool = True) -> str:
    """A due coding drill: what it asks, its budget and (with `keys`) how to start it (a leech: hints first)."""
    budget = clock_text(card.target_seconds or 0)
    leech = (
        ""
        if card.leech is None
        else f"**A leech** ({card.leech}): this time open the hints first "
        "(**h** in the drill), and the reference (**s**) if they are not enough.\n\n"
    )
    start = (
        ("Press **Enter** to start it (timer, a workspace, the hidden tests) or **l** to do it later today.\n\n")
        if keys
        else ""
    )
    return f"**Coding drill** · budget {budget}\n\n{leech}{start}---\n\n{card.prompt}"


class CodingView(CardView):
    """The drill's invitation; passing or giving up in the drill screen is its review. `says_keys`
    False: the invitation leaves out how to start it (a mock's `how` line says that)."""

    def __init__(self, study: Study, says_keys: bool = True, **kwargs: Any) -> None:
        super().__init__(study, **kwargs)
        self.says_keys = says_keys

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield FreshMarkdown("", id="prompt")  # never the previous drill's invitation under this one

    def show(self, card: Card) -> None:
        super().show(card)
        self.query_one("#prompt", Markdown).update(drill_invitation(card, self.says_keys))

    def allows(self, action: str) -> bool:
        return action in ("start_drill", "later", "suspend")
