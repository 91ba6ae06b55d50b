"""Plotting loads only with the stats screen, and the figures over reviews read covering
indexes (SQL aggregates, never the review table row by row). tests/system/test_layering.py checks
that drill.stats never imports Textual."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import sys

import pytest
from helpers.stats_history import TODAY, make_history

from drill.store.stats.scope import Scope


def test_the_app_loads_plotting_only_with_the_stats_screen() -> None:
    code = (
        "import sys, drill.tui.app, drill.tui.screens.home\n"
        "print(','.join(m for m in ('plotext', 'textual_plotext', 'drill.stats.report') if m in sys.modules))\n"
        "import drill.tui.screens.stats\n"
        "print('textual_plotext' in sys.modules)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.split("\n")[:2] == ["", "True"]


def _plan(database, sql: str, scope: Scope, **extra) -> str:
    connection = sqlite3.connect(database)
    try:
        rows = connection.execute(f"EXPLAIN QUERY PLAN {sql}", {**scope.params(), **extra}).fetchall()
    finally:
        connection.close()
    return "\n".join(row[-1] for row in rows)


@pytest.mark.parametrize("block", [None, "memory"])
def test_reviews_per_day_read_the_day_counters_not_the_reviews(drill_home, tmp_path, clock, block) -> None:
    from drill.store.stats import activity
    from drill.store.stats.sql import item_block

    paths = make_history(drill_home, tmp_path, clock)
    scope = Scope(TODAY, 30, block)
    captured = {}

    class Spy:
        def execute(self, statement, params):
            captured["sql"] = str(statement)
            return self

        def all(self):
            return []

    activity.daily(Spy(), scope, TODAY)
    plan = _plan(paths.database, captured["sql"], scope, from_day=TODAY.isoformat())
    assert "review_day" in plan and not re.search(r"\breview\b", plan)
    assert item_block(scope, "review_day") in captured["sql"]


def test_the_stats_migration_adds_its_indexes(drill_home, tmp_path, clock) -> None:
    paths = make_history(drill_home, tmp_path, clock)
    connection = sqlite3.connect(paths.database)
    try:
        names = {row[0] for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'index'")}
    finally:
        connection.close()
    assert {
        "ix_review_stats_day",
        "ix_review_stats_item",
        "ix_estimate_stats",
        "ix_estimate_error",
        "ix_estimate_round",
    } <= names
