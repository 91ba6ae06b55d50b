"""What the store keeps about an item's schedule: SM-2's state and FSRS's memory side by side.

The due day each memory model gives this state is the model's to say (drill.schedule.memory).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from drill.schedule import fsrs_model
from drill.schedule.sm2 import SM2State


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

    @property
    def is_new(self) -> bool:
        return self.last_review_day is None

    @property
    def relearning(self) -> bool:
        """Failed on its last review day and not passed since: due that day, whatever the scheduler."""
        return self.due_day is not None and self.last_review_day is not None and self.due_day <= self.last_review_day
