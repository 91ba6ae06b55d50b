"""One grade applied to one item's state: SM-2 once per study day, repeats only logged.

FSRS's memory of the item moves with every counted grade too, whichever scheduler is in
use, so predicted recall is always at hand and switching schedulers loses nothing; the
scheduler in use (a registered memory model, drill.schedule.memory) only decides which
model's due day the item gets. A passed item's day may then move a little to spread the load
(drill.schedule.load_balance), when the caller gives a `Balance`.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

from drill.schedule import fsrs_model, memory, sm2
from drill.schedule.fsrs_model import DEFAULT, FSRSSettings
from drill.schedule.load_balance import Balance
from drill.schedule.memory import Rating
from drill.schedule.sm2 import BUTTON_QUALITY
from drill.schedule.state import ItemState

__all__ = [
    "ItemState",
    "advance",
    "apply",
    "apply_quality",
    "button_for_quality",
    "comes_back_today",
    "counts_today",
    "due_day",
]

_QUALITY_BUTTON = {5: 4, 4: 3, 3: 2}
_COME_BACK = frozenset((Rating.AGAIN, Rating.HARD))


def due_day(state: ItemState, scheduler: str) -> date | None:
    """The due day the memory model named `scheduler` gives `state` (an unknown name is an error)."""
    return memory.get(scheduler).due_day(state)


def counts_today(state: ItemState, today: date) -> bool:
    """Whether a grade given today changes SM-2 state (only the first of the day does)."""
    return state.last_review_day != today


def button_for_quality(quality: int) -> int:
    """The button a graded answer (estimate, coding drill) counts as: 5→Easy, 4→Good, 3→Hard, else Again."""
    return _QUALITY_BUTTON.get(quality, 1)


def apply(state: ItemState, button: int, today: date) -> ItemState:
    """The state after pressing `button` (1 Again … 4 Easy) on `today`."""
    return apply_quality(state, BUTTON_QUALITY[button], today)


def apply_quality(state: ItemState, quality: int, today: date) -> ItemState:
    """The state after a review of SM-2 `quality` (0–5) on `today`."""
    if not counts_today(state, today):
        return state
    repetitions, interval, easiness = sm2.step(state.repetitions, state.interval, state.easiness, quality)
    return replace(
        state,
        repetitions=repetitions,
        interval=interval,
        easiness=easiness,
        due_day=today + timedelta(days=interval),
        last_review_day=today,
    )


def advance(
    state: ItemState,
    quality: int,
    today: date,
    scheduler: str,
    balance: Balance | None = None,
    fsrs_settings: FSRSSettings = DEFAULT,
) -> ItemState:
    """The state after a review of `quality` on `today`: SM-2 and FSRS (with `fsrs_settings`) both
    move (on the first grade of the study day only), and the due day is the one `scheduler` gives, moved within its
    window to spread the load when `balance` is given — except that an item failed today (Again
    or Hard) stays due today, relearning, until a repeat today passes it (Good or Easy), which
    gives it the scheduler's day."""
    button = button_for_quality(quality)
    again = comes_back_today(button)
    if counts_today(state, today):
        repetitions, interval, easiness = sm2.step(state.repetitions, state.interval, state.easiness, quality)
        stability, difficulty, fsrs_due_day = fsrs_model.step(
            state.fsrs_stability, state.fsrs_difficulty, state.last_review_day, today, button, fsrs_settings
        )
        state = ItemState(
            repetitions,
            interval,
            easiness,
            today if again else today + timedelta(days=interval),
            today,
            stability,
            difficulty,
            fsrs_due_day,
        )
    scheduled: date | None
    if again:
        scheduled = today
    else:
        scheduled = due_day(state, scheduler)
        if balance is not None and scheduled is not None:
            scheduled = balance.day(today, scheduled)
    return state if scheduled == state.due_day else replace(state, due_day=scheduled)


def comes_back_today(button: int) -> bool:
    """Again and Hard bring the item back later in the same session."""
    return button in _COME_BACK
