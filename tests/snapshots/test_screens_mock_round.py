"""Snapshots of a mock estimation round from setup to history: the round asked, an answer refused,
feedback after each answer, the abandon dialog, the summary (complete, abandoned, time up), the
round history and a past round opened from it, at 80×24 and 120×36."""

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
from textual.widgets import Checkbox, Select, Switch

from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.mock.round import MockRoundScreen
from drill.tui.screens.mock.round_history import MockHistoryScreen
from drill.tui.screens.mock.round_setup import MockSetupScreen
from drill.tui.screens.mock.round_summary import MockSummaryScreen, PastRoundScreen

pytestmark = pytest.mark.slow  # every snapshot renders the app: the inner loop leaves them to CI


async def setup(pilot) -> MockSetupScreen:
    await home(pilot, seed=5)
    return await press_until(pilot, "m", MockSetupScreen)


async def start(pilot, grade_at_end: bool = True) -> MockRoundScreen:
    screen = await setup(pilot)
    screen.query_one("#problems", Select).value = 5
    screen.query_one("#grade-at-end", Switch).value = grade_at_end
    return await press_until(pilot, "ctrl+s", MockRoundScreen)


async def answer(pilot, clock, screen: MockRoundScreen, count: int, seconds: float = 40) -> None:
    """Answer the next `count` problems, each after `seconds`; the second of the round wrongly."""
    for _ in range(count):
        problem = screen.problems[len(screen.attempts)]
        await run_clocks(pilot, clock, seconds)
        await pilot.press(*(wrong_answer(problem) if len(screen.attempts) == 1 else problem.pretty), "enter")


async def summary(pilot) -> None:
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockSummaryScreen))


def stages(clock):
    async def asked(pilot) -> None:
        await start(pilot)
        await run_clocks(pilot, clock, 95)

    async def refused(pilot) -> None:
        await start(pilot)
        await pilot.press("1", "+", "enter")

    async def third_problem(pilot) -> None:
        await answer(pilot, clock, await start(pilot), 2)

    async def feedback(pilot) -> None:
        await answer(pilot, clock, await start(pilot, grade_at_end=False), 1)

    async def abandon_dialog(pilot) -> None:
        await answer(pilot, clock, await start(pilot), 1)
        await press_until(pilot, "escape", Confirm)

    async def complete(pilot) -> None:
        await answer(pilot, clock, await start(pilot), 5)
        await summary(pilot)

    async def abandoned(pilot) -> None:
        await answer(pilot, clock, await start(pilot), 2)
        await press_until(pilot, "escape", Confirm)
        await pilot.press("y")
        await summary(pilot)

    async def time_up(pilot) -> None:
        screen = await start(pilot)
        await answer(pilot, clock, screen, 3, seconds=250)
        await pilot.press(*screen.problems[3].pretty)  # typed, not submitted: it counts when time is up
        await run_clocks(pilot, clock, 200)
        await summary(pilot)

    async def history(pilot) -> None:
        await complete(pilot)
        await press_until(pilot, "h", MockHistoryScreen)

    async def past_round(pilot) -> None:
        await history(pilot)
        await press_until(pilot, "enter", PastRoundScreen)

    async def empty_history(pilot) -> None:
        await home(pilot)
        await press_until(pilot, "h", MockHistoryScreen)

    async def setup_one_block_off(pilot) -> None:
        screen = await setup(pilot)
        screen.query_one("#block-compute", Checkbox).value = False

    return {
        "setup": setup,
        "setup-one-block-off": setup_one_block_off,
        "asked": asked,
        "answer-refused": refused,
        "third-problem": third_problem,
        "feedback-after-an-answer": feedback,
        "abandon-dialog": abandon_dialog,
        "summary": complete,
        "summary-abandoned": abandoned,
        "summary-time-up": time_up,
        "history": history,
        "history-round-opened": past_round,
        "history-empty": empty_history,
    }


STAGES = list(stages(None))


@pytest.mark.parametrize("size", SIZES, ids=SIZE_IDS)
@pytest.mark.parametrize("stage", STAGES)
def test_a_mock_round(snap_compare, small_paths, clock, stopped_clock, size, stage) -> None:
    paths = use_content(small_paths, problems=FAMILIES)
    assert snapshot(snap_compare, paths, clock, size, stages(stopped_clock)[stage])
