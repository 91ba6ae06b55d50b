"""Fixtures of the runner's tests: the toy drill and one warm worker per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from coding_toys import write_toy_kernels
from drill.coding.drills import Drill, find_drill
from drill.coding.warm import WarmWorker


@pytest.fixture(scope="module")
def worker():
    warm = WarmWorker()
    yield warm
    warm.close()


@pytest.fixture
def toy(tmp_path: Path) -> Drill:
    return find_drill(write_toy_kernels(tmp_path / "content"), "toy-add")
