"""Snapshots of the coding drills: the list (fresh, with past attempts, without torch here) and a
timed attempt at dpo-loss (opened, two hints, the starter's failing run, a hint after it, the
question before giving up, giving up after it with the hints and the reference open, the
reference's passing run, then the reference shown, the question on leaving, the offer to resume
a kept attempt), at 80×24 and 120×36. $HOME is the test's folder, so the workspace reads
~/home/workspaces/…. The runs are the drill's real hidden tests on CPU (about 3 s for the starter,
under 1 s for the reference), whose results do not vary. Hints and the reference are snapshot once
the screen has drawn them and scrolled them to the top: the hints' Markdown parses in a thread and
each lands a frame or more after its key, later still on a loaded machine."""

import shutil

import pytest
from helpers.content import KERNELS
from helpers.pilot import wait_until
from helpers.screen_steps import (
    DRILLS,
    SIZE_IDS,
    SIZES,
    finish_drill,
    home,
    press_until,
    run_clocks,
    snapshot,
    study_days,
    use_content,
)

from drill.coding.drills import item_id
from drill.coding.runner import environment
from drill.tui.dialogs.choose import Choose
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


def without_torch(monkeypatch) -> None:
    """This Python lacks torch (and is named the same on every machine)."""
    monkeypatch.setattr(environment, "_importable", lambda name: name != "torch")
    monkeypatch.setattr(environment.sys, "executable", "/usr/bin/python3")


def past_attempts(paths, clock) -> None:
    """dpo-loss given up three days ago and passed yesterday; quantize-per-channel passed two days ago."""

    def attempts(study, n: int) -> None:
        for drill, passed in [[("dpo-loss", False)], [("quantize-per-channel", True)], [("dpo-loss", True)]][n]:
            finish_drill(study, study.reviews.cards([item_id(drill)])[0], passed)

    study_days(paths, clock, (3, 2, 1), attempts)


async def drill_list(pilot) -> DrillListScreen:
    await home(pilot)
    return await press_until(pilot, "k", DrillListScreen)


async def attempt(pilot) -> DrillScreen:
    listing = await drill_list(pilot)
    listing.start("dpo-loss")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillScreen))
    return pilot.app.screen


async def run_tests(pilot, screen: DrillScreen) -> None:
    await pilot.press("t")
    await wait_until(pilot, lambda: not screen.running, timeout=120)


def at_top(screen: DrillScreen, widget) -> bool:
    """Whether the drill body is scrolled to `widget` (or as far down as it goes)."""
    body = screen.query_one("#drill-body")
    place = widget.virtual_region
    return bool(place.height) and body.scroll_offset.y == min(place.y, body.max_scroll_y)


async def hints_shown(pilot, count: int) -> None:
    """Wait until the hints panel draws `count` hints, scrolled to the top."""
    hints = pilot.app.screen.query_one("#drill-hints")
    await wait_until(pilot, lambda: len(hints.query("MarkdownBullet")) == count and at_top(pilot.app.screen, hints))


async def reference_shown(pilot) -> None:
    """Wait until the reference solution is drawn, scrolled to the top."""
    reference = pilot.app.screen.query_one("#drill-reference")
    await wait_until(pilot, lambda: at_top(pilot.app.screen, reference))


def stages(clock):
    async def opened(pilot) -> None:
        await attempt(pilot)
        await run_clocks(pilot, clock, 185)

    async def two_hints(pilot) -> None:
        await attempt(pilot)
        await run_clocks(pilot, clock, 240)
        await pilot.press("h", "h")
        await hints_shown(pilot, 2)

    async def failing(pilot) -> None:
        screen = await attempt(pilot)
        await run_clocks(pilot, clock, 300)
        await run_tests(pilot, screen)
        assert screen.results and screen.finished is None

    async def hint_after_failing(pilot) -> None:
        await failing(pilot)
        await pilot.press("h")
        await hints_shown(pilot, 1)

    async def give_up_asked(pilot) -> None:
        await failing(pilot)
        await pilot.press("g")

    async def gave_up(pilot) -> None:
        await failing(pilot)
        await pilot.press("h", "h")
        await hints_shown(pilot, 2)
        await run_clocks(pilot, clock, 120)
        await pilot.press("g", "y")
        await reference_shown(pilot)

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
        await reference_shown(pilot)

    async def leaving(pilot) -> None:
        await opened(pilot)
        await pilot.press("escape")

    async def resuming(pilot) -> None:
        await two_hints(pilot)
        await pilot.press("escape", "k")
        await press_until(pilot, "k", DrillListScreen)
        pilot.app.screen.start("dpo-loss")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, Choose))

    return {
        "opened": opened,
        "two-hints": two_hints,
        "failing-run": failing,
        "hint-after-failing": hint_after_failing,
        "give-up-asked": give_up_asked,
        "gave-up-with-hints-and-reference": gave_up,
        "passing-run": passing,
        "passed-reference-shown": reference,
        "leaving": leaving,
        "resuming": resuming,
    }


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
    monkeypatch.setenv("HOME", str(small_paths.home.parent))
    assert snapshot(snap_compare, use_content(small_paths, decks=(), drills=DRILLS), clock, size, steps)


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("stage", list(stages(None)))
def test_an_attempt(snap_compare, small_paths, clock, stopped_clock, size, stage, monkeypatch) -> None:
    monkeypatch.setenv("HOME", str(small_paths.home.parent))
    paths = use_content(small_paths, decks=(), drills=DRILLS)
    assert snapshot(snap_compare, paths, clock, size, stages(stopped_clock)[stage])
