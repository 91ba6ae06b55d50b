"""The cold runner: `python -m pytest <hidden tests> -p drill.coding.plugin` in a new session."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from drill.coding.invocation import Invocation
from drill.coding.result import Exit, TestResult, TestRun, interpret, read_events
from drill.coding.supervise import ReportTail, supervise

OUTPUT_TAIL = 4000


def finish(inv: Invocation, exit: Exit, seconds: float) -> TestRun:
    """Read what the run left in its scratch folder, judge it, and remove the folder."""
    try:
        output = inv.output.read_bytes()[-OUTPUT_TAIL:].decode("utf-8", errors="replace")
    except OSError:
        output = ""
    run = interpret(read_events(inv.report), exit, seconds=seconds, timeout_s=inv.timeout_s,
                    memory_mb=inv.memory_mb, device=inv.device, output=output)
    inv.cleanup()
    return run


def run_cold(inv: Invocation, on_test: Callable[[TestResult], None] | None = None,
             cancel: threading.Event | None = None) -> TestRun:
    """Run the invocation in a fresh interpreter; the process group dies with the run."""
    start = time.monotonic()
    tail = ReportTail(inv.report, on_test)

    def tick() -> bool:
        time.sleep(0.01)
        tail.poll()
        return cancel is not None and cancel.is_set()

    with open(inv.output, "wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "pytest", *inv.pytest_args()], cwd=inv.scratch, env={**os.environ, **inv.env()},
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    exit = supervise(process.pid, process.poll, inv.timeout_s, inv.rss_limit, tick)
    tail.poll()
    return finish(inv, exit, time.monotonic() - start)
