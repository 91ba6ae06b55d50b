"""Coding-drill run latency, printed as JSON: cold pytest vs a rerun on the warm worker, or
(--tui) the app's drill screen against `drill kernel test`.

    python benchmarks/bench_coding.py [--runs N] [--drills a,b,c]
    python benchmarks/bench_coding.py --tui [--runs N] [--drills triton-vector-add]

For each drill (the reference solution, on cpu), the median of N runs of:
  plain_pytest_s   `python -m pytest kernels/<id>/` as a user would type it (no drill plugin)
  cold_s           drill's cold runner: a fresh `python -m drill.coding.sandbox.child` (private copies,
                   namespaces where the kernel gives them, the signed report)
  warm_s           a rerun on the warm worker (torch already imported; one fork per run)
  warm_fallback_s  the same without namespaces (DRILL_SANDBOX=off: subreaper and audit hook)
  ratio            cold_s / warm_s                                    target: warm ≤ 1 s

With --tui, the same reference file in the same run, the median of N of:
  cli_s            `drill kernel test <id> --solution <file>` as a process, start to exit
  tui_s            the drill screen under Pilot (its warm worker already started): from `t`
                   until the verdict is on screen (the results widget drawn, not only its source)
  tui_ratio        tui_s / cli_s                                 target: ≤ 1.1 (within noise)
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


def _cli_run(drill, home: Path) -> None:
    command = [sys.executable, "-m", "drill", "kernel", "test", drill.id, "--solution", str(drill.solution)]
    done = subprocess.run(command, env={**os.environ, "DRILL_HOME": str(home)}, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout.startswith("PASS"), done.stdout + done.stderr


def _drawn(markdown) -> str:
    """What a Markdown widget shows now: its drawn paragraphs' text ('' while hidden)."""
    from textual.widgets._markdown import MarkdownParagraph

    return (
        " ".join(str(paragraph.render()) for paragraph in markdown.query(MarkdownParagraph)) if markdown.display else ""
    )


async def _tui_runs(drill, home: Path, runs: int) -> list[float]:
    """Seconds from `t` to the verdict drawn on the drill screen, for `runs` runs after a warm-up."""
    import shutil

    from textual.widgets import Markdown

    from drill.paths import Paths
    from drill.tui.app import DrillApp
    from drill.tui.screens.drill_attempt import DrillScreen
    from drill.tui.screens.drills import DrillListScreen

    app = DrillApp(Paths(home))
    times: list[float] = []
    async with app.run_test(size=(100, 40)) as pilot:

        async def until(condition, timeout: float = 300.0) -> None:
            end = time.perf_counter() + timeout
            while not condition():
                assert time.perf_counter() < end, "the app never got there"
                await pilot.pause(0.005)

        await until(lambda: app.study is not None and app.home_screen.has_class("ready"))
        await pilot.press("k")  # the drills list, as a user starts one
        await until(lambda: isinstance(app.screen, DrillListScreen))
        app.screen.start(drill.id)
        await until(lambda: isinstance(app.screen, DrillScreen) and bool(app.screen.query("#drill-results")))
        screen = app.screen
        shutil.copy(drill.solution, screen.workspace.solution)
        results = screen.query_one("#drill-results", Markdown)
        for run in range(runs + 1):  # the first run waits for the worker to start: not measured
            start = time.perf_counter()
            await pilot.press("t")
            await until(lambda: not screen.running and "tests passed" in _drawn(results))
            if run:
                times.append(time.perf_counter() - start)
            screen.finished = None  # passed: run the same attempt again
            results.update("")
            await until(lambda: "tests passed" not in _drawn(results))
    return times


def tui_main(drill_ids: list[str], runs: int) -> None:
    import asyncio
    import tempfile

    results = {}
    for drill_id in drill_ids:
        drill = find_drill(ROOT / "kernels", drill_id)
        with tempfile.TemporaryDirectory() as home:
            _cli_run(drill, Path(home))  # warm the disk cache as the app's worker does
            row = {"cli_s": _median(partial(_cli_run, drill, Path(home)), runs)}
            row["tui_s"] = round(statistics.median(asyncio.run(_tui_runs(drill, Path(home), runs))), 3)
        row["tui_ratio"] = round(row["tui_s"] / row["cli_s"], 2)
        results[drill_id] = row
    print(json.dumps({"runs": runs, "cpu_count": os.cpu_count(), "drills": results}, indent=2))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--drills", default=None)
    parser.add_argument("--tui", action="store_true", help="the drill screen against `drill kernel test`")
    args = parser.parse_args()
    if args.tui:
        tui_main((args.drills or "triton-vector-add").split(","), args.runs)
        return
    args.drills = args.drills or SMALL_DRILLS
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
