"""The grade a ticked checklist suggests: every point said is Good, at least half is Hard, less is
Again. Easy is the user's own call (how effortless it was is not on the checklist)."""

from __future__ import annotations

from drill.schedule.memory import Rating


def suggested_rating(ticked: int, points: int) -> Rating:
    """The suggestion for `ticked` of `points` checklist items said."""
    if points <= 0:
        raise ValueError("a checklist has at least one point")
    if ticked >= points:
        return Rating.GOOD
    return Rating.HARD if 2 * ticked >= points else Rating.AGAIN
