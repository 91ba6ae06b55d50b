"""Shared fixtures: an isolated DRILL_HOME, a fixed clock, and small decks."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.clock import Clock
from helpers.content import TestPaths, write_deck


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


@pytest.fixture
def small_paths(drill_home: Path, deck_dir: Path) -> TestPaths:
    """A home whose shipped content is six cards over three blocks."""
    write_deck(deck_dir, "a.toml", [("m-1", "memory"), ("m-2", "memory"), ("c-1", "compute")])
    write_deck(deck_dir, "b.toml", [("c-2", "compute"), ("i-1", "inference"), ("i-2", "inference")])
    return TestPaths(drill_home, deck_dir)
