"""Snapshots of a mock interview from setup to history: a grill question asked, revealed and with
notes typed, the pitch against its clock, an estimate asked and refused, the coding step, the
abandon dialog, the scorecard (complete and out of time), the history and a past scorecard, at
80×24 and 120×36."""

import pytest
from helpers.pilot import wait_until
from helpers.screen_steps import (
    FAMILIES,
    SIZE_IDS,
    SIZES,
    home,
    press_until,
    run_clocks,
    snapshot,
    use_content,
    wrong_answer,
)
from textual.widgets import Select, Switch

from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.mock.interview import MockInterviewScreen
from drill.tui.screens.mock.interview_history import MockInterviewHistoryScreen
from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen
from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


async def setup(pilot) -> MockInterviewSetupScreen:
    await home(pilot, seed=11)
    return await press_until(pilot, "M", MockInterviewSetupScreen)


async def begin(
    pilot, minutes: int = 30, grill: int = 2, pitch: int = 120, estimates: int = 2, coding: bool = False
) -> MockInterviewScreen:
    screen = await setup(pilot)
    for selector, value in (("#minutes", minutes), ("#grill", grill), ("#pitch", pitch), ("#estimates", estimates)):
        screen.query_one(selector, Select).value = value
    screen.query_one("#coding", Switch).value = coding
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewScreen), timeout=30)
    return pilot.app.screen


async def speak(pilot, clock, seconds: float, button: str | None) -> None:
    """Answer the grill question or pitch on screen aloud for `seconds`, reveal, grade (unless None)."""
    await run_clocks(pilot, clock, seconds)
    await pilot.press("space")
    if button:
        await pilot.press(button)


async def estimate(pilot, clock, screen: MockInterviewScreen, right: bool) -> None:
    problem = screen.step.problem
    await run_clocks(pilot, clock, 75)
    await pilot.press(*(problem.pretty if right else wrong_answer(problem)), "enter")


async def scorecard(pilot) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewScorecardScreen))


def stages(clock):
    async def grill_asked(pilot) -> None:
        await begin(pilot)
        await run_clocks(pilot, clock, 35)

    async def grill_revealed(pilot) -> None:
        await begin(pilot)
        await speak(pilot, clock, 95, None)

    async def grill_notes(pilot) -> None:
        await begin(pilot)
        await run_clocks(pilot, clock, 20)
        await pilot.press("t", *"N^2 scores per head; P kept for backward")

    async def pitch_speaking(pilot) -> None:
        await begin(pilot)
        await speak(pilot, clock, 90, "3")
        await speak(pilot, clock, 60, "2")
        await run_clocks(pilot, clock, 48)

    async def pitch_revealed(pilot) -> None:
        await pitch_speaking(pilot)
        await speak(pilot, clock, 60, None)

    async def estimate_asked(pilot) -> None:
        await begin(pilot, grill=0, pitch=0)
        await run_clocks(pilot, clock, 30)

    async def estimate_refused(pilot) -> None:
        await begin(pilot, grill=0, pitch=0)
        await pilot.press("1", "+", "enter")

    async def coding_step(pilot) -> None:
        await begin(pilot, grill=0, pitch=0, estimates=0, coding=True)

    async def abandon_dialog(pilot) -> None:
        await begin(pilot)
        await speak(pilot, clock, 90, "3")
        await press_until(pilot, "escape", Confirm)

    async def complete(pilot) -> None:
        screen = await begin(pilot)
        await speak(pilot, clock, 90, "3")
        await speak(pilot, clock, 60, "2")
        await speak(pilot, clock, 100, "4")
        await estimate(pilot, clock, screen, right=True)
        await estimate(pilot, clock, screen, right=False)
        await scorecard(pilot)

    async def time_up(pilot) -> None:
        await begin(pilot, minutes=15)
        await speak(pilot, clock, 300, "3")
        await speak(pilot, clock, 400, "3")
        await run_clocks(pilot, clock, 300)
        await scorecard(pilot)

    async def history(pilot) -> None:
        await complete(pilot)
        await press_until(pilot, "H", MockInterviewHistoryScreen)

    async def empty_history(pilot) -> None:
        await home(pilot)
        await press_until(pilot, "H", MockInterviewHistoryScreen)

    async def past_scorecard(pilot) -> None:
        await history(pilot)
        await press_until(pilot, "enter", MockInterviewScorecardScreen)

    return {
        "setup": setup,
        "grill-asked": grill_asked,
        "grill-revealed": grill_revealed,
        "grill-notes-typed": grill_notes,
        "pitch-speaking": pitch_speaking,
        "pitch-revealed": pitch_revealed,
        "estimate-asked": estimate_asked,
        "estimate-refused": estimate_refused,
        "coding-step": coding_step,
        "abandon-dialog": abandon_dialog,
        "scorecard": complete,
        "scorecard-time-up": time_up,
        "history": history,
        "history-empty": empty_history,
        "past-scorecard": past_scorecard,
    }


STAGES = list(stages(None))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("stage", STAGES)
def test_a_mock_interview(snap_compare, small_paths, clock, stopped_clock, size, stage) -> None:
    paths = use_content(small_paths, decks=("grill", "pitch"), problems=FAMILIES, drills=("dpo-loss",))
    assert snapshot(snap_compare, paths, clock, size, stages(stopped_clock)[stage])
