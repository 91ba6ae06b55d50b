"""A single background writer, so the screen never waits on the disk and writes keep their order."""

from __future__ import annotations

from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")


class Recorder:
    """Runs store writes one at a time, in the order they were given, off the UI thread."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drill-writer")
        self._last: Future | None = None

    def submit(self, write: Callable[..., T], *args: object) -> Future[T]:
        self._last = self._pool.submit(write, *args)
        return self._last

    def drain(self) -> None:
        """Wait until every write given so far is committed (re-raising the last failure)."""
        if self._last is not None:
            self._last.result()

    def close(self) -> None:
        self._pool.shutdown(wait=True)
