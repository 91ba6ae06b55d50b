"""Siblings: items that give each other away are not shown on the same study day.

An item's sibling group is its deck's optional `siblings = "…"` key, else, for a pitch, its
topic (the 30 s, 2 min and 5 min rungs of one topic tell each other's answers). Burying works
like Anki's: a later sibling is left out of today's queue when one of its group is earlier in
it or was reviewed today; nothing is stored, so a due sibling is simply still due tomorrow and
a new one is introduced another day. Pure: no I/O.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import Protocol, TypeVar


class Sibling(Protocol):
    """What burying reads of a queue candidate (drill.schedule.queue.Candidate)."""

    @property
    def item_id(self) -> str: ...

    @property
    def siblings(self) -> str | None: ...


C = TypeVar("C", bound=Sibling)


def group(kind: str, topic: str, siblings: str | None) -> str | None:
    """The sibling group of an item: its `siblings` key, else its topic for a pitch (None: none)."""
    if siblings:
        return siblings
    if kind == "pitch":
        return f"pitch:{topic}"
    return None


def bury(candidates: Iterable[C], shown: Iterable[Sibling] = ()) -> list[C]:
    """`candidates` in order, less each whose sibling group another item holds already: one of
    `shown` (reviewed today) or an earlier candidate."""
    holders: dict[str, set[str]] = defaultdict(set)
    for item in shown:
        if item.siblings is not None:
            holders[item.siblings].add(item.item_id)
    kept: list[C] = []
    for candidate in candidates:
        if candidate.siblings is not None:
            if holders[candidate.siblings] - {candidate.item_id}:
                continue
            holders[candidate.siblings].add(candidate.item_id)
        kept.append(candidate)
    return kept
