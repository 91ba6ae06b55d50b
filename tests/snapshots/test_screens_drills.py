"""Snapshots of the coding drills: the list (fresh, with past attempts, without torch here) and a
timed attempt at dpo-loss (opened, two hints, the starter's failing run, giving up after it with
the hints and the reference open, the reference's passing run, then the reference shown), at
80×24 and 120×36. The runs are the drill's real hidden tests on CPU (about 3 s for the starter,
under 1 s for the reference), whose results do not vary."""

import shutil

import pytest

from drill.coding import environment
from drill.coding.items import item_id
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen
from .screen_steps import (DRILLS, KERNELS, SIZE_IDS, SIZES, WORKSPACE, finish_drill, home, press_until, run_clocks,
                          snapshot, study_days, use_content)
from tui_helpers import wait_until


def without_torch(monkeypatch) -> None:
    """This Python lacks torch (and is named the same on every machine)."""
    monkeypatch.setattr(environment, "_importable", lambda name: name != "torch")
    monkeypatch.setattr(environment.sys, "executable", "/usr/bin/python3")


def past_attempts(paths, clock) -> None:
    """dpo-loss given up three days ago and passed yesterday; quantize-per-channel passed two days ago."""

    def attempts(study, n: int) -> None:
        for drill, passed in [[("dpo-loss", False)], [("quantize-per-channel", True)], [("dpo-loss", True)]][n]:
            finish_drill(study, study.cards([item_id(drill)])[0], passed)

    study_days(paths, clock, (3, 2, 1), attempts)


async def drill_list(pilot) -> DrillListScreen:
    await home(pilot)
    return await press_until(pilot, "k", DrillListScreen)


async def attempt(pilot) -> DrillScreen:
    listing = await drill_list(pilot)
    listing.start("dpo-loss")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillScreen))
    screen = pilot.app.screen
    screen.query_one("#drill-file").update(f"Your file: [b]{WORKSPACE}[/b]")
    return screen


async def run_tests(pilot, screen: DrillScreen) -> None:
    await pilot.press("t")
    await wait_until(pilot, lambda: not screen.running, timeout=120)


def stages(clock):
    async def opened(pilot) -> None:
        await attempt(pilot)
        await run_clocks(pilot, clock, 185)

    async def two_hints(pilot) -> None:
        await attempt(pilot)
        await run_clocks(pilot, clock, 240)
        await pilot.press("h", "h")

    async def failing(pilot) -> None:
        screen = await attempt(pilot)
        await run_clocks(pilot, clock, 300)
        await run_tests(pilot, screen)
        assert screen.results and screen.finished is None

    async def gave_up(pilot) -> None:
        await failing(pilot)
        await pilot.press("h", "h")
        await run_clocks(pilot, clock, 120)
        await pilot.press("g")

    async def passing(pilot) -> None:
        screen = await attempt(pilot)
        shutil.copy(KERNELS / "dpo-loss" / "solution.py", screen.workspace.solution)
        await run_clocks(pilot, clock, 415)
        await run_tests(pilot, screen)
        assert screen.finished == "pass"

    async def reference(pilot) -> None:
        await passing(pilot)
        await run_clocks(pilot, clock, 60)  # a minute reading the reference
        await pilot.press("s")

    return {"opened": opened, "two-hints": two_hints, "failing-run": failing,
            "gave-up-with-hints-and-reference": gave_up, "passing-run": passing, "passed-reference-shown": reference}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("history", [False, True], ids=["fresh", "with-attempts"])
def test_the_drill_list(snap_compare, small_paths, clock, size, history) -> None:
    paths = use_content(small_paths, decks=(), drills=DRILLS)
    if history:
        past_attempts(paths, clock)
    assert snapshot(snap_compare, paths, clock, size, drill_list)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("steps", [drill_list, attempt], ids=["list", "attempt"])
def test_without_torch(snap_compare, small_paths, clock, size, steps, monkeypatch) -> None:
    without_torch(monkeypatch)
    assert snapshot(snap_compare, use_content(small_paths, decks=(), drills=DRILLS), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("stage", list(stages(None)))
def test_an_attempt(snap_compare, small_paths, clock, stopped_clock, size, stage) -> None:
    paths = use_content(small_paths, decks=(), drills=DRILLS)
    assert snapshot(snap_compare, paths, clock, size, stages(stopped_clock)[stage])
