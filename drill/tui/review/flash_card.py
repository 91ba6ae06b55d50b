"""A flashcard: the prompt, Space reveals the answer with its checklist and errata, 1–4 grade it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.widgets import Markdown, Rule

from drill.tui.review.card_view import CardView, Revealed

if TYPE_CHECKING:
    from drill.schedule.records import Card


def errata_markdown(errata: str) -> str:
    """Where the source notes are wrong, shown apart from (and below) the answer."""
    return f"*Errata (the source notes):* {errata.strip()}"


def points_markdown(points: list[str]) -> str:
    """A checklist under its heading, for the reveal of a grill question or a pitch."""
    return "**Checklist**\n\n" + "\n".join(f"- [ ] {point}" for point in points)


class FlashCardView(CardView):
    """Prompt, then answer, checklist and errata after the reveal."""

    REVEALED_PARTS = ("#divider", "#answer", "#points", "#errata")

    def __init__(self, study, **kwargs) -> None:
        super().__init__(study, **kwargs)
        self.revealed = False

    def compose(self) -> ComposeResult:
        yield Markdown("", id="prompt")
        yield from self.compose_question()
        yield Rule(id="divider")
        yield Markdown("", id="answer")
        yield Markdown("", id="points")
        yield Markdown("", id="errata", classes="errata")

    def compose_question(self) -> ComposeResult:
        """What sits between the prompt and the answer (nothing on a plain card)."""
        yield from ()

    def show(self, card: "Card") -> None:
        super().show(card)
        self.revealed = False
        self.query_one("#prompt", Markdown).update(card.prompt)
        for selector in self.REVEALED_PARTS:
            self.query_one(selector).display = False

    def allows(self, action: str) -> bool:
        if action == "reveal":
            return not self.revealed
        if action == "grade":
            return self.revealed and not self.answered
        return super().allows(action)

    def answer_text(self, card: "Card") -> str:
        return card.answer

    def reveal(self) -> None:
        card = self.card
        if card is None or self.revealed:
            return
        self.revealed = True
        self.query_one("#answer", Markdown).update(self.answer_text(card))
        points = self.query_one("#points", Markdown)
        points.update(points_markdown(card.points) if card.points else "")
        errata = self.query_one("#errata", Markdown)
        errata.update(errata_markdown(card.errata) if card.errata else "")
        for selector in ("#divider", "#answer"):
            self.query_one(selector).display = True
        points.display = bool(card.points)
        errata.display = bool(card.errata)
        self.focus()  # the keyboard scrolls what was just revealed (and leaves any text box)
        self.post_message(Revealed(card))

    def seconds_taken(self) -> float:
        return time.monotonic() - self.shown_at

    def grade(self, button: int) -> None:
        if self.revealed:
            self.answer(self.seconds_taken(), button=button)
