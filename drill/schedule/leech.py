"""Leeches: items the user keeps failing. A card or pitch is a leech once its lapses (Again on an
item it had already learned) reach the threshold, as in Anki, and is flagged again every half
threshold after; an estimation family or coding drill also once it fails FAILED_RUN tries in a
row. Pure: the counts come from the stored reviews (drill.store.leeches)."""

from __future__ import annotations

from dataclasses import dataclass

FAILED_RUN = 4  # failed tries in a row that make an estimation family or a coding drill a leech
RUN_KINDS = ("estimate", "coding")
ACTIONS = ("suspend", "tag")  # what reaching the threshold does: suspend the item, or only flag it


@dataclass(frozen=True)
class Standing:
    """An item's failures so far: lapses, and failed tries since its last pass."""

    item_id: str
    kind: str
    topic: str = ""
    lapses: int = 0
    failed_run: int = 0

    def is_leech(self, threshold: int) -> bool:
        return self.lapses >= threshold or (self.kind in RUN_KINDS and self.failed_run >= FAILED_RUN)

    def flagged_after(self, before: Standing, threshold: int) -> bool:
        """Whether the review between `before` and this standing flags the item: it becomes a leech,
        or, already one, reaches a further half threshold of lapses or another run of failures."""
        if not self.is_leech(threshold):
            return False
        if not before.is_leech(threshold):
            return True
        step = max(1, threshold // 2)
        more_lapses = self.lapses > before.lapses and (self.lapses - threshold) % step == 0
        more_failures = (
            self.kind in RUN_KINDS and self.failed_run > before.failed_run and self.failed_run % FAILED_RUN == 0
        )
        return more_lapses or more_failures

    def describe(self) -> str:
        """Why it is a leech, for a notice."""
        if self.kind in RUN_KINDS and self.failed_run >= FAILED_RUN:
            return f"failed {self.failed_run} tries in a row"
        return f"lapsed {self.lapses} times"


@dataclass(frozen=True)
class Flagged:
    """A review just flagged its item as a leech; `suspended` when leech_action suspended it."""

    standing: Standing
    suspended: bool
