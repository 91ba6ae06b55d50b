"""Measuring what a call costs, for tests that bound it."""

from __future__ import annotations

import tracemalloc
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def with_peak_memory(call: Callable[[], T]) -> tuple[T, int]:
    """`call()`'s result and the most memory Python held for it at once (tracemalloc), in bytes."""
    tracemalloc.start()
    try:
        result = call()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
