"""The stats screen: opened from home with `s`, `p` and `b` switch period and block, over the
hand-built history with a fixed clock (its snapshots: tests/snapshots/test_screens_stats_hand_built.py)."""

from __future__ import annotations

import io

import pytest
from helpers.pilot import wait_ready, wait_until
from helpers.screens import open_stats
from helpers.stats_history import history  # noqa: F401  (a fixture)
from rich.console import Console

from drill.tui.app import DrillApp


def text_of(screen, selector: str) -> str:
    """What a Static shows, as plain text."""
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(screen.query_one(selector).content)
    return console.export_text()


def head(screen) -> str:
    return text_of(screen, "#stats-head")


@pytest.mark.slow
async def test_period_and_block_keys(history, clock) -> None:
    app = DrillApp(history, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_stats(pilot)
        screen = app.screen
        assert (screen.report.scope.period, screen.report.scope.block) == (30, None)
        assert head(screen).startswith("last 30 days · all blocks")
        assert len(screen.report.readiness.blocks) == 5

        def shown(period, block):
            return lambda: (
                screen.has_class("loaded")
                and screen.report.scope.period == period
                and screen.report.scope.block == block
            )

        await pilot.press("p")
        await wait_until(pilot, shown(365, None))
        assert head(screen).startswith("last 365 days · all blocks")
        assert "365 days" in text_of(screen, "#time-title")
        assert screen.report.activity.reviews.total == 11
        await pilot.press("p")
        await wait_until(pilot, shown(None, None))
        assert screen.report.activity.reviews.total == 12
        assert "per week" in text_of(screen, "#time-title")  # 400 days: minutes per week
        await pilot.press("p", "p")
        await wait_until(pilot, shown(30, None))

        await pilot.press("b")
        await wait_until(pilot, shown(30, "memory"))
        assert head(screen).startswith("last 30 days · memory")
        assert [block.block for block in screen.report.readiness.blocks] == ["memory"]
        assert "memory" in text_of(screen, "#readiness")
        assert "inference" not in text_of(screen, "#readiness")
        assert "No estimation attempts" in text_of(screen, "#estimation")
        assert not screen.query_one("#estimate-plot").display
        for block in ("compute", "inference", "training", "communication", None):
            await pilot.press("b")
            await wait_until(pilot, shown(30, block))

        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is app.home_screen)


@pytest.mark.slow
async def test_stats_from_the_command_palette(history, clock) -> None:
    from drill.tui.screens.stats import StatsScreen

    app = DrillApp(history, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"Stats")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.has_class("loaded"))


