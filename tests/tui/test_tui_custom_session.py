"""The custom session's setup under Pilot: every box keeps its label once typed into, the first
Space ticks the first box, "Due within" takes drill review --ahead's range, and the setup comes
back as it was, after a session and when nothing matched."""

from __future__ import annotations

import pytest
from helpers.pilot import wait_ready, wait_until
from textual.widgets import Checkbox, Input, Static

from drill.days import MAX_AHEAD_DAYS
from drill.schedule.custom import CustomSession
from drill.tui.app import DrillApp
from drill.tui.screens.custom_session import CustomSessionScreen, whole_number
from drill.tui.screens.review import ReviewScreen

pytestmark = pytest.mark.slow  # each test runs the app


async def open_setup(pilot) -> CustomSessionScreen:
    await wait_ready(pilot)
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CustomSessionScreen))
    return pilot.app.screen


def labels(screen: CustomSessionScreen) -> list[str]:
    return [str(label.render()) for label in screen.query(".label").results(Static)]


async def test_the_first_space_ticks_and_the_labels_stay_once_typed_into(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_setup(pilot)
        await pilot.press("space")
        assert screen.query_one("#block-memory", Checkbox).value  # the first box, ticked at once
        screen.query_one("#weakest", Input).focus()
        await pilot.press("5")
        assert screen.query_one("#weakest", Input).value == "5" and screen.query_one("#topics", Input).value == ""
        assert labels(screen) == ["Topic contains:", "Weakest N items:", "Due within N days:"]
        assert all(label.region.width for label in screen.query(".label").results(Static))  # drawn at 80 columns


async def test_the_setup_is_kept_after_a_session_and_when_nothing_matches(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_setup(pilot)
        screen.query_one("#topics", Input).value = "no such topic"
        screen.query_one("#cram", Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, CustomSessionScreen) and app.screen is not screen)
        kept = app.screen
        assert kept.query_one("#topics", Input).value == "no such topic" and kept.query_one("#cram", Checkbox).value
        assert any("Nothing matches" in notice.message for notice in app._notifications)
        kept.query_one("#topics", Input).value = ""
        kept.query_one("#kind-card", Checkbox).value = True
        await pilot.press("ctrl+s")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.home_screen)
        again = await open_setup(pilot)
        assert again.spec() == CustomSession(kinds=("card",), cram=True)


def test_due_within_takes_the_range_drill_review_ahead_takes() -> None:
    assert whole_number(str(MAX_AHEAD_DAYS), "Due within", MAX_AHEAD_DAYS) == MAX_AHEAD_DAYS
    with pytest.raises(
        ValueError, match=f"Due within must be a whole number from 1 to {MAX_AHEAD_DAYS}, not “99999999”"
    ):
        whole_number("99999999", "Due within", MAX_AHEAD_DAYS)
    with pytest.raises(ValueError, match="at least 1"):
        whole_number("0", "Due within", MAX_AHEAD_DAYS)
