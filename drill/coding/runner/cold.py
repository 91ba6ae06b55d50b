"""The cold runner: `python -m drill.coding.sandbox.child` in a new session, the request on its stdin."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from drill.coding.processes import python_path
from drill.coding.runner.invocation import Invocation
from drill.coding.runner.result import Exit, TestResult, TestRun, interpret
from drill.coding.runner.supervise import ReportTail, supervise
from drill.coding.sandbox.child import Mode
from drill.coding.signed import ReportEvent

OUTPUT_TAIL = 4000


def judge(inv: Invocation, tail: ReportTail, exit: Exit, seconds: float) -> TestRun:
    """Judge the run from what the supervisor read of the signed report and saw of the process."""
    tail.poll()
    try:
        output = inv.output.read_bytes()[-OUTPUT_TAIL:].decode("utf-8", errors="replace")
    except OSError:
        output = ""
    return interpret(
        tail.verifier.events,
        exit,
        seconds=seconds,
        timeout_s=inv.timeout_s,
        memory_mb=inv.memory_mb,
        device=inv.device,
        output=output,
        tampered=tail.verifier.tampered,
    )


def add_timing(run: TestRun, inv: Invocation, start: Callable[[Invocation, ReportTail], Exit]) -> None:
    """After a pass, time the candidate against the reference in a second contained process."""
    if run.status != "pass" or not inv.benchmark:
        return
    timed = inv.for_timing()
    tail = ReportTail(timed.report, timed.key, None)
    start(timed, tail)
    tail.poll()
    timing = next((event for event in tail.verifier.events if event.get("event") == "timing"), ReportEvent())
    run.speed_ratio, run.candidate_s = timing.get("speed_ratio"), timing.get("candidate_s")
    run.reference_s = timing.get("reference_s")


def _spawn(inv: Invocation, tail: ReportTail, mode: Mode, cancel: threading.Event | None) -> Exit:
    def tick() -> bool:
        time.sleep(0.01)
        tail.poll()
        return cancel is not None and cancel.is_set()

    env = {**os.environ, "PYTHONPATH": python_path()}
    process = subprocess.Popen(
        [sys.executable, "-m", "drill.coding.sandbox.child"],
        cwd=inv.scratch,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    assert process.stdin is not None  # stdin=PIPE
    try:
        process.stdin.write((json.dumps(inv.request(mode)) + "\n").encode())
        process.stdin.close()
    except OSError:
        pass  # it died at once: the supervisor sees how
    return supervise(process.pid, process.poll, inv.timeout_s, inv.rss_limit, tick)


def run_cold(
    inv: Invocation, on_test: Callable[[TestResult], None] | None = None, cancel: threading.Event | None = None
) -> TestRun:
    """Run the invocation in a fresh interpreter; every process it starts dies with the run."""
    start = time.monotonic()
    tail = ReportTail(inv.report, inv.key, on_test)
    exit = _spawn(inv, tail, "test", cancel)
    run = judge(inv, tail, exit, time.monotonic() - start)
    add_timing(run, inv, lambda timed, timed_tail: _spawn(timed, timed_tail, "time", None))
    inv.cleanup()
    return run
