"""One review session: the order of cards, in-session repeats, undo. Pure, no I/O."""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, replace

from drill.schedule.grading import comes_back_today
from drill.schedule.records import Card, Grade

REQUEUE_GAP = 3  # an Again/Hard card returns after this many other cards (or at the end)


@dataclass(frozen=True)
class SessionSummary:
    items: int  # different items reviewed
    grades: int  # grades given, in-session repeats included
    again: int
    seconds: float

    @property
    def repeats(self) -> int:
        return self.grades - self.items

    @property
    def again_rate(self) -> float:
        return self.again / self.grades if self.grades else 0.0


class ReviewSession:
    """Cards still to show, in order; Again/Hard cards come back until passed."""

    def __init__(self, cards: list[Card]) -> None:
        self.cards = {card.item_id: card for card in cards}
        self.order = deque(card.item_id for card in cards)
        self.given: list[Grade] = []

    @property
    def current(self) -> Card | None:
        return self.cards[self.order[0]] if self.order else None

    @property
    def remaining(self) -> int:
        return len(self.order)

    def answer(self, grade: Grade) -> None:
        """Move past the current card after `grade`; bring it back later if it was failed."""
        item_id = self.order.popleft()
        self.cards[item_id] = replace(self.cards[item_id], state=grade.after)
        if comes_back_today(grade.button):
            self.order.insert(min(REQUEUE_GAP, len(self.order)), item_id)
        self.given.append(grade)

    def undo(self) -> Grade | None:
        """Take back the last grade: its card is current again, in its earlier state."""
        if not self.given:
            return None
        grade = self.given.pop()
        if grade.item_id in self.order:
            self.order.remove(grade.item_id)
        self.cards[grade.item_id] = replace(self.cards[grade.item_id], state=grade.before)
        self.order.appendleft(grade.item_id)
        return grade

    def withdraw(self, grade: Grade) -> int:
        """Take back a grade that could not be saved: its card comes next after the current one,
        in its earlier state. Returns where the grade stood in `given`."""
        index = next(position for position, given in enumerate(self.given) if given is grade)
        del self.given[index]
        if grade.item_id in self.order:
            self.order.remove(grade.item_id)
        self.cards[grade.item_id] = replace(self.cards[grade.item_id], state=grade.before)
        self.order.insert(min(1, len(self.order)), grade.item_id)
        return index

    def postpone_current(self) -> None:
        """Move the current card to the end of the session."""
        if self.order:
            self.order.rotate(-1)

    def drop_current(self) -> Card | None:
        """Remove the current card from this session (it was suspended)."""
        card = self.current
        if card is not None:
            self.order = deque(id_ for id_ in self.order if id_ != card.item_id)
        return card

    def restore(self, card: Card) -> None:
        """Put a card dropped from this session back as the current one (its suspension undone)."""
        self.cards[card.item_id] = card
        self.order.appendleft(card.item_id)

    def summary(self) -> SessionSummary:
        return SessionSummary(
            items=len({grade.item_id for grade in self.given}),
            grades=len(self.given),
            again=sum(1 for grade in self.given if grade.button == 1),
            seconds=sum(grade.duration_ms for grade in self.given) / 1000,
        )
