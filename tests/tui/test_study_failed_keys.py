"""When the study cannot be opened, home offers only the keys that still work (quit, keys, commands)."""

from __future__ import annotations

import pytest
from helpers.footer import footer_labels
from helpers.pilot import wait_until
from textual.widgets import Static

from drill.errors import UserFacingError
from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen

STUDY_KEYS = ("r", "c", "m", "h", "M", "H", "k", "b", "s", "i")


@pytest.mark.slow
async def test_a_study_that_could_not_open_offers_only_working_keys(drill_home, clock, monkeypatch) -> None:
    from drill.paths import Paths
    from drill.study import Study

    def refuse(*_args, **_kwargs):
        raise UserFacingError("the database is damaged")

    monkeypatch.setattr(Study, "open", refuse)
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        home = app.home_screen
        await wait_until(
            pilot, lambda: "Could not open your study" in str(home.query_one("#headline", Static).render())
        )
        await pilot.pause()
        shown = footer_labels(app.screen)
        assert not set(STUDY_KEYS) & set(shown), shown
        ways_in = str(home.query_one("#ways-in", Static).render())
        assert "review" not in ways_in and "ctrl+q" in ways_in
        for key in STUDY_KEYS:
            await pilot.press(key)
        assert app.screen is home and not isinstance(app.screen, ReviewScreen)
        assert "Could not open your study: the database is damaged" in str(home.query_one("#headline", Static).render())
