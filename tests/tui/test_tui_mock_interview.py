"""Pilot tests of whole mock interviews by keys: setup, grill, pitch, estimates, the scorecard, the
database read back; a bad estimate kept; the countdown; Escape; the optional coding drill."""

import random
import re

import pytest
from helpers.pilot import db_rows, wait_ready, wait_until
from textual.widgets import Input, Markdown, Select, Static, Switch

from drill.config import Config
from drill.paths import Paths
from drill.tui.app import DrillApp
from drill.tui.dialogs.confirm import Confirm
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.mock.interview import MockInterviewScreen
from drill.tui.screens.mock.interview_history import MockInterviewHistoryScreen
from drill.tui.screens.mock.interview_scorecard import MockInterviewScorecardScreen
from drill.tui.screens.mock.interview_setup import MockInterviewSetupScreen
from drill.tui.widgets.checklist import Checklist


@pytest.fixture
def app(drill_home, clock, monkeypatch):
    monkeypatch.delenv("EDITOR", raising=False)
    return DrillApp(Paths(drill_home), clock=clock)


async def start(
    pilot, grill: int = 2, pitch: int = 120, estimates: int = 2, coding: bool = False, minutes: int = 45, seed: int = 11
) -> MockInterviewScreen:
    await wait_ready(pilot)
    pilot.app.study.rng = random.Random(seed)
    await pilot.press("M")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewSetupScreen))
    setup = pilot.app.screen
    for selector, value in (("#minutes", minutes), ("#grill", grill), ("#pitch", pitch), ("#estimates", estimates)):
        setup.query_one(selector, Select).value = value
    setup.query_one("#coding", Switch).value = coding
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockInterviewScreen), timeout=30)
    return pilot.app.screen


def status(screen) -> str:
    return str(screen.query_one("#session-status", Static).render())


async def type_answer(pilot, text: str) -> None:
    entry = pilot.app.screen.view.query_one("#estimate", Input)
    entry.value = text
    await pilot.press("enter")


@pytest.mark.slow
async def test_a_whole_interview_by_keys_is_stored_as_reviews_and_answers(app, drill_home) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot)
        steps = screen.plan.steps
        assert [step.section for step in steps] == ["grill", "grill", "pitch", "estimate", "estimate"]
        # the 45-minute countdown has started (a loaded machine may already show 44:59)
        assert re.search(r"^Grill questions 1/2 · question 1 of 5 · (45:00|44:5\d) left", status(screen))
        await pilot.press("3")  # no grade before the reveal
        assert screen.index == 0
        await pilot.press("space")
        assert screen.view.query_one("#points", Checklist).display  # the checklist
        await pilot.press("3")
        await pilot.press("space", "4")
        assert "Pitch 1/1" in status(screen)
        await pilot.press("space")
        assert "Your time" in screen.view.query_one("#answer", Markdown).source
        await pilot.press("2")
        assert "Estimation 1/2" in status(screen)
        await type_answer(pilot, steps[3].problem.pretty)
        await type_answer(pilot, "1 kB" if steps[4].problem.unit != "1" else "1e9")  # a slip
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        card = app.screen.scorecard
        assert card.ended == "done" and len(card.answers) == 5
        assert [a.button for a in card.answers[:3]] == [3, 4, 2]
        assert card.section_scores()["estimate"] == pytest.approx((1.0 + card.answers[4].score) / 2)
        text = app.screen.text()
        assert "Mock interview complete" in text and "Worst estimation slips" in text and "Worked solution" in text
        await pilot.press("H")
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewHistoryScreen))
        assert app.screen.interviews[0].interview_id == card.interview_id
        await pilot.press("enter")  # the stored scorecard, read back
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        stored = app.screen.scorecard
        assert stored.answers == card.answers and stored.score == pytest.approx(card.score)
        assert steps[0].card.prompt[:20] in app.screen.text()  # questions named by their text
    assert db_rows(app, "SELECT ended, abandoned, finished_at IS NOT NULL, seconds_allowed FROM mock_interview") == [
        ("done", 0, 1, 2700)
    ]
    answers = db_rows(
        app,
        "SELECT position, section, item_id, button, review_id IS NOT NULL FROM mock_interview_answer ORDER BY position",
    )
    assert [(p, s, i) for p, s, i, _, _ in answers] == [(n, step.section, step.item_id) for n, step in enumerate(steps)]
    assert all(has_review for *_, has_review in answers)
    reviewed = db_rows(app, "SELECT item_id, button FROM review ORDER BY id")
    assert [item for item, _ in reviewed] == [step.item_id for step in steps]
    assert [button for _, button in reviewed][:3] == [3, 4, 2]
    # Passed items move on; the Hard pitch and the failed estimate stay due today (relearning).
    moved = db_rows(app, "SELECT COUNT(*) FROM item WHERE last_review_day = '2026-11-22' AND due_day > '2026-11-22'")
    failed = db_rows(app, "SELECT COUNT(*) FROM item WHERE last_review_day = '2026-11-22' AND due_day = '2026-11-22'")
    passed = sum(1 for _, button in reviewed if button >= 3)
    assert passed == 3 and moved == [(passed,)] and failed == [(5 - passed,)]
    assert InterviewSettingsRemembered(drill_home) == (45, 2, 120, 2, False)


