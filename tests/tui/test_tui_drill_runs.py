"""Runs on the drill screen (issue 24, items 4 and 5): a line of counts that never overshoots while
a run goes on, the list drawn once with the verdict, the header agreeing with what is drawn; `x`
cancels a run; a run asked for during another runs after it; a run with no verdict on the code
(cancelled, or stopped at the time limit) is off the drill's clock."""

import threading
import time
from pathlib import Path

import pytest
from helpers.markdown import drawn
from helpers.pilot import db_rows, wait_until
from helpers.screens import open_drill
from helpers.stopwatch import stopwatch  # noqa: F401 - a fixture
from textual.widgets import Markdown, Static

from drill.coding.runner.result import TestResult, TestRun
from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.drill_attempt import DrillScreen


@pytest.fixture
def app(drill_home, clock, monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    monkeypatch.delenv("VISUAL", raising=False)
    return DrillApp(Paths(drill_home), clock=clock)


class FakeRunner:
    """run_tests in place of the real one: reports `tests`, then waits for `release` or the cancel
    (30 s at most)."""

    def __init__(self, tests: list[TestResult], verdict: TestRun) -> None:
        self.tests, self.verdict = tests, verdict
        self.release = threading.Event()
        self.texts: list[str] = []

    def __call__(self, drill, candidate: Path, device="cpu", *, on_test=None, cancel=None, **options) -> TestRun:
        self.texts.append(candidate.read_text())
        for test in self.tests:
            on_test(test)
        end = time.monotonic() + 30  # a test that failed early never leaves the app waiting on its run
        while not self.release.wait(0.01) and time.monotonic() < end:
            if cancel is not None and cancel.is_set():
                return TestRun("error", 0, 0, reason="cancelled")
        return self.verdict


def status(screen: DrillScreen) -> str:
    return str(screen.query_one("#drill-status", Static).render())


def progress(screen: DrillScreen) -> str:
    line = screen.query_one("#drill-progress", Static)
    return str(line.render()) if line.display else ""


def many_results() -> list[TestResult]:
    """200 results, as a drill with parametrized tests gives: 150 passed, 50 skipped on this machine."""
    tests = [TestResult(f"test_{n}", "passed") for n in range(150)]
    return tests + [TestResult(f"test_cuda_{n}", "skipped", "needs CUDA") for n in range(50)]


@pytest.mark.slow
async def test_while_a_run_goes_on_its_line_counts_skipped_tests_apart(app, monkeypatch) -> None:
    """Skipped tests are counted as skipped, never as done ("47 done" of 37 that passed)."""
    tests = many_results()
    runner = FakeRunner(tests, TestRun("pass", 150, 0, tests, reason="all 150 tests passed"))
    monkeypatch.setattr("drill.coding.runner.api.run_tests", runner)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("t")
        await wait_until(pilot, lambda: "skipped" in progress(screen))
        assert progress(screen) == "Running the hidden tests… — 150 passed · 50 skipped (x cancels)"
        assert "running tests…" in status(screen)
        assert drawn(screen.query_one("#drill-results", Markdown)) == ""  # no list while it runs
        runner.release.set()
        await wait_until(pilot, lambda: not screen.running, timeout=10)
        assert drawn(screen.query_one("#drill-results", Markdown)).startswith("All 150 tests passed — solved in")
        assert progress(screen) == ""


@pytest.mark.slow
async def test_the_verdict_is_drawn_as_the_header_stops_saying_the_run_goes_on(app, monkeypatch) -> None:
    """200 results come in at once: the list is drawn once, with the verdict, not once per result
    (which kept the app busy for a minute after the run, its header saying "ready" over "Running… 40 done")."""
    tests = many_results()
    runner = FakeRunner(tests, TestRun("fail", 150, 1, tests, reason="1 of 151 tests failed; first: test_x: boom"))
    runner.release.set()
    monkeypatch.setattr("drill.coding.runner.api.run_tests", runner)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        await pilot.press("t")
        await wait_until(pilot, lambda: runner.texts and not screen.running, timeout=10)
        assert "ready" in status(screen)
        assert drawn(screen.query_one("#drill-results", Markdown)).startswith("1 of 151 tests failed")


@pytest.mark.slow
async def test_x_cancels_a_run_and_its_wait_is_off_the_clock_then_the_latest_save_runs(
    app, monkeypatch, stopwatch
) -> None:
    runner = FakeRunner([TestResult("test_a", "passed")], TestRun("fail", 0, 1, reason="1 of 1 tests failed"))
    monkeypatch.setattr("drill.coding.runner.api.run_tests", runner)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        screen.workspace.solution.write_text("# runs for ever\n")
        stopwatch.advance(30)
        await pilot.press("x")  # no run: nothing to cancel
        assert not screen.running
        await pilot.press("t")
        await wait_until(pilot, lambda: "1 passed" in progress(screen))
        stopwatch.advance(40)  # waiting on a hung run
        screen.workspace.solution.write_text("# the fix\n")
        await pilot.press("t")  # asked during the run: it runs once this one ends
        assert runner.texts == ["# runs for ever\n"] and progress(screen).endswith("; your latest save runs next")
        await pilot.press("x")
        await wait_until(pilot, lambda: len(runner.texts) == 2)
        assert runner.texts[1] == "# the fix\n"
        said = screen.query_one("#drill-results", Markdown).source
        assert said == "**Run cancelled after 0:40; nothing is recorded**"
        assert round(screen.elapsed) == 30  # the cancelled run's 40 s are off the clock
        stopwatch.advance(5)
        runner.release.set()  # the fix's run comes to a verdict: its wait counts
        await wait_until(pilot, lambda: not screen.running, timeout=10)
        assert round(screen.elapsed) == 35
    assert db_rows(app, "SELECT status FROM coding_attempt") == [("fail",)]  # the cancelled run is not one


@pytest.mark.slow
async def test_a_run_stopped_at_the_time_limit_is_recorded_but_off_the_clock(app, monkeypatch, stopwatch) -> None:
    verdict = TestRun("timeout", 0, 0, reason="stopped after the 60 s time limit while running test_a")
    runner = FakeRunner([], verdict)
    monkeypatch.setattr("drill.coding.runner.api.run_tests", runner)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        stopwatch.advance(20)
        await pilot.press("t")
        await wait_until(pilot, lambda: screen.running)
        stopwatch.advance(60)
        runner.release.set()
        await wait_until(pilot, lambda: not screen.running, timeout=10)
        said = screen.query_one("#drill-results", Markdown).source
        assert said.startswith("**Stopped after the 60 s time limit while running test_a (1:00 of waiting taken off")
        assert round(screen.elapsed) == 20
    assert db_rows(app, "SELECT status FROM coding_attempt") == [("timeout",)]


@pytest.mark.slow
async def test_x_stops_a_runaway_run_of_the_real_runner(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_drill(pilot, "dpo-loss")
        screen.workspace.solution.write_text("while True:\n    pass\n")
        await pilot.press("t")
        await pilot.pause(1.0)
        assert screen.running
        started = time.monotonic()
        await pilot.press("x")
        await wait_until(pilot, lambda: not screen.running, timeout=30)
        assert time.monotonic() - started < 30  # not the 60 s time limit
        assert screen.query_one("#drill-results", Markdown).source.startswith("**Run cancelled after")
    assert db_rows(app, "SELECT count(*) FROM coding_attempt") == [(0,)]
