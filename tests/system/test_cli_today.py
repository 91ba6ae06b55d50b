"""`--today DATE` and DRILL_TODAY: every command studies on that day; a bad date is one line."""

from __future__ import annotations

import json
from datetime import date, timedelta

import pytest

from drill.cli import main
from drill.days import practise_on, study_day, utc_now


def stats_today(capsys, *argv: str) -> str:
    assert main([*argv, "stats", "--json"]) == 0
    return json.loads(capsys.readouterr().out)["today"]


def test_the_option_and_the_variable_set_the_study_day(capsys, monkeypatch) -> None:
    real = study_day(utc_now(), 4).isoformat()
    assert stats_today(capsys, "--today", "2027-03-01") == "2027-03-01"
    assert stats_today(capsys) == real  # only for that command
    monkeypatch.setenv("DRILL_TODAY", "2027-04-02")
    assert stats_today(capsys) == "2027-04-02"
    assert stats_today(capsys, "--today", "2027-05-03") == "2027-05-03"  # the option wins


def test_plan_judges_the_interview_date_against_the_practised_day(capsys) -> None:
    assert main(["--today", "2027-03-10", "plan", "--interview", "2027-03-05"]) == 2
    assert "after today (2027-03-10)" in capsys.readouterr().err
    assert main(["--today", "2027-03-01", "plan", "--interview", "2027-03-05"]) == 0
    assert "Interview 2027-03-05: 4 days left" in capsys.readouterr().out


@pytest.mark.parametrize("rollover_hour", [0, 4, 23])
def test_the_clock_moves_by_whole_days(rollover_hour: int) -> None:
    before = utc_now()
    practise_on(date(2030, 1, 15), rollover_hour)
    try:
        moved = utc_now()
        assert study_day(moved, rollover_hour) == date(2030, 1, 15)
        assert (moved - before) % timedelta(days=1) < timedelta(seconds=5)  # the time of day kept
    finally:
        practise_on(None, rollover_hour)
    assert utc_now() - before < timedelta(seconds=5)


def test_a_bad_option_is_one_argument_error(capsys) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--today", "2027-02-30", "stats"])
    assert exit_.value.code == 2
    error = capsys.readouterr().err.splitlines()[-1]
    assert error == "drill: error: argument --today: not a date like 2026-12-01: '2027-02-30'"


def test_a_bad_variable_is_one_line_and_nothing_runs(capsys, monkeypatch, drill_home) -> None:
    monkeypatch.setenv("DRILL_TODAY", "tomorrow")
    assert main(["stats"]) == 2
    captured = capsys.readouterr()
    assert captured.err == "drill: DRILL_TODAY: not a date like 2026-12-01: 'tomorrow'\n" and captured.out == ""
    assert not (drill_home / "drill.db").exists()
