"""The interview-date plan: pure arithmetic over counts from the store. No I/O.

The rule, while an interview date is set and still ahead (today < interview):

- *The final window* is the last `window` days before the interview (config
  `plan_window_days`, default 7): `interview - window … interview - 1`.
- *Brought forward*: every seen item whose next review falls after the interview
  (`due_day > interview`) and that has not been reviewed inside the final window
  (`last_review_day < interview - window`). Items due on the interview day itself are not
  brought forward: they come up that morning as usual.
- *Spreading*: those items get target days in the remaining window days
  (`max(today, interview - window) … interview - 1`, i.e. N = min(days left, window) days).
  Each day's count is chosen by water-filling on top of the reviews already scheduled that
  day (today's includes overdue items and the reviews already done today), so the daily
  load is as even as it can be; ties go to the earliest day. The items, earliest due first
  (then content order), fill the days in date order. Recomputed from the store each time,
  the plan is stable while the user keeps up, and a skipped day is re-spread, not piled up.
- *New items*: `new_per_day_needed = ceil(unseen / days_left)`, counting unseen items as at
  the start of today. The pace used is `max(new_per_day, needed)` (never slower than the
  user's own setting), never above `max_reviews_per_day`; the queue still serves due
  reviews before new items within that daily maximum.
- Nothing is written to the items: target days are an *effective* due day computed at queue
  time, so once the interview day comes, stored SM-2 due days apply again untouched.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import TypeVar

from pydantic import Field, computed_field

from drill.read_model import ReadModel

T = TypeVar("T")

DEFAULT_WINDOW = 7


@dataclass(frozen=True)
class PlanCounts:
    """What the plan needs from the store (see drill.store.queries.plan_counts)."""

    pending: int  # items to bring forward: due after the interview, not seen in the final window
    scheduled: dict[date, int] = field(default_factory=dict)  # reviews per day before the interview
    unseen: int = 0  # unseen items as at the start of today (those first seen today included)
    seen_today: int = 0  # of those, the items first seen today


class DayLoad(ReadModel):
    """One day of the plan: what is already scheduled, and what the plan adds."""

    day: date
    reviews: int  # reviews already scheduled (today: due, overdue and already done)
    brought_forward: int
    new: int

    @computed_field
    @property
    def total(self) -> int:
        return self.reviews + self.brought_forward + self.new


class Plan(ReadModel):
    """The plan from today to the interview; its JSON is `drill plan --json` and the stats' plan."""

    KEYS = (
        "today",
        "interview_date",
        "active",
        "days_left",
        "window_days",
        "window_start",
        "brought_forward",
        "unseen",
        "new_per_day_needed",
        "new_per_day",
        "finishes_new",
        "max_reviews_per_day",
        "days_over_maximum",
    )

    today: date
    interview: date = Field(serialization_alias="interview_date")
    window: int = Field(serialization_alias="window_days")
    brought_forward: int = 0
    unseen: int = 0  # as at the start of today, so the pace holds all day
    seen_today: int = Field(default=0, exclude=True)  # of `unseen`, first seen today: unseen - seen_today are left now
    new_per_day_needed: int = 0
    new_per_day: int = 0
    days: tuple[DayLoad, ...] = Field(default=(), serialization_alias="daily_load")
    max_reviews_per_day: int = 200

    @computed_field
    @property
    def days_left(self) -> int:
        """Study days before the interview, today included."""
        return (self.interview - self.today).days

    @computed_field
    @property
    def active(self) -> bool:
        return self.days_left > 0

    @computed_field
    @property
    def window_start(self) -> date | None:
        """The first day items are brought forward to (None once the interview day has come)."""
        return max(self.today, window_start(self.interview, self.window)) if self.active else None

    @property
    def bring_today(self) -> int:
        return self.days[0].brought_forward if self.days else 0

    @computed_field
    @property
    def finishes_new(self) -> bool:
        """Whether every unseen item gets introduced before the interview."""
        return sum(day.new for day in self.days) >= self.unseen

    @computed_field
    @property
    def days_over_maximum(self) -> int:
        """Days whose planned load exceeds the daily maximum (the queue stops at the maximum)."""
        return sum(day.total > self.max_reviews_per_day for day in self.days)


def window_start(interview: date, window: int) -> date:
    """The fixed first day of the final window; a review on or after it counts as seen."""
    return interview - timedelta(days=window)


def is_active(today: date, interview: date | None) -> bool:
    return interview is not None and today < interview


def spread(base: Sequence[int], extra: int) -> list[int]:
    """How many of `extra` items each day gets so that base + share is as even as possible.

    Water-filling: the least loaded day gets the next item, the earliest day on a tie.
    Computed by level, not item by item, so it costs O(days · log extra).
    """
    if extra <= 0 or not base:
        return [0] * len(base)

    def cost(level: int) -> int:
        return sum(max(0, level - b) for b in base)

    low, high = min(base), min(base) + extra  # cost(low) == 0 <= extra < cost(high + 1)
    while low < high:
        middle = (low + high + 1) // 2
        if cost(middle) <= extra:
            low = middle
        else:
            high = middle - 1
    shares = [max(0, low - b) for b in base]
    left = extra - sum(shares)
    for i, b in enumerate(base):
        if left == 0:
            break
        if b <= low:
            shares[i] += 1
            left -= 1
    return shares


def assign_targets(items: Sequence[T], days: Sequence[date], shares: Sequence[int]) -> dict[T, date]:
    """Target day per item: `items` (earliest due first) fill `days` in order, `shares[i]` each."""
    targets: dict[T, date] = {}
    position = 0
    for day, share in zip(days, shares, strict=True):
        for item in items[position : position + share]:
            targets[item] = day
        position += share
    return targets


def new_pace(unseen: int, days_left: int, new_per_day: int, max_reviews_per_day: int) -> tuple[int, int]:
    """(needed, used): ceil(unseen / days_left), and max(new_per_day, needed) capped by the daily maximum."""
    needed = math.ceil(unseen / days_left) if days_left > 0 else 0
    return needed, min(max(new_per_day, needed), max_reviews_per_day)


def make(
    today: date,
    interview: date,
    counts: PlanCounts,
    *,
    window: int = DEFAULT_WINDOW,
    new_per_day: int = 15,
    max_reviews_per_day: int = 200,
) -> Plan:
    """The plan from today to the interview (inactive, with no days, once the day has come)."""
    if not is_active(today, interview):
        return Plan(today=today, interview=interview, window=window, max_reviews_per_day=max_reviews_per_day)
    days_left = (interview - today).days
    days = [today + timedelta(days=n) for n in range(days_left)]
    reviews = [counts.scheduled.get(day, 0) for day in days]
    first = max(today, window_start(interview, window))
    offset = (first - today).days
    shares = [0] * offset + spread(reviews[offset:], counts.pending)
    needed, pace = new_pace(counts.unseen, days_left, new_per_day, max_reviews_per_day)
    loads, unseen_left = [], counts.unseen
    for day, scheduled, share in zip(days, reviews, shares, strict=True):
        room = max(0, max_reviews_per_day - scheduled - share)
        new = min(pace, unseen_left, room)
        unseen_left -= new
        loads.append(DayLoad(day=day, reviews=scheduled, brought_forward=share, new=new))
    return Plan(
        today=today,
        interview=interview,
        window=window,
        brought_forward=counts.pending,
        unseen=counts.unseen,
        seen_today=counts.seen_today,
        new_per_day_needed=needed,
        new_per_day=pace,
        days=tuple(loads),
        max_reviews_per_day=max_reviews_per_day,
    )
