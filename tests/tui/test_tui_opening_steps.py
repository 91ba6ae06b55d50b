"""While the open upgrades a store an older drill wrote, home's headline says each step in place
of "Opening your study…"; the counts replace it once the study opens. An up-to-date store's open
says nothing (no flicker)."""

from __future__ import annotations

from helpers.older_store import older_store
from helpers.pilot import wait_until

from drill.store.engine import BACKING_UP
from drill.study.core import READING_DECKS
from drill.tui.app import DrillApp
from drill.tui.screens.home import HomeScreen


def headline(app: DrillApp) -> str:
    return str(app.home_screen.query_one("#headline").render())


async def opened_saying(small_paths, clock, monkeypatch) -> list[str]:
    """Open the app on `small_paths` to home's counts; the headline as each opening step left it."""
    shown: list[str] = []
    show_step = HomeScreen.show_opening_step

    def show_and_keep(screen: HomeScreen, words: str) -> None:
        show_step(screen, words)
        shown.append(str(screen.query_one("#headline").render()))

    monkeypatch.setattr(HomeScreen, "show_opening_step", show_and_keep)
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_until(pilot, lambda: app.home_screen.has_class("ready"))
        assert headline(app).startswith("Today: 0 due, 6 new.")
    return shown


async def test_home_says_the_upgrade_of_an_older_store_until_its_counts_show(small_paths, clock, monkeypatch) -> None:
    older_store(small_paths.database)
    shown = await opened_saying(small_paths, clock, monkeypatch)
    assert shown[0] == BACKING_UP
    assert shown[1] == "Upgrading your store for this drill: step 1 of 11…"
    assert shown[-2:] == ["Upgrading your store for this drill: step 11 of 11…", READING_DECKS]
    assert len(shown) == 13


async def test_an_up_to_date_store_opens_without_a_word(small_paths, clock, monkeypatch) -> None:
    older_store(small_paths.database)
    await opened_saying(small_paths, clock, monkeypatch)
    assert await opened_saying(small_paths, clock, monkeypatch) == []
