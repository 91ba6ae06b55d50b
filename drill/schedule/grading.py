"""One grade applied to one item's state: SM-2 once per study day, repeats only logged.

FSRS's memory of the item moves with every counted grade too, whichever scheduler is in
use, so predicted recall is always at hand and switching schedulers loses nothing; the
scheduler in use only decides which model's due day the item gets.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, timedelta

from drill.schedule import fsrs_model
from drill.schedule.sm2 import BUTTON_QUALITY, SM2State, review


@dataclass(frozen=True)
class ItemState:
    """What the store keeps about an item's schedule."""

    repetitions: int = 0
    interval: int = 0
    easiness: float = 2.5
    due_day: date | None = None  # set by the scheduler in use
    last_review_day: date | None = None
    fsrs_stability: float | None = None
    fsrs_difficulty: float | None = None
    fsrs_due_day: date | None = None

    @property
    def sm2(self) -> SM2State:
        return SM2State(self.repetitions, self.interval, self.easiness)

    @property
    def memory(self) -> fsrs_model.FSRSState:
        """FSRS's state of the item (new when it has none yet)."""
        if self.fsrs_stability is None:
            return fsrs_model.FSRSState()
        return fsrs_model.FSRSState(self.fsrs_stability, self.fsrs_difficulty, self.last_review_day, self.fsrs_due_day)

    def sm2_due_day(self) -> date | None:
        return None if self.last_review_day is None else self.last_review_day + timedelta(days=self.interval)

    def due_day_under(self, scheduler: str) -> date | None:
        """The due day this state gets from `scheduler` ("sm2" or "fsrs")."""
        return self.fsrs_due_day if scheduler == "fsrs" else self.sm2_due_day()

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


def advance(state: ItemState, quality: int, today: date, scheduler: str) -> ItemState:
    """The state after a review of `quality` on `today`: SM-2 and FSRS both move, and the due
    day is the one `scheduler` gives. A repeat on the same study day changes nothing."""
    if not counts_today(state, today):
        return state
    after = apply_quality(state, quality, today)
    memory = fsrs_model.review(state.memory, button_for_quality(quality), today)
    after = replace(
        after, fsrs_stability=memory.stability, fsrs_difficulty=memory.difficulty, fsrs_due_day=memory.due_day
    )
    return replace(after, due_day=after.due_day_under(scheduler))


def comes_back_today(button: int) -> bool:
    """Again and Hard bring the item back later in the same session."""
    return button in (1, 2)
