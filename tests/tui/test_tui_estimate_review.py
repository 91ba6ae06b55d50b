"""Estimate items in the daily review: fresh numbers, a typed answer, quality from the score."""

import pytest
from helpers.content import estimates_only
from helpers.pilot import db_rows, wait_until
from helpers.screens import open_review
from textual.widgets import Input, Markdown

from drill.tui.app import DrillApp
from drill.tui.screens.summary import SummaryScreen


@pytest.mark.slow
async def test_estimate_card_graded_by_the_grader(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml", "pipeline-bubble.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        answers = []
        for good in (True, False):
            problem = screen.view.problem
            assert problem is not None and app.focused is screen.view.query_one("#estimate", Input)
            assert screen.view.query_one("#prompt", Markdown).source == problem.prompt
            typed = problem.pretty if good else "1 kB" if problem.unit == "byte" else "1e9"  # wrong, but gradable
            await pilot.press(*typed)
            await pilot.press("enter")
            report = screen.view.query_one("#answer", Markdown).source
            assert "Worked solution" in report and problem.pretty.split(" (")[0] in report
            answers.append((problem.family_id, typed))
            await pilot.press("space", "3")  # neither reveals nor grades: the grade came from the score
            assert screen.view.showing_result
            await pilot.press("enter")
        # the failed one (quality < 3) comes back with fresh numbers; answer it right this time
        assert screen.view.problem is not None and screen.view.problem.family_id == answers[1][0]
        await pilot.press(*screen.view.problem.pretty, "enter", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
    rows = db_rows(
        app,
        "SELECT r.quality, r.counted, a.score, a.answer FROM review r "
        "JOIN estimate_attempt a ON a.review_id = r.id ORDER BY r.id",
    )
    assert [(quality, counted, score) for quality, counted, score, _ in rows] == [(5, 1, 1.0), (0, 1, 0.0), (5, 0, 1.0)]
    assert [answer for *_, answer in rows][:2] == [typed for _, typed in answers]
    assert db_rows(app, "SELECT id, interval FROM item ORDER BY id") == [
        ("estimate:kv-cache", 1),
        ("estimate:pipeline-bubble", 1),
    ]


@pytest.mark.slow
async def test_the_result_says_what_it_counted_as_and_ctrl_z_undoes_typing_then_the_grade(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml", "pipeline-bubble.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        first = screen.session.current.item_id
        await pilot.press(*screen.view.problem.pretty, "enter")
        report = screen.view.query_one("#answer", Markdown).source
        assert report.startswith("Counted as **Easy**: next review in 1d.")
        await pilot.press("enter")
        entry = screen.view.query_one("#estimate", Input)
        assert app.focused is entry
        await pilot.press("u")  # in the answer box, u is a letter
        assert entry.value == "u" and len(screen.session.given) == 1

        def keys() -> dict[str, str]:
            active = screen.active_bindings.values()
            return {binding.key: binding.description for _, binding, enabled, _ in active if enabled}

        assert keys().get("ctrl+z") == "Undo typing" and "u" not in keys()
        await pilot.press("ctrl+z")  # in a box with text: the typing is undone, not the grade
        assert entry.value == "" and len(screen.session.given) == 1
        assert keys().get("ctrl+z") == "Undo"
        await pilot.press("ctrl+z")  # in the empty box: the last grade
        assert screen.session.given == [] and screen.session.current.item_id == first
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]


@pytest.mark.slow
async def test_the_status_counts_an_estimate_done_as_soon_as_it_is_graded(small_paths, clock) -> None:
    estimates_only(small_paths, "kv-cache.toml", "pipeline-bubble.toml")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        screen = await open_review(pilot)
        status = screen.query_one("#status")
        topic = screen.session.current.topic
        assert str(status.render()).startswith("0 done · 2 to go")
        await pilot.press(*screen.view.problem.pretty, "enter")
        assert screen.view.showing_result
        assert str(status.render()).startswith("1 done · 1 to go") and topic in str(status.render())
        await pilot.press("enter")
        assert str(status.render()).startswith("1 done · 1 to go") and topic not in str(status.render())
