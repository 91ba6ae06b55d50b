"""Watching a test process: wall-clock deadline, memory watchdog, cancel, streamed results.

Used by the cold runner (on a Popen) and by the warm worker (on a forked child). The test
process leads its own process group, so a kill takes every process it started with it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

from drill.coding.limits import kill_group, rss_bytes
from drill.coding.result import Exit, TestResult

MEMORY_CHECK_S = 0.05


def supervise(pid: int, poll: Callable[[], int | None], timeout_s: float, rss_limit: int | None,
              tick: Callable[[], bool]) -> Exit:
    """Wait for `pid` (poll() returns its exit code, negative for a signal, or None).

    tick() waits a little and returns True to cancel. Past the deadline, past `rss_limit`
    resident bytes, or on cancel, the whole process group is killed. It is killed at the end
    in any case, so nothing the candidate started outlives the run.
    """
    deadline = time.monotonic() + timeout_s
    next_memory_check = 0.0
    reason: dict[str, bool] = {}
    while (code := poll()) is None:
        now = time.monotonic()
        if now > deadline:
            reason["timed_out"] = True
        elif rss_limit and now >= next_memory_check:
            next_memory_check = now + MEMORY_CHECK_S
            if (rss_bytes(pid) or 0) > rss_limit:
                reason["over_memory"] = True
        if not reason and tick():
            reason["cancelled"] = True
        if reason:
            kill_group(pid)
            while (code := poll()) is None:
                time.sleep(0.005)
            break
    kill_group(pid)
    return Exit(code, **reason)


class ReportTail:
    """Reads the report file as it grows and hands each finished test to a callback."""

    def __init__(self, path: Path, on_test: Callable[[TestResult], None] | None) -> None:
        self.path, self.on_test = path, on_test
        self.offset, self.partial = 0, b""

    def poll(self) -> None:
        if self.on_test is None:
            return
        import json

        try:
            with open(self.path, "rb") as report:
                report.seek(self.offset)
                chunk = report.read()
        except OSError:
            return
        self.offset += len(chunk)
        *lines, self.partial = (self.partial + chunk).split(b"\n")
        for line in lines:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") == "result":
                try:
                    self.on_test(TestResult.from_event(event))
                except Exception:  # a broken callback must not stop the run
                    pass
