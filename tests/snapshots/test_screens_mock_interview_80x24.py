"""Snapshots of the mock interview at 80×24: the setup, a grill question revealed, an estimate whose
answer does not parse, and the scorecard, over the shipped content. A fixed clock, a seeded draw
and a frozen countdown (conftest's stopped clock)."""

import random

import pytest
from helpers.pilot import wait_ready, wait_until
from textual.widgets import Input, Select

from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.screens.mock.interview import MockInterviewScreen
from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen
from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI

SIZE = (80, 24)


@pytest.fixture
def app(drill_home, clock):
    return DrillApp(Paths(drill_home), clock=clock)


async def open_setup(pilot) -> MockInterviewSetupScreen:
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(11)
    await pilot.press("M")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewSetupScreen))
    return pilot.app.screen


async def begin(pilot, grill: int, pitch: int, estimates: int) -> MockInterviewScreen:
    setup = await open_setup(pilot)
    for selector, value in (("#grill", grill), ("#pitch", pitch), ("#estimates", estimates)):
        setup.query_one(selector, Select).value = value
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewScreen), timeout=30)
    return pilot.app.screen


def test_setup(snap_compare, app) -> None:
    async def run_before(pilot) -> None:
        await open_setup(pilot)
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_grill_question_revealed(snap_compare, app) -> None:
    async def run_before(pilot) -> None:
        await begin(pilot, grill=2, pitch=120, estimates=2)
        await pilot.press("space")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_estimate_that_does_not_parse(snap_compare, app) -> None:
    async def run_before(pilot) -> None:
        screen = await begin(pilot, grill=0, pitch=0, estimates=2)
        entry = screen.view.query_one("#estimate", Input)
        entry.cursor_blink = False
        # a wrong kind of quantity for whichever family comes first: bytes for a plain number, else a bare number
        entry.value = "2.7 GB" if screen.plan.steps[0].problem.unit == "1" else "2.7"
        await pilot.press("enter")
        assert screen.index == 0  # refused, still on the first question
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_scorecard(snap_compare, app) -> None:
    async def run_before(pilot) -> None:
        screen = await begin(pilot, grill=2, pitch=120, estimates=2)
        await pilot.press("space", "3", "space", "2", "space", "4")
        for step, answer in zip(screen.plan.steps[3:], ("pretty", "1 kB"), strict=True):
            screen.view.query_one("#estimate", Input).value = step.problem.pretty if answer == "pretty" else answer
            await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewScorecardScreen))
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)
