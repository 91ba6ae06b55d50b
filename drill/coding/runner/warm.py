"""The client side of the warm worker: start it on demand, send runs, restart it if it dies.

A rerun then costs a fork and the tests, not a fresh interpreter importing torch. When the
worker cannot be used (no fork, it keeps dying) the run falls back to the cold runner.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable

from drill.coding.processes import PACKAGE_PARENT, kill_tree, python_path
from drill.coding.runner.cold import add_timing, judge, run_cold
from drill.coding.runner.invocation import Invocation
from drill.coding.runner.pipe import Answer, Cancel, Lines, WorkerRun
from drill.coding.runner.result import Exit, TestResult, TestRun
from drill.coding.runner.supervise import ReportTail
from drill.coding.sandbox.child import Mode

STARTUP_S = 120.0  # importing torch on a cold, slow disk
GRACE_S = 5.0  # the worker enforces the timeout; this is the client's backstop


class WorkerGone(Exception):
    """The worker process ended or stopped answering."""


def fork_available() -> bool:
    return hasattr(os, "fork") and sys.platform.startswith("linux")


class WarmWorker:
    """One worker process; runs are serialised by a lock, so threads may share it."""

    def __init__(self) -> None:
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: Lines | None = None
        self._lock = threading.Lock()
        self._ids = 0
        self.restarts = 0

    def start(self) -> None:
        """Start the worker now (it imports torch in the background); returns at once."""
        with self._lock:
            self._ensure()

    def _ensure(self) -> subprocess.Popen[bytes]:
        if self._process is not None and self._process.poll() is None:
            return self._process
        if self._process is not None:
            self.restarts += 1
        self._process = subprocess.Popen(
            [sys.executable, "-m", "drill.coding.runner.worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": python_path()},
            start_new_session=True,
            cwd=PACKAGE_PARENT,
        )
        assert self._process.stdout is not None  # stdout=PIPE
        self._lines = Lines(self._process.stdout.fileno())
        return self._process

    def close(self) -> None:
        """End the worker: closing its stdin makes it kill any running child and exit."""
        with self._lock:
            self._stop(gently=True)

    def _stop(self, gently: bool = False) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None and process.stdout is not None  # both are pipes (_ensure)
        try:
            if gently:
                process.stdin.close()
                process.wait(timeout=2)
        except (OSError, subprocess.TimeoutExpired):
            pass
        if process.poll() is None:
            kill_tree(process.pid)
            process.wait()
        for stream in (process.stdin, process.stdout):
            with contextlib.suppress(OSError):
                stream.close()

    def run(
        self,
        inv: Invocation,
        on_test: Callable[[TestResult], None] | None = None,
        cancel: threading.Event | None = None,
    ) -> TestRun:
        """Run one invocation; a dead worker is restarted once, then the cold runner takes over."""
        with self._lock:
            start = time.monotonic()
            for _attempt in range(2):
                tail = ReportTail(inv.report, inv.key, on_test)
                try:
                    exit = self._run_once(inv, tail, "test", cancel)
                except WorkerGone:
                    self._stop()
                    inv.report.unlink(missing_ok=True)
                    continue
                run = judge(inv, tail, exit, time.monotonic() - start)
                add_timing(run, inv, self._timed)
                inv.cleanup()
                return run
        return run_cold(inv, on_test, cancel)

    def _timed(self, inv: Invocation, tail: ReportTail) -> Exit:
        try:
            return self._run_once(inv, tail, "time", None)
        except WorkerGone:
            self._stop()
            return Exit(None)

    def _run_once(self, inv: Invocation, tail: ReportTail, mode: Mode, cancel: threading.Event | None) -> Exit:
        process = self._ensure()
        self._ids += 1
        self._send(process, {**inv.request(mode), "id": self._ids})
        child: int | None = None
        deadline = time.monotonic() + STARTUP_S
        cancel_sent = False
        while True:
            message = self._read(timeout=0.01)
            if message is not None and message.get("id") == self._ids:
                if message["event"] == "started":
                    child = message["pid"]
                    deadline = time.monotonic() + inv.timeout_s + GRACE_S
                elif message["event"] == "done":
                    return Exit(
                        message["returncode"], message["timed_out"], message["over_memory"], message["cancelled"]
                    )
            tail.poll()
            if cancel is not None and cancel.is_set() and not cancel_sent:
                self._send(process, {"op": "cancel"})
                cancel_sent = True
            if time.monotonic() > deadline:
                if child is None:
                    raise WorkerGone("the worker did not start in time")
                kill_tree(child)
                self._stop()
                return Exit(None, timed_out=True)

    def _send(self, process: subprocess.Popen[bytes], message: WorkerRun | Cancel) -> None:
        assert process.stdin is not None  # stdin=PIPE (_ensure)
        try:
            process.stdin.write((json.dumps(message) + "\n").encode())
            process.stdin.flush()
        except (OSError, ValueError):
            raise WorkerGone("the worker's stdin is closed") from None

    def _read(self, timeout: float) -> Answer | None:
        """The worker's next message, None when none came within `timeout` seconds."""
        line = self._lines.next(timeout) if self._lines is not None else None
        if line is None:
            raise WorkerGone("the worker exited")
        return json.loads(line) if line.strip() else None


_default: WarmWorker | None = None
_default_lock = threading.Lock()


def default_worker() -> WarmWorker:
    """The process-wide worker the app shares (created on first use, closed at exit)."""
    global _default
    with _default_lock:
        if _default is None:
            _default = WarmWorker()
            atexit.register(_default.close)
        return _default
