"""The TUI on PostgreSQL: a review by keyboard lands in the server's database, undo removes it;
a database that cannot be opened is said on the home screen."""

from __future__ import annotations

from datetime import date

import pytest
from helpers.pilot import wait_ready, wait_until
from sqlalchemy import text

from drill.tui.app import DrillApp
from drill.tui.screens.review import ReviewScreen


def reviews(app) -> list[tuple]:
    app.study.drain()
    with app.study.engine.connect() as connection:
        return [
            tuple(row)
            for row in connection.execute(text("SELECT item_id, button, counted, study_day FROM review ORDER BY id"))
        ]


@pytest.mark.slow
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


def _server_down(url: str, allow: bool) -> None:
    """Refuse (or allow again) connections to the test's database and drop the ones it has: the
    server is lost to drill mid-session, then back."""
    import psycopg

    name = url.split("@/")[1].split("?")[0]
    admin = url.replace(f"/{name}?", "/postgres?")
    with psycopg.connect(admin, autocommit=True) as connection:
        connection.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {'true' if allow else 'false'}")
        if not allow:
            connection.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,))


@pytest.mark.slow
async def test_a_server_lost_mid_session_is_said_and_the_session_goes_on_when_it_is_back(
    pg_url, small_paths, clock
) -> None:
    app = DrillApp(small_paths, clock=clock)
    async with app.run_test(size=(100, 30)) as pilot:
        await wait_ready(pilot)
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        first = screen.session.current.item_id
        await pilot.press("space", "3")
        app.study.settle()
        _server_down(pg_url, allow=False)
        lost = screen.session.current.item_id
        await pilot.press("space", "3")
        notices = lambda: [str(notice.message) for notice in app._notifications]  # noqa: E731
        await wait_until(pilot, lambda: any("Not saved" in text and lost in text for text in notices()), timeout=30)
        await wait_until(pilot, lambda: lost in list(screen.session.order)[:2])
        assert [grade.item_id for grade in screen.session.given] == [first]  # the lost grade is not acknowledged
        _server_down(pg_url, allow=True)
        while screen.session.current.item_id != lost:
            await pilot.press("space", "3")
        await pilot.press("space", "4")
        app.study.settle()  # the lost write's failure was said above; settle does not raise it again
        stored = reviews(app)
        assert (lost, 4, True, date(2026, 11, 22)) in stored and [row[0] for row in stored].count(lost) == 1