def InterviewSettingsRemembered(drill_home) -> tuple:
    config = Config.load(drill_home / "config.toml")
    return (
        config.mock_interview.minutes,
        config.mock_interview.grill,
        config.mock_interview.pitch_seconds,
        config.mock_interview.estimates,
        config.mock_interview.coding,
    )


@pytest.mark.slow
async def test_an_unparsable_estimate_keeps_the_problem_and_stores_nothing(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=0, pitch=0, estimates=2)
        await type_answer(pilot, "about two gigs")
        check = screen.view.query_one("#answer-error", Static)
        assert check.display and str(check.render())
        # The wrong kind of quantity: a bare number where bytes or seconds are asked, bytes where a
        # plain number is (which family comes first depends on the shipped content).
        dimensionless = screen.plan.steps[0].problem.unit == "1"
        await type_answer(pilot, "2.7 GB" if dimensionless else "2.7")
        assert ("plain number" if dimensionless else "add a unit") in str(check.render())
        assert screen.index == 0 and screen.answers == []
        assert "Estimation 1/2" in status(screen)
        assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
        assert db_rows(app, "SELECT COUNT(*) FROM mock_interview_answer") == [(0,)]
        assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]
        await type_answer(pilot, screen.plan.steps[0].problem.pretty)
        assert screen.index == 1 and not screen.view.query_one("#answer-error", Static).display
    assert db_rows(app, "SELECT section, score FROM mock_interview_answer") == [("estimate", 1.0)]


@pytest.mark.slow
async def test_the_countdown_running_out_submits_what_parses_and_ends(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=1, pitch=0, estimates=2, minutes=15)
        await pilot.press("space", "4")
        screen.view.query_one("#estimate", Input).value = screen.plan.steps[1].problem.pretty  # typed, not sent
        screen.started -= screen.plan.settings.seconds  # the countdown has run out
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        card = app.screen.scorecard
        assert card.ended == "time" and [a.section for a in card.answers] == ["grill", "estimate"]
        assert card.section("estimate").answered == 1 and card.section("estimate").planned == 2
        assert "time ran out" in app.screen.text()
    assert db_rows(app, "SELECT ended, abandoned, seconds_used FROM mock_interview") == [("time", 0, 900.0)]
    assert db_rows(app, "SELECT section FROM mock_interview_answer ORDER BY position") == [("grill",), ("estimate",)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(2,)]


@pytest.mark.slow
async def test_the_countdown_running_out_with_an_unparsable_answer_stores_no_answer(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=0, pitch=0, estimates=1, minutes=15)
        screen.view.query_one("#estimate", Input).value = "lots"
        screen.started -= screen.plan.settings.seconds
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        assert app.screen.scorecard.answers == () and app.screen.scorecard.score == 0.0
    assert db_rows(app, "SELECT ended FROM mock_interview") == [("time",)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]


@pytest.mark.slow
async def test_escape_asks_then_abandons_keeping_the_answers(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=2, pitch=0, estimates=1)
        await pilot.press("space", "3")
        await pilot.press("escape")
        assert isinstance(app.screen, Confirm)
        await pilot.press("n")
        await wait_until(pilot, lambda: app.screen is screen)
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        card = app.screen.scorecard
        assert card.abandoned and len(card.answers) == 1
        assert "abandoned" in app.screen.text()
    assert db_rows(app, "SELECT ended, abandoned, finished_at IS NOT NULL FROM mock_interview") == [("abandoned", 1, 1)]
    assert db_rows(app, "SELECT section, button FROM mock_interview_answer") == [("grill", 3)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(1,)]


