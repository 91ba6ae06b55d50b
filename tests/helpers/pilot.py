"""Helpers for driving the app under Pilot."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable

from textual.pilot import Pilot


async def wait_until(pilot: Pilot, condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Let the app run until `condition()` holds (workers run in threads)."""
    waited = 0.0
    while not condition():
        if waited > timeout:
            raise AssertionError("the app never reached the expected state")
        await pilot.pause(0.02)
        waited += 0.02
    await pilot.pause()


async def wait_ready(pilot: Pilot) -> None:
    app = pilot.app
    await wait_until(pilot, lambda: app.study is not None and app.home_screen.has_class("ready"))


def db_rows(app, sql: str) -> list[tuple]:
    """Rows read through a fresh connection, after every pending write is committed."""
    app.study.drain()
    connection = sqlite3.connect(app.paths.database)
    try:
        return connection.execute(sql).fetchall()
    finally:
        connection.close()
