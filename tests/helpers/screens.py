"""The way to a screen under Pilot, for tests that drive the app by keys."""

from __future__ import annotations

import random

from textual.widgets import Select

from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.drills import DrillListScreen
from drill.tui.screens.mock.round_setup import MockSetupScreen
from drill.tui.screens.review import ReviewScreen
from helpers.pilot import wait_ready, wait_until


async def start_review(pilot) -> ReviewScreen:
    await wait_ready(pilot)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    return pilot.app.screen


async def open_review(pilot, seed: int = 3) -> ReviewScreen:
    """Today's review, with the estimation numbers drawn from a seeded rng."""
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(seed)
    await pilot.press("r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen))
    return pilot.app.screen


async def open_setup(pilot, problems: int) -> MockSetupScreen:
    """The mock round's setup, `problems` chosen, with the draw seeded."""
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(5)
    await pilot.press("m")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockSetupScreen))
    setup = pilot.app.screen
    setup.query_one("#problems", Select).value = problems
    return setup


async def open_stats(pilot) -> None:
    """The stats screen, its figures loaded."""
    from drill.tui.screens.stats import StatsScreen

    await wait_ready(pilot)
    await pilot.press("s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, StatsScreen) and pilot.app.screen.has_class("loaded"))


async def start_from_list(pilot, drill_id: str, then: type) -> object:
    """Home → k → start `drill_id`; wait for `then` (the attempt, or the question to resume one)."""
    await wait_ready(pilot)
    await pilot.press("k")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DrillListScreen))
    pilot.app.screen.start(drill_id)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, then))
    return pilot.app.screen


async def open_drill(pilot, drill_id: str) -> DrillScreen:
    return await start_from_list(pilot, drill_id, DrillScreen)