@pytest.mark.slow
async def test_the_optional_coding_drill_opens_and_its_result_comes_back(app, monkeypatch) -> None:
    import drill.coding.progress

    looked_up = []  # an interview's drill starts fresh on its clock: no kept attempt is offered
    monkeypatch.setattr(drill.coding.progress, "last_unfinished", lambda *args: looked_up.append(args))
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=0, pitch=0, estimates=0, coding=True)
        step = screen.plan.steps[0]
        assert step.section == "coding" and "Coding 1/1" in status(screen)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen), timeout=30)
        await pilot.press("g", "y", "escape")  # give up (asked, its review), then back to the interview
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        [answer] = app.screen.scorecard.answers
        assert answer.section == "coding" and answer.result == "gave up" and answer.score == 0.0
        assert "gave up" in app.screen.text()
    assert db_rows(app, "SELECT section, result, item_id FROM mock_interview_answer") == [
        ("coding", "gave up", step.item_id)
    ]
    assert db_rows(app, "SELECT item_id FROM review") == [(step.item_id,)]
    assert looked_up == []


async def test_drill_mock_opens_on_the_setup_which_refuses_an_empty_interview(drill_home, clock) -> None:
    app = DrillApp(Paths(drill_home), clock=clock, start_interview=True)  # what `drill mock` runs
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewSetupScreen))
        setup = app.screen
        assert "45 minutes: 3 grill questions (aloud), a 2-minute pitch, 3 estimation problems." in str(
            setup.query_one("#interview-describe", Static).render()
        )
        for selector in ("#grill", "#pitch", "#estimates"):
            setup.query_one(selector, Select).value = 0
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is setup
        assert any("at least one section" in str(n.message) for n in app._notifications)
    assert db_rows(app, "SELECT COUNT(*) FROM mock_interview") == [(0,)]


@pytest.mark.slow
async def test_the_checklist_is_ticked_by_keys_and_the_ticks_are_stored_with_the_review(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start(pilot, grill=1, pitch=0, estimates=0)
        card = screen.plan.steps[0].card
        assert len(card.points) >= 2
        await pilot.press("t", *"paged KV", "tab")  # notes typed, then the reveal
        await pilot.press("space")
        checklist = screen.view.query_one("#points", Checklist)
        assert checklist.display and checklist.points == list(card.points)
        assert not checklist.has_focus  # the revealed answer has the keyboard first
        await pilot.press("tab")
        assert checklist.has_focus
        await pilot.press("space", "down", "enter")  # space or Enter ticks the highlighted point
        assert checklist.ticked == {0, 1}
        assert str(checklist.get_option_at_index(1).prompt).startswith("[x] ")
        suggestion = str(screen.view.query_one("#suggestion", Static).render())
        assert suggestion.startswith(f"2 of {len(card.points)} ticked: suggests")
        await pilot.press("3")
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
    assert db_rows(app, "SELECT item_id, button, ticked, typed_answer FROM review") == [
        (card.item_id, 3, "[0, 1]", "paged KV")
    ]


@pytest.mark.slow
async def test_the_scorecard_shows_whole_questions_and_the_history_local_times(app, in_kolkata) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await start(pilot, grill=2, pitch=0, estimates=1, seed=4)  # questions of 66 and 52 characters
        steps = screen.plan.steps
        await pilot.press("space", "3", "space", "3")
        await type_answer(pilot, steps[2].problem.pretty)
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        text = app.screen.text()
        words = " ".join(text.split())
        questions = [" ".join(step.card.prompt.split()) for step in steps[:2]]
        assert max(len(question) for question in questions) > 46
        assert all(question in words for question in questions)  # whole, wrapped rather than cut
        assert "…" not in text
        assert steps[2].card.topic in text  # the estimate by its family's title
        await pilot.press("H")
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewHistoryScreen))
        table = app.screen.query_one("#interview-history")
        assert table.get_row_at(0)[0] == "2026-11-22 20:30"  # 15:00 UTC, shown local
        assert str(next(iter(table.columns.values())).label) == "started"
        await pilot.press("enter")  # the stored scorecard says when it started, locally too
        await wait_until(pilot, lambda: isinstance(app.screen, MockInterviewScorecardScreen))
        text = app.screen.text()
        assert "started 2026-11-22 20:30" in text and "UTC" not in text
        assert all(question in " ".join(text.split()) for question in questions)
