"""FSRS as a memory model: its own due day, and its retrievability as the predicted recall.

The fsrs package loads on the first prediction (drill.schedule.fsrs_model imports it lazily),
never when this module registers the model.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from drill.schedule import fsrs_model
from drill.schedule.memory import PowerRecall, register

if TYPE_CHECKING:
    from drill.schedule.state import ItemState


@dataclass(frozen=True)
class FSRSMemory:
    name: str = "fsrs"
    label: str = "FSRS"
    recall_label: str = "FSRS"

    def curve(self) -> PowerRecall:
        factor, decay = fsrs_model.forgetting_curve()
        return PowerRecall("stability", factor, decay)

    def due_day(self, state: ItemState) -> date | None:
        return state.fsrs_due_day

    def recall(self, state: ItemState, day: date) -> float | None:
        if state.last_review_day is None:
            return None
        return fsrs_model.retrievability(state.memory, day)


FSRS = register(FSRSMemory())
