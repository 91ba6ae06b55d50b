"""Pilot tests of whole mock rounds: set up, answer, summary, history, abandon."""

import re
from datetime import timedelta
from pathlib import Path

import pytest
from helpers.pilot import db_rows, wait_ready, wait_until
from helpers.screens import open_setup
from textual.widgets import Checkbox, Markdown, Select, Switch

from drill.estimate.rounds import RoundSettings
from drill.tui.app import DrillApp
from drill.tui.screens.mock.round import MockRoundScreen
from drill.tui.screens.mock.round_history import MockHistoryScreen
from drill.tui.screens.mock.round_setup import MockSetupScreen
from drill.tui.screens.mock.round_summary import MockSummaryScreen, PastRoundScreen
from drill.tui.widgets.pitch_timer import clock_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def app(drill_home, clock):
    from drill.paths import Paths

    return DrillApp(Paths(drill_home), clock=clock)


async def start_round(pilot) -> MockRoundScreen:
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, MockRoundScreen))
    return pilot.app.screen


@pytest.mark.slow
async def test_a_whole_round_graded_at_the_end(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        setup = await open_setup(pilot, 5)
        setup.query_one("#block-communication", Checkbox).value = False
        screen = await start_round(pilot)
        assert "problem 1/5" in str(screen.query_one("#session-status").render())
        assert all(problem.block != "communication" for problem in screen.problems)
        truths = []
        for index, problem in enumerate(screen.problems):
            answer = problem.pretty if index != 2 else "1 kB" if problem.unit != "1" else "1e9"
            truths.append(answer)
            if index == 4:
                break
            await pilot.press(*answer, "enter")
            assert not screen.view.query_one("#answer", Markdown).display  # graded at the end
        await pilot.press(*truths[-1], "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        summary = app.screen.summary
        assert summary.answered == 5 and summary.score == pytest.approx(0.8)
        assert [attempt.problem.family_id for attempt in summary.worst()] == [screen.problems[2].family_id]
        text = app.screen.text()
        assert "Round complete: score 80%" in text and "Worst slips" in text and "Worked solution" in text
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, MockHistoryScreen))
        assert app.screen.rounds[0].answered == 5
    assert db_rows(app, "SELECT problems, score, abandoned, finished_at IS NOT NULL FROM mock_round") == [
        (5, 0.8, 0, 1)
    ]
    assert db_rows(app, "SELECT COUNT(*), SUM(score) FROM estimate_attempt WHERE mock_round_id = 1") == [(5, 4.0)]
    assert db_rows(app, "SELECT COUNT(*) FROM review") == [(0,)]  # rounds are practice, not SM-2 reviews


def answer_rows(lines: list[str]) -> list[tuple[str, list[str]]]:
    """The answers table's rows as drawn: (the problem column's text, the row's lines)."""
    [head] = [n for n, line in enumerate(lines) if re.match(r"\s*#\s+problem\s", line)]
    start = lines[head].index("problem")
    end = re.search(r"your answer|answer / truth", lines[head]).start()
    rows: list[list[str]] = []
    for line in lines[head + 2 :]:
        if not line.strip():
            break
        if line[:start].strip():
            rows.append([])  # a row starts where its number is
        rows[-1].append(line)
    return [(" ".join(line[start:end].strip() for line in row).strip(), row) for row in rows]


