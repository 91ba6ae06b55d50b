"""Timing: warm-up, median of several runs, speed ratio = reference time / candidate time."""

from __future__ import annotations

import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from helpers.coding_toys import write_toy_kernels

from drill.coding.drills import find_drill
from drill.coding.runner.api import run_tests
from drill.coding.sandbox.timing import compare, median_seconds


def test_median_seconds_warms_up_and_stops_at_its_budget() -> None:
    calls = []

    def fn() -> None:
        calls.append(1)
        time.sleep(0.01)

    median = median_seconds(fn, "cpu", warmup=2, repeats=50, budget_s=0.05)
    assert 0.009 < median < 0.05
    assert 2 + 3 <= len(calls) < 20


def test_compare_reports_reference_over_candidate() -> None:
    def case(module, device):
        return lambda: time.sleep(module.delay)

    # sleeps long enough that a busy machine's scheduling jitter (a few ms) cannot swamp their 2:1 ratio
    result = compare(case, SimpleNamespace(delay=0.02), SimpleNamespace(delay=0.01), "cpu")
    assert 0.3 < result["speed_ratio"] < 0.8
    assert result["candidate_s"] > result["reference_s"]


@pytest.mark.slow
def test_a_passing_run_is_timed_when_asked(tmp_path: Path) -> None:
    drill = find_drill(write_toy_kernels(tmp_path), "toy-add")
    timed = run_tests(drill, drill.solution, warm=False, benchmark=True)
    assert timed.status == "pass" and timed.speed_ratio is not None and timed.candidate_s > 0
    assert run_tests(drill, drill.solution, warm=False).speed_ratio is None
    assert run_tests(drill, drill.starter, warm=False, benchmark=True).speed_ratio is None
