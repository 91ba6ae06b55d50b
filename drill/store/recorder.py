"""A single background writer, so the screen never waits on the disk and writes keep their order.

Each write is journalled (drill.store.journal) before it is tried when it has a journal entry,
and settled once it commits. A write that waits for the database (another drill holds the write
lock: drill.store.busy) is said to `on_waiting` after a second and tried again until it commits
or the recorder closes; a write that is only slow is not said; a write that fails otherwise is
reported to `on_failure` at once and again by `drain()`, which raises one WriteFailures naming
every write that failed since the last drain.

The writer thread is a daemon: closing waits a bounded time, and what is still open then stays
in the journal for the next start instead of holding the process.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, wait
from dataclasses import dataclass
from typing import Any, TypeVar

from drill.store.busy import waits_for_lock
from drill.store.failure import in_words
from drill.store.journal import Journal

T = TypeVar("T")
SLOW_WRITE_S = 1.0  # a write waiting this long for the write lock is said on screen
RETRY_PAUSE_S = 0.25


@dataclass(frozen=True)
class FailedWrite:
    """One write that did not commit: what it was and why, said in words on one line."""

    what: str
    error: BaseException

    def __str__(self) -> str:
        return f"{self.what}: {in_words(self.error)}"


class WriteFailures(Exception):
    """One or more writes did not commit; nothing of theirs is saved."""

    def __init__(self, failures: list[FailedWrite]) -> None:
        super().__init__("; ".join(str(failure) for failure in failures))
        self.failures = failures


@dataclass
class _Job:
    what: str
    write: Callable[..., object]
    args: tuple[object, ...]
    future: Future[Any]
    key: str | None  # its journal entry


@dataclass
class _Attempt:
    """The write being tried now: since when, and whether on_waiting was told."""

    what: str
    started: float
    said: bool = False


class Recorder:
    """Runs store writes one at a time, in the order they were given, off the UI thread."""

    def __init__(
        self,
        journal: Journal | None = None,
        waits: Callable[[BaseException], bool] = lambda _: False,
        on_failure: Callable[[FailedWrite], object] | None = None,
    ) -> None:
        self.journal = journal
        self.waits = waits  # whether an error means "the database is busy: try again"
        self.on_failure = on_failure
        self.on_waiting: Callable[[str], object] = lambda _what: None
        self._queue: queue.Queue[_Job | None] = queue.Queue()
        self._pending: list[tuple[str, Future[Any]]] = []
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._kept = 0
        self._attempting: _Attempt | None = None
        self._thread = threading.Thread(target=self._run, name="drill-writer", daemon=True)
        self._thread.start()
        threading.Thread(target=self._watch, name="drill-writer-watch", daemon=True).start()

    def submit(
        self, what: str, write: Callable[..., T], *args: object, journalled: tuple[str, object] | None = None
    ) -> Future[T]:
        """Queue `write(*args)`; `what` names it in words ("the grade of m-1"); `journalled` is its
        journal entry (operation name, JSON arguments), written before the write is tried."""
        key = None
        if journalled is not None and self.journal is not None:
            try:
                key = self.journal.add(*journalled)
            except OSError:  # a full disk: the write is still tried, only not journalled
                key = None
        future: Future[T] = Future()
        with self._lock:
            self._pending.append((what, future))
        self._queue.put(_Job(what, write, args, future, key))
        return future

    def _run(self) -> None:
        while (job := self._queue.get()) is not None:
            if not job.future.set_running_or_notify_cancel():
                continue
            if self._closing.is_set():  # closed while the database was busy: the journal keeps it
                self._keep(job)
                continue
            try:
                result = self._attempt(job)
            except _Closed:
                self._keep(job)
            except BaseException as error:  # noqa: BLE001 - every failure is reported, none kills the writer
                self._settle(job)
                job.future.set_exception(error)
                if self.on_failure is not None:
                    self.on_failure(FailedWrite(job.what, error))
            else:
                self._settle(job)
                job.future.set_result(result)

    def _keep(self, job: _Job) -> None:
        """Leave the write to the journal (the next start makes it); its future ends with no result."""
        with self._lock:
            self._kept += 1
        job.future.set_result(None)

    def _attempt(self, job: _Job) -> object:
        """The write, tried again while the database is busy; said to on_waiting once it is slow."""
        attempt = self._attempting = _Attempt(job.what, time.monotonic())
        try:
            while True:
                try:
                    return job.write(*job.args)
                except Exception as error:
                    if not self.waits(error):
                        raise
                    if self._closing.is_set():
                        raise _Closed(job.what) from error
                    self._say(attempt)
                    time.sleep(RETRY_PAUSE_S)
        finally:
            self._attempting = None

    def _watch(self) -> None:
        """The one watcher: says the write being tried once it has waited SLOW_WRITE_S for the
        write lock (a connection blocked inside SQLite's busy wait raises nothing to say it by)."""
        while not self._closing.wait(SLOW_WRITE_S / 4):
            attempt = self._attempting
            if (
                attempt is not None
                and time.monotonic() - attempt.started >= SLOW_WRITE_S
                and waits_for_lock(self._thread)
                and attempt is self._attempting  # not a write that ended meanwhile
            ):
                self._say(attempt)

    def _say(self, attempt: _Attempt) -> None:
        """Tell on_waiting that the attempt waits, once (the writer and the watcher may both see it)."""
        with self._lock:
            if attempt.said:
                return
            attempt.said = True
        self.on_waiting(attempt.what)

    def _settle(self, job: _Job) -> None:
        if job.key is None or self.journal is None:
            return
        # A full disk, or the journal closed on quit: the entry is replayed, which is harmless.
        with contextlib.suppress(OSError, ValueError):
            self.journal.settle(job.key)

    @property
    def waiting(self) -> int:
        """Writes handed over and not finished yet."""
        with self._lock:
            return sum(not future.done() for _, future in self._pending)

    def settle(self, timeout: float | None = None) -> list[FailedWrite]:
        """Wait (at most `timeout` seconds) until every write given so far has finished; the ones
        that failed since the last settle or drain. Writes still running stay pending."""
        with self._lock:
            pending = list(self._pending)
        wait([future for _, future in pending], timeout=timeout)
        with self._lock:
            self._pending = [(what, future) for what, future in self._pending if not future.done()]
        return [
            FailedWrite(what, error)
            for what, future in pending
            if future.done() and (error := future.exception()) is not None
        ]

    def drain(self) -> None:
        """Like settle, but raise WriteFailures naming every write that failed."""
        failures = self.settle()
        if failures:
            raise WriteFailures(failures)

    def close(self, timeout: float | None = None) -> int:
        """Stop taking writes; wait at most `timeout` seconds for those given; return how many are
        still not made (kept in the journal for the next start)."""
        self.settle(timeout)
        self._closing.set()
        self._queue.put(None)
        self._thread.join(RETRY_PAUSE_S * 4)
        with self._lock:
            return self._kept + sum(not future.done() for _, future in self._pending)


class _Closed(Exception):
    """A write given up because the recorder closed while the database was busy (it stays journalled)."""
