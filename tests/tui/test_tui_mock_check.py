"""Two mock interviews taken by keys on a prepared history: each keeps the score drill predicted as it
started, the scorecard says the prediction beside the score, and the stats screen's readiness says
how the predictions fared (the mock check)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from helpers.clock import FIXED_NOW
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Input, Select, Static

from drill.paths import Paths
from drill.study import Study
from drill.study.writes import write_grade
from drill.tui.app import DrillApp
from drill.tui.plain_text import plain_text
from drill.tui.screens.mock.interview import MockInterviewScreen
from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen
from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen
from drill.tui.screens.stats import StatsScreen


def prepared(drill_home, clock) -> None:
    """Three days of the queue's cards and pitches graded (every fourth Again)."""
    study = Study.open(Paths(drill_home), clock, random.Random(8))
    try:
        for day in range(3):
            clock.now = FIXED_NOW + timedelta(days=day)
            for n, card in enumerate(study.reviews.cards(study.reviews.queue())):
                if card.kind in ("card", "pitch"):
                    write_grade(study, study.reviews.grade(card, 1 if n % 4 == 3 else 3, 3000))
    finally:
        study.close()


async def take_interview(pilot, seed: int) -> MockInterviewScorecardScreen:
    """Two grill questions (Good, Easy) and an estimate answered right, by keys."""
    app = pilot.app
    app.study.rng = random.Random(seed)
    await pilot.press("M")
    await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewSetupScreen))
    for selector, value in (("#grill", 2), ("#pitch", 0), ("#estimates", 1)):
        app.screen.query_one(selector, Select).value = value
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScreen), timeout=30)
    steps = app.screen.plan.steps
    await pilot.press("space", "3", "space", "4")
    entry = app.screen.view.query_one("#estimate", Input)
    entry.value = steps[2].problem.pretty
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
    return app.screen


@pytest.mark.slow
async def test_two_interviews_keep_their_predictions_and_show_them_beside_the_scores(drill_home, clock) -> None:
    prepared(drill_home, clock)
    clock.now = FIXED_NOW + timedelta(days=3)
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot)
        cards = []
        for seed in (4, 5):
            scorecard = await take_interview(pilot, seed)
            card = scorecard.scorecard
            assert card.forecast is not None
            assert f"Predicted {card.forecast.said()} as it started, scored {card.score:.0%}" in scorecard.text()
            cards.append(card)
            await pilot.press("escape")
        stored = db_rows(app, "SELECT predicted_score, score FROM mock_interview ORDER BY id")
        assert stored == [(pytest.approx(card.forecast.score, abs=1e-4), pytest.approx(card.score)) for card in cards]
        await pilot.press("s")
        await wait_until(pilot, lambda: isinstance(app.screen, StatsScreen) and app.screen.report is not None)
        readiness = " ".join(plain_text(app.screen.query_one("#readiness", Static).content).split())
        latest = cards[-1]
        errors = sum(abs(predicted - score) for predicted, score in stored)
        assert (
            f"mock check: latest predicted {stored[-1][0]:.0%}, scored {latest.score:.0%} · 2 interviews: "
            f"off by {round(50 * errors)} points on average"
        ) in readiness
