"""What the home screen and `drill stats` show first: the day's counts per block, the plan."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from drill.content.errors import ContentError
from drill.content.vocabulary import BLOCKS
from drill.schedule import plan as planning
from drill.store.queries import BlockCounts


@dataclass(frozen=True)
class HomeSummary:
    """What the home screen and `drill stats` show first."""

    today: date
    by_block: dict[str, BlockCounts]
    reviews_total: int
    due_today: int
    new_available: int
    interview_date: date | None
    content_errors: list[ContentError] = field(default_factory=list)
    plan: planning.Plan | None = None  # the interview plan, while a date is set and still ahead
    drills_due: list[str] = field(default_factory=list)  # coding drills due today, by drill id
    reviews_today: int = 0  # grades given today, same-day repeats included (reviews_total: all time)

    @property
    def new_per_day_needed(self) -> int | None:
        """New items a day that finish all unseen content before the interview."""
        return self.plan.new_per_day_needed if self.plan else None

    @property
    def new_pace(self) -> int | None:
        """New items a day the queue introduces while the plan is on."""
        return self.plan.new_per_day if self.plan else None

    @property
    def brought_forward_today(self) -> int:
        return self.plan.bring_today if self.plan else 0

    @property
    def items(self) -> int:
        return sum(counts.items for counts in self.by_block.values())

    def counts(self, block: str) -> BlockCounts:
        """One block's counts (all zero for a block without items)."""
        return self.by_block.get(block, BlockCounts())

    @property
    def days_left(self) -> int | None:
        return None if self.interview_date is None else (self.interview_date - self.today).days

    def as_json(self) -> dict[str, object]:
        """The spine of `drill stats --json`: totals and per-block counts (every block listed)."""
        return {
            "today": self.today.isoformat(),
            "items": self.items,
            "reviews_total": self.reviews_total,
            "due_today": self.due_today,
            "new_available": self.new_available,
            "interview_date": self.interview_date.isoformat() if self.interview_date else None,
            "days_left": self.days_left,
            "by_block": {block: self.counts(block).as_json() for block in BLOCKS},
        }
