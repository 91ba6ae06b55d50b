"""A flashcard: the prompt, Space reveals the answer with its checklist and errata, 1–4 grade it."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.widgets import Markdown, Rule, Static

from drill.schedule.checklist import suggested_rating
from drill.schedule.sm2 import BUTTON_LABEL
from drill.tui.review.card_view import CardView, Revealed
from drill.tui.widgets.checklist import Checklist

if TYPE_CHECKING:
    from drill.schedule.records import Card
    from drill.study import Study


def errata_markdown(errata: str) -> str:
    """Where the source notes are wrong, shown apart from (and below) the answer."""
    return f"*Errata (the source notes):* {errata.strip()}"


def suggestion_text(ticked: int, points: int) -> str:
    """The grade the ticks suggest (shown once a point has been ticked or unticked)."""
    rating = suggested_rating(ticked, points)
    return f"{ticked} of {points} ticked: suggests {int(rating)} {BUTTON_LABEL[rating]}"


class FlashCardView(CardView):
    """Prompt, then answer, checklist and errata after the reveal. In the checklist (Tab) space
    ticks a point said, and from the first tick on (or from the reveal, `suggests_at_reveal`) the
    ticks suggest a grade. `errata` False: a mock leaves the notes' errata out."""

    REVEALED_PARTS = ("#divider", "#answer", "#points", "#suggestion", "#errata")

    def __init__(self, study: Study, errata: bool = True, suggests_at_reveal: bool = False, **kwargs: Any) -> None:
        super().__init__(study, **kwargs)
        self.errata = errata
        self.suggests_at_reveal = suggests_at_reveal
        self.revealed = False

    def compose(self) -> ComposeResult:
        yield from super().compose()
        yield Markdown("", id="prompt")
        yield from self.compose_question()
        yield Rule(id="divider")
        yield Markdown("", id="answer")
        checklist = Checklist(id="points")
        checklist.border_title = "Checklist: Tab to it, space ticks what you said"
        yield checklist
        yield Static("", id="suggestion")
        yield Markdown("", id="errata", classes="errata")

    def compose_question(self) -> ComposeResult:
        """What sits between the prompt and the answer (nothing on a plain card)."""
        yield from ()

    def show(self, card: Card) -> None:
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

    def answer_text(self, card: Card) -> str:
        return card.answer

    def reveal(self) -> None:
        card = self.card
        if card is None or self.revealed:
            return
        self.revealed = True
        self.query_one("#answer", Markdown).update(self.answer_text(card))
        checklist = self.query_one("#points", Checklist)
        checklist.show_points(card.points)
        errata = self.query_one("#errata", Markdown)
        errata.update(errata_markdown(card.errata) if card.errata else "")
        for selector in ("#divider", "#answer"):
            self.query_one(selector).display = True
        checklist.display = bool(card.points)
        errata.display = self.errata and bool(card.errata)
        if self.suggests_at_reveal:
            self.suggest()
        self.focus()  # the keyboard scrolls what was just revealed (and leaves any text box); Tab: the checklist
        self.post_message(Revealed(card))

    def ticked(self) -> list[int]:
        """The checklist points ticked, by their position."""
        return sorted(self.query_one("#points", Checklist).ticked)

    def suggest(self) -> Static | None:
        """Show the grade the ticks suggest; the line, or None for a card without points."""
        if self.card is None or not self.card.points:
            return None
        suggestion = self.query_one("#suggestion", Static)
        suggestion.update(suggestion_text(len(self.ticked()), len(self.card.points)))
        suggestion.display = True
        return suggestion

    @on(Checklist.Changed, "#points")
    def show_suggestion(self) -> None:
        """A tick changed: the grade the ticks suggest, scrolled into view."""
        suggestion = self.suggest()
        if suggestion is not None:
            suggestion.scroll_visible(animate=False)

    def seconds_taken(self) -> float:
        return time.monotonic() - self.shown_at

    def typed_answer(self) -> str | None:
        """What the user typed before grading (only a pitch has a box)."""
        return None

    def grade(self, button: int) -> None:
        if self.revealed and self.card is not None:
            ticked = tuple(self.ticked()) if self.card.points else None
            self.answer(self.seconds_taken(), button=button, typed_answer=self.typed_answer(), ticked=ticked)
