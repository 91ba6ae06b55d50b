"""Snapshots of the stats screen over the hand-built history (helpers/stats_history.py, whose
figures are worked out by hand): at 80×24 and 120×40, scrolled to calibration at both, and with
an interview plan."""

from __future__ import annotations

import pytest
from helpers.screens import open_stats
from helpers.stats_history import history  # noqa: F401  (a fixture)

from drill.tui.app import DrillApp

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_stats_snapshot(snap_compare, history, clock, size) -> None:
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=size, run_before=open_stats)


async def at_retention(pilot) -> None:
    """Stats, scrolled to retention, calibration and the pitch ladder."""
    await open_stats(pilot)
    pilot.app.screen.query_one("#sec-retention").scroll_visible(animate=False, top=True)
    await pilot.pause()


def test_stats_snapshot_scrolled(snap_compare, history, clock) -> None:
    """The lower half at 80×24: retention, calibration (its bands a table), the pitch ladder."""
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=(80, 24), run_before=at_retention)


def test_stats_snapshot_reliability_chart(snap_compare, history, clock) -> None:
    """At 120×40 the calibration's bands are the reliability chart."""
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=(120, 40), run_before=at_retention)


def test_stats_snapshot_with_an_interview_plan(snap_compare, history, clock) -> None:
    """Recall on the interview day, and the forecast stacked with items brought forward and new ones."""
    (history.home / "config.toml").write_text("interview_date = 2026-11-30\nplan_window_days = 8\n")
    assert snap_compare(DrillApp(history, clock=clock), terminal_size=(80, 24), run_before=open_stats)
