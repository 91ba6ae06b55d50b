"""What the home screen and `drill stats` show first: the day's counts per block, the plan."""

from __future__ import annotations

from datetime import date

from pydantic import Field, computed_field, field_serializer

from drill.content.errors import ContentError
from drill.content.vocabulary import BLOCKS
from drill.read_model import ReadModel
from drill.schedule.plan import Plan
from drill.store.queries import BlockCounts


class HomeSummary(ReadModel):
    """What the home screen and `drill stats` show first; its JSON, the spine of `drill stats
    --json`, is the totals and the per-block counts (every block listed)."""

    KEYS = ("today", "items", "reviews_total", "due_today", "new_available", "interview_date", "days_left", "by_block")

    today: date
    by_block: dict[str, BlockCounts]
    reviews_total: int
    due_today: int
    new_available: int
    interview_date: date | None
    content_errors: list[ContentError] = Field(default_factory=list, exclude=True)
    plan: Plan | None = Field(default=None, exclude=True)  # the interview plan, while a date is set and still ahead
    drills_due: list[str] = Field(default_factory=list, exclude=True)  # coding drills due today, by drill id
    # grades given today, same-day repeats included (reviews_total: all time)
    reviews_today: int = Field(default=0, exclude=True)

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

    @computed_field
    @property
    def items(self) -> int:
        return sum(counts.items for counts in self.by_block.values())

    def counts(self, block: str) -> BlockCounts:
        """One block's counts (all zero for a block without items)."""
        return self.by_block.get(block, BlockCounts())

    @computed_field
    @property
    def days_left(self) -> int | None:
        return None if self.interview_date is None else (self.interview_date - self.today).days

    @field_serializer("by_block")
    def _every_block(self, by_block: dict[str, BlockCounts]) -> dict[str, BlockCounts]:
        return {block: self.counts(block) for block in BLOCKS}
