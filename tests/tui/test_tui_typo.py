"""Typed answers are never lost to a typo: a mock round and an estimate card keep the problem and the
text, say what is wrong under the box, and grade and store nothing until the answer can be graded."""

import pytest
from helpers.content import estimates_only
from helpers.pilot import db_rows, wait_until
from helpers.screens import open_review, open_setup
from textual.widgets import Input, Markdown, ProgressBar, Static, Switch

from drill.tui.app import DrillApp
from drill.tui.screens.mock.round import MockRoundScreen
from drill.tui.screens.mock.round_summary import MockSummaryScreen


@pytest.fixture
def app(drill_home, clock):
    from drill.paths import Paths

    return DrillApp(Paths(drill_home), clock=clock)


async def start_round(pilot, problems: int = 5, grade_at_end: bool = True) -> MockRoundScreen:
    setup = await open_setup(pilot, problems)
    setup.query_one("#grade-at-end", Switch).value = grade_at_end
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockRoundScreen))
    return pilot.app.screen


async def retype(pilot, entry: Input, text: str) -> None:
    await pilot.press(*["backspace"] * len(entry.value), *text)


def round_state(screen: MockRoundScreen) -> tuple:
    """The prompt, 'problem i/n' (the clocks beside it tick), the progress bar and the attempts."""
    status = str(screen.query_one("#session-status").render()).split(" · ")[0]
    return (
        screen.view.query_one("#prompt", Markdown).source,
        status,
        screen.query_one("#round-progress", ProgressBar).progress,
        len(screen.attempts),
    )


@pytest.mark.slow
@pytest.mark.parametrize("grade_at_end", [True, False])
async def test_a_typo_in_a_mock_round_keeps_the_problem_and_the_text(app, grade_at_end) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_round(pilot, grade_at_end=grade_at_end)
        entry = screen.view.query_one("#estimate", Input)
        error = screen.view.query_one("#answer-error", Static)
        assert not error.display
        before = round_state(screen)
        assert "problem 1/5" in before[1] and before[2:] == (0, 0)
        await pilot.press("1", "+", "enter")
        assert round_state(screen) == before  # same prompt, progress unchanged, nothing graded
        assert error.display and str(error.render()) == "the expression is incomplete"
        assert entry.value == "1+" and app.focused is entry and entry.display
        assert not screen.view.query_one("#answer", Markdown).display
        assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]
        await pilot.press("enter")  # Enter again: still nothing
        assert round_state(screen) == before and db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]
        problem = screen.problems[0]
        await retype(pilot, entry, problem.pretty)
        await pilot.press("enter")
        assert not error.display
        assert screen.query_one("#round-progress", ProgressBar).progress == 1 and len(screen.attempts) == 1
        if grade_at_end:
            assert "problem 2/5" in str(screen.query_one("#session-status").render()) and entry.value == ""
        else:
            assert "Correct" in screen.view.query_one("#answer", Markdown).source
    assert db_rows(app, "SELECT item_id, answer, score, error FROM estimate_attempt") == [
        (f"estimate:{problem.family_id}", problem.pretty, 1.0, None)
    ]


@pytest.mark.slow
async def test_an_empty_answer_is_asked_for(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_round(pilot)
        await pilot.press("enter")
        assert str(screen.view.query_one("#answer-error", Static).render()) == "type an answer"
        assert len(screen.attempts) == 0
    assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]


@pytest.mark.slow
async def test_when_time_runs_out_a_gradable_answer_in_the_box_counts(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_round(pilot)
        problem = screen.problems[0]
        await pilot.press(*problem.pretty)  # typed, not yet submitted
        screen.started -= screen.settings.seconds
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        assert app.screen.summary.answered == 1 and not app.screen.abandoned
    assert db_rows(app, "SELECT answer, score FROM estimate_attempt") == [(problem.pretty, 1.0)]
    assert db_rows(app, "SELECT abandoned, finished_at IS NOT NULL FROM mock_round") == [(0, 1)]


@pytest.mark.slow
async def test_when_time_runs_out_a_typo_in_the_box_is_submitted_and_scores_zero(app) -> None:
    """Nothing typed is lost: at time-up the box is submitted as it stands; a typo cannot be
    fixed any more, so it scores zero with the parser's message (it is never read as another number)."""
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await start_round(pilot)
        await pilot.press(*screen.problems[0].pretty, "enter", "1", "+")
        screen.started -= screen.settings.seconds
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        assert app.screen.summary.answered == 2
    assert db_rows(app, "SELECT answer, score, error IS NOT NULL FROM estimate_attempt ORDER BY id")[1] == (
        "1+",
        0.0,
        1,
    )


@pytest.mark.slow
async def test_a_typo_on_an_estimate_card_keeps_the_card_and_the_text(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        problem = screen.view.problem
        entry = screen.view.query_one("#estimate", Input)
        error = screen.view.query_one("#answer-error", Static)
        assert problem is not None and problem.unit == "byte" and not error.display
        await pilot.press("1", "+", "enter")
        assert error.display and str(error.render()) == "the expression is incomplete"
        assert screen.view.problem is problem and screen.view.query_one("#prompt", Markdown).source == problem.prompt
        assert entry.value == "1+" and app.focused is entry and not screen.view.showing_result
        assert not screen.session.given and not screen.view.query_one("#answer", Markdown).display
        assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]
        assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]
        await retype(pilot, entry, "2.7")  # a bare number where the question asks for bytes
        await pilot.press("enter")
        assert str(error.render()) == "add a unit: the question asks for bytes (e.g. 2.7 GB)"
        assert entry.value == "2.7" and not screen.view.showing_result
        assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(0,)]
        await retype(pilot, entry, problem.pretty)
        await pilot.press("enter")
        assert screen.view.showing_result and not error.display
        assert "Correct" in screen.view.query_one("#answer", Markdown).source
    assert db_rows(
        app, "SELECT a.answer, a.score, r.quality FROM estimate_attempt a JOIN review r ON r.id = a.review_id"
    ) == [(problem.pretty, 1.0, 5)]
