"""Pilot tests: coding drills in a Python that cannot run them. The list and the drill screen say
so with the fixing command, no test runs, and nothing is stored as the user's attempt."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.import_blocker import blocker
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Markdown, Static

from drill.coding.runner import environment
from drill.coding.runner.warm import WarmWorker
from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen

KERNELS = Path(__file__).resolve().parents[2] / "kernels"
DRILL = "quantize-per-channel"


@pytest.fixture
def app(drill_home, clock, monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    return DrillApp(Paths(drill_home), clock=clock)


async def open_list(pilot) -> DrillListScreen:
    await wait_ready(pilot)
    await pilot.press("k")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillListScreen))
    return pilot.app.screen


async def open_drill(pilot, drill_id: str) -> DrillScreen:
    listing = await open_list(pilot)
    listing.start(drill_id)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillScreen))
    return pilot.app.screen


def results(screen: DrillScreen) -> str:
    return screen.query_one("#drill-results", Markdown).source


@pytest.mark.slow
async def test_without_torch_the_list_and_the_drill_say_how_to_fix_it_and_nothing_runs(app, monkeypatch) -> None:
    real = environment.find_spec
    monkeypatch.setattr(environment, "find_spec", lambda name: None if name == "torch" else real(name))
    started = []
    monkeypatch.setattr("drill.coding.runner.api.run_tests", lambda *args, **kwargs: started.append(args))
    monkeypatch.setattr("drill.coding.runner.api.prewarm", lambda: started.append("prewarm"))
    async with app.run_test(size=(100, 40)) as pilot:
        listing = await open_list(pilot)
        top = str(listing.query_one("#drills-environment", Static).render())
        assert "Coding drills need torch" in top and "-m pip install torch==2.13.0" in top
        listing.start(DRILL)
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillScreen))
        screen = pilot.app.screen
        await pilot.pause()
        assert "nothing is recorded" in results(screen) and "pip install torch==2.13.0" in results(screen)
        await pilot.press("t")
        await pilot.pause(0.2)
        assert not screen.running and screen.finished is None
        assert "pip install torch==2.13.0" in results(screen)
    assert started == []  # neither a run nor the warm worker
    assert db_rows(app, "SELECT COUNT(*) FROM coding_attempt") == [(0,)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]


async def test_the_list_has_no_warning_when_all_is_installed(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        listing = await open_list(pilot)
        assert not listing.query("#drills-environment")


@pytest.mark.slow
@pytest.mark.parametrize("block", ["pytest", "torch"])
async def test_a_run_whose_test_process_cannot_import_is_not_an_attempt(app, monkeypatch, tmp_path, block) -> None:
    """The screen's check passes (this process has both); the worker's forked test process lacks
    one: the run ends as an environment failure, shown with the command, and never stored."""
    monkeypatch.setenv("PYTHONPATH", str(blocker(tmp_path)))
    monkeypatch.setenv("DRILL_TEST_BLOCK", block)
    worker = WarmWorker()  # a fresh one: the shared worker may have started before the block
    monkeypatch.setattr("drill.coding.runner.warm.default_worker", lambda: worker)
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await open_drill(pilot, DRILL)
            await pilot.press("t")
            await wait_until(pilot, lambda: not screen.running and "could not" in results(screen), timeout=120)
            text = results(screen)
            assert "nothing is recorded" in text and f"could not import {block}" in text
            assert environment.REQUIREMENTS[block] in text
            assert screen.finished is None
    finally:
        worker.close()
    assert db_rows(app, "SELECT COUNT(*) FROM coding_attempt") == [(0,)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
