"""The records review works with: a card as shown, and a grade as given."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date, datetime

from drill.schedule.grading import ItemState, counts_today


@dataclass(frozen=True)
class Card:
    """An item ready to be shown on the review screen."""

    item_id: str
    kind: str
    block: str
    topic: str
    prompt: str
    answer: str
    source: str
    points: list[str]
    target_seconds: int | None
    state: ItemState
    errata: str | None = None
    leech: str | None = None  # why the item is a leech (drill.schedule.leech), None when it is not


@dataclass(frozen=True)
class Grade:
    """One grade as given: which item, which button, and the state it moved between."""

    item_id: str
    button: int
    quality: int
    duration_ms: int
    reviewed_at: datetime
    study_day: date
    before: ItemState
    after: ItemState
    typed_answer: str | None = None  # what the user typed before grading (a pitch's box)
    ticked: tuple[int, ...] | None = None  # the checklist points ticked, by position (None: no checklist)
    cram: bool = False  # given in a session that showed items before they were due (drill.schedule.custom)

    @property
    def counted(self) -> bool:
        """Whether this grade moved the schedule: the first of its study day, unless a cram session
        kept the schedule (after == before)."""
        return counts_today(self.before, self.study_day) and self.after != self.before

    def rebased(self, current: ItemState, regrade: Regrade) -> Grade:
        """This grade given from `current` instead (another session moved the item since it was
        shown): a cram grade that kept the schedule keeps `current`, any other gets `regrade`'s state."""
        kept = self.cram and self.after == self.before
        return replace(self, before=current, after=current if kept else regrade(self, current))

    def kept_schedule(self) -> Grade:
        """This grade logged as cram without moving the item's schedule."""
        return replace(self, after=self.before, cram=True)


Regrade = Callable[[Grade, ItemState], ItemState]  # the state a grade gives when applied to another state