@pytest.mark.slow
async def test_the_summary_names_problems_by_title_in_two_lines_and_keeps_each_value_whole_at_80_columns(app) -> None:
    async with app.run_test(size=(80, 24)) as pilot:
        setup = await open_setup(pilot, 10)
        for checkbox in setup.query(Checkbox):
            checkbox.value = checkbox.id == "block-memory"  # bytes: values like 328 KB (320 KiB)
        screen = await start_round(pilot)
        for problem in screen.problems:
            await pilot.press(*problem.pretty, "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        await pilot.pause()
        table = app.screen.query_one("#mock-summary-top")
        lines = ["".join(segment.text for segment in row).rstrip() for row in table.render_lines(table.size.region)]
        attempts = app.screen.summary.attempts
    assert any(" (" in attempt.result.truth_pretty for attempt in attempts)  # a value like 328 KB (320 KiB)
    assert max(len(attempt.problem.topic) for attempt in attempts) > 30  # a long name among them
    rows = answer_rows(lines)
    assert [name for name, _ in rows] == [attempt.problem.topic for attempt in attempts]  # titles, whole
    assert all(len(row) <= 2 for _, row in rows)  # none wraps past two lines
    for (_, row), attempt in zip(rows, attempts, strict=True):
        for value in (attempt.result.parsed_pretty, attempt.result.truth_pretty):
            assert any(value in line for line in row), value  # never wrapped


@pytest.mark.slow
async def test_immediate_grading_shows_each_worked_solution(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        setup = await open_setup(pilot, 5)
        setup.query_one("#grade-at-end", Switch).value = False
        screen = await start_round(pilot)
        await pilot.press(*screen.problems[0].pretty, "enter")
        feedback = screen.view.query_one("#answer", Markdown)
        assert feedback.display and "Correct" in feedback.source and "Worked solution" in feedback.source
        screen.shown_at -= 30  # the clock ticks on while the worked solution is read
        screen.tick()
        status = str(screen.query_one("#session-status").render())
        assert "problem 1/5" in status  # the header names the problem whose solution is shown
        assert f"this one {clock_text(screen.attempts[0].seconds)}" in status  # its time, stopped at the answer
        await pilot.press("enter")
        assert not feedback.display and "problem 2/5" in str(screen.query_one("#session-status").render())


@pytest.mark.slow
async def test_escape_asks_before_abandoning_and_keeps_answers(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await open_setup(pilot, 10)
        screen = await start_round(pilot)
        await pilot.press(*screen.problems[0].pretty, "enter")
        await pilot.press("escape", "n")
        assert app.screen is screen
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        assert app.screen.abandoned and app.screen.summary.score == pytest.approx(0.1)
    assert db_rows(app, "SELECT problems, abandoned FROM mock_round") == [(10, 1)]
    assert db_rows(app, "SELECT COUNT(*) FROM estimate_attempt") == [(1,)]


@pytest.mark.slow
async def test_the_round_ends_when_time_runs_out(app) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await open_setup(pilot, 5)
        await start_round(pilot)
        app.screen.started -= app.screen.settings.seconds  # the clock has run out
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        assert app.screen.summary.answered == 0 and not app.screen.abandoned


@pytest.mark.slow
async def test_time_running_out_submits_the_box_and_the_summary_shows_the_rounds_clock(app, clock) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await open_setup(pilot, 5)
        screen = await start_round(pilot)
        await pilot.press(*screen.problems[0].pretty, "enter")  # one answered (graded at the end)
        await pilot.press(*"2.7 gigs")  # being typed, and not gradable as it stands
        screen.started -= screen.settings.seconds  # the clock has run out
        clock.now += timedelta(seconds=screen.settings.seconds + 5)  # and the wall clock with it
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        summary = app.screen.summary
        assert [attempt.answer for attempt in summary.attempts] == [screen.problems[0].pretty, "2.7 gigs"]
        assert summary.attempts[1].score == 0.0
        assert summary.seconds == screen.settings.seconds  # the round ran its whole clock
        text = app.screen.text()
        assert "Time ran out: score" in text and "Round complete" not in text
        assert f"2 of 5 answered before the {screen.settings.minutes}:00 ran out" in text
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, MockHistoryScreen))
        first = app.screen.query_one("#history").get_row_at(0)
        assert first[1] == "2/5" and first[3] == f"{screen.settings.minutes}:00"
    assert db_rows(app, "SELECT answer, score FROM estimate_attempt ORDER BY id")[1] == ("2.7 gigs", 0.0)


@pytest.mark.slow
async def test_a_past_round_opens_from_the_history_with_its_answers_and_local_times(app, in_kolkata) -> None:
    async with app.run_test(size=(100, 40)) as pilot:
        await open_setup(pilot, 5)
        screen = await start_round(pilot)
        problems = screen.problems[:3]
        slip = f"1000*{problems[1].pretty}"  # off by a factor of 1000, in the right unit
        for answer in (problems[0].pretty, slip, problems[2].pretty):
            await pilot.press(*answer, "enter")
        await pilot.press("escape", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, MockSummaryScreen))
        live = app.screen.summary
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, MockHistoryScreen))
        history = app.screen
        row = history.query_one("#history").get_row_at(0)
        assert row[0] == "2026-11-22 20:30" and row[1] == "3/5" and row[-1] == "abandoned"  # 15:00 UTC, local
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, PastRoundScreen))
        past = app.screen.summary
        assert [a.problem.prompt for a in past.attempts] == [p.prompt for p in problems]
        assert [a.answer for a in past.attempts] == [a.answer for a in live.attempts]
        assert [a.score for a in past.attempts] == [a.score for a in live.attempts]
        text = app.screen.text()
        assert "Round abandoned" in text and "3 of 5 answered" in text and "Worked solution" in text
        for attempt in live.attempts:
            assert attempt.problem.topic in text and attempt.result.truth_pretty in text
            assert f"{attempt.score:.2f}" in text
        assert app.screen.title == "Mock round of 2026-11-22 20:30"
        own = {key for key, active in app.screen.active_bindings.items() if active.node is app.screen}
        assert {"escape", "h"} <= own and not {"enter", "m"} & own  # Back; not the fresh summary's Home, New round
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is history)


