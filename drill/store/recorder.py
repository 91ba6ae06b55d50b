"""A single background writer, so the screen never waits on the disk and writes keep their order.

Every failed write is reported the moment it fails (to the `on_failure` callback) and again by
`drain()`, which raises one WriteFailures naming every write that failed since the last drain.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")


@dataclass(frozen=True)
class FailedWrite:
    """One write that did not commit: what it was (in words) and why."""

    what: str
    error: BaseException

    def __str__(self) -> str:
        return f"{self.what}: {self.error}"


class WriteFailures(Exception):
    """One or more writes did not commit; nothing of theirs is saved."""

    def __init__(self, failures: list[FailedWrite]) -> None:
        super().__init__("; ".join(str(failure) for failure in failures))
        self.failures = failures


class Recorder:
    """Runs store writes one at a time, in the order they were given, off the UI thread."""

    def __init__(self, on_failure: Callable[[FailedWrite], None] | None = None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drill-writer")
        self._pending: list[tuple[str, Future]] = []
        self._lock = threading.Lock()
        self.on_failure = on_failure

    def submit(self, what: str, write: Callable[..., T], *args: object) -> Future[T]:
        """Queue `write(*args)`; `what` names it in words if it fails ("the grade of m-1")."""
        future = self._pool.submit(write, *args)
        with self._lock:
            self._pending.append((what, future))
        future.add_done_callback(lambda done: self._settled(what, done))
        return future

    def _settled(self, what: str, future: Future) -> None:
        error = future.exception()
        if error is not None and self.on_failure is not None:
            self.on_failure(FailedWrite(what, error))

    def settle(self) -> list[FailedWrite]:
        """Wait until every write given so far has finished; the ones that failed since the
        last settle or drain."""
        with self._lock:
            pending, self._pending = self._pending, []
        wait([future for _, future in pending])
        return [FailedWrite(what, future.exception()) for what, future in pending if future.exception()]

    def drain(self) -> None:
        """Like settle, but raise WriteFailures naming every write that failed."""
        failures = self.settle()
        if failures:
            raise WriteFailures(failures)

    def close(self) -> None:
        self._pool.shutdown(wait=True)
