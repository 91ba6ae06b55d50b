"""Today's queue: due items first (most overdue first, blocks interleaved), then new items."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from datetime import date
from itertools import groupby


@dataclass(frozen=True)
class Candidate:
    """What the queue needs to know about an item."""

    item_id: str
    block: str
    due_day: date | None = None  # None for an item never reviewed


@dataclass(frozen=True)
class Limits:
    new_per_day: int = 15
    max_reviews_per_day: int = 200
    new_done_today: int = 0
    reviews_done_today: int = 0


def interleave_blocks(items: list[Candidate]) -> list[Candidate]:
    """Round-robin over blocks, keeping each block's own order."""
    by_block: dict[str, list[Candidate]] = defaultdict(list)
    for item in items:
        by_block[item.block].append(item)
    lanes = [iter(lane) for lane in by_block.values()]
    out: list[Candidate] = []
    while lanes:
        still = []
        for lane in lanes:
            item = next(lane, None)
            if item is not None:
                out.append(item)
                still.append(lane)
        lanes = still
    return out


def build(due: list[Candidate], new: list[Candidate], limits: Limits) -> list[str]:
    """The ids to review today, in order, within the daily limits.

    `due` holds items whose due day has come; `new` holds unseen items in content order.
    """
    ordered_due: list[Candidate] = []
    for _, same_day in groupby(sorted(due, key=lambda c: c.due_day or date.min), key=lambda c: c.due_day):
        ordered_due.extend(interleave_blocks(list(same_day)))
    new_room = max(0, limits.new_per_day - limits.new_done_today)
    chosen = ordered_due + interleave_blocks(new)[:new_room]
    room = max(0, limits.max_reviews_per_day - limits.reviews_done_today)
    return [c.item_id for c in chosen[:room]]
