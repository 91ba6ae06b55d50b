"""Shared fixtures: an isolated DRILL_HOME, a fixed clock, and small decks."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest

from drill.paths import Paths

FIXED_NOW = datetime(2026, 11, 22, 15, 0, tzinfo=timezone.utc)

CARD = """
[[item]]
id = "{id}"
kind = "card"
block = "{block}"
topic = "Topic"
prompt = "Prompt of {id}?"
answer = "Answer of {id}."
source = "seed 000 §10"
"""


class Clock:
    """A clock tests can move forward."""

    def __init__(self, now: datetime = FIXED_NOW) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture(autouse=True)
def drill_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own DRILL_HOME, so no test touches the user's data."""
    home = tmp_path / "home"
    monkeypatch.setenv("DRILL_HOME", str(home))
    monkeypatch.setenv("TZ", "UTC")
    import time

    time.tzset()
    return home


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def in_kolkata(monkeypatch: pytest.MonkeyPatch):
    """The machine's local time is UTC+5:30 (FIXED_NOW reads 20:30 there)."""
    import time

    monkeypatch.setenv("TZ", "Asia/Kolkata")
    time.tzset()
    yield
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


@pytest.fixture
def deck_dir(tmp_path: Path) -> Path:
    folder = tmp_path / "decks"
    folder.mkdir()
    return folder


def write_deck(folder: Path, name: str, ids_blocks: list[tuple[str, str]]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("".join(CARD.format(id=id_, block=block) for id_, block in ids_blocks))
    return path


class TestPaths(Paths):
    """Paths whose shipped decks come from a test folder, with no estimation problems or drills."""

    __test__ = False

    def __init__(self, home: Path, decks: Path) -> None:
        super().__init__(home)
        object.__setattr__(self, "_decks", decks)
        (decks.parent / "problems").mkdir(exist_ok=True)
        (decks.parent / "kernels").mkdir(exist_ok=True)

    @property
    def decks(self) -> Path:
        return self._decks

    @property
    def problems(self) -> Path:
        return self._decks.parent / "problems"

    @property
    def kernels(self) -> Path:
        return self._decks.parent / "kernels"


@pytest.fixture
def small_paths(drill_home: Path, deck_dir: Path) -> TestPaths:
    """A home whose shipped content is six cards over three blocks."""
    write_deck(deck_dir, "a.toml", [("m-1", "memory"), ("m-2", "memory"), ("c-1", "compute")])
    write_deck(deck_dir, "b.toml", [("c-2", "compute"), ("i-1", "inference"), ("i-2", "inference")])
    return TestPaths(drill_home, deck_dir)
