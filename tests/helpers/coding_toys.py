"""A toy kernels/ folder for the runner's tests: one drill, `toy-add`, with no torch in it; and the
fixtures the runner's test modules share (import them by name: `toy`, `worker`)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from drill.coding.drills import Drill, find_drill
from drill.coding.runner.warm import WarmWorker

CONFTEST = """
import importlib.util, os
from pathlib import Path
import pytest

@pytest.fixture
def candidate(request):
    folder = Path(request.node.fspath).parent
    path = Path(os.environ.get("DRILL_CANDIDATE") or folder / "solution.py")
    spec = importlib.util.spec_from_file_location("toy_candidate", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module

@pytest.fixture(params=["cpu", "cuda"])
def device(request):
    return request.param
"""

TOML = """
id = "toy-add"
title = "Add two numbers"
difficulty = "easy"
budget_s = 600
block = "compute"
topic = "arithmetic"
source = "tests"
hints = ["Use +.", "return a + b"]
"""

TESTS = """
import pytest

@pytest.mark.parametrize("a, b", [(1, 2), (3, 4), (-1, 1)])
def test_add(candidate, device, a, b):
    print("adding", a, b)
    assert candidate.add(a, b) == a + b, f"add({a}, {b}) should be {a + b}"

def test_add_floats(candidate, device):
    assert candidate.add(0.5, 0.25) == 0.75, "add(0.5, 0.25) should be 0.75"

def benchmark_case(module, device):
    return lambda: module.add(1, 2)
"""

SOLUTION = "def add(a, b):\n    return a + b\n"
STARTER = 'def add(a, b):\n    """Return a + b."""\n    raise NotImplementedError\n'


def write_toy_kernels(root: Path, starter: str = STARTER, solution: str = SOLUTION) -> Path:
    """root/kernels/{conftest.py, toy-add/...}; returns the kernels folder."""
    kernels = root / "kernels"
    folder = kernels / "toy-add"
    folder.mkdir(parents=True)
    (kernels / "conftest.py").write_text(CONFTEST)
    (folder / "drill.toml").write_text(TOML)
    (folder / "prompt.md").write_text("# Add\n\n`add(a, b)` returns a + b.\n")
    (folder / "starter.py").write_text(starter)
    (folder / "solution.py").write_text(solution)
    (folder / "test_toy_add.py").write_text(TESTS)
    return kernels


def write_candidate(folder: Path, name: str, source: str) -> Path:
    path = folder / f"{name}.py"
    path.write_text(textwrap.dedent(source))
    return path


@pytest.fixture(scope="module")
def worker():
    """One warm worker for a test module."""
    warm = WarmWorker()
    yield warm
    warm.close()


@pytest.fixture
def toy(tmp_path: Path) -> Drill:
    """The toy drill in a fresh kernels folder."""
    return find_drill(write_toy_kernels(tmp_path / "content"), "toy-add")
