"""The warm worker on real drills: fast reruns, restarts, limits, timing; cuda when present."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from helpers.coding_toys import write_candidate

from drill.coding.drills import find_drill
from drill.coding.runner.api import run_tests
from drill.coding.runner.warm import WarmWorker
from drill.paths import Paths

KERNELS = Paths.resolve().kernels


@pytest.fixture(scope="module")
def worker():
    warm = WarmWorker()
    warm.start()
    yield warm
    warm.close()


@pytest.fixture
def drill():
    return find_drill(KERNELS, "quantize-per-channel")


@pytest.mark.slow
def test_reruns_are_served_by_the_same_warm_process(worker: WarmWorker, drill) -> None:
    """Speed is measured by benchmarks/bench_coding.py; here: one worker, forked per run, no restart."""
    assert run_tests(drill, drill.solution, worker=worker).status == "pass"
    process = worker._process
    first = run_tests(drill, drill.solution, worker=worker)
    run = run_tests(drill, drill.solution, worker=worker)
    assert run.status == "pass" and run.passed == first.passed > 0
    assert worker._process is process and process.poll() is None and worker.restarts == 0


@pytest.mark.slow
def test_a_fifty_gigabyte_tensor_fails_cleanly(worker: WarmWorker, drill, tmp_path: Path) -> None:
    source = (
        "import torch\n"
        "def quantize_per_channel(w, bits=8):\n"
        "    return torch.ones(50 * 2**30, dtype=torch.uint8), None\n"
    )
    run = run_tests(drill, write_candidate(tmp_path, "huge", source), worker=worker)
    assert run.status == "fail" and "can't allocate memory" in run.tests[0].message
    assert run.reason.endswith("(the tests may allocate 4096 MiB)")


@pytest.mark.slow
def test_a_dead_worker_is_restarted_transparently(drill) -> None:
    warm = WarmWorker()
    try:
        assert run_tests(drill, drill.starter, worker=warm, maxfail=1).status == "fail"
        warm._process.kill()
        warm._process.wait()
        run = run_tests(drill, drill.solution, worker=warm)
        assert run.status == "pass" and warm.restarts == 1
    finally:
        warm.close()
    assert warm._process is None


@pytest.mark.slow
def test_cpu_timing_against_the_reference(worker: WarmWorker, drill) -> None:
    run = run_tests(drill, drill.solution, worker=worker, benchmark=True)
    assert run.status == "pass"
    assert run.candidate_s > 0 and run.reference_s > 0
    # KernelBench-style: reference time over candidate time (no bound: a shared CPU is noisy)
    assert run.speed_ratio == pytest.approx(run.reference_s / run.candidate_s, rel=1e-6)


@pytest.mark.slow
def test_the_cold_runner_agrees(worker: WarmWorker, drill) -> None:
    cold = run_tests(drill, drill.starter, warm=False)
    warm = run_tests(drill, drill.starter, worker=worker)
    assert (
        (cold.status, cold.passed, cold.failed) == (warm.status, warm.passed, warm.failed) == ("fail", 0, warm.failed)
    )
    assert warm.failed > 0


def _has_gpu() -> bool:
    if not os.path.exists("/dev/nvidiactl"):
        return False
    from drill.coding.verify import cuda_available

    return cuda_available()


needs_cuda = pytest.mark.skipif(not _has_gpu(), reason="no CUDA GPU here")


@needs_cuda
def test_cuda_run_reports_a_speed_ratio(worker: WarmWorker, drill) -> None:
    run = run_tests(drill, drill.solution, device="cuda", worker=worker)
    assert run.status == "pass" and run.device == "cuda"
    assert run.speed_ratio is not None and 0.2 < run.speed_ratio < 5, run


@needs_cuda
def test_a_fifty_gigabyte_cuda_tensor_fails_cleanly(worker: WarmWorker, drill, tmp_path: Path) -> None:
    source = (
        "import torch\ndef quantize_per_channel(w, bits=8):\n"
        "    return torch.ones(50 * 2**30, dtype=torch.uint8, device=w.device), None\n"
    )
    run = run_tests(drill, write_candidate(tmp_path, "huge", source), device="cuda", worker=worker)
    assert run.status == "fail" and "out of memory" in run.tests[0].message, run


SWEEP = """
import os, time
from drill.coding.runner import worker
from drill.coding.sandbox.contain import become_subreaper
become_subreaper()
for _ in range(20):
    if os.fork() == 0:
        time.sleep(300)
        os._exit(0)
worker._sweep()
try:
    os.waitpid(-1, os.WNOHANG)
except ChildProcessError:
    print("none left")
else:
    print("a child is left, dead or alive")
"""


def test_the_sweep_leaves_no_orphan_not_even_a_zombie() -> None:
    """A SIGKILL lands a moment after it is sent: the sweep waits for the deaths it caused, so a
    run's orphans are gone (and reaped) when the worker answers that the run is done."""
    import subprocess
    import sys

    from drill.coding.processes import python_path

    done = subprocess.run(
        [sys.executable, "-c", SWEEP],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "PYTHONPATH": python_path()},
    )
    assert done.stdout.strip() == "none left", done.stderr