@pytest.mark.slow
async def test_a_newer_choice_wins_over_a_slower_earlier_load(history, clock) -> None:
    """Figures for a period the user has already left are dropped when they arrive."""
    app = DrillApp(history, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_stats(pilot)
        screen = app.screen
        stale = screen.report
        screen.period = 7
        screen.post_message(screen.Loaded(stale))  # the 30-day figures, now stale
        await pilot.pause()
        assert screen.report is stale and screen.period == 7


@pytest.mark.slow
async def test_readiness_shows_expected_beside_coverage_and_recall_and_the_calibration(history, clock) -> None:
    app = DrillApp(history, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_stats(pilot)
        readiness = text_of(app.screen, "#readiness")
        assert "seen  mature  recall  expected" in readiness
        # memory: 4 of 5 seen, recall of those 94 %, but 75 % of the block expected; all: 87 % against 47 %.
        assert "memory          4/5       1     94%       75%" in readiness
        assert "all            7/13       2     87%       47%" in readiness
        assert "weakest: Arithmetic intensity of a matmul (compute) unseen" in readiness
        calibration = text_of(app.screen, "#calibration")
        assert "5 reviews: predicted 90%, passed 80% · Brier 0.170" in calibration
        assert "predicted  <50%  50–70%  70–80%  80–90%  90%+" in calibration
        assert "reviews       0       0       0       0     5" in calibration
        assert "passed        —       —       —       —   80%" in calibration
        assert "Calibration, last 30 days" in text_of(app.screen, "#calibration-title")


@pytest.mark.slow
async def test_calibration_says_so_when_there_is_nothing_to_check(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_stats(pilot)
        assert "nothing to check yet" in text_of(app.screen, "#calibration")
        assert "all             0/6       0       —        0%" in text_of(app.screen, "#readiness")


@pytest.mark.slow
async def test_mock_interviews_are_shown_with_their_scores(drill_home, clock) -> None:
    import random

    from helpers.interview import run_interview

    from drill.interview.settings import InterviewSettings
    from drill.paths import Paths
    from drill.study import Study

    study = Study.open(Paths(drill_home), clock, random.Random(3))
    card = run_interview(study, InterviewSettings(minutes=15, grill=2, pitch_seconds=0, estimates=1, coding=False))
    study.close()
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_stats(pilot)
        shown = text_of(app.screen, "#interviews")
        assert f"1 interview · mean {round(card.score * 100)}%" in shown
        assert "Grill questions 67%" in shown and "Estimation 100%" in shown
        assert "2026-11-22 15:00" in shown and "5:00/15:00" in shown


@pytest.mark.slow
async def test_no_interview_yet_says_how_to_start_one(small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_stats(pilot)
        assert "No mock interviews yet: M on home starts one." in text_of(app.screen, "#interviews")


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_no_section_is_cut_to_an_ellipsis(history, clock, size) -> None:
    """Every table and line of the stats screen reads whole in its section's width, at 80 and 120
    columns, over all time (every kind of figure present)."""
    app = DrillApp(history, clock=clock)
    async with app.run_test(size=size) as pilot:
        await open_stats(pilot)
        await pilot.press("p", "p")
        await wait_until(pilot, lambda: app.screen.has_class("loaded") and app.screen.report.scope.period is None)
        for widget in app.screen.query("#stats-body Static"):
            console = Console(width=widget.content_region.width, file=io.StringIO(), record=True)
            console.print(widget.content)
            assert "…" not in console.export_text(), (widget.id, console.export_text())


@pytest.mark.slow
async def test_the_charts_show_readiness_over_eight_weeks_and_the_reliability_bands(small_paths, clock) -> None:
    """On eight weeks of study: the readiness line's points are the scores replayed from the grades
    (helpers/readiness_history.py) against the configured target; the reliability chart's bands
    are those worked out from the review rows; below 120 columns the bands are a table instead."""
    from helpers.readiness_history import reliability_bands, replayed_scores, studied, week_points

    from drill.tui.widgets.stats_charts import ReadinessChart, ReliabilityChart

    paths = studied(small_paths, clock)
    (paths.home / "config.toml").write_text("readiness_target = 0.7\n")
    app = DrillApp(paths, clock=clock)
    async with app.run_test(size=(120, 36)) as pilot:
        await open_stats(pilot)
        screen = app.screen
        readiness = screen.query_one(ReadinessChart)
        days = week_points(app.study.today)
        assert [day for day, _ in readiness.points] == days
        expected = [100 * score for score in replayed_scores(app.study, days)]
        assert [score for _, score in readiness.points] == pytest.approx(expected, abs=1e-7)
        assert readiness.target == pytest.approx(70)
        line = text_of(screen, "#readiness-line")
        assert f"interview predicted now {expected[-1]:.0f}%" in line and "target 70%" in line
        reliability = screen.query_one(ReliabilityChart)
        bands = reliability_bands(app.study, app.study.today)
        assert len(bands) >= 2
        assert [(point.label, point.reviews) for point in reliability.points] == [band[:2] for band in bands]
        assert [(point.predicted, point.passed) for point in reliability.points] == pytest.approx(
            [band[2:] for band in bands], abs=1e-7
        )
        assert reliability.display and "reviews  " not in text_of(screen, "#calibration")
        await pilot.resize_terminal(80, 24)
        await wait_until(pilot, lambda: not reliability.display)
        assert "reviews  " in text_of(screen, "#calibration")  # the bands as text


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 36)])
async def test_readiness_bars_are_never_cut_once_hundreds_of_items_are_seen(drill_home, clock, size) -> None:
    """Issue 24 item 13: with every bundled card graded Good yesterday (hundreds seen widen the seen
    column), each block's bar is drawn whole in the readiness section's width, at 80 and 120 columns."""
    import sqlite3
    from datetime import timedelta

    from drill.paths import Paths
    from drill.study import Study
    from drill.study.writes import write_grade

    paths = Paths(drill_home)
    clock.now -= timedelta(days=1)
    study = Study.open(paths, clock)
    with sqlite3.connect(paths.database) as connection:
        ids = [row[0] for row in connection.execute("SELECT id FROM item WHERE kind = 'card'")]
    for card in study.reviews.cards(ids):
        write_grade(study, study.reviews.grade(card, 3, 20_000))
    study.close()
    clock.now += timedelta(days=1)
    app = DrillApp(paths, clock=clock)
    async with app.run_test(size=size) as pilot:
        await open_stats(pilot)
        widget = app.screen.query_one("#readiness")
        console = Console(width=widget.content_region.width, file=io.StringIO(), record=True)
        console.print(widget.content)
        shown = console.export_text()
        assert "…" not in shown, shown
        assert any(len(line.split()[1]) == 7 for line in shown.splitlines()[1:7]), shown  # "1xx/298"
        rows = [line for line in shown.splitlines() if line.split()[:1] in (["memory"], ["all"])]
        assert len(rows) == 2 and all(row.rstrip()[-1] in "█▏▎▍▌▋▊▉" for row in rows), shown
