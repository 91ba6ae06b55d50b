"""Shared fixtures for the hidden tests of every coding drill.

The module under test is the file named by DRILL_CANDIDATE (the user's attempt, set by the
runner); without it, the drill's own solution.py, so `pytest kernels/` checks the references.
"""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path
from types import ModuleType

import pytest
import torch

CUDA = torch.cuda.is_available()
DEVICES = ["cpu", pytest.param("cuda", marks=pytest.mark.skipif(not CUDA, reason="CUDA is not available"))]
SEEDS = [0, 1, 2]


def load_candidate(drill_dir: Path) -> ModuleType:
    """Import the candidate file for the drill in `drill_dir` under a unique module name."""
    path = Path(os.environ.get("DRILL_CANDIDATE") or drill_dir / "solution.py")
    spec = importlib.util.spec_from_file_location(f"candidate_{drill_dir.name.replace('-', '_')}", path)
    assert spec is not None and spec.loader is not None, f"cannot load {path}"
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def candidate(request: pytest.FixtureRequest) -> ModuleType:
    """The module under test for the drill whose test file asked for it."""
    return load_candidate(Path(request.node.fspath).parent)


@pytest.fixture(params=DEVICES)
def device(request: pytest.FixtureRequest) -> str:
    """Each test runs on cpu, and on cuda when present."""
    if os.environ.get("DRILL_DEVICE") and request.param != os.environ["DRILL_DEVICE"]:
        pytest.skip(f"runner asked for {os.environ['DRILL_DEVICE']} only")
    return request.param


@pytest.fixture(params=SEEDS)
def seed(request: pytest.FixtureRequest) -> int:
    """Several random seeds per correctness check; torch's generator is seeded with it."""
    torch.manual_seed(request.param)
    return request.param
