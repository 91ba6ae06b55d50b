"""Snapshots of the stats screen: a fresh home, then two weeks of history (the last 30 days: its
top and one block; all time: its top, third and fourth pages and end) and the same history
towards an interview date (the plan), at 80×24 and 120×36."""

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import SIZE_IDS, SIZES, all_content, history, home, snapshot

from drill.tui.screens.stats import StatsScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


def loaded(pilot) -> bool:
    return isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.has_class("loaded")


def stats_after(*keys: str):
    """Open stats, then press `keys` (each choice of period or block loads again)."""

    async def steps(pilot) -> None:
        await home(pilot)
        await pilot.press("s")
        await wait_until(pilot, lambda: loaded(pilot))
        for key in keys:
            await pilot.press(key)
            await wait_until(pilot, lambda: loaded(pilot))

    return steps


def estimation_after(*keys: str):
    """Open stats, press `keys`, then scroll the estimation section to the top."""
    opened = stats_after(*keys)

    async def steps(pilot) -> None:
        await opened(pilot)
        pilot.app.screen.query_one("#sec-estimation").scroll_visible(animate=False, top=True)
        await pilot.pause()

    return steps


VIEWS = {
    "top": stats_after(),
    "estimation": estimation_after(),  # its plot's ticks never collide, so it reads the same under any hash seed
    "one-block": stats_after("b"),
    "all-time": stats_after("p", "p"),
    "all-time-page-3": stats_after("p", "p", *["pagedown"] * 2),
    "all-time-page-4": stats_after("p", "p", *["pagedown"] * 3),
    "all-time-end": stats_after("p", "p", "end"),
}


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_stats_of_a_fresh_home(snap_compare, small_paths, clock, size) -> None:
    assert snapshot(snap_compare, all_content(small_paths), clock, size, stats_after())


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("view", list(VIEWS))
def test_stats_with_history(snap_compare, small_paths, clock, size, view) -> None:
    history(all_content(small_paths), clock)
    assert snapshot(snap_compare, small_paths, clock, size, VIEWS[view])


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
def test_stats_towards_an_interview(snap_compare, small_paths, clock, size) -> None:
    history(all_content(small_paths), clock)
    (small_paths.home / "config.toml").write_text("interview_date = 2026-12-06\nplan_window_days = 7\n")
    assert snapshot(snap_compare, small_paths, clock, size, stats_after())
