"""The TUI on PostgreSQL: a review by keyboard lands in the server's database, undo removes it;
a database that cannot be opened is said on the home screen."""

from __future__ import annotations

from datetime import date

from sqlalchemy import text

from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen
from tui_helpers import wait_ready, wait_until


def reviews(app) -> list[tuple]:
    app.study.drain()
    with app.study.engine.connect() as connection:
        return [tuple(row) for row in connection.execute(text("SELECT item_id, button, counted, study_day FROM review ORDER BY id"))]


async def test_grades_given_in_the_tui_are_in_the_database(pg_url, small_paths, clock) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot)
        assert app.study.engine.dialect.name == "postgresql"
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        first = app.screen.session.current.item_id
        await pilot.press("space", "3")
        second = app.screen.session.current.item_id
        await pilot.press("space", "4")
        assert reviews(app) == [(first, 3, True, date(2026, 11, 22)), (second, 4, True, date(2026, 11, 22))]
        await pilot.press("u")
        await wait_until(pilot, lambda: len(reviews(app)) == 1)
        assert reviews(app) == [(first, 3, True, date(2026, 11, 22))]
    assert not small_paths.database.exists()


async def test_a_database_that_cannot_be_opened_is_said_on_the_home_screen(monkeypatch, small_paths, clock) -> None:
    monkeypatch.setenv("DRILL_DB_URL", "mysql://me:pw@db.example/drill")
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(120, 24)) as pilot:
        headline = app.home_screen.query_one("#headline")
        await wait_until(pilot, lambda: "Could not open" in str(headline.render()))
        assert "cannot open DRILL_DB_URL mysql://me:***@db.example/drill" in str(headline.render())
        assert app.study is None
