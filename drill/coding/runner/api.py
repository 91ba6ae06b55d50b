"""The one call the app makes to judge a candidate: run_tests(drill, candidate, device, ...)."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from drill.coding.drills import Drill
from drill.coding.runner.invocation import DEFAULT_GPU_MEMORY_MB, DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S
from drill.coding.runner.result import TestResult, TestRun, error_run

if TYPE_CHECKING:
    from drill.coding.runner.warm import WarmWorker

DEVICES = ("cpu", "cuda")


def run_tests(
    drill: Drill,
    candidate: Path,
    device: str = "cpu",
    timeout_s: float = DEFAULT_TIMEOUT_S,
    warm: bool = True,
    *,
    benchmark: bool | None = None,
    memory_mb: int = DEFAULT_MEMORY_MB,
    gpu_memory_mb: int = DEFAULT_GPU_MEMORY_MB,
    maxfail: int | None = None,
    on_test: Callable[[TestResult], None] | None = None,
    cancel: threading.Event | None = None,
    worker: WarmWorker | None = None,
) -> TestRun:
    """Run `drill`'s hidden tests against the file `candidate` on `device`; never raises.

    warm: use the warm worker (`worker`, else the shared default one) when fork is available.
    benchmark: time candidate vs reference after a pass (default: on cuda only).
    on_test: called from this thread with each TestResult as soon as it is known.
    cancel: set it from another thread to stop the run (it ends as an "error", "cancelled").
    A run this Python cannot do (pytest or torch missing: checked first, without importing them;
    or the runner failing) comes back with `environment` set and the fixing command as reason.
    """
    start = time.monotonic()
    try:
        candidate = Path(candidate)
        if device not in DEVICES:
            return error_run(f"unknown device {device!r} (use cpu or cuda)", device)
        if not candidate.is_file():
            return error_run(f"no such file: {candidate}", device)
        from drill.coding.runner.environment import describe, missing_requirements

        if missing := missing_requirements(drill):  # before any process starts: find_spec only
            return error_run(describe(missing), device, environment=True)
        from drill.coding.runner.invocation import prepare

        inv = prepare(
            drill,
            candidate,
            device,
            timeout_s=timeout_s,
            memory_mb=memory_mb,
            gpu_memory_mb=gpu_memory_mb,
            benchmark=device == "cuda" if benchmark is None else benchmark,
            maxfail=maxfail,
        )
        from drill.coding.runner.warm import default_worker, fork_available

        if warm and fork_available():
            return (worker or default_worker()).run(inv, on_test, cancel)
        from drill.coding.runner.cold import run_cold

        return run_cold(inv, on_test, cancel)
    except Exception as error:  # noqa: BLE001 - the app must stay up whatever happens here
        return error_run(
            f"the runner failed: {type(error).__name__}: {error}", device, time.monotonic() - start, environment=True
        )


def prewarm() -> None:
    """Start the shared warm worker in the background (e.g. when the drill screen opens)."""
    from drill.coding.runner.warm import default_worker, fork_available

    if fork_available():
        default_worker().start()
