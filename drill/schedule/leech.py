"""Leeches: items the user keeps failing, judged across study days, never within one. A card or
pitch is a leech once its lapses (a counted Again on an item it had already learned, as in Anki)
reach the threshold, and is flagged again every half threshold after; an estimation family or a
coding drill once it failed FAILED_RUN study days in a row (each day's counted grade, the first of
the day: same-day repeats never count), and again every FAILED_RUN failed days after. Pure: the
counts come from the stored reviews (drill.store.leeches); drill.study.leeches says when the
action is taken."""

from __future__ import annotations

from dataclasses import dataclass

FAILED_RUN = 4  # failed study days in a row that make an estimation family or a coding drill a leech
RUN_KINDS = ("estimate", "coding")
ACTIONS = ("suspend", "tag")  # what reaching the threshold does: suspend the item, or only flag it
KIND_NAMES = {"card": "card", "pitch": "pitch", "estimate": "estimation family", "coding": "coding drill"}
REWRITE = "Rewriting it (e on the review screen) usually helps more than drilling it."
ADVICE = {  # what helps, by kind: only a deck item can be rewritten from the review
    "card": REWRITE,
    "pitch": REWRITE,
    "estimate": "It now opens with one of its problems solved: study that before your try.",
    "coding": "Next time open its hints (h) first, and the reference (s) if they are not enough.",
}


@dataclass(frozen=True)
class Standing:
    """An item's failures so far: lapses, and failed study days since its last passed one."""

    item_id: str
    kind: str
    topic: str = ""
    lapses: int = 0
    failed_run: int = 0

    def levels(self, threshold: int) -> tuple[int, int]:
        """How far past the leech line the item is, by lapses and by failed days: 0 before it, 1 on
        reaching it, one more for every further half threshold of lapses or FAILED_RUN failed days."""
        step = max(1, threshold // 2)
        by_lapses = 0 if self.lapses < threshold else 1 + (self.lapses - threshold) // step
        by_run = self.failed_run // FAILED_RUN if self.kind in RUN_KINDS else 0
        return by_lapses, by_run

    def is_leech(self, threshold: int) -> bool:
        return any(self.levels(threshold))

    def flagged_after(self, before: Standing, threshold: int) -> bool:
        """Whether the reviews between `before` and this standing flag the item: it becomes a leech,
        or, already one, passes a further level (however many reviews an import adds at once)."""
        return any(now > then for now, then in zip(self.levels(threshold), before.levels(threshold), strict=True))

    def describe(self) -> str:
        """Why it is a leech, for a notice."""
        if self.kind in RUN_KINDS and self.failed_run >= FAILED_RUN:
            return f"failed {self.failed_run} study days in a row"
        return f"lapsed {self.lapses} times"


@dataclass(frozen=True)
class Flagged:
    """A review just flagged its item as a leech; `suspends`: leech_action suspends it (once the
    session it was flagged in ends)."""

    standing: Standing
    suspends: bool

    def notice(self) -> str:
        """What the review screen says: the item, why it is a leech, what happens to it, what helps."""
        standing = self.standing
        done = (
            "it is suspended when you leave this session (unsuspend it in the browser, b)"
            if self.suspends
            else "it stays in your reviews, marked as a leech"
        )
        name = KIND_NAMES.get(standing.kind, standing.kind)
        return (
            f"A leech: the {name} on “{standing.topic}” has {standing.describe()}; {done}. "
            f"{ADVICE.get(standing.kind, REWRITE)}"
        )
