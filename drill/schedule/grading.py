"""One grade applied to one item's state: SM-2 once per study day, repeats only logged."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from drill.schedule.sm2 import BUTTON_QUALITY, SM2State, review


@dataclass(frozen=True)
class ItemState:
    """What the store keeps about an item's schedule."""

    repetitions: int = 0
    interval: int = 0
    easiness: float = 2.5
    due_day: date | None = None
    last_review_day: date | None = None

    @property
    def sm2(self) -> SM2State:
        return SM2State(self.repetitions, self.interval, self.easiness)

    @property
    def is_new(self) -> bool:
        return self.last_review_day is None


def counts_today(state: ItemState, today: date) -> bool:
    """Whether a grade given today changes SM-2 state (only the first of the day does)."""
    return state.last_review_day != today


def button_for_quality(quality: int) -> int:
    """The button a graded answer (estimate, coding drill) counts as: 5→Easy, 4→Good, 3→Hard, else Again."""
    return {5: 4, 4: 3, 3: 2}.get(quality, 1)


def apply(state: ItemState, button: int, today: date) -> ItemState:
    """The state after pressing `button` (1 Again … 4 Easy) on `today`."""
    return apply_quality(state, BUTTON_QUALITY[button], today)


def apply_quality(state: ItemState, quality: int, today: date) -> ItemState:
    """The state after a review of SM-2 `quality` (0–5) on `today`."""
    if not counts_today(state, today):
        return state
    after = review(state.sm2, quality)
    return replace(
        state,
        repetitions=after.repetitions,
        interval=after.interval,
        easiness=after.easiness,
        due_day=today + timedelta(days=after.interval),
        last_review_day=today,
    )


def comes_back_today(button: int) -> bool:
    """Again and Hard bring the item back later in the same session."""
    return button in (1, 2)
