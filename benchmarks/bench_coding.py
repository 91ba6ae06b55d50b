"""Coding-drill run latency, printed as JSON: cold pytest vs a rerun on the warm worker.

    python benchmarks/bench_coding.py [--runs N] [--drills a,b,c]

For each drill (the reference solution, on cpu), the median of N runs of:
  plain_pytest_s   `python -m pytest kernels/<id>/` as a user would type it (no drill plugin)
  cold_s           drill's cold runner: a fresh `python -m drill.coding.sandbox.child` (private copies,
                   namespaces where the kernel gives them, the signed report)
  warm_s           a rerun on the warm worker (torch already imported; one fork per run)
  warm_fallback_s  the same without namespaces (DRILL_SANDBOX=off: subreaper and audit hook)
  ratio            cold_s / warm_s                                    target: warm ≤ 1 s
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drill.coding.drills import find_drill  # noqa: E402
from drill.coding.runner.api import run_tests  # noqa: E402
from drill.coding.runner.warm import WarmWorker  # noqa: E402

SMALL_DRILLS = "quantize-per-channel,dpo-loss,online-softmax"


def _median(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return round(statistics.median(times), 3)


def _plain_pytest(drill) -> None:
    env = {**os.environ, "PYTEST_ADDOPTS": ""}
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(drill.folder)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        check=True,
    )


def _checked(drill, **options) -> None:
    run = run_tests(drill, drill.solution, "cpu", **options)
    assert run.status == "pass", run.reason


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--drills", default=SMALL_DRILLS)
    args = parser.parse_args()
    worker = WarmWorker()
    results = {}
    try:
        for drill_id in args.drills.split(","):
            drill = find_drill(ROOT / "kernels", drill_id)
            _checked(drill, worker=worker)  # the first run starts the worker; reruns are what we measure
            row = {
                "plain_pytest_s": _median(partial(_plain_pytest, drill), args.runs),
                "cold_s": _median(partial(_checked, drill, warm=False), args.runs),
                "warm_s": _median(partial(_checked, drill, worker=worker), args.runs),
            }
            os.environ["DRILL_SANDBOX"] = "off"
            row["warm_fallback_s"] = _median(partial(_checked, drill, worker=worker), args.runs)
            del os.environ["DRILL_SANDBOX"]
            row["ratio"] = round(row["cold_s"] / row["warm_s"], 1)
            row["plain_ratio"] = round(row["plain_pytest_s"] / row["warm_s"], 1)
            results[drill_id] = row
    finally:
        worker.close()
    worst = max(row["warm_s"] for row in results.values())
    print(
        json.dumps(
            {
                "runs": args.runs,
                "cpu_count": os.cpu_count(),
                "drills": results,
                "warm_max_s": worst,
                "warm_under_1s": worst <= 1.0,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
