"""SM-2 as a memory model: due on the last review day plus the interval; recall by the usual proxy.

SM-2 does not predict recall itself. The proxy is R = 0.9^(elapsed days / interval), i.e. 90 %
when the item is reviewed on its due day.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from drill.schedule.memory import ExponentialRecall, register

if TYPE_CHECKING:
    from drill.schedule.state import ItemState


def sm2_recall(elapsed_days: int, interval_before: int) -> float:
    """SM-2's recall proxy: 0.9 ** (elapsed / interval), 90 % on the due day."""
    if interval_before <= 0:
        raise ValueError("an item reviewed before has an SM-2 interval of at least one day")
    return 0.9 ** (max(0, elapsed_days) / interval_before)


@dataclass(frozen=True)
class SM2Memory:
    name: str = "sm2"
    label: str = "SM-2"
    recall_label: str = "SM-2 proxy"

    def curve(self) -> ExponentialRecall:
        return ExponentialRecall("interval", 0.9)

    def due_day(self, state: ItemState) -> date | None:
        return state.sm2_due_day()

    def recall(self, state: ItemState, day: date) -> float | None:
        if state.last_review_day is None:
            return None
        return sm2_recall((day - state.last_review_day).days, state.interval)


SM2 = register(SM2Memory())