def test_a_stored_answer_whose_family_is_gone_shows_what_was_stored() -> None:
    from drill.estimate.rounds import stored_attempt

    row = {
        "item_id": "estimate:gone",
        "attempted_at": "2026-11-22T15:00:00+00:00",
        "params": {"n": 2},
        "answer": "3 GB",
        "parsed": 3e9,
        "truth": 2e9,
        "unit": "byte",
        "score": 0.5,
        "log_error": 0.18,
        "slip": None,
        "error": None,
        "seconds": 12.0,
    }
    attempt = stored_attempt(row, None)
    assert attempt.problem.family_id == "gone" and "no longer" in attempt.problem.prompt
    assert attempt.score == 0.5 and attempt.result.truth_pretty.startswith("2 GB") and attempt.seconds == 12.0


@pytest.mark.slow
async def test_the_setup_remembers_the_last_choices_across_restarts(drill_home, clock) -> None:
    from drill.config import Config, MockRound
    from drill.paths import Paths

    first = DrillApp(Paths(drill_home), clock=clock)
    async with first.run_test(size=(100, 40)) as pilot:
        setup = await open_setup(pilot, 20)
        setup.query_one("#minutes", Select).value = 5
        for block in ("compute", "training"):
            setup.query_one(f"#block-{block}", Checkbox).value = False
        setup.query_one("#grade-at-end", Switch).value = False
        await start_round(pilot)
    config = Config.load(drill_home / "config.toml")
    assert config.mock_round == MockRound(
        problems=20, minutes=5, blocks=("memory", "inference", "communication"), grade_at_end=False
    )
    again = DrillApp(Paths(drill_home), clock=clock)  # drill restarted
    async with again.run_test(size=(100, 40)) as pilot:
        setup = await open_setup(pilot, 20)
        assert setup.query_one("#minutes", Select).value == 5
        assert [box.id for box in setup.query(Checkbox) if box.value] == [
            "block-memory",
            "block-inference",
            "block-communication",
        ]
        assert setup.query_one("#grade-at-end", Switch).value is False
        assert setup.settings() == RoundSettings(
            problems=20, minutes=5, blocks=("memory", "inference", "communication"), grade_at_end=False
        )


@pytest.mark.slow
async def test_a_remembered_length_outside_the_choices_is_offered(drill_home, clock) -> None:
    from drill.paths import Paths

    drill_home.mkdir(parents=True, exist_ok=True)
    (drill_home / "config.toml").write_text("mock_round_problems = 7\nmock_round_minutes = 12\n")
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        await pilot.press("m")
        await wait_until(pilot, lambda: isinstance(app.screen, MockSetupScreen))
        assert app.screen.settings() == RoundSettings(problems=7, minutes=12)


@pytest.mark.parametrize(
    "line",
    [
        "mock_round_problems = 0",
        "mock_round_minutes = true",
        'mock_round_blocks = ["memory", "gpus"]',
        "mock_round_blocks = []",
        'mock_round_grade_at_end = "yes"',
    ],
)
def test_a_bad_remembered_round_setup_is_refused_with_its_key(tmp_path, line) -> None:
    from drill.config import Config, ConfigError

    path = tmp_path / "config.toml"
    path.write_text(line + "\n")
    with pytest.raises(ConfigError, match=line.split()[0]):
        Config.load(path)


@pytest.mark.parametrize(
    ("answered", "abandoned", "finished", "ended"),
    [(5, False, True, "done"), (3, False, True, "time"), (3, True, True, "abandoned"), (3, False, False, "unfinished")],
)
def test_how_a_stored_round_ended(answered, abandoned, finished, ended) -> None:
    from drill.estimate.rounds import ending

    assert ending(5, answered, abandoned, finished) == ended
