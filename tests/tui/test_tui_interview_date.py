"""The interview date set from the TUI: written to config.toml, shown on home, and cleared."""

import pytest
from helpers.pilot import wait_ready, wait_until

from drill.config import Config
from drill.tui.app import DrillApp


def headline(app) -> str:
    return str(app.home_screen.query_one("#headline").render())


@pytest.mark.slow
async def test_set_and_clear_the_interview_date(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("i")
        await pilot.press(*"2026-13-01", "enter")
        assert "is not a date" in str(app.screen.query_one("#ask-date-error").render())
        await pilot.press(*["backspace"] * 10, *"2026-12-06", "enter")
        await wait_until(pilot, lambda: "Interview 2026-12-06: in 14 days." in headline(app))
        assert "new a day needed" in headline(app)
        assert Config.load(small_paths.config).interview_date.isoformat() == "2026-12-06"
        await pilot.press("i", *["backspace"] * 10, "enter")
        await wait_until(pilot, lambda: "Interview" not in headline(app))
        assert Config.load(small_paths.config).interview_date is None
        await pilot.press("i", "escape")
        assert app.screen is app.home_screen


@pytest.mark.slow
async def test_a_past_date_is_said_in_the_dialog_and_keeps_the_text(small_paths, clock) -> None:
    from textual.widgets import Input

    from drill.tui.dialogs.ask_date import AskDate

    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("i", *"2026-11-22", "enter")  # today (the clock's day) is not after today
        assert isinstance(app.screen, AskDate)
        assert app.screen.query_one(Input).value == "2026-11-22"
        assert "2026-11-22 has passed: pick a day after 2026-11-22" in str(
            app.screen.query_one("#ask-date-error").render()
        )
        await pilot.press("backspace", "backspace", *"30", "enter")
        await wait_until(pilot, lambda: "Interview 2026-11-30" in headline(app))
    assert Config.load(small_paths.config).interview_date.isoformat() == "2026-11-30"
