"""A stopwatch shown against a pitch's target length."""

from __future__ import annotations

import time

from textual.widgets import Static


def clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


class PitchTimer(Static):
    """Counts up from zero; turns red past the target."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.target = 0
        self.started = 0.0
        self.stopped: float | None = None

    def on_mount(self) -> None:
        self.set_interval(0.25, self.tick)

    def start(self, target_seconds: int) -> None:
        self.target = target_seconds
        self.started = time.monotonic()
        self.stopped = None
        self.tick()

    def stop(self) -> float:
        """Freeze the display; return the seconds taken."""
        self.stopped = time.monotonic()
        self.tick()
        return self.stopped - self.started

    def tick(self) -> None:
        if not self.target:
            return
        elapsed = (self.stopped or time.monotonic()) - self.started
        over = elapsed > self.target
        label = "time taken" if self.stopped else "speaking"
        self.update(f"{label} {clock_text(elapsed)} / target {clock_text(self.target)}")
        self.set_class(over, "over")
