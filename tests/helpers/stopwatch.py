"""`time` as the drill screen sees it: monotonic() moves only when a test moves it (a fixture:
import `stopwatch` by name)."""

from __future__ import annotations

import time

import pytest


class Stopwatch:
    """Stands in for the `time` module: monotonic() reads `now`; the rest is the real module."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    def __getattr__(self, name: str):
        return getattr(time, name)


@pytest.fixture
def stopwatch(monkeypatch: pytest.MonkeyPatch) -> Stopwatch:
    watch = Stopwatch()
    monkeypatch.setattr("drill.tui.screens.drill_attempt.time", watch)
    return watch
