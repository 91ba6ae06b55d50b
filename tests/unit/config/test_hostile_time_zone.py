"""A time zone a day or more from UTC (TZ='XYZ-25'), which Python's timezone cannot hold: drill
still has a "today" and every command runs."""

import os
import subprocess
import sys
import time
from datetime import UTC, date, datetime

import pytest
from helpers.clock import FIXED_NOW

from drill.days import study_day, to_local
from drill.store.stats.scope import day_start


@pytest.fixture(params=["XYZ-25", "XYZ+25"])
def hostile_tz(request, monkeypatch):
    monkeypatch.setenv("TZ", request.param)
    time.tzset()
    yield request.param
    monkeypatch.setenv("TZ", "UTC")
    time.tzset()


def test_the_offset_is_clamped_inside_a_day(hostile_tz) -> None:
    local = to_local(FIXED_NOW)
    ahead = hostile_tz == "XYZ-25"  # POSIX TZ: the sign is west of Greenwich
    assert local.utcoffset().total_seconds() == (86399 if ahead else -86399)
    assert local == FIXED_NOW
    assert study_day(FIXED_NOW, 4) == (date(2026, 11, 23) if ahead else date(2026, 11, 21))
    day = study_day(FIXED_NOW, 4)
    assert study_day(day_start(day, 4), 4) == day
    naive = datetime(2026, 11, 22, 12)  # noqa: DTZ001 - a naive local time, on purpose: to_local must take it
    assert to_local(naive).tzinfo is not None


def test_a_moment_out_of_the_platforms_range_is_taken_as_utc() -> None:
    assert to_local(datetime.max.replace(tzinfo=UTC)).utcoffset().total_seconds() == 0


@pytest.mark.slow
@pytest.mark.parametrize("tz", ["XYZ-25", "XYZ+25"])
def test_commands_run_in_such_a_time_zone(tz, drill_home) -> None:
    env = {**os.environ, "DRILL_HOME": str(drill_home), "TZ": tz}
    for command in (["queue"], ["stats"], ["backup"], ["backup", "--list"]):
        result = subprocess.run(
            [sys.executable, "-m", "drill", *command], capture_output=True, text=True, env=env, check=False
        )
        assert result.returncode == 0 and "Traceback" not in result.stderr, (command, result.stderr)
