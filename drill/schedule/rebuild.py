"""An item's schedule rebuilt from its stored grades, oldest first (pure: no SQL, no I/O)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import date

from drill.schedule.grading import ItemState, advance, counts_today


@dataclass(frozen=True, slots=True)
class Step:
    """One stored grade replayed: whether it counted, and the state before and after it."""

    review_id: int
    counted: bool
    before: ItemState
    after: ItemState


def replay_grades(grades: Iterable[tuple[int, date, int]], scheduler: str) -> Iterator[Step]:
    """Replay (review id, study day, quality) in time order from a new item's state."""
    state = ItemState()
    for review_id, day, quality in grades:
        after = advance(state, quality, day, scheduler)
        yield Step(review_id, counts_today(state, day), state, after)
        state = after
