"""When a pitch was spoken in time: within its target and not far short of it (a 5-minute answer
given in 30 seconds left most of the answer out)."""

from __future__ import annotations

SHORTEST_SHARE = 0.5  # under half the target is too short to count as in time


def pitch_timing(seconds: float, target_seconds: int) -> str:
    """ "in time", "too short" or "over" for a pitch spoken in `seconds` against its target."""
    if seconds > target_seconds:
        return "over"
    if seconds < SHORTEST_SHARE * target_seconds:
        return "too short"
    return "in time"
