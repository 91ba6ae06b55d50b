"""Watching a test process: wall-clock deadline, memory watchdog, cancel, streamed results.

Used by the cold runner (on a Popen) and by the warm worker (on a forked child). A kill takes
the whole process tree the run started, whatever group or session its processes moved to, and
the memory limit counts that whole tree.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from pathlib import Path

from drill.coding.processes import kill_tree, tree_rss
from drill.coding.runner.result import Exit, TestResult
from drill.coding.signed import Verifier

MEMORY_CHECK_S = 0.1


def supervise(
    pid: int, poll: Callable[[], int | None], timeout_s: float, rss_limit: int | None, tick: Callable[[], bool]
) -> Exit:
    """Wait for `pid` (poll() returns its exit code, negative for a signal, or None).

    tick() waits a little and returns True to cancel. Past the deadline, past `rss_limit`
    resident bytes (the tree's), or on cancel, the whole tree is killed. What is left of the
    process group is killed at the end in any case.
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
            if tree_rss(pid) > rss_limit:
                reason["over_memory"] = True
        if not reason and tick():
            reason["cancelled"] = True
        if reason:
            kill_tree(pid)
            while (code := poll()) is None:
                time.sleep(0.005)
            break
    kill_tree(pid)
    return Exit(code, **reason)


class ReportTail:
    """Reads the signed report as it grows and hands each finished test to a callback."""

    def __init__(self, path: Path, key: str, on_test: Callable[[TestResult], None] | None) -> None:
        self.path, self.on_test = path, on_test
        self.verifier = Verifier(key)
        self.offset = 0

    def poll(self) -> None:
        """Read what was added since the last poll."""
        try:
            with open(self.path, "rb") as report:
                report.seek(self.offset)
                chunk = report.read()
        except OSError:
            return
        self.offset += len(chunk)
        for event in self.verifier.feed(chunk):
            if event.get("event") == "result" and self.on_test is not None:
                with contextlib.suppress(Exception):  # a broken callback must not stop the run
                    self.on_test(TestResult.from_event(event))
