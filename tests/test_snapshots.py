"""Snapshot tests of home and review with a fixed clock and a fixed deck."""

import pytest

from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen
from tui_helpers import wait_ready, wait_until


@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
def test_home(snap_compare, small_paths, clock, size) -> None:
    async def ready(pilot) -> None:
        await wait_ready(pilot)

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=ready)


@pytest.mark.parametrize("revealed", [False, True])
def test_review(snap_compare, small_paths, clock, revealed) -> None:
    async def open_review(pilot) -> None:
        await wait_ready(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
        if revealed:
            await pilot.press("space")
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=(80, 24), run_before=open_review)


def test_mock_setup(snap_compare, small_paths, clock) -> None:
    async def open_setup(pilot) -> None:
        await wait_ready(pilot)
        await pilot.press("m")
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=(80, 24), run_before=open_setup)
