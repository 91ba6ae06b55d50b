"""Timing a drill's function, KernelBench-style: warm-up, then the median of several runs.

Runs inside the test process (torch is imported here only). CUDA runs use CUDA events;
CPU runs use time.perf_counter. speed_ratio = reference time / candidate time (> 1: faster).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from typing import TypedDict

WARMUP = 3
REPEATS = 15
BUDGET_S = 1.0


def median_seconds(
    fn: Callable[[], object], device: str, warmup: int = WARMUP, repeats: int = REPEATS, budget_s: float = BUDGET_S
) -> float:
    """Median wall time of fn() in seconds, after `warmup` calls; stops early past `budget_s`."""
    cuda = device == "cuda"
    if cuda:
        import torch
    for _ in range(warmup):
        fn()
    if cuda:
        torch.cuda.synchronize()
    times: list[float] = []
    while len(times) < repeats:
        if cuda:
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) / 1000.0)
        else:
            begin = time.perf_counter()
            fn()
            times.append(time.perf_counter() - begin)
        if len(times) >= 3 and sum(times) > budget_s:
            break
    return statistics.median(times)


class Timing(TypedDict):
    """Seconds per call of each module, and reference time / candidate time."""

    reference_s: float
    candidate_s: float
    speed_ratio: float


def compare(
    benchmark_case: Callable[[object, str], Callable[[], object]], candidate: object, reference: object, device: str
) -> Timing:
    """Time benchmark_case(module, device) for both modules on the same seeded inputs."""
    torch = sys.modules.get("torch")  # the test module imported it, if it uses it

    def seconds(module: object) -> float:
        if torch is not None:
            torch.manual_seed(0)
        return median_seconds(benchmark_case(module, device), device)

    reference_s = seconds(reference)
    candidate_s = seconds(candidate)
    return {
        "reference_s": reference_s,
        "candidate_s": candidate_s,
        "speed_ratio": reference_s / max(candidate_s, 1e-12),
    }
