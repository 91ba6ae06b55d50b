"""Snapshots of every kind of review card before and after the reveal, the session summary, the
mock round from setup to history, help and the dialogs, at 80×24 and at 120×36. Test content and
seeded numbers only, and every clock on screen frozen, so a snapshot changes only with the screen."""

import random

import pytest
from textual.widgets import Input, TextArea

import drill.tui.review.card_view
import drill.tui.review.estimate_card
import drill.tui.review.flash_card
import drill.tui.screens.drill_attempt
import drill.tui.screens.mock_round
import drill.tui.widgets.pitch_timer
from drill.tui.app import DrillApp
from drill.tui.screens.mock_history import MockHistoryScreen
from drill.tui.screens.mock_round import MockRoundScreen
from drill.tui.screens.mock_setup import MockSetupScreen
from drill.tui.screens.mock_summary import MockSummaryScreen
from drill.tui.screens.review import ReviewScreen
from drill.tui.screens.summary import SummaryScreen
from test_tui_estimate_review import add_problems, estimates_only, open_review
from test_tui_pitch import pitch_only
from tui_helpers import wait_ready, wait_until

SIZES = [(80, 24), (120, 36)]


class FrozenTime:
    """time.monotonic() standing still, for the clocks a screen shows."""

    @staticmethod
    def monotonic() -> float:
        return 1000.0


@pytest.fixture(autouse=True)
def frozen_clocks(monkeypatch) -> None:
    for module in (drill.tui.widgets.pitch_timer, drill.tui.screens.mock_round, drill.tui.screens.drill_attempt,
                   drill.tui.review.card_view, drill.tui.review.flash_card, drill.tui.review.estimate_card):
        monkeypatch.setattr(module, "time", FrozenTime)


def blink_off(screen) -> None:
    for box in screen.query(Input):
        box.cursor_blink = False
    for box in screen.query(TextArea):
        box.cursor_blink = False


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [(), ("space",), ("space", "tab", "space")], ids=["prompt", "revealed", "ticked"])
def test_a_flash_card(snap_compare, small_paths, clock, size, keys) -> None:
    async def run_before(pilot) -> None:
        await open_review(pilot)
        await pilot.press(*keys)
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [(), ("t", *"FSDP"), ("space",)], ids=["speaking", "typing", "revealed"])
def test_a_pitch(snap_compare, small_paths, clock, size, keys) -> None:
    pitch_only(small_paths)

    async def run_before(pilot) -> None:
        screen = await open_review(pilot)
        await pilot.press(*keys)
        blink_off(screen)
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("answer", ["", "1+", "right"], ids=["asked", "typo", "graded"])
def test_an_estimate_card(snap_compare, small_paths, clock, size, answer) -> None:
    estimates_only(small_paths, "kv-cache.toml")

    async def run_before(pilot) -> None:
        screen = await open_review(pilot)
        blink_off(screen)
        if answer:
            await pilot.press(*(screen.view.problem.pretty if answer == "right" else answer), "enter")
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
def test_the_session_summary(snap_compare, small_paths, clock, size) -> None:
    async def run_before(pilot) -> None:
        screen = await open_review(pilot)
        while isinstance(pilot.app.screen, ReviewScreen):
            await pilot.press("space", "1" if len(screen.session.given) == 0 else "3")
        await wait_until(pilot, lambda: isinstance(pilot.app.screen, SummaryScreen))
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


async def mock_round(pilot) -> MockRoundScreen:
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(5)
    await pilot.press("m")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockSetupScreen))
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockRoundScreen))
    blink_off(pilot.app.screen)
    return pilot.app.screen


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("stage", ["setup", "round", "abandon", "summary", "history"])
def test_a_mock_round(snap_compare, small_paths, clock, size, stage) -> None:
    add_problems(small_paths, "kv-cache.toml", "pipeline-bubble.toml")

    async def run_before(pilot) -> None:
        if stage == "setup":
            await wait_ready(pilot)
            await pilot.press("m")
            await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockSetupScreen))
        else:
            screen = await mock_round(pilot)
            if stage == "abandon":
                await pilot.press("escape")
            elif stage in ("summary", "history"):
                for problem in screen.problems:
                    await pilot.press(*problem.pretty, "enter")
                await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockSummaryScreen))
                if stage == "history":
                    await pilot.press("h")
                    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockHistoryScreen))
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [("f1",), ("i",)], ids=["help", "interview-date"])
def test_help_and_the_date_dialog(snap_compare, small_paths, clock, size, keys) -> None:
    async def run_before(pilot) -> None:
        await wait_ready(pilot)
        await pilot.press(*keys)
        await pilot.pause()
        blink_off(pilot.app.screen)
        await pilot.pause()

    assert snap_compare(DrillApp(small_paths, clock=clock), terminal_size=size, run_before=run_before)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("keys", [(), ("h", "h")], ids=["opened", "two-hints"])
def test_a_coding_drill(snap_compare, drill_home, clock, size, keys, monkeypatch) -> None:
    from drill.paths import Paths
    from test_tui_drills import open_drill

    monkeypatch.delenv("EDITOR", raising=False)

    async def run_before(pilot) -> None:
        screen = await open_drill(pilot, "quantize-per-channel")
        # the workspace lives under this test's temporary DRILL_HOME: show a fixed path instead
        screen.query_one("#drill-file").update("Your file: [b]~/.local/share/drill/workspaces/quantize-per-channel/solution.py[/b]")
        await pilot.press(*keys)
        await pilot.pause()

    assert snap_compare(DrillApp(Paths(drill_home), clock=clock), terminal_size=size, run_before=run_before)
