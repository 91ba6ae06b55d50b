"""The screen snapshots' fixtures: every clock a screen shows stands still, and no $EDITOR."""

from __future__ import annotations

import importlib
import pkgutil
import time
from datetime import timedelta
from types import ModuleType

import pytest


class StoppedClock:
    """`time` as the TUI modules see it: monotonic() stands still until a test moves it on, and
    then the study's clock (conftest's Clock) moves on with it."""

    def __init__(self, study_clock) -> None:
        self.now = 1000.0
        self.study_clock = study_clock

    def monotonic(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds
        self.study_clock.now += timedelta(seconds=seconds)

    def __getattr__(self, name: str):
        return getattr(time, name)


def tui_modules() -> list[ModuleType]:
    """Every module of drill.tui, imported (screens a test opens later import theirs lazily)."""
    import drill.tui

    return [importlib.import_module(info.name) for info in pkgutil.walk_packages(drill.tui.__path__, "drill.tui.")]


@pytest.fixture(autouse=True)
def stopped_clock(monkeypatch: pytest.MonkeyPatch, clock) -> StoppedClock:
    """Timers, countdowns and stopwatches read this clock (`time` or `monotonic` in any TUI module)."""
    stopped = StoppedClock(clock)
    for module in tui_modules():
        if getattr(module, "time", None) is time:
            monkeypatch.setattr(module, "time", stopped)
        if getattr(module, "monotonic", None) is time.monotonic:
            monkeypatch.setattr(module, "monotonic", stopped.monotonic)
    return stopped


@pytest.fixture(autouse=True)
def no_editor(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("EDITOR", raising=False)
