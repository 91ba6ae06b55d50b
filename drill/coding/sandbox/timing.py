"""Timing a drill's function, KernelBench-style: warm-up, then the median of several runs.

Runs inside the test process (torch is imported here only). CUDA runs use CUDA events;
CPU runs use time.perf_counter. speed_ratio = reference time / candidate time (> 1: faster).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable

WARMUP = 3
REPEATS = 15
BUDGET_S = 1.0


def median_seconds(fn: Callable[[], object], device: str, warmup: int = WARMUP, repeats: int = REPEATS,
                   budget_s: float = BUDGET_S) -> float:
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


def compare(benchmark_case: Callable, candidate: object, reference: object, device: str) -> dict[str, float]:
    """Time benchmark_case(module, device) for both modules on the same seeded inputs."""
    torch = sys.modules.get("torch")  # the test module imported it, if it uses it
    result = {}
    for name, module in (("reference_s", reference), ("candidate_s", candidate)):
        if torch is not None:
            torch.manual_seed(0)
        result[name] = median_seconds(benchmark_case(module, device), device)
    result["speed_ratio"] = result["reference_s"] / max(result["candidate_s"], 1e-12)
    return result
