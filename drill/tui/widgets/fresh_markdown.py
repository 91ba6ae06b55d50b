"""A Markdown widget that never draws the text it is being moved off.

Textual's Markdown.update parses in a thread and swaps its blocks only once that is done: until
then (a few milliseconds, seconds under load) it still draws the text before — the previous
card's result, the previous drill's budget — under what is now on screen. FreshMarkdown is
invisible (its place kept) from each update until that update, the latest, is drawn.
"""

from __future__ import annotations

from textual.await_complete import AwaitComplete
from textual.widgets import Markdown


class FreshMarkdown(Markdown):
    """Markdown that shows an update's text or nothing; an update overtaken by a later one never shows."""

    updates = 0  # the number of the latest update: only its end makes the text visible

    def update(self, markdown: str) -> AwaitComplete:
        self.updates += 1
        number = self.updates
        self.visible = False
        parsed = super().update(markdown)

        async def drawn() -> None:
            await parsed
            if number == self.updates:
                self.visible = True

        return AwaitComplete(drawn())
