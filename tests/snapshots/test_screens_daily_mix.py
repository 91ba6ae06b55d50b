"""Snapshots of a due coding drill in the daily mix: on home and first in the review, at 80×24."""

import pytest
from helpers.due_drill import drill_due  # noqa: F401  (a fixture)
from helpers.pilot import wait_ready, wait_until

from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


@pytest.mark.parametrize("screen", ["home", "review"])
def test_snapshot_a_due_drill(snap_compare, drill_due, drill_home, clock, screen) -> None:
    async def open_it(pilot) -> None:
        await wait_ready(pilot)
        if screen == "review":
            await pilot.press("r")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
        await pilot.pause()

    assert snap_compare(DrillApp(Paths(drill_home), clock=clock), terminal_size=(80, 24), run_before=open_it)
