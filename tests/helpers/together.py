"""Run several calls at the same instant on threads (a barrier releases them together)."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def at_once(calls: list[Callable[[], T]]) -> tuple[list[T], list[BaseException]]:
    """Every call's result (in finishing order) and every exception raised, after all have ended."""
    start = threading.Barrier(len(calls))
    results: list[T] = []
    errors: list[BaseException] = []

    def run(call: Callable[[], T]) -> None:
        start.wait()
        try:
            results.append(call())
        except Exception as error:  # noqa: BLE001  (returned to the test, which asserts on it)
            errors.append(error)

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results, errors
