"""Snapshots of the stats screen over the hand-built history (helpers/stats_history.py, whose
figures are worked out by hand): at 80×24 and 120×40, scrolled to its lower half, and with an
interview plan."""

from __future__ import annotations

import pytest
from helpers.screens import open_stats
from helpers.stats_history import history  # noqa: F401  (a fixture)

from drill.tui.app import DrillApp

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_stats_snapshot(snap_compare, history, clock, size) -> None:
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=size, run_before=open_stats)


def test_stats_snapshot_scrolled(snap_compare, history, clock) -> None:
    """The lower half at 80×24: retention, calibration, the pitch ladder."""

    async def scrolled(pilot) -> None:
        await open_stats(pilot)
        await pilot.press("pagedown", "pagedown")
        await pilot.pause()

    assert snap_compare(DrillApp(history, clock=clock), terminal_size=(80, 24), run_before=scrolled)


def test_stats_snapshot_with_an_interview_plan(snap_compare, history, clock) -> None:
    """Recall on the interview day, and the forecast stacked with items brought forward and new ones."""
    (history.home / "config.toml").write_text("interview_date = 2026-11-30\nplan_window_days = 8\n")
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=(80, 24), run_before=open_stats)
