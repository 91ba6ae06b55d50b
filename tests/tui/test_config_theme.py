"""The theme picked in the command palette is remembered in config.toml and applied at the next start."""

import pytest
from helpers.pilot import wait_ready, wait_until
from textual import constants

from drill.config import Config
from drill.tui.app import DrillApp


@pytest.mark.slow
async def test_the_theme_picked_in_the_palette_comes_back_after_a_restart(small_paths, clock) -> None:
    small_paths.home.mkdir(parents=True, exist_ok=True)
    small_paths.config.write_text("# my settings\nrollover_hour = 5\n")
    first = DrillApp(small_paths, clock=clock)
    async with first.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        assert first.theme != "nord"
        await pilot.press("ctrl+p", *"theme")
        await pilot.pause(0.3)
        await pilot.press("enter", *"nord")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: first.theme == "nord")
    assert small_paths.config.read_text() == '# my settings\nrollover_hour = 5\ntheme = "nord"\n'
    assert Config.load(small_paths.config).theme == "nord"
    again = DrillApp(small_paths, clock=clock)  # drill restarted on the same DRILL_HOME
    async with again.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        assert again.theme == "nord"


async def test_a_theme_drill_does_not_know_is_said_and_the_default_kept(small_paths, clock) -> None:
    small_paths.home.mkdir(parents=True, exist_ok=True)
    small_paths.config.write_text('theme = "no-such-theme"\n')
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        assert app.theme == constants.DEFAULT_THEME
        assert [str(notice.message) for notice in app._notifications] == [
            "config.toml names a theme drill does not know, 'no-such-theme': the default is used."
        ]
    assert small_paths.config.read_text() == 'theme = "no-such-theme"\n'
