"""Coding drills served by `r` count everywhere `drill queue` counts them: home's due count, the
stats' today and forecast (so its minutes left), the review's progress, its summary and Again rate.
Each is compared with `drill queue --json` on a home whose only due item is a coding drill."""

from __future__ import annotations

import json

import pytest
from helpers.due_drill import drill_due  # noqa: F401  (a fixture)
from helpers.pilot import wait_ready, wait_until
from textual.widgets import Static

from drill.cli import main
from drill.paths import Paths
from drill.study import Study
from drill.tui.app import DrillApp
from drill.tui.screens.drill_attempt import DrillScreen
from drill.tui.screens.review import ReviewScreen
from drill.tui.screens.summary import SummaryScreen


@pytest.fixture
def cli_on_the_test_clock(monkeypatch, clock) -> None:
    """`drill …` run in this process (and the app) opens the study on the test's clock."""
    opened = Study.open.__func__

    def on_the_clock(cls, paths=None, _clock=None, **options):
        return opened(cls, paths, clock, **options)

    monkeypatch.setattr(Study, "open", classmethod(on_the_clock))


def cli_json(capsys, *arguments: str) -> object:
    assert main([*arguments, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def text_of(screen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


@pytest.mark.slow
async def test_every_count_of_a_day_with_a_due_drill_is_drill_queues(
    drill_due, drill_home, clock, capsys, cli_on_the_test_clock
) -> None:
    queue = cli_json(capsys, "queue")
    assert [(row["id"], row["new"]) for row in queue] == [(drill_due, False)]
    stats = cli_json(capsys, "stats")
    today = stats["load"]["today"]
    assert (stats["due_today"], stats["load"]["forecast"][0]["due"], today["due"]) == (len(queue),) * 3
    assert today["due"] + today["brought_forward"] + today["new"] == len(queue)
    assert today["minutes_left"] == 10.0  # the one review so far took 600 s: 1 item left × 10 min
    app = DrillApp(Paths(drill_home), clock=clock)
    async with app.run_test(size=(100, 40)) as pilot:
        await wait_ready(pilot)
        assert "Today: 1 due, 0 new." in text_of(app.home_screen, "#headline")
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen) and app.screen.session.current is not None)
        review = app.screen
        assert text_of(review, "#status").startswith(f"0 done · {len(queue)} to go")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, DrillScreen))
        await pilot.press("g", "y")  # given up: the drill's review, Again
        await wait_until(pilot, lambda: app.screen.finished == "gave up")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is review)
        status = text_of(review, "#status")
        review.finish()
        await wait_until(pilot, lambda: isinstance(app.screen, SummaryScreen))
        summary = "\n".join(str(widget.render()) for widget in app.screen.query(Static))
    assert "Reviewed   1 item" in summary and "Again rate 100%" in summary
    still = cli_json(capsys, "queue")  # failed, it is due again today, as the session brings it back
    assert [row["id"] for row in still] == [drill_due] and status.startswith(f"1 done · {len(still)} to go")
