"""The runner judges any candidate, however broken, with a clear reason and never raises.

Each bad candidate runs through the cold runner (a fresh `python -m pytest`) and the warm
worker (a forked child of a process with torch imported): the crash table of the issue.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.coding_toys import toy, worker, write_candidate  # noqa: F401 (toy, worker: fixtures)

from drill.coding.drills import Drill
from drill.coding.processes import MiB
from drill.coding.runner.api import run_tests
from drill.coding.runner.supervise import supervise
from drill.coding.runner.warm import WarmWorker

CRASHES = {
    "infinite-loop": (
        "def add(a, b):\n    while True:\n        pass\n",
        "timeout",
        "time limit while running test_add",
    ),
    "loop-at-import": ("while True:\n    pass\n", "timeout", "time limit"),
    "syntax-error": (
        "def add(a, b)\n    return a + b\n",
        "error",
        "SyntaxError: expected ':' (syntax-error.py, line 1)",
    ),
    "import-error": ("raise RuntimeError('broken at import')\n", "error", "RuntimeError: broken at import"),
    "abort": ("import os\ndef add(a, b):\n    os.abort()\n", "error", "crashed with SIGABRT"),
    "huge-allocation": ("def add(a, b):\n    return len(bytearray(50 * 10**9))\n", "fail", "MemoryError"),
    "exit": ("import os\nos._exit(3)\n", "error", "exited early with code 3"),
    "wrong": ("def add(a, b):\n    return a - b\n", "fail", "AssertionError: add(1, 2) should be 3"),
}


@pytest.fixture(params=["cold", "warm"])
def runner(request, worker):
    """run(drill, candidate, **options) through the cold runner or the warm worker."""
    warm = request.param == "warm"
    return lambda drill, candidate, **options: run_tests(drill, candidate, warm=warm, worker=worker, **options)


@pytest.mark.slow
def test_reference_passes_and_cuda_cases_are_deselected(runner, toy: Drill) -> None:
    run = runner(toy, toy.solution)
    assert (run.status, run.passed, run.failed) == ("pass", 4, 0)
    assert [test.name for test in run.tests] == [
        "test_add[cpu-1-2]",
        "test_add[cpu-3-4]",
        "test_add[cpu--1-1]",
        "test_add_floats[cpu]",
    ]


@pytest.mark.slow
def test_starter_fails_and_points_at_the_line(runner, toy: Drill) -> None:
    run = runner(toy, toy.starter)
    assert (run.status, run.passed, run.failed) == ("fail", 0, 4)
    assert run.tests[0].message == "NotImplementedError\n  at starter.py:3 in add"
    assert run.reason.startswith("4 of 4 tests failed; first: test_add[cpu-1-2]: NotImplementedError")


@pytest.mark.slow
@pytest.mark.parametrize("case", sorted(CRASHES))
def test_crash_table(runner, toy: Drill, tmp_path: Path, case: str) -> None:
    source, status, words = CRASHES[case]
    started = time.monotonic()
    run = runner(toy, write_candidate(tmp_path, case, source), timeout_s=1.5)
    assert run.status == status, run
    assert words in run.reason or any(words in test.message for test in run.tests), run
    assert time.monotonic() - started < 15


def test_wrong_answer_shows_the_message_and_captured_output(runner, toy: Drill, tmp_path: Path) -> None:
    run = runner(toy, write_candidate(tmp_path, "wrong", CRASHES["wrong"][0]))
    first = run.tests[0]
    assert first.outcome == "failed" and first.message.startswith("AssertionError: add(1, 2) should be 3")
    assert first.output == "adding 1 2\n"
    assert run.as_json()["tests"][0] == {"name": "test_add[cpu-1-2]", "outcome": "failed", "message": first.message}


@pytest.mark.slow
def test_results_stream_and_a_run_can_be_cancelled(runner, toy: Drill, tmp_path: Path) -> None:
    seen = []
    run = runner(toy, toy.solution, on_test=seen.append)
    assert [test.name for test in seen] == [test.name for test in run.tests]
    cancel = threading.Event()
    threading.Timer(0.8, cancel.set).start()
    started = time.monotonic()
    run = runner(toy, write_candidate(tmp_path, "loop", CRASHES["infinite-loop"][0]), timeout_s=60, cancel=cancel)
    assert (run.status, run.reason) == ("error", "cancelled")
    assert time.monotonic() - started < 10


def test_the_runner_never_raises(toy: Drill, tmp_path: Path, worker: WarmWorker) -> None:
    assert run_tests(toy, tmp_path / "missing.py").reason == f"no such file: {tmp_path / 'missing.py'}"
    assert run_tests(toy, toy.solution, device="tpu").status == "error"
    toy.tests.unlink()
    run = run_tests(toy, toy.solution, worker=worker)
    assert run.status == "error" and "the runner failed: FileNotFoundError" in run.reason  # the tests are gone
    broken = toy.model_copy(update={"folder": tmp_path / "nowhere"})
    assert run_tests(broken, toy.solution, warm=False).status == "error"


@pytest.mark.slow
def test_memory_watchdog_for_cuda_runs(toy: Drill, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """cuda runs have no RLIMIT_AS (CUDA maps huge virtual memory): the supervisor watches RSS."""
    monkeypatch.setattr("drill.coding.runner.invocation.CUDA_RSS_ALLOWANCE_MB", 100)
    hog = write_candidate(
        tmp_path, "hog", "def add(a, b):\n    x = b'x' * (800 * 2**20)\n    import time\n    time.sleep(30)\n"
    )
    run = run_tests(toy, hog, device="cuda", warm=False, memory_mb=300, timeout_s=30, benchmark=False)
    assert run.status == "error" and "too much memory (the tests may use 300 MiB)" in run.reason, run


def test_the_address_space_cap_is_relative_and_only_tightens() -> None:
    code = (
        "from drill.coding.sandbox.limits import apply_memory_limit\n"
        "apply_memory_limit(200, 'cpu')\nx = bytearray(100 * 2**20)\n"
        "apply_memory_limit(4000, 'cpu')\n"
        "try:\n    bytearray(400 * 2**20)\nexcept MemoryError:\n    print('capped')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "capped", result.stderr


def test_supervise_kills_past_the_memory_limit() -> None:
    code = "x = b'x' * (600 * 2**20)\nimport time\ntime.sleep(30)\n"
    process = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    exit = supervise(process.pid, process.poll, 20, 150 * MiB, lambda: bool(time.sleep(0.01)))
    assert exit.over_memory and exit.returncode == -9


def test_fallback_to_cold_without_fork(monkeypatch: pytest.MonkeyPatch, toy: Drill) -> None:
    import drill.coding.runner.warm

    monkeypatch.setattr(drill.coding.runner.warm, "fork_available", lambda: False)
    unused = WarmWorker()
    assert run_tests(toy, toy.solution, worker=unused).status == "pass"
    assert unused._process is None


def test_cli_drill_in_a_wheel_layout_needs_no_pyproject(tmp_path: Path, toy: Drill) -> None:
    """The runner sets rootdir/confcutdir itself: a kernels folder with no pytest config still works."""
    assert not (toy.kernels_dir.parent / "pyproject.toml").exists()
    assert run_tests(toy, toy.solution, warm=False).status == "pass"
    assert not list(toy.folder.glob("__pycache__")), "runs must not write bytecode into the content"
