"""Spreading the load: a passed item's due day moved to the least loaded day near it.

Anki's load balancer, made deterministic. When a grade gives an interval of MIN_INTERVAL days or
more, the item may be due on any day within ±5 % of the interval (at least ±1 day); of those it
takes the day with the fewest items due, then the one nearest the computed day, then one picked
by a generator seeded from the item id and the study day of the review (drill counts one review
per item and day, so the pair names the review). The same grades against the same load always
give the same days, a replay included; no day outside the window is ever chosen, so with an
empty calendar the computed day itself is kept. Pure: the load comes in as a mapping.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from drill.schedule.sm2 import MAX_INTERVAL

MIN_INTERVAL = 3  # shorter intervals are kept as they are: a day either way would be a third of them
SPREAD = 0.05  # the window's half-width, as a share of the interval


def window(interval: int) -> tuple[int, int]:
    """The shortest and longest interval an item given `interval` days may get instead."""
    if interval < MIN_INTERVAL:
        return interval, interval
    half = max(1, round(interval * SPREAD))
    return interval - half, min(MAX_INTERVAL, interval + half)


def balanced_day(today: date, due: date, load: Mapping[date, int], seed: str) -> date:
    """Of the days in the window around `due` (an interval counted from `today`), the one with the
    fewest items due in `load` (a day not in it has none), then the nearest `due`, then by `seed`."""
    shortest, longest = window((due - today).days)
    days = [today + timedelta(days=interval) for interval in range(shortest, longest + 1)]
    rng = random.Random(seed)
    draw = {day: rng.random() for day in days}
    return min(days, key=lambda day: (load.get(day, 0), abs((day - due).days), draw[day]))


@dataclass(frozen=True)
class Balance:
    """What a grade needs to spread the load: whose review it is, and the items due per day.

    `load(first, last)` gives the number of items due on each day from `first` to `last`
    (inclusive) other than this one; days without any may be left out."""

    item_id: str
    load: Callable[[date, date], Mapping[date, int]]

    def day(self, today: date, due: date) -> date:
        """The day the item is due when `due` is the day its memory model gives on `today`."""
        shortest, longest = window((due - today).days)
        if shortest == longest:
            return due
        first, last = today + timedelta(days=shortest), today + timedelta(days=longest)
        return balanced_day(today, due, self.load(first, last), f"{self.item_id}|{today.isoformat()}")
