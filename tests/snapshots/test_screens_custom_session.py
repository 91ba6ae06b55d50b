"""Snapshots of the custom session: its setup (blank and filled in) and a cram review under it,
at 80×24 and 120×36."""

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import SIZE_IDS, SIZES, all_content, history, home, snapshot
from textual.widgets import Checkbox, Input

from drill.tui.screens.custom_session import CustomSessionScreen
from drill.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


async def setup(pilot) -> None:
    await home(pilot)
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CustomSessionScreen))


async def filled_in(pilot) -> None:
    await setup(pilot)
    screen = pilot.app.screen
    screen.query_one("#block-memory", Checkbox).value = True
    screen.query_one("#kind-card", Checkbox).value = True
    screen.query_one("#weakest", Input).value = "5"
    screen.query_one("#cram", Checkbox).value = True
    await pilot.pause()


async def cram_review(pilot) -> None:
    await filled_in(pilot)
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    await pilot.press("space")
    await pilot.pause()


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("steps", [setup, filled_in, cram_review], ids=["blank", "filled-in", "cram-review"])
def test_custom_session(snap_compare, small_paths, clock, size, steps) -> None:
    history(all_content(small_paths), clock)
    assert snapshot(snap_compare, small_paths, clock, size, steps)
