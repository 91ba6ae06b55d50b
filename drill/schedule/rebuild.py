"""An item's schedule rebuilt from its stored history, oldest first (pure: no SQL, no I/O): its
grades, and the forgets among them, each of which starts the schedule again from new."""

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


@dataclass(frozen=True, slots=True)
class Forget:
    """A forget in an item's history: what follows it is replayed from a new item's state."""


FORGET = Forget()
Graded = tuple[int, date, int]  # (review id, study day, quality)


def replay_grades(history: Iterable[Graded | Forget], scheduler: str) -> Iterator[Step]:
    """Replay (review id, study day, quality) in time order from a new item's state, starting again
    from it at each forget; a step for each grade."""
    state = ItemState()
    for entry in history:
        if isinstance(entry, Forget):
            state = ItemState()
            continue
        review_id, day, quality = entry
        after = advance(state, quality, day, scheduler)
        yield Step(review_id, counts_today(state, day), state, after)
        state = after


def replay(history: Iterable[Graded | Forget], scheduler: str) -> tuple[list[Step], ItemState]:
    """replay_grades' steps, and the state the history leaves the item in (new when it ends in a forget)."""
    entries = list(history)
    steps = list(replay_grades(entries, scheduler))
    return steps, ItemState() if not entries or isinstance(entries[-1], Forget) else steps[-1].after
